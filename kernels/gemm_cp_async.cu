// Shared-memory tiled SGEMM, C = alpha * A * B + beta * C (A M x K, B K x N, C M x N, row-major),
// whose tiles are filled with cp.async (LDGSTS in SASS): global -> shared without a register,
// double-buffered, so the copy of tile t+1 is in flight while tile t is multiplied.
//   sgemm_cp_async:      4-byte copies, one element of A and one of B per thread per tile, as in
//                        smem.cu. Launch: block (32, 32), grid (ceil(N/32), ceil(M/32)).
//                        Any M, N, K >= 1: a copy from outside the matrix has src-size 0, so
//                        cp.async zero-fills its 4 shared bytes (zfill = 4); stores are guarded.
//   sgemm_cp_async_vec4: 16-byte copies (one float4 of A and one of B per thread per tile); each
//                        thread computes 4 elements of C, BLOCK_ROWS rows apart.
//                        Launch: block (32, 8), grid (ceil(N/32), ceil(M/32)).
//                        Requires K % 4 == 0 and N % 4 == 0 (every 16-byte row segment of A and B
//                        is 16-byte aligned and lies wholly inside or outside the matrix); any
//                        M >= 1. Segments outside the matrix are zero-filled (zfill = 16).
// The K loop: issue the copy of tile t+1 into the other buffer, commit it as its own group, wait
// until at most that one group is pending (so tile t has landed), __syncthreads, multiply tile t,
// __syncthreads (before tile t+2 overwrites it).
#include <cuda_pipeline.h>

#define BS 32
#define BLOCK_ROWS 8

extern "C" __global__ void sgemm_cp_async(int M, int N, int K, float alpha, const float *A,
                                          const float *B, float beta, float *C) {
  __shared__ float As[2][BS * BS];  // As[buf][r][c] = A[row0 + r][k0 + c]
  __shared__ float Bs[2][BS * BS];  // Bs[buf][r][c] = B[k0 + r][col0 + c]

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty;
  const int col = blockIdx.x * BS + tx;
  const int numTiles = (K + BS - 1) / BS;

  // Tile 0 into buffer 0.
  {
    const bool inA = row < M && tx < K;
    const bool inB = ty < K && col < N;
    __pipeline_memcpy_async(&As[0][ty * BS + tx], inA ? &A[row * K + tx] : A, 4, inA ? 0 : 4);
    __pipeline_memcpy_async(&Bs[0][ty * BS + tx], inB ? &B[ty * N + col] : B, 4, inB ? 0 : 4);
  }
  __pipeline_commit();

  float acc = 0.0f;
  for (int t = 0; t < numTiles; ++t) {
    const int cur = t % 2;
    const int k1 = (t + 1) * BS;  // first K index of the next tile
    if (t + 1 < numTiles) {
      const bool inA = row < M && k1 + tx < K;
      const bool inB = k1 + ty < K && col < N;
      __pipeline_memcpy_async(&As[1 - cur][ty * BS + tx], inA ? &A[row * K + k1 + tx] : A, 4,
                              inA ? 0 : 4);
      __pipeline_memcpy_async(&Bs[1 - cur][ty * BS + tx], inB ? &B[(k1 + ty) * N + col] : B, 4,
                              inB ? 0 : 4);
    }
    __pipeline_commit();       // an empty group on the last tile keeps the count uniform
    __pipeline_wait_prior(1);  // all but the newest group are done: tile t is in shared memory
    __syncthreads();

    #pragma unroll
    for (int i = 0; i < BS; ++i) {
      acc += As[cur][ty * BS + i] * Bs[cur][i * BS + tx];
    }
    __syncthreads();
  }

  if (row < M && col < N) {
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
}

extern "C" __global__ void sgemm_cp_async_vec4(int M, int N, int K, float alpha, const float *A,
                                               const float *B, float beta, float *C) {
  __shared__ __align__(16) float As[2][BS * BS];  // As[buf][r][c] = A[row0 + r][k0 + c]
  __shared__ __align__(16) float Bs[2][BS * BS];  // Bs[buf][r][c] = B[k0 + r][col0 + c]

  const int tx = threadIdx.x;  // 0..31: column of C within the tile
  const int ty = threadIdx.y;  // 0..7: first of this thread's 4 rows of C within the tile
  const int row0 = blockIdx.y * BS;
  const int col0 = blockIdx.x * BS;

  // Tile copies: thread tid moves the float4 at row tid / 8, float columns 4 * (tid % 8) .. +3,
  // of both the A tile and the B tile (32 rows x 8 float4s = 256 = one per thread).
  const int tid = ty * BS + tx;
  const int cpRow = tid / (BS / 4);        // 0..31
  const int cpCol = (tid % (BS / 4)) * 4;  // 0, 4, ..., 28
  const int numTiles = (K + BS - 1) / BS;

  {
    const bool inA = row0 + cpRow < M && cpCol < K;
    const bool inB = cpRow < K && col0 + cpCol < N;
    __pipeline_memcpy_async(&As[0][cpRow * BS + cpCol], inA ? &A[(row0 + cpRow) * K + cpCol] : A,
                            16, inA ? 0 : 16);
    __pipeline_memcpy_async(&Bs[0][cpRow * BS + cpCol], inB ? &B[cpRow * N + col0 + cpCol] : B,
                            16, inB ? 0 : 16);
  }
  __pipeline_commit();

  float acc[BS / BLOCK_ROWS] = {0.0f};
  for (int t = 0; t < numTiles; ++t) {
    const int cur = t % 2;
    const int k1 = (t + 1) * BS;
    if (t + 1 < numTiles) {
      const bool inA = row0 + cpRow < M && k1 + cpCol < K;
      const bool inB = k1 + cpRow < K && col0 + cpCol < N;
      __pipeline_memcpy_async(&As[1 - cur][cpRow * BS + cpCol],
                              inA ? &A[(row0 + cpRow) * K + k1 + cpCol] : A, 16, inA ? 0 : 16);
      __pipeline_memcpy_async(&Bs[1 - cur][cpRow * BS + cpCol],
                              inB ? &B[(k1 + cpRow) * N + col0 + cpCol] : B, 16, inB ? 0 : 16);
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();

    #pragma unroll
    for (int i = 0; i < BS; ++i) {
      const float b = Bs[cur][i * BS + tx];
      for (int j = 0; j < BS / BLOCK_ROWS; ++j) {
        acc[j] += As[cur][(ty + j * BLOCK_ROWS) * BS + i] * b;
      }
    }
    __syncthreads();
  }

  const int col = col0 + tx;
  for (int j = 0; j < BS / BLOCK_ROWS; ++j) {
    const int row = row0 + ty + j * BLOCK_ROWS;
    if (row < M && col < N) {
      C[row * N + col] = alpha * acc[j] + beta * C[row * N + col];
    }
  }
}
