// 8-bit images and a reduction down the columns, written for blind batch 9: byte loads three a
// pixel, neighbours clamped at the borders, and a loop over the rows of a parameter's length.
//   gray_u8:  g[i] = (77 r + 150 g + 29 b) >> 8 of an interleaved RGB image (3 bytes a pixel)
//   blur3_u8: out = the mean of each pixel's 3 x 3 neighbourhood, its indices clamped at the
//             borders (min/max), an integer division by 9
//   col_sum:  s[j] = the sum of column j of a row-major M x N matrix: a thread a column, a loop
//             down the M rows (each step a warp reads 32 consecutive floats of one row)
// Launch: block (32x8), grid (cdiv(W,32), cdiv(H,8)) for gray_u8 and blur3_u8; block (256),
// grid (cdiv(N,256)) for col_sum. Any sizes >= 1.
#include <cstddef>
#include <cstdint>

extern "C" __global__ void gray_u8(int W, int H, const uint8_t *rgb, uint8_t *g) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  const int i = y * W + x;
  const unsigned r = rgb[3 * i], gr = rgb[3 * i + 1], b = rgb[3 * i + 2];
  g[i] = (uint8_t)((77u * r + 150u * gr + 29u * b) >> 8);
}

extern "C" __global__ void blur3_u8(int W, int H, const uint8_t *in, uint8_t *out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  unsigned s = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    const int yy = min(max(y + dy, 0), H - 1);
    for (int dx = -1; dx <= 1; ++dx) s += in[yy * W + min(max(x + dx, 0), W - 1)];
  }
  out[y * W + x] = (uint8_t)(s / 9u);
}

extern "C" __global__ void col_sum(int M, int N, const float *a, float *s) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= N) return;
  float t = 0.0f;
  for (int i = 0; i < M; ++i) t += a[(size_t)i * N + j];
  s[j] = t;
}
