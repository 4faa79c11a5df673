// Tensor-core GEMM with nvcuda::wmma, C = alpha * A * B + beta * C (A M x K, B K x N, C M x N,
// row-major, C float). A block of 4 warps computes a 32 x 32 tile of C; warp w computes the
// 16 x 16 sub-tile at warp row w / 2, warp column w % 2, accumulating in a float fragment.
// Launch (all three): block (128), grid (ceil(N/32), ceil(M/32)).
//   wmma_tf32_global: float A, B; 16x16x8 TF32 fragments loaded straight from global memory
//                     (load_matrix_sync on global pointers), elements rounded with
//                     __float_to_tf32; C read and written as a fragment (load/store_matrix_sync).
//                     Requires M % 16 == 0, N % 16 == 0, K % 8 == 0 (no edge handling: a warp
//                     whose 16 x 16 tile starts past M or N returns whole).
//   wmma_tf32_smem:   the same fragments loaded from a 32 x 8 A tile and an 8 x 32 B tile that
//                     the block stages in shared memory per K step, zero-filled outside the
//                     matrix; the accumulators go through a 32 x 32 shared tile of C, which the
//                     block writes out element by element with guards. Any M, N, K >= 1.
//   wmma_half_smem:   wmma_tf32_smem with __half A and B and 16x16x16 half fragments (32 x 16
//                     and 16 x 32 shared tiles), float accumulators and float C. Any M, N, K >= 1.
// What nvcc 13.0 makes of the fragment loads and stores (sm_90): from global memory, generic
// LD.E (A, B) and LD.E.64 / ST.E.64 (C); the TF32 loads from shared memory are generic LD.E too,
// and its accumulator store to Cs is generic ST.E.64 (the shared window of the generic space),
// while the half fragments come from shared memory by LDSM.16.M88.4 (A) and LDSM.16.MT88.4 (B,
// transposed) and its accumulator store is STS.64.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define BT 32        // block tile side (C rows and columns per block)
#define WT 16        // warp tile side = fragment M and N
#define NUM_THREADS 128
#define WARPSIZE 32

extern "C" __global__ void __launch_bounds__(NUM_THREADS)
    wmma_tf32_global(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                     float *C) {
  const int warp = threadIdx.x / WARPSIZE;  // 0..3
  const int tileRow = blockIdx.y * BT + (warp / 2) * WT;
  const int tileCol = blockIdx.x * BT + (warp % 2) * WT;
  if (tileRow >= M || tileCol >= N) return;  // the same for the 32 lanes of a warp

  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(acc, 0.0f);

  for (int k0 = 0; k0 < K; k0 += 8) {
    wmma::load_matrix_sync(a, A + tileRow * K + k0, K);
    wmma::load_matrix_sync(b, B + k0 * N + tileCol, N);
    for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
    for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    wmma::mma_sync(acc, a, b, acc);
  }

  wmma::load_matrix_sync(c, C + tileRow * N + tileCol, N, wmma::mem_row_major);
  for (int i = 0; i < c.num_elements; ++i) c.x[i] = alpha * acc.x[i] + beta * c.x[i];
  wmma::store_matrix_sync(C + tileRow * N + tileCol, c, N, wmma::mem_row_major);
}

extern "C" __global__ void __launch_bounds__(NUM_THREADS)
    wmma_tf32_smem(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                   float *C) {
  __shared__ __align__(32) float As[BT * 8];   // As[r][c] = A[row0 + r][k0 + c]  (8 wide)
  __shared__ __align__(32) float Bs[8 * BT];   // Bs[r][c] = B[k0 + r][col0 + c]  (32 wide)
  __shared__ __align__(32) float Cs[BT * BT];  // Cs[r][c] = (A * B)[row0 + r][col0 + c]

  const int row0 = blockIdx.y * BT;
  const int col0 = blockIdx.x * BT;
  const int warp = threadIdx.x / WARPSIZE;  // 0..3
  const int warpRow = (warp / 2) * WT;      // 0 or 16 within the block tile
  const int warpCol = (warp % 2) * WT;      // 0 or 16

  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);

  for (int k0 = 0; k0 < K; k0 += 8) {
    // 256 elements per tile, 2 per thread: A tile element i at (i / 8, i % 8), B at (i / 32, i % 32).
    for (int i = threadIdx.x; i < BT * 8; i += NUM_THREADS) {
      const int r = i / 8, c = i % 8;
      As[i] = (row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : 0.0f;
    }
    for (int i = threadIdx.x; i < 8 * BT; i += NUM_THREADS) {
      const int r = i / BT, c = i % BT;
      Bs[i] = (k0 + r < K && col0 + c < N) ? B[(k0 + r) * N + col0 + c] : 0.0f;
    }
    __syncthreads();

    wmma::load_matrix_sync(a, As + warpRow * 8, 8);
    wmma::load_matrix_sync(b, Bs + warpCol, BT);
    for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
    for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    wmma::mma_sync(acc, a, b, acc);
    __syncthreads();
  }

  wmma::store_matrix_sync(Cs + warpRow * BT + warpCol, acc, BT, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < BT * BT; i += NUM_THREADS) {
    const int r = i / BT, c = i % BT;
    if (row0 + r < M && col0 + c < N) {
      C[(row0 + r) * N + col0 + c] = alpha * Cs[i] + beta * C[(row0 + r) * N + col0 + c];
    }
  }
}

extern "C" __global__ void __launch_bounds__(NUM_THREADS)
    wmma_half_smem(int M, int N, int K, float alpha, const __half *A, const __half *B, float beta,
                   float *C) {
  __shared__ __align__(32) __half As[BT * 16];  // As[r][c] = A[row0 + r][k0 + c]  (16 wide)
  __shared__ __align__(32) __half Bs[16 * BT];  // Bs[r][c] = B[k0 + r][col0 + c]  (32 wide)
  __shared__ __align__(32) float Cs[BT * BT];   // Cs[r][c] = (A * B)[row0 + r][col0 + c]

  const int row0 = blockIdx.y * BT;
  const int col0 = blockIdx.x * BT;
  const int warp = threadIdx.x / WARPSIZE;  // 0..3
  const int warpRow = (warp / 2) * WT;      // 0 or 16 within the block tile
  const int warpCol = (warp % 2) * WT;      // 0 or 16

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

  const __half zero = __float2half(0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    // 512 halves per tile, 4 per thread: A tile element i at (i / 16, i % 16), B at (i / 32, i % 32).
    for (int i = threadIdx.x; i < BT * 16; i += NUM_THREADS) {
      const int r = i / 16, c = i % 16;
      As[i] = (row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : zero;
    }
    for (int i = threadIdx.x; i < 16 * BT; i += NUM_THREADS) {
      const int r = i / BT, c = i % BT;
      Bs[i] = (k0 + r < K && col0 + c < N) ? B[(k0 + r) * N + col0 + c] : zero;
    }
    __syncthreads();

    wmma::load_matrix_sync(a, As + warpRow * 16, 16);
    wmma::load_matrix_sync(b, Bs + warpCol, BT);
    wmma::mma_sync(acc, a, b, acc);
    __syncthreads();
  }

  wmma::store_matrix_sync(Cs + warpRow * BT + warpCol, acc, BT, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < BT * BT; i += NUM_THREADS) {
    const int r = i / BT, c = i % BT;
    if (row0 + r < M && col0 + c < N) {
      C[(row0 + r) * N + col0 + c] = alpha * Cs[i] + beta * C[(row0 + r) * N + col0 + c];
    }
  }
}
