// y = a * x + y over n float2 elements (2n floats), one float2 per thread: each load and store
// is an 8-byte access (LDG.E.64 / STG.E.64), so a full warp request covers 256 B = 8 sectors.
// Launch: block (256), grid (ceil(n/256)).
// Any n >= 1 (n counts float2 elements; the pointers are float2 *, hence 8-byte aligned): the
// last block's threads past n do nothing.
extern "C" __global__ void axpy_float2(int n, float a, const float2 *x, float2 *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float2 xi = x[i];
    float2 yi = y[i];
    yi.x = a * xi.x + yi.x;
    yi.y = a * xi.y + yi.y;
    y[i] = yi;
  }
}
