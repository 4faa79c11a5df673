// Seed 000's sgemm_naive, exactly: row from threadIdx.x, so a warp walks DOWN a column of C.
// Launch: block (32, 32), grid (ceil(N/32), ceil(M/32)).
#define BLOCKSIZE 32

extern "C" __global__ void sgemm_naive(int M, int N, int K, float alpha, const float *A,
                                       const float *B, float beta, float *C) {
  const int row = blockIdx.y * BLOCKSIZE + threadIdx.x;
  const int col = blockIdx.x * BLOCKSIZE + threadIdx.y;

  if (row < M && col < N) {
    float acc = 0.0f;
    for (int i = 0; i < K; ++i) {
      acc += A[row * K + i]  // the A and B loads sit on lines of their own, so that
           * B[i * N + col];  // ncu's per-line counters tell A from B
    }
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
}
