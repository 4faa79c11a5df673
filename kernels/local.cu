// Local memory and atomics whose result is used, written for blind batch 11: the first kernels
// of the catalog whose machine code spills to local memory (a per-thread array the compiler
// cannot keep in registers: LDL/STL, interleaved across a warp's lanes by the hardware) or takes
// an atomic's old value (ATOMG, not RED).
//   scatter_local: v[32] per thread, written at (7 t + i) mod 32 (an index per lane), read at
//                  k mod 32 (one for the warp) and (i + k) mod 32 (one per lane)
//   stack_sum:     v[24] per thread filled in a loop and summed back in another order (a loop
//                  index into local memory, the same for every lane)
//   ticket:        out[i] = atomicAdd(&counters[i mod 64], 1): 64 counters, an old value each
// Launch: block (256), grid (cdiv(n,256)). Any n >= 1.
#include <cstddef>

extern "C" __global__ void scatter_local(int n, int k, const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v[32];
  for (int t = 0; t < 32; ++t) v[t] = 0.0f;
  for (int t = 0; t < 32; ++t) v[(t * 7 + i) & 31] += in[(size_t)t * n + i];
  out[i] = v[k & 31] + v[(i + k) & 31];
}

extern "C" __global__ void stack_sum(int n, const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v[24];
#pragma unroll 1
  for (int t = 0; t < 24; ++t) v[t] = in[(size_t)t * n + i];
  float s = 0.0f;
#pragma unroll 1
  for (int t = 0; t < 24; ++t) s += v[(t * 5) % 24];
  out[i] = s;
}

extern "C" __global__ void ticket(int n, int *counters, int *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = atomicAdd(&counters[i & 63], 1);
}
