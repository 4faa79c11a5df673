// Blind batch 30: a block index divided by a constant, which nvcc computes as a multiply by the
// divisor's inverse keeping the high word, or a shift and a mask (warpsim.sass.analyze.pieces
// splits the index into its residue classes, new in stop 36; before it, each of these ran block
// by block, and past 2**20 blocks was refused). One-dimensional grids over two-dimensional work,
// as code that outgrew gridDim.y's 65,535 or that orders its tiles itself is written.
//   batched_scale   y = 2 x over `batches` rows of n floats; block (256), grid (batches*cdiv(n,256)):
//                   block b takes tile b % tiles of row b / tiles, tiles = cdiv(n,256) (a divisor
//                   the kernel computes from its argument)
//   transpose_flat  out = in^T, in rows x cols; 32 x 32 tiles through shared memory, block (32,8),
//                   grid (cdiv(rows,32)*cdiv(cols,32)): tile row b / tiles_x, column b % tiles_x
//   grouped_tiles   C = A B, 32 x 32 tiles in Triton's grouped order (4 rows of tiles at a time),
//                   block (32,8), grid (cdiv(M,32)*cdiv(N,32))
//   rgb_planar      interleaved RGB floats to three planes; block (128), grid (3*cdiv(pixels,128)):
//                   block b moves channel b % 3 of pixel tile b / 3
//   split_heads     [tokens, 16 heads, 64] to [16 heads, tokens, 64]; block (64,4), grid
//                   (16*cdiv(tokens,4)): head b % 16 of tokens 4 (b / 16) ... 4 (b / 16) + 3
// Any sizes >= 1.

extern "C" __global__ void batched_scale(int batches, int n, const float* __restrict__ x, float* __restrict__ y) {
  unsigned tiles = (n + 255) / 256, row = blockIdx.x / tiles, tile = blockIdx.x % tiles;
  unsigned i = tile * 256 + threadIdx.x;
  if (row < batches && i < n) y[(size_t)row * n + i] = 2.0f * x[(size_t)row * n + i];
}

extern "C" __global__ void transpose_flat(int rows, int cols, const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[32][33];
  int tiles_x = (cols + 31) / 32, bx = blockIdx.x % tiles_x, by = blockIdx.x / tiles_x;
  int x = bx * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += 8) {
    int y = by * 32 + j;
    if (x < cols && y < rows) tile[j][threadIdx.x] = in[y * cols + x];
  }
  __syncthreads();
  x = by * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += 8) {
    int y = bx * 32 + j;
    if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][j];
  }
}

extern "C" __global__ void grouped_tiles(int M, int N, int K, const float* __restrict__ A,
                                         const float* __restrict__ B, float* __restrict__ C) {
  const int GROUP = 4;
  int tiles_m = (M + 31) / 32, tiles_n = (N + 31) / 32, in_group = GROUP * tiles_n;
  int group = blockIdx.x / in_group, first_m = group * GROUP, size_m = min(tiles_m - first_m, GROUP);
  int tile_m = first_m + (blockIdx.x % in_group) % size_m, tile_n = (blockIdx.x % in_group) / size_m;
  int col = tile_n * 32 + threadIdx.x;
  for (int r = threadIdx.y; r < 32; r += 8) {
    int row = tile_m * 32 + r;
    if (row < M && col < N) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
      C[row * N + col] = acc;
    }
  }
}

extern "C" __global__ void rgb_planar(int pixels, const float* __restrict__ rgb, float* __restrict__ planes) {
  int c = blockIdx.x % 3, p = (blockIdx.x / 3) * 128 + threadIdx.x;
  if (p < pixels) planes[(size_t)c * pixels + p] = rgb[3 * (size_t)p + c];
}

extern "C" __global__ void split_heads(int tokens, const float* __restrict__ x, float* __restrict__ y) {
  int head = blockIdx.x % 16, t = (blockIdx.x / 16) * 4 + threadIdx.y;
  if (t < tokens) y[((size_t)head * tokens + t) * 64 + threadIdx.x] = x[((size_t)t * 16 + head) * 64 + threadIdx.x];
}
