// Kernels whose addresses come from index arrays, written for blind batch 13: counted exactly
// when the launch gives the indices' contents (`--arg perm='int[n]=(i*7919)%n'`), block by block.
//   gather:    y[i] = x[perm[i]]: a permutation the launch gives
//   spmv_csr:  y = A x, a thread per row of a CSR matrix: the row's bounds and its columns given
//   histogram: counts[keys[i] & 1023] += 1 (atomicAdd: bins the keys decide)
// Launch: block (256), grid (cdiv(n,256)) (spmv_csr: cdiv(rows,256)).
extern "C" __global__ void gather(int n, const int *perm, const float *x, float *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[perm[i]];
}

extern "C" __global__ void spmv_csr(int rows, const int *row_ptr, const int *col, const float *val,
                                   const float *x, float *y) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) s += val[j] * x[col[j]];
  y[r] = s;
}

extern "C" __global__ void histogram(int n, const int *keys, int *counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[keys[i] & 1023], 1);
}
