// Warp votes and atomics (blind batch 15): what nvcc makes of an integer atomicAdd to one address
// (a warp-aggregated atomic: VOTEU.ANY, UFLO, UPOPC, one REDG from the elected lane), a ballot of
// a condition computed from data, and a histogram in shared memory (ATOMS) whose bins the keys
// the launch gives decide.
//   count_from:  lanes lane0..31 of each warp with i < n add 1 to *count (one REDG a warp).
//   ballot_count: each warp's lane 0 adds the number of its lanes with i < n and x[i] > 0.
//   shared_hist: h[(keys[i] << shift) & 255] += 1 in shared memory, then each thread adds its bin
//                to bins[]: shift 0 spreads a warp's keys over the banks, 5 puts them on 8 words
//                of bank 0, 8 on one word.
//   max_abs:     atomicMax(m, bits of |x[i]|) for i < n: nvcc reduces each warp by REDUX.MAX, one REDG.
//   match_stride: y[i * popc(match_any(i >> s)) + max over the warp's lanes of lane & 31] = 1: a
//                stride the lanes' matches decide (2^s lanes agree), an offset of 31.
//   block_votes: y[i * (count / 128) + 7 * any + ...] = 1 for i < n, count = __syncthreads_count(i < n),
//                any = __syncthreads_or(i >= n): y[2 i] in full blocks, y[i + 7] in a ragged last one.
//   claim:       won[i] = atomicCAS(&flags[i], 0, 1): a compare-and-swap a lane.
// Launch: block 256, grid cdiv(n, 256).

extern "C" __global__ void count_from(int n, int lane0, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (int)(threadIdx.x & 31) >= lane0) atomicAdd(count, 1);
}

extern "C" __global__ void ballot_count(int n, const float *x, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = __ballot_sync(0xffffffffu, i < n && x[i] > 0.0f);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, __popc(b));
}

extern "C" __global__ void shared_hist(int n, int shift, const unsigned char *keys, unsigned int *bins) {
  __shared__ unsigned int h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&h[(keys[i] << shift) & 255], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

extern "C" __global__ void max_abs(int n, const float *x, int *m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(m, __float_as_int(fabsf(x[i])));
}

extern "C" __global__ void match_stride(int n, int s, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned same = __match_any_sync(0xffffffffu, i >> s);
  int top = __reduce_max_sync(0xffffffffu, (int)(threadIdx.x & 31));
  if (i < n) y[i * __popc(same) + top] = 1.0f;
}

extern "C" __global__ void block_votes(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int count = __syncthreads_count(i < n);
  int any = __syncthreads_or(i >= n);
  int all = __syncthreads_and(threadIdx.x < 1024);
  if (i < n) y[i * (count / 128) + 7 * any + (all ? 0 : 1 << 28)] = 1.0f;
}

extern "C" __global__ void claim(int n, int *flags, int *won) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) won[i] = atomicCAS(&flags[i], 0, 1);
}
