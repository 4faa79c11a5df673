// Lower-triangular matrix product C = L * B: L M x M lower triangular (only L[row][k] with
// k <= row is read; the upper part may hold anything), B M x N, C M x N, all row-major; C is only
// written. The K loop runs row + 1 times, so its trip count depends on the thread's row.
//   trmm_lower:           row from threadIdx.x (the learner's first mapping): the 32 lanes of a
//                         warp are 32 rows, each with its own trip count (1 more per lane), so the
//                         warp's later iterations run with fewer and fewer lanes.
//                         Launch: block (32, 32), grid (ceil(N/32), ceil(M/32)),
//                         blockIdx.x over N (col = threadIdx.y), blockIdx.y over M.
//   trmm_lower_coalesced: col from threadIdx.x, row from threadIdx.y: a warp is 2 rows, and its
//                         two half-warps' trip counts differ by one.
//                         Launch: block (16, 16), grid (ceil(N/16), ceil(M/16)).
// Any M, N >= 1: threads outside C return before loading.
extern "C" __global__ void trmm_lower(int M, int N, const float *L, const float *B, float *C) {
  const int row = blockIdx.y * 32 + threadIdx.x;
  const int col = blockIdx.x * 32 + threadIdx.y;

  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k <= row; ++k) {
      acc += L[row * M + k]  // the L and B loads sit on lines of their own, so that
           * B[k * N + col];  // ncu's per-line counters tell L from B
    }
    C[row * N + col] = acc;
  }
}

extern "C" __global__ void trmm_lower_coalesced(int M, int N, const float *L, const float *B,
                                                float *C) {
  const int row = blockIdx.y * 16 + threadIdx.y;
  const int col = blockIdx.x * 16 + threadIdx.x;

  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k <= row; ++k) {
      acc += L[row * M + k]  // the L and B loads sit on lines of their own, so that
           * B[k * N + col];  // ncu's per-line counters tell L from B
    }
    C[row * N + col] = acc;
  }
}
