"""What the SASS engine refuses, and how: one line naming the instruction (pc, opcode, source line)
and why, never a guessed count. Kernels written here, compiled with the pinned nvcc."""

from __future__ import annotations

import pytest

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A
from warpsim.sass import ops

GATHER = '''extern "C" __global__ void gather(int n, const int *idx, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[idx[i]];   // line 3: the address of x comes from data
}
'''
BRANCH = '''extern "C" __global__ void relu_count(int n, const float *x, int *hits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.0f) hits[i] = 1;   // line 3: a store decided by data
}
'''
WRAP = '''extern "C" __global__ void big(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i * 1000] = 0.0f;   // line 3: i * 1000 wraps 32 bits at a large grid
}
'''


def kernel(tmp_path, source: str, name: str, grid: str, block: str, args: dict):
    path = tmp_path / f"{name}.cu"
    path.write_text(source)
    return A.prepare(path, name, grid, block, args)


@needs_nvcc
def test_a_data_dependent_address_is_refused_by_instruction(tmp_path):
    k = kernel(tmp_path, GATHER, "gather", "cdiv(n,256)", "256", {"n": 1000})
    with pytest.raises(UsageError, match=r"gather: an address computed from data \(LDG at pc 0x[0-9a-f]+\).*"
                                         r"at pc 0x[0-9a-f]+ \(LDG\.E .*\), line 3") as err:
        A.analyze_launch(k)
    assert "\n" not in str(err.value)


@needs_nvcc
def test_a_data_dependent_predicate_is_refused(tmp_path):
    k = kernel(tmp_path, BRANCH, "relu_count", "cdiv(n,256)", "256", {"n": 1000})
    with pytest.raises(UsageError, match=r"a condition computed from data steers control flow or predicates an "
                                         r"access, at pc 0x[0-9a-f]+ .*line 3"):
        A.analyze_launch(k)


@needs_nvcc
def test_wrapping_32_bit_arithmetic_is_refused_not_guessed(tmp_path):
    fine = kernel(tmp_path, WRAP, "big", "cdiv(n,256)", "256", {"n": 1000})
    assert A.analyze_launch(fine).rows[0].requests == 32  # 1000 threads: 31 full warps and one of 8
    # 2^22 threads: i * 1000 reaches 4.2e9 > 2^31, the register wraps inside the launch
    huge = kernel(tmp_path, WRAP, "big", "cdiv(n,256)", "256", {"n": 1 << 22})
    with pytest.raises(UsageError, match=r"a 32-bit value wraps around inside the launch .* not affine in "
                                         r"blockIdx.x, at pc .*line 3"):
        A.analyze_launch(huge)


WINDOW = '''extern "C" __global__ void window(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 64; ++k) { if (i + k >= n) break; s += x[i + k]; }   // min(64, n - i), unsigned
  if (i < n) y[i] = s;
}
'''


@needs_nvcc
@pytest.mark.parametrize("n", [1000, 100000])
def test_a_value_that_crosses_zero_at_the_edge_block_is_cut_there_not_refused(tmp_path, n):
    # nvcc bounds the loop by an unsigned min of 64 and n - i, negative past n: read unsigned over all
    # blocks it wraps (refused until this stop); the block range is cut at the edge block instead
    k = kernel(tmp_path, WINDOW, "window", "cdiv(n,256)", "256", {"n": n})
    fast = A.analyze_launch(k)
    assert [r.record() for r in fast.rows] == [r.record() for r in A.brute_force(k).rows]
    # each thread i < n loads min(64, n - i) elements: 64 for the first n - 63, then 63, 62, ..., 1
    (x,) = [r for r in fast.rows if r.array == "x"]
    assert x.active_lanes == (n - 63) * 64 + 63 * 64 // 2


@needs_nvcc
def test_an_opcode_the_engine_does_not_know_is_named(tmp_path, monkeypatch):
    k = kernel(tmp_path, WRAP, "big", "cdiv(n,256)", "256", {"n": 1000})
    monkeypatch.delitem(ops.DISPATCH, "STG")  # as if STG were new to the engine
    with pytest.raises(UsageError, match=r"the engine does not know the opcode STG\.E at pc 0x[0-9a-f]+ "
                                         r"\(STG\.E .*\), line 3: it cannot count this kernel exactly"):
        A.analyze_launch(k)


@needs_nvcc
def test_the_brute_force_refuses_large_launches(tmp_path):
    k = kernel(tmp_path, WRAP, "big", "cdiv(n,256)", "256", {"n": 1 << 29})
    with pytest.raises(UsageError, match=r"brute force is for small launches: 2097152 blocks > 1048576"):
        A.brute_force(k)


SQUARE = '''extern "C" __global__ void square(int n, float *y) {
  int b = blockIdx.x;
  y[(b * b) % 1024 * 32 + threadIdx.x] = 1.0f;   // line 3: the block index squared
}
'''


@needs_nvcc
def test_arithmetic_not_affine_in_a_block_index_is_counted_block_by_block(tmp_path):
    # b*b is not affine in blockIdx.x, and 200 values are more than the 64 the symbolic run takes
    # one at a time: the launch is run block by block instead, exactly, and says so. Each block is
    # one warp storing 32 consecutive floats at a multiple of 128 B: 1 request, 4 sectors a block.
    k = kernel(tmp_path, SQUARE, "square", "200", "32", {"n": 1})
    seen = []
    a = A.analyze_launch(k, progress=lambda done, total: seen.append((done, total)))
    (row,) = a.rows
    assert (row.array, row.op, row.requests, row.sectors, row.active_lanes) == ("y", "store", 200, 800, 200 * 32)
    assert a.engine == "sass" and len(a.warnings) == 1
    assert a.warnings[0].startswith("counted by running each of its 200 blocks (exact, not symbolic): a product "
                                    "of two values that both depend on block or loop indices, at pc ")
    assert seen and seen[-1] == (200, 200) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    brute = A.brute_force(k)
    assert [(r.requests, r.sectors, r.lines) for r in brute.rows] == [(row.requests, row.sectors, row.lines)]


@needs_nvcc
def test_a_launch_too_large_to_run_block_by_block_is_refused(tmp_path):
    k = kernel(tmp_path, SQUARE, "square", "300", "32", {"n": 1})
    with pytest.raises(UsageError, match=r"^square: a product of two values .* line 3; its 300 blocks are too many "
                                         r"to run one by one \(at most 100\): warpsim cannot count this launch "
                                         r"exactly$"):
        A.analyze_launch(k, enumerate_blocks=100)


REWRITES = '''extern "C" __global__ void rewrites(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ int rounds;
  if (threadIdx.x == 0) rounds = n - blockIdx.x * blockIdx.x % 3;   // line 3: a square of the block index
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < rounds; ++k) {                   // line 6: reloaded after every barrier
    acc += x[k * 256 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0 && k == 0) rounds = 3;        // the bound is written in the loop
    __syncthreads();
  }
  y[blockIdx.x * 256 + threadIdx.x] = acc;
}
'''


@needs_nvcc
def test_where_both_ways_stop_the_block_by_block_reason_comes_first(tmp_path):
    # blockIdx.x * blockIdx.x is not affine, and 100 blocks are more than the symbolic run takes
    # one at a time, so the launch is run block by block; there the bound the loop writes is data
    # after the first round, and decides the trip count: refused, with that reason first and the
    # symbolic one after it
    k = kernel(tmp_path, REWRITES, "rewrites", "100", "256", {"n": 9})
    with pytest.raises(UsageError, match=r"^rewrites: a condition computed from data steers control flow .* line 6: "
                                         r"it decides whether a loop that holds it goes round again .* \(tried block "
                                         r"by block because a product of two values .* line 3\): "
                                         r"warpsim cannot count this kernel exactly$"):
        A.analyze_launch(k)


@needs_nvcc
def test_a_data_dependent_address_is_refused_even_when_small(tmp_path):
    # running each block cannot help: the engine keeps no values in memory, so it never falls back
    k = kernel(tmp_path, GATHER, "gather", "1", "32", {"n": 32})
    with pytest.raises(UsageError, match=r"an address computed from data"):
        A.analyze_launch(k)


@needs_nvcc
def test_a_launch_too_slow_to_run_block_by_block_is_refused_early(tmp_path):
    # the first chunk (64 of the 200 one-warp blocks) projects the whole run past the limit
    k = kernel(tmp_path, SQUARE, "square", "200", "32", {"n": 1})
    with pytest.raises(UsageError, match=r"^square: a product .* line 3; running its 200 blocks one by one would "
                                         r"take about .* s \(its first 64 took .* s; the limit is 0 s\): warpsim "
                                         r"cannot count this launch exactly$"):
        A.analyze_launch(k, enumerate_seconds=1e-9)


DYNAMIC = '''extern "C" __global__ void flip(int n, const float *in, float *out) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0.0f;   // line 4: the block's dynamic shared memory
  __syncthreads();
  if (i < n) out[i] = buf[blockDim.x - 1 - threadIdx.x];
}
'''


@needs_nvcc
def test_dynamic_shared_memory_is_sized_at_launch_or_refused(tmp_path):
    # `extern __shared__` takes the launch's third <<<...>>> argument. Without --dynamic-shared
    # the block's window is its static 1 KiB (the reserve the sm_90 driver keeps), and the first
    # store past it is refused by instruction; with 4 * 256 bytes every access lies in the window
    # and is counted: 1000 floats stored and loaded once, 32 lanes x 4 B = one wavefront a request
    # (the reversed read is a permutation of the banks: no conflicts)
    path = tmp_path / "flip.cu"
    path.write_text(DYNAMIC)
    args = {"n": "1000", "in": "float[n]", "out": "float[n]"}
    with pytest.raises(UsageError, match=r"^flip: a shared access at bytes \[0x400, 0x800\) of the block's shared "
                                         r"window, which holds 1,024 .*needs --dynamic-shared BYTES.*, line 4"):
        A.analyze_launch(A.prepare(path, "flip", "cdiv(n,256)", "256", args))
    k = A.prepare(path, "flip", "cdiv(n,256)", "256", args, dynamic_shared="4*256")
    assert k.launch.dynamic_shared == 1024 and k.launch.shared_bytes == 2048
    rows = {(r.space, r.op): r for r in A.analyze_launch(k).rows}
    assert rows[("shared", "store")].active_lanes == 1024 and rows[("shared", "load")].active_lanes == 1000
    assert rows[("shared", "load")].wavefronts == rows[("shared", "load")].requests == 32
    assert rows[("shared", "load")].bank_conflicts == 0
    # a window one float short is refused at the last lane's store: bytes [0x400, 0x800) again
    with pytest.raises(UsageError, match=r"which holds 2,044 "):
        A.analyze_launch(A.prepare(path, "flip", "cdiv(n,256)", "256", args, dynamic_shared="4*255"))
    # past the 227 KiB a block may take on sm_90, or below 0: refused before anything runs
    for bad in ("227*1024+1", "0-4"):
        with pytest.raises(UsageError, match=r"--dynamic-shared .* bytes: a block takes 0 to 232,448 bytes"):
            A.prepare(path, "flip", "cdiv(n,256)", "256", args, dynamic_shared=bad)


@needs_nvcc
def test_dynamic_shared_memory_decides_the_blocks_an_sm_holds(tmp_path):
    # the cache model places blocks by their shared memory, static and dynamic: 8 warps a block
    # fit 8 to an SM by threads (2048 / 256); 64 KiB of dynamic shared memory each (65,536 + the
    # 1 KiB static reserve + the driver's 1 KiB a block) fit 3 in the 228 KiB of an SM
    from warpsim.caches import caches_for_launch

    path = tmp_path / "flip.cu"
    path.write_text(DYNAMIC)
    args = {"n": "100000", "in": "float[n]", "out": "float[n]"}
    small = caches_for_launch(A.prepare(path, "flip", "cdiv(n,256)", "256", args, dynamic_shared="1024"))
    big = caches_for_launch(A.prepare(path, "flip", "cdiv(n,256)", "256", args, dynamic_shared="65536"))
    assert small.residency.blocks_per_sm == 8 and big.residency.blocks_per_sm == 3


# Local memory: words every thread stores at one address (a spill, a per-thread array at a fixed
# index) are kept like registers, so an address reloaded from one is still followed; a store at an
# address per lane makes every word it may overwrite data.
PICK = '''extern "C" __global__ void pick(int n, int j, int k, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int idx[8];
  for (int t = 0; t < 8; ++t) idx[(t + j) & 7] = (t + 1) * i;  // an offset for every thread (STL)
  if (i < n) y[i] = x[idx[k & 7]];                             // line 5: the address reloaded (LDL)
}
'''
CLOBBER = '''extern "C" __global__ void clobber(int n, int j, int k, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int idx[8];
  for (int t = 0; t < 8; ++t) idx[(t + j) & 7] = (t + 1) * i;
  idx[i & 7] = 0;                                              // an offset per lane: any word may change
  if (i < n) y[i] = x[idx[k & 7]];                             // line 6
}
'''
ARGS = {"n": 1000, "j": 3, "k": 5, "x": "float[3*n]"}


@needs_nvcc
def test_an_address_kept_in_local_memory_is_followed(tmp_path):
    # j = 3, k = 5: idx[5] was stored at t = 2, so x[3 i]: 12 B apart, a full warp's 32 lanes
    # span 384 B = 12 sectors; n = 1000 is 31 full warps and one of 8 lanes (96 B, 3 sectors)
    k = kernel(tmp_path, PICK, "pick", "cdiv(n,256)", "256", ARGS)
    counted = A.analyze_launch(k)
    assert {r.kind for r in counted.rows if r.space == "local"} == {"LDL", "STL"}  # it is in local memory
    x = counted.row("global", "x", "load")
    assert (x.requests, x.sectors) == (32, 31 * 12 + 3)
    assert x.sectors == A.brute_force(k).row("global", "x", "load").sectors


@needs_nvcc
def test_a_local_store_per_lane_makes_the_words_it_may_overwrite_data(tmp_path):
    k = kernel(tmp_path, CLOBBER, "clobber", "cdiv(n,256)", "256", ARGS)
    with pytest.raises(UsageError, match=r"clobber: an address computed from data \(STL at pc 0x[0-9a-f]+\).*"
                                         r"line 6"):
        A.analyze_launch(k)


@needs_nvcc
def test_a_texture_object_is_refused_as_a_texture_not_a_structure(tmp_path):
    source = '''extern "C" __global__ void tex(int n, cudaTextureObject_t t, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = tex1Dfetch<float>(t, i);
}
'''
    with pytest.raises(UsageError, match=r"^parameter t is a texture object: its fetches go through the texture "
                                         r"path, which warpsim does not count"):
        kernel(tmp_path, source, "tex", "cdiv(n,256)", "256", {"n": 1000, "t": "0"})


ABORTS = '''#include <cassert>
#include <cooperative_groups.h>
extern "C" __global__ void checked(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < 2 * n + 256);   // line 5: holds while the grid covers n, fails past 2 n + 256
  if (i < n) y[i] = x[i];
}
extern "C" __global__ void trapped(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 2 * n + 256) __trap();   // line 10
  if (i < n) y[i] = x[i];
}
extern "C" __global__ void grid_synced(float *x, float *y, int n) {
  cooperative_groups::grid_group g = cooperative_groups::this_grid();
  int i = g.thread_rank();
  if (i < n) y[i] = x[i];
  g.sync();   // traps unless launched with cudaLaunchCooperativeKernel
  if (i < n) x[i] = y[(i + 1) % n];
}
'''


@needs_nvcc
@pytest.mark.parametrize("name,blocks,message", [
    ("checked", 4, None), ("trapped", 4, None),  # n = 1000, 1,024 threads: no thread reaches the assert or trap
    # 12 blocks: threads 2,256 and up fail the assert, or trap; the refusal says which, not "a call"
    ("checked", 12, r"checked: an assert whose condition does not hold in every thread of this launch \(its "
                    r"__assertfail stops the launch on the GPU\).* at pc 0x[0-9a-f]+ \(LEPC .*\), line 5"),
    ("trapped", 12, r"trapped: a __trap\(\) that some threads of this launch reach .*the GPU aborts the launch "
                    r"there, so there is nothing to count, at pc 0x[0-9a-f]+ \(BPT\.TRAP 0x1\), line 10"),
    ("grid_synced", 4, r"grid_synced: a __trap\(\) that some threads of this launch reach \(or cooperative groups' "
                       r"grid sync in a launch that is not cooperative, which traps\)"),
])
def test_a_launch_that_would_abort_is_refused_by_what_aborts_it(tmp_path, name, blocks, message):
    k = kernel(tmp_path, ABORTS, name, str(blocks), "256", {"n": 1000, "x": "float[n]", "y": "float[n]"})
    if message is None:
        y = next(r for r in A.analyze_launch(k).rows if r.array == "y")
        assert (y.requests, y.sectors) == (32, 125)  # 31 full warps of 4 sectors, the last 8 lanes 1
        return
    with pytest.raises(UsageError, match=message) as refused:
        A.analyze_launch(k)
    assert "\n" not in str(refused.value)



BULK = '''#include <cuda/barrier>
extern "C" __global__ void bulk_scale(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ alignas(16) float tile[1024];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) cuda::memcpy_async(tile, x + blockIdx.x * 1024, cuda::aligned_size_t<16>(4096), bar);
  bar.arrive_and_wait();
  for (int k = threadIdx.x; k < 1024; k += blockDim.x) y[blockIdx.x * 1024 + k] = 2.0f * tile[k];
}
'''


@needs_nvcc
def test_hoppers_asynchronous_copies_are_refused_by_name(tmp_path):
    # cuda::memcpy_async of a 16-byte aligned tile with a block-scope barrier compiles on sm_90 to
    # an mbarrier (SYNCS.*) and a bulk copy (UBLKCP): what ncu counts of them is not measured, so
    # the launch is refused, the instruction named for what it is, not as an unknown opcode
    k = kernel(tmp_path, BULK, "bulk_scale", "n//1024", "256", {"n": 1 << 20})
    with pytest.raises(UsageError, match=r"bulk_scale: SYNCS\.\S+ \(an mbarrier operation of sm_90: cuda::barrier, "
                                         r".*\) at pc 0x[0-9a-f]+ .*: warpsim does not follow Hopper's asynchronous "
                                         r"copies and warpgroup MMAs yet, so it cannot count this kernel exactly"):
        A.analyze_launch(k)
