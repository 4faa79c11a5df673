// Block-schedule probes: seed 000's naive and coalesced kernels (kernels/naive.cu,
// kernels/coalesced.cu, the same arithmetic) with one addition: thread (0, 0) of each block
// records the SM it ran on and the global timer (ns) when the block started and when all of its
// threads had finished, in sched[3 * block + {0, 1, 2}], block = blockIdx.y * gridDim.x + blockIdx.x.
// What it is for: which blocks share an SM and the L2 at the same time (warpsim's cache model,
// issue 10). Launch as the originals: block (32, 32), grid (ceil(N/32), ceil(M/32)).
#define BLOCKSIZE 32

__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned int sm_id() {
  unsigned int id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

extern "C" __global__ void sgemm_naive_sched(int M, int N, int K, float alpha, const float *A,
                                             const float *B, float beta, float *C,
                                             unsigned long long *sched) {
  const unsigned long long start = global_timer();
  const int row = blockIdx.y * BLOCKSIZE + threadIdx.x;
  const int col = blockIdx.x * BLOCKSIZE + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int i = 0; i < K; ++i) {
      acc += A[row * K + i] * B[i * N + col];
    }
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    const unsigned int block = blockIdx.y * gridDim.x + blockIdx.x;
    sched[3 * block] = sm_id();
    sched[3 * block + 1] = start;
    sched[3 * block + 2] = global_timer();
  }
}

extern "C" __global__ void sgemm_coalesced_sched(int M, int N, int K, float alpha, const float *A,
                                                 const float *B, float beta, float *C,
                                                 unsigned long long *sched) {
  const unsigned long long start = global_timer();
  const int row = blockIdx.y * BLOCKSIZE + threadIdx.y;
  const int col = blockIdx.x * BLOCKSIZE + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int i = 0; i < K; ++i) {
      acc += A[row * K + i] * B[i * N + col];
    }
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    const unsigned int block = blockIdx.y * gridDim.x + blockIdx.x;
    sched[3 * block] = sm_id();
    sched[3 * block + 1] = start;
    sched[3 * block + 2] = global_timer();
  }
}
