// Row sums of an M x N matrix, row-major: y[r] = sum of x[r][0..N).
//   row_sum: one block of 256 threads per row: thread t adds x[r][t], x[r][t+256], ... (a
//            block-stride loop), the 256 partial sums meet in shared memory (a halving tree with
//            __syncthreads down to 32, then __shfl_down_sync), and thread 0 stores y[r].
//            Launch: block (256), grid (M).
// Any M, N >= 1.
#define THREADS 256
#define WARPSIZE 32

extern "C" __global__ void row_sum(int M, int N, const float *x, float *y) {
  __shared__ float part[THREADS];
  const int r = blockIdx.x;
  const int t = threadIdx.x;
  float s = 0.0f;
  for (int c = t; c < N; c += THREADS) s += x[r * N + c];
  part[t] = s;
  __syncthreads();
  for (int h = THREADS / 2; h >= WARPSIZE; h /= 2) {
    if (t < h) part[t] += part[t + h];
    __syncthreads();
  }
  if (t < WARPSIZE) {
    s = part[t];
    for (int o = WARPSIZE / 2; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o);
    if (t == 0) y[r] = s;
  }
}
