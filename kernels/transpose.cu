// Matrix transpose, out = in^T, three ways (the NVIDIA blog "An Efficient Matrix Transpose in
// CUDA C/C++"): in is M x N row-major, out is N x M row-major, out[j][i] = in[i][j].
// Launch (all three): block (32, 8), grid (ceil(N/32), ceil(M/32)), blockIdx.x over the columns of
//         in, blockIdx.y over its rows; each thread moves 4 elements, TILE/BLOCK_ROWS = 4 rows
//         apart, so a block moves one 32 x 32 tile.
// Any M, N >= 1: every load and store is guarded.
//   transpose_naive:      reads in along rows (coalesced), writes out down a column (32 sectors
//                         per warp store).
//   transpose_tiled<PAD>: stages the tile in shared memory, so both the global read and the
//                         global write run along rows; the transposed read of the tile walks a
//                         shared column: 32-way bank conflicts with PAD = 0, none with PAD = 1.
#define TILE 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose_naive(int M, int N, const float *in, float *out) {
  const int col = blockIdx.x * TILE + threadIdx.x;  // column of in = row of out
  const int row = blockIdx.y * TILE + threadIdx.y;  // row of in (first of 4)

  for (int j = 0; j < TILE; j += BLOCK_ROWS) {
    if (row + j < M && col < N) {
      out[col * M + row + j] = in[(row + j) * N + col];
    }
  }
}

template <int PAD>
__global__ void transpose_tiled(int M, int N, const float *in, float *out) {
  __shared__ float tile[TILE][TILE + PAD];  // tile[r][c] = in[row0 + r][col0 + c]

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;

  // Read the tile of in along its rows.
  int col = blockIdx.x * TILE + tx;  // column of in
  int row = blockIdx.y * TILE + ty;  // row of in (first of 4)
  for (int j = 0; j < TILE; j += BLOCK_ROWS) {
    if (row + j < M && col < N) {
      tile[ty + j][tx] = in[(row + j) * N + col];
    }
  }
  __syncthreads();

  // Write the transposed tile along the rows of out: out row = in column.
  col = blockIdx.y * TILE + tx;  // column of out = row of in
  row = blockIdx.x * TILE + ty;  // row of out = column of in (first of 4)
  for (int j = 0; j < TILE; j += BLOCK_ROWS) {
    if (row + j < N && col < M) {
      out[(row + j) * M + col] = tile[tx][ty + j];
    }
  }
}

template __global__ void transpose_tiled<0>(int M, int N, const float *in, float *out);
template __global__ void transpose_tiled<1>(int M, int N, const float *in, float *out);
