// Grid-stride loops over a flat index divided by a parameter: a fixed grid, each thread taking
// every (gridDim.x * blockDim.x)-th element of a row-major M x N matrix. The SASS engine counts
// such a launch block by block; written for blind batch 8, whose cache figures come from every
// block's addresses, one access per iteration of the loop (warpsim.caches.program.Concrete).
//   scale_gs:  y[i] = x[i] * s[i % N]                                  a per-column scale
//   gather_gs: y[i] = x[(i / N) * ld + i % N]                           an M x N block of an M x ld matrix
//   roll2d_gs: y[i] = x[((i / N + dy) % M) * N + (i % N + dx) % N]       a 2-D cyclic shift
// Launch: block (256), grid (264) for scale_gs, (528) for gather_gs, (1056) for roll2d_gs.
// Any sizes >= 1 (ld >= N; dx, dy >= 0).

extern "C" __global__ void scale_gs(int M, int N, const float *x, const float *s, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < M * N; i += gridDim.x * blockDim.x)
    y[i] = x[i] * s[i % N];
}

extern "C" __global__ void gather_gs(int M, int N, int ld, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < M * N; i += gridDim.x * blockDim.x)
    y[i] = x[(i / N) * ld + i % N];
}

extern "C" __global__ void roll2d_gs(int M, int N, int dy, int dx, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < M * N; i += gridDim.x * blockDim.x)
    y[i] = x[((i / N + dy) % M) * N + (i % N + dx) % N];
}
