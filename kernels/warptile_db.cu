// Warp tiling with double buffering: warptile's warp tile and compute (64x64 warp tiles, WNITER=4
// sub-tiles of 64x16, TM x TN = 8x4 per thread), with two shared-memory stages and a
// register-staged prefetch. While the warps compute on stage s, each thread has the next K tile's
// float4s of A and B in flight from global memory into registers (aReg, bReg); after the compute
// it writes them to stage s^1 (A transposed), so one __syncthreads per K tile suffices.
// (Register staging rather than cp.async: cp.async copies 16 contiguous bytes and cannot write
// A transposed, which the float4 As reads of the compute need.)
// Block tile 128x256 with BK=8 and 8 warps (2 x 4 warp tiles), not warptile's 128x128x16 with
// 4 warps: measured on the H200 at 4096^3, double buffering at warptile's tile gave 41.8 TFLOP/s,
// at 128x256x8 45.2 (cuBLAS 51.4); the 128x256 tile without double buffering was slower (37.0).
// Launch: block (256, 1) = NUM_THREADS, grid (ceil(N/BN), ceil(M/BM)) = (ceil(N/256), ceil(M/128)),
//         blockIdx.x over N, blockIdx.y over M.
// Requires K % 4 == 0 and N % 4 == 0 (every float4 row segment of A, B, C is 16-byte aligned and
// lies wholly inside or outside the matrix); any M >= 1. Loads outside the matrix fill 0,
// stores are guarded (per float4).
// Index arithmetic is written out in full (no pointer bumping): k0 is the K offset of a tile.
// The tile load/store helpers are inlined at two call sites (the prologue for tile 0 and the loop
// for tile k0 + BK), so their source lines each map to two groups of SASS instructions.
// The dotIdx loop carries #pragma unroll, as in warptile.
#define BM 128
#define BN 256
#define BK 8
#define WM 64
#define WN 64
#define WNITER 4
#define TM 8
#define TN 4
#define NUM_THREADS 256
#define WARPSIZE 32
#define WMITER ((WM * WN) / (WARPSIZE * TM * TN * WNITER))  // 1
#define WSUBM (WM / WMITER)                                // 64
#define WSUBN (WN / WNITER)                                // 16
static_assert(TN == 4, "the epilogue moves C as one float4 per thread row of a sub-tile");
static_assert(WMITER >= 1 && NUM_THREADS == WARPSIZE * (BM / WM) * (BN / WN), "one warp per warp tile");
#define ROW_STRIDE_A (NUM_THREADS / (BK / 4))              // 128: A tile rows loaded per pass
#define ROW_STRIDE_B (NUM_THREADS / (BN / 4))              // 4: B tile rows loaded per pass
#define LOADS_A (BM / ROW_STRIDE_A)                        // 1 float4 of A per thread per tile
#define LOADS_B (BK / ROW_STRIDE_B)                        // 2 float4s of B per thread per tile

// Global -> registers: the K tile starting at k0. Out-of-matrix float4s are zero.
__device__ __forceinline__ void loadTile(int M, int N, int K, const float *A, const float *B,
                                         int bRow, int bCol, int k0, float4 (&aReg)[LOADS_A],
                                         float4 (&bReg)[LOADS_B]) {
  const int innerRowA = threadIdx.x / (BK / 4);  // 0..127: row of the A tile
  const int innerColA = threadIdx.x % (BK / 4);  // 0..1: float4 column of the A tile
  const int innerRowB = threadIdx.x / (BN / 4);  // 0..3: row of the B tile
  const int innerColB = threadIdx.x % (BN / 4);  // 0..63: float4 column of the B tile
  for (int i = 0; i < LOADS_A; ++i) {
    const int r = innerRowA + i * ROW_STRIDE_A;
    aReg[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (bRow + r < M && k0 + innerColA * 4 < K) {
      aReg[i] = *reinterpret_cast<const float4 *>(&A[(bRow + r) * K + k0 + innerColA * 4]);
    }
  }
  for (int i = 0; i < LOADS_B; ++i) {
    const int r = innerRowB + i * ROW_STRIDE_B;
    bReg[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (k0 + r < K && bCol + innerColB * 4 < N) {
      bReg[i] = *reinterpret_cast<const float4 *>(&B[(k0 + r) * N + bCol + innerColB * 4]);
    }
  }
}

// Registers -> one shared stage: A transposed (As[k][m]), B as is (Bs[k][n]).
__device__ __forceinline__ void storeTile(float *As, float *Bs, const float4 (&aReg)[LOADS_A],
                                          const float4 (&bReg)[LOADS_B]) {
  const int innerRowA = threadIdx.x / (BK / 4);
  const int innerColA = threadIdx.x % (BK / 4);
  const int innerRowB = threadIdx.x / (BN / 4);
  const int innerColB = threadIdx.x % (BN / 4);
  for (int i = 0; i < LOADS_A; ++i) {
    const int r = innerRowA + i * ROW_STRIDE_A;
    As[(innerColA * 4 + 0) * BM + r] = aReg[i].x;
    As[(innerColA * 4 + 1) * BM + r] = aReg[i].y;
    As[(innerColA * 4 + 2) * BM + r] = aReg[i].z;
    As[(innerColA * 4 + 3) * BM + r] = aReg[i].w;
  }
  for (int i = 0; i < LOADS_B; ++i) {
    const int r = innerRowB + i * ROW_STRIDE_B;
    *reinterpret_cast<float4 *>(&Bs[r * BN + innerColB * 4]) = bReg[i];
  }
}

extern "C" __global__ void __launch_bounds__(NUM_THREADS)
    sgemm_warptile_db(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                      float *C) {
  __shared__ float As[2][BK * BM];  // As[s][k][m] = A[bRow + m][k0 + k] for the tile in stage s
  __shared__ float Bs[2][BK * BN];  // Bs[s][k][n] = B[k0 + k][bCol + n] for the tile in stage s

  const int bRow = blockIdx.y * BM;
  const int bCol = blockIdx.x * BN;

  // The warp's WM x WN tile within the block tile.
  const int warpIdx = threadIdx.x / WARPSIZE;  // 0..7
  const int warpCol = warpIdx % (BN / WN);     // 0..3
  const int warpRow = warpIdx / (BN / WN);     // 0..1

  // The thread's TM x TN piece of each WSUBM x WSUBN sub-tile.
  const int threadIdxInWarp = threadIdx.x % WARPSIZE;          // 0..31
  const int threadColInWarp = threadIdxInWarp % (WSUBN / TN);  // 0..3
  const int threadRowInWarp = threadIdxInWarp / (WSUBN / TN);  // 0..7

  float threadResults[WMITER * TM * WNITER * TN] = {0.0f};
  float regM[WMITER * TM];
  float regN[WNITER * TN];
  float4 aReg[LOADS_A];
  float4 bReg[LOADS_B];

  // Prologue: tile 0 into stage 0.
  loadTile(M, N, K, A, B, bRow, bCol, 0, aReg, bReg);
  storeTile(As[0], Bs[0], aReg, bReg);
  __syncthreads();

  for (int k0 = 0; k0 < K; k0 += BK) {
    const int stage = (k0 / BK) % 2;
    const bool hasNext = k0 + BK < K;
    if (hasNext) {
      loadTile(M, N, K, A, B, bRow, bCol, k0 + BK, aReg, bReg);  // in flight during the compute
    }

    #pragma unroll
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (int wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx) {
        for (int i = 0; i < TM; ++i) {
          regM[wSubRowIdx * TM + i] =
              As[stage][dotIdx * BM + warpRow * WM + wSubRowIdx * WSUBM + threadRowInWarp * TM + i];
        }
      }
      for (int wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx) {
        for (int i = 0; i < TN; ++i) {
          regN[wSubColIdx * TN + i] =
              Bs[stage][dotIdx * BN + warpCol * WN + wSubColIdx * WSUBN + threadColInWarp * TN + i];
        }
      }
      for (int wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx) {
        for (int wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx) {
          for (int resIdxM = 0; resIdxM < TM; ++resIdxM) {
            for (int resIdxN = 0; resIdxN < TN; ++resIdxN) {
              threadResults[(wSubRowIdx * TM + resIdxM) * (WNITER * TN) + wSubColIdx * TN + resIdxN] +=
                  regM[wSubRowIdx * TM + resIdxM] * regN[wSubColIdx * TN + resIdxN];
            }
          }
        }
      }
    }

    if (hasNext) {
      // Stage stage^1 was last read in the previous iteration's compute, which every thread
      // finished before that iteration's __syncthreads.
      storeTile(As[stage ^ 1], Bs[stage ^ 1], aReg, bReg);
    }
    __syncthreads();
  }

  for (int wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx) {
    for (int wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx) {
      for (int resIdxM = 0; resIdxM < TM; ++resIdxM) {
        const int row = bRow + warpRow * WM + wSubRowIdx * WSUBM + threadRowInWarp * TM + resIdxM;
        const int col = bCol + warpCol * WN + wSubColIdx * WSUBN + threadColInWarp * TN;
        if (row < M && col < N) {
          const int res = (wSubRowIdx * TM + resIdxM) * (WNITER * TN) + wSubColIdx * TN;
          float4 c = *reinterpret_cast<const float4 *>(&C[row * N + col]);
          c.x = alpha * threadResults[res + 0] + beta * c.x;
          c.y = alpha * threadResults[res + 1] + beta * c.y;
          c.z = alpha * threadResults[res + 2] + beta * c.z;
          c.w = alpha * threadResults[res + 3] + beta * c.w;
          *reinterpret_cast<float4 *>(&C[row * N + col]) = c;
        }
      }
    }
  }
}
