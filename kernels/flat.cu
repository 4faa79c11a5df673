// Flat-index idioms: one thread per element of a row-major M x N matrix (or an n-vector), its
// row and column recovered by dividing the flat index by a parameter. The SASS engine counts
// such a launch block by block; written for blind batch 7, whose cache figures come from every
// block's addresses (warpsim.caches.program.Concrete).
//   row_scale:      y[i] = x[i] * s[i / N]             a per-row scale
//   outer_flat:     y[i] = a[i / N] * b[i % N]         an outer product
//   transpose_flat: out[(i % N) * M + i / N] = in[i]   a transpose without tiles: strided stores
//   roll:           y[i] = x[(i + shift) % n]          a cyclic shift of a vector
// Launch: block (256), grid (ceil(M*N/256)); roll: grid (ceil(n/256)). Any sizes >= 1.

extern "C" __global__ void row_scale(int M, int N, const float *x, const float *s, float *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M * N) y[i] = x[i] * s[i / N];
}

extern "C" __global__ void outer_flat(int M, int N, const float *a, const float *b, float *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M * N) y[i] = a[i / N] * b[i % N];
}

extern "C" __global__ void transpose_flat(int M, int N, const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M * N) out[(i % N) * M + i / N] = in[i];
}

extern "C" __global__ void roll(int n, int shift, const float *x, float *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(i + shift) % n];
}
