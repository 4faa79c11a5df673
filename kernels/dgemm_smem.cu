// Double-precision shared-memory cache blocking: sgemm_smem (smem.cu) with double elements.
// Each block stages a 32x32 tile of A and of B in shared memory per K step (8 KiB each), then
// every thread computes one element of C from shared memory: 8-byte global accesses (LDG.E.64,
// STG.E.64), STS.64 tile stores, LDS.64 for the Bs column walk (nvcc 13: 32 of them), and LDS.128
// for the As row reads (nvcc pairs As[ty][i], As[ty][i+1]: 16 of them, one address per warp row).
// Launch: block (32, 32) = 1024 threads (threadIdx.x = column within the tile, threadIdx.y = row),
//         grid (ceil(N/32), ceil(M/32)), blockIdx.x over N, blockIdx.y over M.
// Any M, N, K >= 1: loads outside the matrix fill 0, stores are guarded.
// Index arithmetic is written out in full (no pointer bumping): k0 is the K-loop counter.
// alpha and beta are float, as in every kernel of this folder; the epilogue promotes them to double.
#define BLOCKSIZE 32

extern "C" __global__ void dgemm_smem(int M, int N, int K, float alpha, const double *A,
                                      const double *B, float beta, double *C) {
  __shared__ double As[BLOCKSIZE * BLOCKSIZE];  // As[r][c] = A[row0 + r][k0 + c]
  __shared__ double Bs[BLOCKSIZE * BLOCKSIZE];  // Bs[r][c] = B[k0 + r][col0 + c]

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * BLOCKSIZE + ty;
  const int col = blockIdx.x * BLOCKSIZE + tx;

  double acc = 0.0;
  for (int k0 = 0; k0 < K; k0 += BLOCKSIZE) {
    As[ty * BLOCKSIZE + tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0;
    Bs[ty * BLOCKSIZE + tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0;
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
}
