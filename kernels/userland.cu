// Idioms of everyday CUDA code not yet measured (blind batch 16): a double atomic to one address,
// a shuffle reduction over groups of 8 lanes (`width` 8), a structure of three floats a thread
// (12-byte elements), and uchar4 pixels read through __ldg.
//   dsum:       atomicAdd(s, x[i]) in double for i < n: RED.E.ADD.F64.RN, one a thread.
//   shfl8:      y[i / 8] = x[i] + ... + x[i + 7] for i a multiple of 8: __shfl_down_sync of width 8.
//   norm3:      r[i] = |p[i]| for float3 p[i]: three 4-byte loads 12 bytes apart.
//   invert:     q[i] = (255 - r, 255 - g, 255 - b, a) of p[i], uchar4 pixels: 4-byte loads via __ldg.
// Launch: block 256, grid cdiv(n, 256).

extern "C" __global__ void dsum(int n, const double *x, double *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(s, x[i]);
}

extern "C" __global__ void shfl8(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  for (int o = 4; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o, 8);
  if ((threadIdx.x & 7) == 0 && i < n) y[i / 8] = v;
}

extern "C" __global__ void norm3(int n, const float3 *p, float *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float3 v = p[i];
    r[i] = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
  }
}

extern "C" __global__ void invert(int n, const uchar4 *p, uchar4 *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uchar4 v = __ldg(&p[i]);
    q[i] = make_uchar4(255 - v.x, 255 - v.y, 255 - v.z, v.w);
  }
}
