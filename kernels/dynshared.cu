// Dynamic shared memory (`extern __shared__`, sized by the launch's third <<<...>>> argument),
// written for blind batch 10: warpsim takes its size as --dynamic-shared (the catalog's
// `dynamic_shared`), checks every shared access against the block's window, and the cache model
// places blocks by it.
//   reverse_dyn:   each block reverses a chunk of `chunk` floats through a shared buffer of as
//                  many (64 KiB at chunk = 16384: past 48 KiB, an opt-in), 64-bit chunk bases
//   row_sum_dyn:   a block a row: strided partial sums, then a tree in a shared buffer of one
//                  float a thread
//   transpose_dyn: a 32 x 32 tile through a shared tile of rows 32 + pad floats wide, pad a
//                  parameter: the transposed read's bank conflicts are decided at launch
//                  (32-way at pad 0, none at 1, 2-way at 2)
// Launch: reverse_dyn block (256), grid (cdiv(n,chunk)), 4*chunk bytes; row_sum_dyn block (256),
// grid (M), 1024 bytes; transpose_dyn block (32x8), grid (cdiv(N,32), cdiv(M,32)), 4*32*(32+pad)
// bytes. Any sizes >= 1.
#include <cstddef>

extern "C" __global__ void reverse_dyn(int n, int chunk, const float *in, float *out) {
  extern __shared__ float buf[];
  const long long base = (long long)blockIdx.x * chunk;
  for (int t = threadIdx.x; t < chunk; t += blockDim.x) buf[t] = base + t < n ? in[base + t] : 0.0f;
  __syncthreads();
  for (int t = threadIdx.x; t < chunk; t += blockDim.x)
    if (base + t < n) out[base + t] = buf[chunk - 1 - t];
}

extern "C" __global__ void row_sum_dyn(int M, int N, const float *a, float *s) {
  extern __shared__ float part[];
  const int row = blockIdx.x;
  float t = 0.0f;
  for (int j = threadIdx.x; j < N; j += blockDim.x) t += a[(size_t)row * N + j];
  part[threadIdx.x] = t;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h) part[threadIdx.x] += part[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) s[row] = part[0];
}

extern "C" __global__ void transpose_dyn(int M, int N, int pad, const float *in, float *out) {
  extern __shared__ float tile[];  // 32 rows of 32 + pad floats: tile[r][c] = in[y0 + r][x0 + c]
  const int w = 32 + pad;
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (y + j < M && x < N) tile[(threadIdx.y + j) * w + threadIdx.x] = in[(size_t)(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (y + j < N && x < M) out[(size_t)(y + j) * M + x] = tile[threadIdx.x * w + threadIdx.y + j];
}
