// 2-D block tiling (siboehm kernel 5): a block computes a BM x BN tile of C; each thread computes
// a TM x TN sub-tile as an outer product of TM As values and TN Bs values held in registers.
// Launch: block (256, 1) = BM*BN/(TM*TN) threads, grid (ceil(N/BN), ceil(M/BM)),
//         blockIdx.x over N, blockIdx.y over M.
// Any M, N, K >= 1: loads outside the matrix fill 0, stores are guarded.
// Index arithmetic is written out in full (no pointer bumping): k0 is the K-loop counter.
// The dotIdx loop carries #pragma unroll: nvcc 13 keeps it rolled otherwise (scalar LDS for As),
// and unrolled it ran 32.1 instead of 24.0 TFLOP/s on the H200 at 4096^3.
#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define NUM_THREADS (BM * BN / (TM * TN))  // 256

extern "C" __global__ void __launch_bounds__(NUM_THREADS)
    sgemm_blocktile2d(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                      float *C) {
  __shared__ float As[BM * BK];  // As[r][c] = A[bRow + r][k0 + c]  (row-major, BK wide)
  __shared__ float Bs[BK * BN];  // Bs[r][c] = B[k0 + r][bCol + c]  (row-major, BN wide)

  const int bRow = blockIdx.y * BM;
  const int bCol = blockIdx.x * BN;

  // This thread's TM x TN sub-tile starts at C row threadRow*TM, column threadCol*TN of the tile.
  const int threadCol = threadIdx.x % (BN / TN);  // 0..15
  const int threadRow = threadIdx.x / (BN / TN);  // 0..15

  // Tile loads: each thread copies BM*BK/NUM_THREADS = 4 elements of A, 4 of B,
  // strideA rows (of A) and strideB rows (of B) apart.
  const int innerRowA = threadIdx.x / BK;  // 0..31
  const int innerColA = threadIdx.x % BK;  // 0..7
  const int strideA = NUM_THREADS / BK;    // 32
  const int innerRowB = threadIdx.x / BN;  // 0..1
  const int innerColB = threadIdx.x % BN;  // 0..127
  const int strideB = NUM_THREADS / BN;    // 2

  float threadResults[TM * TN] = {0.0f};
  float regM[TM];
  float regN[TN];

  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int loadOffset = 0; loadOffset < BM; loadOffset += strideA) {
      const int r = innerRowA + loadOffset;
      As[r * BK + innerColA] =
          (bRow + r < M && k0 + innerColA < K) ? A[(bRow + r) * K + k0 + innerColA] : 0.0f;
    }
    for (int loadOffset = 0; loadOffset < BK; loadOffset += strideB) {
      const int r = innerRowB + loadOffset;
      Bs[r * BN + innerColB] =
          (k0 + r < K && bCol + innerColB < N) ? B[(k0 + r) * N + bCol + innerColB] : 0.0f;
    }
    __syncthreads();

    #pragma unroll
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (int i = 0; i < TM; ++i) {
        regM[i] = As[(threadRow * TM + i) * BK + dotIdx];
      }
      for (int i = 0; i < TN; ++i) {
        regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
      }
      for (int resIdxM = 0; resIdxM < TM; ++resIdxM) {
        for (int resIdxN = 0; resIdxN < TN; ++resIdxN) {
          threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
        }
      }
    }
    __syncthreads();
  }

  for (int resIdxM = 0; resIdxM < TM; ++resIdxM) {
    const int row = bRow + threadRow * TM + resIdxM;
    for (int resIdxN = 0; resIdxN < TN; ++resIdxN) {
      const int col = bCol + threadCol * TN + resIdxN;
      if (row < M && col < N) {
        C[row * N + col] = alpha * threadResults[resIdxM * TN + resIdxN] + beta * C[row * N + col];
      }
    }
  }
}
