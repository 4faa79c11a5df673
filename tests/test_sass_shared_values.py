"""A block-uniform value handed through shared memory: one thread stores it at one address, a
barrier, every thread reads it back (CUB's guarded BlockStore shares its count of valid items so).
warpsim keeps the word (warpsim.sass.ops_memory._shared_words) where the store is outside loops,
of one value per block, and the read comes after a block-wide barrier; anything else that may
write the word forgets it, and a read it is not handed is data, as every other load. Kernels
written here, compiled with the pinned nvcc (CUB from its CCCL headers)."""

from __future__ import annotations

import pytest

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A

KERNELS = '''#include <cub/block/block_store.cuh>
extern "C" __global__ void shared_count(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ int left;
  if (threadIdx.x == 0) left = n - blockIdx.x * 256;   // the block's threads below n
  __syncthreads();
  int i = blockIdx.x * 256 + threadIdx.x;
  if (threadIdx.x < left) y[i] = 2.0f * x[i];
}
extern "C" __global__ void two_writers(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ int left;
  if (threadIdx.x < 2) left = n - blockIdx.x * 256 + threadIdx.x;
  __syncthreads();
  int i = blockIdx.x * 256 + threadIdx.x;
  if (threadIdx.x < left) y[i] = 2.0f * x[i];           // which of two writers won is timing
}
extern "C" __global__ void overwritten(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ int words[256];
  if (threadIdx.x == 0) words[5] = n - blockIdx.x * 256;
  __syncthreads();
  words[threadIdx.x] = threadIdx.x;                      // every word, word 5 among them
  __syncthreads();
  int i = blockIdx.x * 256 + threadIdx.x;
  if (threadIdx.x < words[5]) y[i] = 2.0f * x[i];        // 5 now, not the count
}
extern "C" __global__ void twice(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ int left;
  for (int k = 0; k < 2; ++k) {   // unrolled: two stores of the word, each read after a barrier
    if (threadIdx.x == 0) left = n - blockIdx.x * 512 - k * 256;
    __syncthreads();
    int i = blockIdx.x * 512 + k * 256 + threadIdx.x;
    if (threadIdx.x < left) y[i] = 2.0f * x[i];
    __syncthreads();
  }
}
extern "C" __global__ void in_a_loop(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ int left;
#pragma unroll 1
  for (int k = 0; k < 2; ++k) {
    if (threadIdx.x == 0) left = n - blockIdx.x * 512 - k * 256;
    __syncthreads();
    int i = blockIdx.x * 512 + k * 256 + threadIdx.x;
    if (threadIdx.x < left) y[i] = 2.0f * x[i];
    __syncthreads();
  }
}
extern "C" __global__ void store_warp_striped(int n, const float* __restrict__ x, float* __restrict__ y) {
  using Store = cub::BlockStore<float, 128, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ typename Store::TempStorage tmp;
  float v[4];
  int base = blockIdx.x * 512;
  for (int k = 0; k < 4; ++k) { int i = base + threadIdx.x * 4 + k; v[k] = i < n ? 2.0f * x[i] : 0.0f; }
  Store(tmp).Store(y + base, v, n - base);
}
'''


def launch(tmp_path, entry: str, n: int, per_block: int = 256, block: str = "256"):
    path = tmp_path / "shared_values.cu"
    path.write_text(KERNELS)
    return {(r.space, r.array, r.op): r for r in A.analyze_launch(
        A.prepare(path, entry, f"cdiv(n,{per_block})", block, {"n": n})).rows}


@needs_nvcc
@pytest.mark.parametrize("n,warps,sectors", [(1000, 32, 125), (100_003, 3_126, 12_501)])
def test_a_count_one_thread_shares_decides_the_stores(tmp_path, n, warps, sectors):
    # thread 0 of block b stores n - 256 b, every thread reads it back after __syncthreads: the
    # threads below n store y[i], as `if (i < n)` would. n = 1,000: 31 full warps and one of 8
    # lanes, 4,000 bytes in 125 sectors; n = 100,003: 3,125 full warps and one of 3 lanes, 12,501
    r = launch(tmp_path, "shared_count", n)
    for array, op in (("x", "load"), ("y", "store")):
        assert (r["global", array, op].requests, r["global", array, op].sectors) == (warps, sectors)


@needs_nvcc
def test_a_word_stored_again_is_read_as_last_stored(tmp_path):
    # twice, unrolled: block b's thread 0 stores n - 512 b, then n - 512 b - 256, each read back
    # after a barrier, each guarding the stores of one half of the block's 512 elements: at n =
    # 1,000 the threads below n store, 32 warps (the last of 8 lanes) and 125 sectors in all.
    # Had the second read been handed the first value (488 in block 1), block 1's second half
    # would store y[1000..1023] too, past n: 128 sectors
    r = launch(tmp_path, "twice", 1000, per_block=512)
    assert (r["global", "y", "store"].requests, r["global", "y", "store"].sectors) == (32, 125)


@needs_nvcc
def test_cub_block_store_guarded_by_its_shared_count_is_counted(tmp_path):
    # BlockStore<float, 128, 4, WARP_TRANSPOSE>.Store(y + 512 b, v, n - 512 b): thread 0 stores the
    # valid count in TempStorage, a barrier, every warp stores 4 x 32 consecutive floats where
    # their index is below it. n = 100,003: the 3,126 warps of 32 floats that reach below n (the
    # last of 3), 400,012 bytes in 12,501 sectors
    r = launch(tmp_path, "store_warp_striped", 100_003, per_block=512, block="128")
    assert (r["global", "y", "store"].requests, r["global", "y", "store"].sectors) == (3_126, 12_501)


@needs_nvcc
@pytest.mark.parametrize("entry", ["two_writers", "overwritten", "in_a_loop"])
def test_a_shared_word_not_known_for_the_block_is_data(tmp_path, entry):
    # two threads store different values; a store by every thread overwrites the word; a store in
    # a loop (its value changes per iteration): the word read back is data, and steers the stores
    with pytest.raises(UsageError, match=rf"{entry}: a condition computed from data steers control flow or "
                                         r"predicates an access, at pc 0x[0-9a-f]+ \(.*\), line \d+"):
        launch(tmp_path, entry, 1000)
