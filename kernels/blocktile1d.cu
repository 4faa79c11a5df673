// 1-D block tiling (siboehm kernel 4): a block computes a BM x BN tile of C; each thread computes
// a column of TM results, reusing one Bs value across TM As values held in shared memory.
// Launch: block (512, 1) = BM*BN/TM threads, grid (ceil(N/BN), ceil(M/BM)),
//         blockIdx.x over N, blockIdx.y over M.
// Any M, N, K >= 1: loads outside the matrix fill 0, stores are guarded.
// Index arithmetic is written out in full (no pointer bumping): k0 is the K-loop counter.
#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define NUM_THREADS (BM * BN / TM)  // 512

extern "C" __global__ void __launch_bounds__(NUM_THREADS)
    sgemm_blocktile1d(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                      float *C) {
  __shared__ float As[BM * BK];  // As[r][c] = A[bRow + r][k0 + c]  (row-major, BK wide)
  __shared__ float Bs[BK * BN];  // Bs[r][c] = B[k0 + r][bCol + c]  (row-major, BN wide)

  const int bRow = blockIdx.y * BM;
  const int bCol = blockIdx.x * BN;

  // The C element column and the first of the TM rows this thread computes.
  const int threadCol = threadIdx.x % BN;  // 0..63
  const int threadRow = threadIdx.x / BN;  // 0..7, uniform within a warp

  // One element of each tile per thread: A tile BM x BK = 512, B tile BK x BN = 512.
  const int innerRowA = threadIdx.x / BK;  // 0..63
  const int innerColA = threadIdx.x % BK;  // 0..7
  const int innerRowB = threadIdx.x / BN;  // 0..7
  const int innerColB = threadIdx.x % BN;  // 0..63

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
}
