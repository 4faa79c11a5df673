// Global reductions whose lanes share words unevenly (stop 26): which count ncu takes for a sector
// whose words draw different numbers of lanes. kernels/atomics.cu measured one word (32 sectors a
// warp), two words of 16 lanes (16) and eight words a sector apart (4 each): the most lanes on one
// word, the lanes over the words, and the passes of one lane a word all agree there.
//   uneven:  atomicAdd(&s[i % 3 == 0 ? 0 : 1], x[i]): 10 or 11 lanes on word 0, 21 or 22 on word 1.
//   mixed:   atomicAdd(&s[lane < 24 ? 0 : lane + 8], x[i]): 24 lanes on word 0, and lanes 24..31
//            one word each in the next sector (words 32..39).
// Launch: block 256, grid cdiv(n, 256).

extern "C" __global__ void uneven(int n, const float *x, float *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&s[i % 3 == 0 ? 0 : 1], x[i]);
}

extern "C" __global__ void mixed(int n, const float *x, float *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  if (i < n) atomicAdd(&s[lane < 24 ? 0 : lane + 8], x[i]);
}
