// Kernels whose control flow data decides, in code that touches no memory: the SASS engine runs
// those branches both ways and the loops to a fixed point (docs/SASS.md).
//   ratio:    y[i] = x[i] / d[i]: the IEEE division's slow path is a branch on the divisor and a
//             CALL to a subroutine.   Launch: block (256), grid (ceil(n/256)).
//   halvings: y[i] = how many times x[i] halves before it is at most 1: a loop whose trip count is
//             the data.               Launch: block (256), grid (ceil(n/256)).
//   mandel:   the escape time of each pixel of a W x H view of the Mandelbrot set, at most maxit
//             iterations.             Launch: block (32, 8), grid (ceil(W/32), ceil(H/8)).
// Any n, W, H >= 1.
extern "C" __global__ void ratio(int n, const float *x, const float *d, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] / d[i];
}

extern "C" __global__ void halvings(int n, const float *x, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  int k = 0;
  while (v > 1.0f) {
    v *= 0.5f;
    ++k;
  }
  y[i] = k;
}

extern "C" __global__ void mandel(int W, int H, int maxit, float x0, float y0, float dx, int *out) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= W || py >= H) return;
  float cr = x0 + px * dx, ci = y0 + py * dx, zr = 0.0f, zi = 0.0f;
  int k = 0;
  while (k < maxit && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++k;
  }
  out[py * W + px] = k;
}
