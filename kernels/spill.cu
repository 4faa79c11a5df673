// Local memory of other widths, and registers spilled to it, written for blind batch 12 (blind
// batch 11 measured 4- and 16-byte local accesses of per-thread arrays only):
//   double_stack: double v[16] per thread, filled at an index per lane and read at one index for
//                 the warp and one per lane: 8-byte local accesses (a lane's two words 128 B apart)
//   byte_shuffle: uint8_t h[64] per thread, filled at an index per lane and read back at two:
//                 1-byte local accesses (a byte of the lane's own interleaved word)
//   spill:        48 accumulators live across a loop under __launch_bounds__(256, 8), at most 32
//                 registers a thread: nvcc spills registers to local memory (STL/LDL at one
//                 address for every lane, values warpsim must get back to follow the addresses)
// Launch: block (256), grid (cdiv(n,256)). Any n >= 1.
#include <cstddef>
#include <cstdint>

extern "C" __global__ void double_stack(int n, int k, const double *in, double *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v[16];
  for (int t = 0; t < 16; ++t) v[(t * 5 + i) & 15] = in[(size_t)t * n + i];
  out[i] = v[k & 15] * v[(i + k) & 15];
}

extern "C" __global__ void byte_shuffle(int n, int k, const uint8_t *in, uint8_t *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint8_t h[64];
  for (int t = 0; t < 64; ++t) h[(t * 5 + i) & 63] = in[(size_t)t * n + i];
  out[i] = h[k & 63] ^ h[(i + k) & 63];
}

extern "C" __global__ void __launch_bounds__(256, 8) spill(int n, int steps, const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc[48];
#pragma unroll
  for (int j = 0; j < 48; ++j) acc[j] = in[(size_t)j * n + i];
#pragma unroll 1
  for (int s = 0; s < steps; ++s) {
#pragma unroll
    for (int j = 0; j < 48; ++j) acc[j] = 0.5f * acc[j] * acc[(j + 7) % 48] + 0.5f * acc[(j + 13) % 48];
  }
  float r = 0.0f;
#pragma unroll
  for (int j = 0; j < 48; ++j) r += acc[j];
  out[i] = r;
}
