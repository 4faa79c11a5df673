// Everyday idioms of user kernels, in the 64-bit index arithmetic real code writes: written for
// the sixth blind batch, predicted before they ran on a GPU.
//   stencil2d:     five-point stencil on an H x W grid, the index a 64-bit y * W + x, its
//                  neighbours i - W and i + W (a carry between 32-bit halves that only the first
//                  row's exiting threads lack). Launch: block (32, 8), grid (ceil(W/32), ceil(H/8)).
//   saxpy_gs:      y = a x + y over a size_t n, a grid-stride loop with size_t indices.
//                  Launch: block (256), any grid (here 528: four blocks per SM).
//   transpose_pad: out = in^T through a 32 x 33 shared tile (padded: no bank conflicts), rows
//                  addressed with size_t. Launch: block (32, 8), grid (ceil(N/32), ceil(M/32)).
//   batched_gemv:  y_b = A_b x_b for B matrices M x N, a thread per row, batch strides in int64.
//                  Launch: block (128), grid (ceil(M/128), B).
//   bias_add:      y = x + b broadcast over the rows of an M x N matrix, b[i % N] of a flat i (an
//                  integer division by a parameter). Launch: block (256), grid (ceil(M*N/256)).
// Any sizes >= 1.
#include <cstddef>
#include <cstdint>

extern "C" __global__ void stencil2d(int W, int H, const float *in, float *out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) return;
  const int64_t i = (int64_t)y * W + x;
  out[i] = 0.25f * (in[i - W] + in[i + W] + in[i - 1] + in[i + 1]);
}

extern "C" __global__ void saxpy_gs(size_t n, float a, const float *x, float *y) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void transpose_pad(int M, int N, const float *in, float *out) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < N && y + j < M) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < M && y + j < N) out[(size_t)(y + j) * M + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void batched_gemv(int B, int M, int N, const float *A, const float *x, float *y) {
  const int b = blockIdx.y, r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  const float *Ab = A + (int64_t)b * M * N;
  float acc = 0.f;
  for (int j = 0; j < N; ++j) acc += Ab[(int64_t)r * N + j] * x[(int64_t)b * N + j];
  y[(int64_t)b * M + r] = acc;
}

extern "C" __global__ void bias_add(int M, int N, const float *x, const float *b, float *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M * N) y[i] = x[i] + b[i % N];
}
