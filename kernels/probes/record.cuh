// What a block-schedule probe adds to a kernel: thread (0, 0) of each block records the SM it ran
// on and the global timer (ns) when the block started and when all of its threads had finished,
// in sched[3 * block + {0, 1, 2}], block = blockIdx.y * gridDim.x + blockIdx.x. PROBE(name,
// original, threads) defines the probe kernel `name`, which calls `original` (an SGEMM's
// signature: M, N, K, alpha, A, B, beta, C) and records. Included by schedule.cu and
// schedule_wmma.cu, after the originals (their source included as device functions).
#pragma once

__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void record(unsigned long long *sched, unsigned long long start) {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    unsigned int sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    const unsigned int block = blockIdx.y * gridDim.x + blockIdx.x;
    sched[3 * block] = sm;
    sched[3 * block + 1] = start;
    sched[3 * block + 2] = global_timer();
  }
}

#define PROBE(name, original, threads)                                                            \
  extern "C" __global__ void __launch_bounds__(threads)                                           \
      name(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C, \
           unsigned long long *sched) {                                                           \
    const unsigned long long start = global_timer();                                              \
    original(M, N, K, alpha, A, B, beta, C);                                                      \
    record(sched, start);                                                                         \
  }
