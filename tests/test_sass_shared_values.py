"""A block-uniform value handed through shared memory: one thread stores it at one address, a
barrier, every thread reads it back (CUB's guarded BlockStore shares its count of valid items so).
warpsim keeps the word (warpsim.sass.ops_memory._shared_words) where the store is outside loops,
of one value per block, and the read comes after a block-wide barrier (inside a loop too);
anything else that may write the word forgets it, and a read it is not handed is data, as every
other load. Kernels written here, compiled with the pinned nvcc (CUB from its CCCL headers)."""

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
extern "C" __global__ void loop_bound(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ int rounds;
  __shared__ float t[256];
  if (threadIdx.x == 0) rounds = n - blockIdx.x;
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < rounds; ++k) {   // read back after every barrier: nvcc loads it each time round
    t[threadIdx.x] = x[k * 256 + threadIdx.x];
    __syncthreads();
    acc += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[blockIdx.x * 256 + threadIdx.x] = acc;
}
extern "C" __global__ void loop_last_write(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ int base;
  if (threadIdx.x == 0) base = blockIdx.x * 256;
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    y[base + threadIdx.x] += x[k * 256 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0 && k == n - 1) base = -1;   // written in the loop: on its last round only
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


def analyze(tmp_path, entry: str, n: int, grid: str, block: str = "256") -> A.Analysis:
    path = tmp_path / "shared_values.cu"
    path.write_text(KERNELS)
    return A.analyze_launch(A.prepare(path, entry, grid, block, {"n": n}))


def launch(tmp_path, entry: str, n: int, per_block: int = 256, block: str = "256"):
    return {(r.space, r.array, r.op): r for r in analyze(tmp_path, entry, n, f"cdiv(n,{per_block})", block).rows}


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


@needs_nvcc
@pytest.mark.parametrize("blocks", [8, 2_000])
def test_a_loop_bound_read_back_every_round_is_counted_symbolically(tmp_path, blocks):
    # loop_bound, n = blocks + 2: block b's thread 0 stores n - b, and every round reloads it after
    # the barriers. Block b runs n - b rounds: 3 + 4 + ... + n = n (n + 1) / 2 - 3 in all; each loads x and
    # t and stores t once a warp (8 warps), and reloads the bound once a warp (with the one load
    # before the loop): 8 blocks, n = 10: 52 rounds, 416 loads of x (1,664 sectors), LDS 416 + 416
    # + 64 = 896, STS 416 + 8 (the bound, one lane a block). 2,000 blocks: 2,005,000 rounds
    n = blocks + 2
    rounds = n * (n + 1) // 2 - 3
    a = analyze(tmp_path, "loop_bound", n, str(blocks))
    assert not [w for w in a.warnings if "block by block" in w or "running each" in w]
    r = {(row.space, row.op): row for row in a.rows}
    assert (r["global", "load"].requests, r["global", "load"].sectors) == (8 * rounds, 32 * rounds)
    assert r["shared", "load"].requests == 8 * rounds * 2 + 8 * blocks
    assert r["shared", "store"].requests == 8 * rounds + blocks


@needs_nvcc
def test_a_word_a_loop_reads_and_writes_is_followed_block_by_block(tmp_path):
    # loop_last_write: the loop reloads base after each barrier, and thread 0 writes it on the
    # last round. The symbolic run goes round a loop three times, not once per iteration, so it
    # cannot know which rounds read what: the launch is run block by block, whose rounds read the
    # kept word (the write's `@P STS` stores nothing until the last). 8 blocks, n = 5 rounds of 8
    # warps: 320 loads of x, 320 of y and 320 stores of y (4 sectors each), 320 reloads of base;
    # STS: base once a block before the loop, and once on the last round: 16 requests
    a = analyze(tmp_path, "loop_last_write", 5, "8")
    assert any("running each of its 8 blocks" in w and "written again in the loop" in w for w in a.warnings)
    r = {(row.space, row.array, row.op): row for row in a.rows}
    for key in (("global", "x", "load"), ("global", "y", "load"), ("global", "y", "store")):
        assert (r[key].requests, r[key].sectors) == (320, 1280)
    shared = {(row.space, row.op): row for row in a.rows if row.space == "shared"}
    assert (shared["shared", "load"].requests, shared["shared", "store"].requests) == (320, 16)
    with pytest.raises(UsageError, match=r"loop_last_write: a shared word a load in this loop was handed .* may be "
                                         r"written again in the loop.*too many to run one by one"):
        analyze(tmp_path, "loop_last_write", 5, str(A.ENUMERATE_BLOCKS + 1))
