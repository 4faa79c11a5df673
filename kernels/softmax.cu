// Row-wise softmax of an M x N matrix, row-major: y[r][c] = exp(x[r][c] - max_r) / sum_r.
//   softmax_warp: one warp per row, block (128) = 4 rows: lane l walks x[r][l], x[r][l+32], ...
//                 three times (the row's maximum, the sum of exponentials, the output), each pass
//                 closed by a __shfl_xor_sync butterfly, so every lane holds the row's figure.
//                 The second and third passes re-read the row: from L1 when it fits there.
//                 Launch: block (128), grid (ceil(M/4)).
// Any M, N >= 1: a warp past M returns whole, so every shuffle runs with all 32 lanes.
#define WARPSIZE 32

extern "C" __global__ void softmax_warp(int M, int N, const float *x, float *y) {
  const int lane = threadIdx.x % WARPSIZE;
  const int row = blockIdx.x * (blockDim.x / WARPSIZE) + threadIdx.x / WARPSIZE;
  if (row >= M) return;
  const float *xr = x + (long long)row * N;
  float *yr = y + (long long)row * N;

  float m = -INFINITY;
  for (int c = lane; c < N; c += WARPSIZE) m = fmaxf(m, xr[c]);
  for (int o = WARPSIZE / 2; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));

  float s = 0.0f;
  for (int c = lane; c < N; c += WARPSIZE) s += __expf(xr[c] - m);
  for (int o = WARPSIZE / 2; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);

  const float inv = 1.0f / s;
  for (int c = lane; c < N; c += WARPSIZE) yr[c] = __expf(xr[c] - m) * inv;
}
