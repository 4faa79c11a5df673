// Sorting, scanning and reducing idioms, written for blind batch 14: the first kernels of the
// catalog whose addresses come from an exclusive or, whose shared memory is read at a distance
// that doubles each step, whose warps reduce by shuffles into one float atomic, and whose shared
// tile holds 8-byte elements.
//   bitonic_step:  one compare-exchange step of a bitonic sort: a[i] with a[i ^ j] (a partner
//                  j away, above or below as bit j of i says), the pair ordered up or down as
//                  bit k of i says; both elements written back whatever they hold
//   block_scan:    inclusive prefix sum of each block's 256 elements (Hillis-Steele, two shared
//                  buffers: step d reads the element d back)
//   dot_atomic:    sum of x[i] * y[i]: each warp's 32 products summed by shuffles, lane 0 adds
//                  the warp's sum to *sum (a float atomic whose result is not used: RED)
//   transpose_f64: out = in^T for doubles through a 32 x 33 shared tile (blocks of 32 x 8)
// Launch: bitonic_step, block_scan, dot_atomic: block (256), grid (cdiv(n,256)); transpose_f64:
// block (32, 8), grid (cdiv(N,32), cdiv(M,32)). Any sizes >= 1; bitonic_step wants j < k, both
// powers of two.
#include <cstddef>

extern "C" __global__ void bitonic_step(int n, int j, int k, float *a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int ixj = i ^ j;
  if (i >= n || ixj <= i || ixj >= n) return;
  const float x = a[i], y = a[ixj];
  const bool up = (i & k) == 0;
  const float lo = fminf(x, y), hi = fmaxf(x, y);
  a[i] = up ? lo : hi;
  a[ixj] = up ? hi : lo;
}

extern "C" __global__ void block_scan(int n, const float *in, float *out) {
  __shared__ float buf[2][256];
  const int t = threadIdx.x;
  const int i = blockIdx.x * 256 + t;
  int cur = 0;
  buf[0][t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int d = 1; d < 256; d *= 2) {
    const float v = buf[cur][t] + (t >= d ? buf[cur][t - d] : 0.0f);
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][t];
}

extern "C" __global__ void dot_atomic(int n, const float *x, const float *y, float *sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float p = i < n ? x[i] * y[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2) p += __shfl_down_sync(0xffffffffu, p, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, p);
}

extern "C" __global__ void transpose_f64(int M, int N, const double *in, double *out) {
  __shared__ double tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x;
  const int y0 = blockIdx.y * 32;
  for (int r = threadIdx.y; r < 32; r += 8)
    if (y0 + r < M && x < N) tile[r][threadIdx.x] = in[(size_t)(y0 + r) * N + x];
  __syncthreads();
  const int ox = y0 + threadIdx.x;
  for (int r = threadIdx.y; r < 32; r += 8) {
    const int oy = blockIdx.x * 32 + r;
    if (oy < N && ox < M) out[(size_t)oy * M + ox] = tile[threadIdx.x][r];
  }
}
