// Global atomics whose lanes share an address (stop 26): how many sectors ncu counts for a warp's
// atomic or reduction when several of its lanes update one word. Blind batch 16 measured a double
// atomicAdd to one address at a sector per lane (1,000 for 1,000 threads, 32 requests).
//   f32_one:   atomicAdd(s, x[i]) in float: RED.E.ADD.F32 with every lane on one word.
//   f32_two:   atomicAdd(&s[i & 1], x[i]): two words of one sector, 16 lanes each.
//   f32_eight: atomicAdd(&s[8 (i & 7)], x[i]): eight words 32 bytes apart, a sector each, 4 lanes each.
//   f64_two:   atomicAdd(&d[i & 1], x[i]) in double: two words of one sector, 16 lanes each.
//   u64_one:   atomicAdd(c, (unsigned long long)k[i]): RED.E.ADD.64 to one word.
//   f32_old:   o[i] = atomicAdd(s, x[i]): ATOMG (the old value is used) to one word.
// Launch: block 256, grid cdiv(n, 256).

extern "C" __global__ void f32_one(int n, const float *x, float *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(s, x[i]);
}

extern "C" __global__ void f32_two(int n, const float *x, float *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&s[i & 1], x[i]);
}

extern "C" __global__ void f32_eight(int n, const float *x, float *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&s[8 * (i & 7)], x[i]);
}

extern "C" __global__ void f64_two(int n, const double *x, double *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&d[i & 1], x[i]);
}

extern "C" __global__ void u64_one(int n, const int *k, unsigned long long *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(c, (unsigned long long)(unsigned)k[i]);
}

extern "C" __global__ void f32_old(int n, const float *x, float *s, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = atomicAdd(s, x[i]);
}
