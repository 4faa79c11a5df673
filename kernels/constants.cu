// `__constant__` variables that decide addresses and loop bounds (blind batch 17): the program
// sets them with cudaMemcpyToSymbol before the launch, so warpsim is given their values as it is
// given the parameters (`--arg OFF=-2,-1,0,1,2`, `--arg cfg::STRIDE=3`); nvcc reads them from
// constant bank 3 (`LDC R3, c[0x3][0x8]`, a short by `LDC.U16 R4, c[0x3][0xa]`).
//   offsets: y[i] = sum over k < 5 of x[i + OFF[k]] for 2 <= i < n - 2 (a stencil's offsets).
//   strided: y[i] = x[BASE + i * cfg::STRIDE] (a namespace's int, a long long).
//   taps:    y[i] = sum over k < 4 of x[4 i + TAPS[k]] (shorts, two to a word of the bank).
//   rows:    y[i] = sum over j < NCOLS of x[i * NCOLS + j] (a loop bound from a constant).
// Launch: block 256, grid cdiv(n, 256).

__constant__ int OFF[5] = {-2, -1, 0, 1, 2};
namespace cfg {
__constant__ int STRIDE;
}
__constant__ long long BASE;
__constant__ short TAPS[4] = {0, 1, 2, 3};
__constant__ int NCOLS = 8;

extern "C" __global__ void offsets(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 2 || i >= n - 2) return;
  float s = 0.f;
  for (int k = 0; k < 5; ++k) s += x[i + OFF[k]];
  y[i] = s;
}

extern "C" __global__ void strided(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = x[BASE + (long long)i * cfg::STRIDE];
}

extern "C" __global__ void taps(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int k = 0; k < 4; ++k) s += x[4 * i + TAPS[k]];
  y[i] = s;
}

extern "C" __global__ void rows(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int j = 0; j < NCOLS; ++j) s += x[i * NCOLS + j];
  y[i] = s;
}
