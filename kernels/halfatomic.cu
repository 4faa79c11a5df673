// Half-precision atomics (stop 26): on sm_90 nvcc issues atomicAdd on __half2 (and on
// __nv_bfloat162) as a generic ATOM whose predicate says it was done, and emulates it after
// `@P0 EXIT` (QSPC, a compare-and-swap loop) only for a shared or local address. (atomicAdd on a
// lone __half is a compare-and-swap loop: refused, its trip count is data.) Each thread adds
// (1, 1), whole numbers half holds exactly.
//   h2_bins:  atomicAdd(&s[i & 15], (1, 1)) on __half2: 16 words, two sectors, 2 lanes a word.
// Launch: block 256, grid cdiv(n, 256).
#include <cuda_fp16.h>

extern "C" __global__ void h2_bins(int n, __half2 *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&s[i & 15], __float2half2_rn(1.0f));
}
