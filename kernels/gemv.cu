// Matrix-vector product y = A x, A M x N row-major, x of N, y of M; y is only written.
//   gemv_row:  one thread per row: thread row walks A[row][0..N), so a warp reads 32 rows N floats
//              apart (32 sectors per request), and x[k] is one broadcast sector.
//              Launch: block (256), grid (ceil(M/256)).
//   gemv_warp: one warp per row: lane l reads A[row][l], A[row][l+32], ... (coalesced), the 32
//              partial sums meet in a __shfl_down_sync tree, and lane 0 stores y[row].
//              Launch: block (256) = 8 warps = 8 rows, grid (ceil(M/8)).
// Any M, N >= 1: rows past M are skipped (gemv_warp returns a whole warp at once, so every
// shuffle runs with all 32 lanes), columns past N are never read.
#define WARPSIZE 32

extern "C" __global__ void gemv_row(int M, int N, const float *A, const float *x, float *y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M) {
    float sum = 0.0f;
    for (int k = 0; k < N; ++k) {
      sum += A[row * N + k] * x[k];
    }
    y[row] = sum;
  }
}

extern "C" __global__ void gemv_warp(int M, int N, const float *A, const float *x, float *y) {
  const int lane = threadIdx.x % WARPSIZE;
  const int row = blockIdx.x * (blockDim.x / WARPSIZE) + threadIdx.x / WARPSIZE;
  if (row >= M) return;  // row is the same for the 32 lanes of a warp

  float sum = 0.0f;
  for (int k = lane; k < N; k += WARPSIZE) {
    sum += A[row * N + k] * x[k];
  }
  for (int offset = WARPSIZE / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffff, sum, offset);
  }
  if (lane == 0) {
    y[row] = sum;
  }
}
