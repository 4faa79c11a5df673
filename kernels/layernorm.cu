// Layer normalisation of the rows of an M x N matrix: y = (x - mean) / sqrt(var + eps) * g + b.
//   layernorm_warp: one warp a row, block (128) = 4 rows: two passes over the row (the sums of x
//                   and x^2, closed by __shfl_xor_sync), then the output, with rsqrtf; g and b are
//                   read by every row (from L1 or L2).   Launch: block (128), grid (ceil(M/4)).
// Any M, N >= 1.
#define WARPSIZE 32

extern "C" __global__ void layernorm_warp(int M, int N, float eps, const float *x, const float *g,
                                          const float *b, float *y) {
  const int lane = threadIdx.x % WARPSIZE;
  const int row = blockIdx.x * (blockDim.x / WARPSIZE) + threadIdx.x / WARPSIZE;
  if (row >= M) return;
  const float *xr = x + (long long)row * N;
  float s = 0.0f, q = 0.0f;
  for (int c = lane; c < N; c += WARPSIZE) {
    const float v = xr[c];
    s += v;
    q += v * v;
  }
  for (int o = WARPSIZE / 2; o > 0; o /= 2) {
    s += __shfl_xor_sync(0xffffffff, s, o);
    q += __shfl_xor_sync(0xffffffff, q, o);
  }
  const float mean = s / N;
  const float inv = rsqrtf(q / N - mean * mean + eps);
  for (int c = lane; c < N; c += WARPSIZE) {
    y[(long long)row * N + c] = (xr[c] - mean) * inv * g[c] + b[c];
  }
}
