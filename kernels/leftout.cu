// Traffic the cache model leaves out and bounds, written for blind batch 26 (stop 32): its L2 and
// DRAM read figures are ranges there, claimed before this ran to hold what ncu measures.
//   local_hist:  int h[32] per thread in local memory, counted at an index read from `keys` (one
//                per lane), then written out whole: local loads and stores at an index per lane
//   ring:        float r[32] per thread, a ring written at step t + i and read back 5 steps later,
//                over `steps` steps: local traffic whose reloads come soon after their stores
//   every_third: y[3 i] = 2 x[i]: a store fills a third of the sectors' bytes it touches, which the
//                L2 reads back from DRAM before it writes them back
// Launch: block (256), grid (cdiv(n,256)). Any n >= 1.
#include <cstddef>

extern "C" __global__ void local_hist(int n, int rounds, const int *keys, int *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int h[32];
  for (int b = 0; b < 32; ++b) h[b] = 0;
  for (int r = 0; r < rounds; ++r) h[(keys[i] + 3 * r) & 31] += r + 1;
  for (int b = 0; b < 32; ++b) out[(size_t)b * n + i] = h[b];
}

extern "C" __global__ void ring(int n, int steps, const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float r[32];
  for (int t = 0; t < 32; ++t) r[t] = 0.0f;
  float s = 0.0f;
#pragma unroll 1
  for (int t = 0; t < steps; ++t) {
    r[(t + i) & 31] = in[(size_t)(t & 15) * n + i] + s;
    s += r[(t + i + 27) & 31];
  }
  out[i] = s;
}

extern "C" __global__ void every_third(int n, const float *x, float *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[3 * (size_t)i] = 2.0f * x[i];
}
