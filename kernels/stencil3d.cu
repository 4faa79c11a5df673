// Seven-point stencil on an X x Y x Z grid (x fastest): out = in + 0.1 * (sum of the six
// neighbours - 6 * in) at interior points; a 3-D grid of 32 x 4 x 2 blocks.
//   stencil7: Launch: block (32, 4, 2), grid (ceil(X/32), ceil(Y/4), ceil(Z/2)).
// Any X, Y, Z >= 1.
extern "C" __global__ void stencil7(int X, int Y, int Z, const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i < 1 || j < 1 || k < 1 || i >= X - 1 || j >= Y - 1 || k >= Z - 1) return;
  const long long c = ((long long)k * Y + j) * X + i;
  const long long sy = X, sz = (long long)X * Y;
  out[c] = in[c] + 0.1f * (in[c - 1] + in[c + 1] + in[c - sy] + in[c + sy] + in[c - sz] + in[c + sz] - 6.0f * in[c]);
}
