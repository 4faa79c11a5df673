// One-dimensional convolution of n values with 2R+1 weights, zero outside [0, n):
// y[i] = sum over k in [-R, R] of w[k + R] * x[i + k].
//   conv1d_smem<R>: block (256): the block stages its 256 values and R more on each side (the halo,
//                   loaded by the first 2R threads) in shared memory, waits at __syncthreads, and
//                   each thread sums its 2R+1 products from shared memory; w is read by every
//                   thread at the same address (one broadcast sector per request).
//                   Launch: block (256), grid (ceil(n/256)).
// Any n >= 1, R <= 128.
#define THREADS 256

template <int R>
__global__ void conv1d_smem(int n, const float *x, const float *w, float *y) {
  __shared__ float tile[THREADS + 2 * R];
  const int t = threadIdx.x;
  const int i = blockIdx.x * THREADS + t;
  tile[R + t] = i < n ? x[i] : 0.0f;
  if (t < 2 * R) {  // t < R: the left halo, R <= t < 2R: the right one
    const int h = t < R ? blockIdx.x * THREADS - R + t : blockIdx.x * THREADS + THREADS + t - R;
    tile[t < R ? t : THREADS + t] = (h >= 0 && h < n) ? x[h] : 0.0f;
  }
  __syncthreads();
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k <= 2 * R; ++k) s += w[k] * tile[t + k];
    y[i] = s;
  }
}

template __global__ void conv1d_smem<3>(int, const float *, const float *, float *);
template __global__ void conv1d_smem<8>(int, const float *, const float *, float *);
