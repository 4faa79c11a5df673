// Block-schedule probes: seed 000's naive and coalesced kernels (kernels/naive.cu,
// kernels/coalesced.cu), the ladder's smem and blocktile1d (kernels/smem.cu, kernels/blocktile1d.cu),
// the same arithmetic and memory accesses, with one addition: thread (0, 0) of each block
// records the SM it ran on and the global timer (ns) when the block started and when all of its
// threads had finished, in sched[3 * block + {0, 1, 2}], block = blockIdx.y * gridDim.x + blockIdx.x.
// What it is for: which blocks share an SM and the L2 at the same time (warpsim's cache model,
// issue 10). Launch as the originals: block (32, 32), grid (ceil(N/32), ceil(M/32)); blocktile1d
// block (512, 1), grid (ceil(N/64), ceil(M/64)).
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

__device__ __forceinline__ void record(unsigned long long *sched, unsigned long long start) {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    const unsigned int block = blockIdx.y * gridDim.x + blockIdx.x;
    sched[3 * block] = sm_id();
    sched[3 * block + 1] = start;
    sched[3 * block + 2] = global_timer();
  }
}

extern "C" __global__ void sgemm_smem_sched(int M, int N, int K, float alpha, const float *A,
                                            const float *B, float beta, float *C,
                                            unsigned long long *sched) {
  const unsigned long long start = global_timer();
  __shared__ float As[BLOCKSIZE * BLOCKSIZE];
  __shared__ float Bs[BLOCKSIZE * BLOCKSIZE];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * BLOCKSIZE + ty;
  const int col = blockIdx.x * BLOCKSIZE + tx;

  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += BLOCKSIZE) {
    As[ty * BLOCKSIZE + tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty * BLOCKSIZE + tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();

    #pragma unroll
    for (int i = 0; i < BLOCKSIZE; ++i) {
      acc += As[ty * BLOCKSIZE + i] * Bs[i * BLOCKSIZE + tx];
    }
    __syncthreads();
  }

  if (row < M && col < N) {
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
  record(sched, start);
}

#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define NUM_THREADS (BM * BN / TM)  // 512

extern "C" __global__ void __launch_bounds__(NUM_THREADS)
    sgemm_blocktile1d_sched(int M, int N, int K, float alpha, const float *A, const float *B,
                            float beta, float *C, unsigned long long *sched) {
  const unsigned long long start = global_timer();
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];

  const int bRow = blockIdx.y * BM;
  const int bCol = blockIdx.x * BN;

  const int threadCol = threadIdx.x % BN;
  const int threadRow = threadIdx.x / BN;

  const int innerRowA = threadIdx.x / BK;
  const int innerColA = threadIdx.x % BK;
  const int innerRowB = threadIdx.x / BN;
  const int innerColB = threadIdx.x % BN;

  float threadResults[TM] = {0.0f};

  for (int k0 = 0; k0 < K; k0 += BK) {
    As[innerRowA * BK + innerColA] = (bRow + innerRowA < M && k0 + innerColA < K)
                                         ? A[(bRow + innerRowA) * K + k0 + innerColA]
                                         : 0.0f;
    Bs[innerRowB * BN + innerColB] = (k0 + innerRowB < K && bCol + innerColB < N)
                                         ? B[(k0 + innerRowB) * N + bCol + innerColB]
                                         : 0.0f;
    __syncthreads();

    #pragma unroll
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      const float tmpB = Bs[dotIdx * BN + threadCol];
      for (int resIdx = 0; resIdx < TM; ++resIdx) {
        threadResults[resIdx] += As[(threadRow * TM + resIdx) * BK + dotIdx] * tmpB;
      }
    }
    __syncthreads();
  }

  const int col = bCol + threadCol;
  for (int resIdx = 0; resIdx < TM; ++resIdx) {
    const int row = bRow + threadRow * TM + resIdx;
    if (row < M && col < N) {
      C[row * N + col] = alpha * threadResults[resIdx] + beta * C[row * N + col];
    }
  }
  record(sched, start);
}
