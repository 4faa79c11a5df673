// Blind batch 29: a value one thread hands the block through shared memory, which decides which
// threads store (warpsim.sass.ops_memory._shared_words, new in stop 34). CUB's guarded
// BlockStore (WARP_TRANSPOSE: thread 0 stores the count of valid items in its TempStorage, a
// barrier, every warp stores 4 x 32 consecutive floats below it), a blocked-to-striped copy
// through BlockLoad and BlockStore (both guarded, both through shared memory), and the same
// pattern written by hand: thread 0 stores the block's count, __syncthreads, the threads below
// it copy. Launch: block (128), grid (cdiv(n,512)); shared_count: block (256), grid (cdiv(n,256)).
// Any n >= 1.

#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

extern "C" __global__ void store_warp_striped(int n, const float* __restrict__ x, float* __restrict__ y) {
  using Store = cub::BlockStore<float, 128, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ typename Store::TempStorage tmp;
  float v[4];
  int base = blockIdx.x * 512;
  for (int k = 0; k < 4; ++k) {
    int i = base + threadIdx.x * 4 + k;
    v[k] = i < n ? 2.0f * x[i] : 0.0f;
  }
  Store(tmp).Store(y + base, v, n - base);
}

extern "C" __global__ void copy_transpose(int n, const float* __restrict__ x, float* __restrict__ y) {
  using Load = cub::BlockLoad<float, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<float, 128, 4, cub::BLOCK_STORE_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } tmp;
  float v[4];
  int base = blockIdx.x * 512;
  Load(tmp.load).Load(x + base, v, n - base, 0.0f);
  __syncthreads();
  Store(tmp.store).Store(y + base, v, n - base);
}

extern "C" __global__ void shared_count(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ int left;
  if (threadIdx.x == 0) left = n - blockIdx.x * 256;
  __syncthreads();
  int i = blockIdx.x * 256 + threadIdx.x;
  if (threadIdx.x < left) y[i] = 2.0f * x[i];
}
