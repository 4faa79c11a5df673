// Five-point Jacobi step on an M x N grid, row-major: out = 0.2 * (in + its four neighbours) for
// every interior point; the border of out is left as it was.
//   stencil5: one thread per point, block (32, 8): a warp reads one row of 32 points and the rows
//             above and below it (the row above was the row of the warp before), and the left and
//             right neighbours, one sector off the centre: in is read about five times per point,
//             mostly from L1.
//             Launch: block (32, 8), grid (ceil(N/32), ceil(M/8)).
// Any M, N >= 1 (a grid of fewer than 3 rows or columns has no interior point).
extern "C" __global__ void stencil5(int M, int N, const float *in, float *out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && i < M - 1 && j > 0 && j < N - 1) {
    const int c = i * N + j;
    out[c] = 0.2f * (in[c] + in[c - 1] + in[c + 1] + in[c - N] + in[c + N]);
  }
}
