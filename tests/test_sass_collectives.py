"""Warp collectives guarded by a convergence check: BRA.DIV branches where the threads of its mask
that still run are not all at the branch (the warp has diverged), BRA.CONV where they are. nvcc
puts one before a collective it cannot prove runs on a converged warp (CUB's warp scans inside
an `if`, named barriers), with a slow path of the same effect on the other side. warpsim follows
the converged side where every thread of the mask that exists and has not exited is on the path,
and refuses a warp split between paths. Kernels of kernels/cub.cu (blind batch 28) and written
here, compiled with the pinned nvcc (CUB from its CCCL headers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A

KERNELS = Path(__file__).resolve().parent.parent / "kernels"

WRITTEN = '''#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_scan.cuh>
extern "C" __global__ void scan_low_warps(int n, const int* __restrict__ x, int* __restrict__ y) {
  using WarpScan = cub::WarpScan<int>;
  __shared__ typename WarpScan::TempStorage tmp[2];
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i >= n) return;
  int v = x[i];
  if (threadIdx.x < 64) WarpScan(tmp[threadIdx.x / 32]).InclusiveSum(v, v);
  y[i] = v;
}
extern "C" __global__ void tiles_scan(int n, const int* __restrict__ x, int* __restrict__ y) {
  using Scan = cub::BlockScan<int, 128>;
  __shared__ typename Scan::TempStorage tmp;
  for (int base = blockIdx.x * 128; base < n; base += gridDim.x * 128) {
    int i = base + threadIdx.x;
    int v = i < n ? x[i] : 0;
    Scan(tmp).InclusiveSum(v, v);
    if (i < n) y[i] = v;
    __syncthreads();
  }
}
extern "C" __global__ void scan_odd_lanes(int n, const int* __restrict__ x, int* __restrict__ y) {
  using WarpScan = cub::WarpScan<int>;
  __shared__ typename WarpScan::TempStorage tmp[4];
  int i = blockIdx.x * 128 + threadIdx.x;
  int v = i < n ? x[i] : 0;
  if (threadIdx.x & 1) WarpScan(tmp[threadIdx.x / 32]).InclusiveSum(v, v);  // line 28: half a warp
  if (i < n) y[i] = v;
}
extern "C" __global__ void named_bars(int n, const unsigned* __restrict__ x, unsigned* __restrict__ out) {
  __shared__ unsigned data[32];
  int i = blockIdx.x * 64 + threadIdx.x;
  if (threadIdx.x < 32) {
    asm volatile("barrier.cta.sync 0, 64;");
    data[threadIdx.x] = i < n ? x[i] : 0u;
    asm volatile("barrier.cta.arrive 1, 64;");
  } else {
    asm volatile("barrier.cta.arrive 0, 64;");
    asm volatile("barrier.cta.sync 1, 64;");
    if (i - 32 < n) out[i - 32] = data[threadIdx.x - 32];
  }
}
'''


def rows(analysis) -> dict:
    return {(r.space, r.array, r.op): r for r in analysis.rows}


def written(tmp_path, entry: str, grid: str, block: str, n: int):
    path = tmp_path / "collectives.cu"
    path.write_text(WRITTEN)
    kernel = A.prepare(path, entry, grid, block, {"n": n})
    assert any(i.opcode == "BRA" and {"DIV", "CONV"} & set(i.mods) for i in kernel.program.instructions)
    return A.analyze_launch(kernel)


@needs_nvcc
def test_cub_block_scan_runs_its_converged_warp_scan_exactly():
    # kernels/cub.cu block_scan at n = 100,003: 782 blocks of 4 warps. Global: x is read and y
    # written by every warp with a thread below n, 3,128 less the last block's warps 2 and 3
    # (its threads 99,968 + 0..34 are below n): 3,126 requests over 400,012 bytes, 12,501 sectors.
    # Shared (CUB's raking layout, a word of padding every 4: thread t's word is t + t / 4):
    # every warp stores its value (STS [t + t/4]: 39 words for 32 lanes, the last 7 on banks of
    # the first 7, so 2 wavefronts), warp 0 alone rakes (4 STS and 4 LDS at 5 words a lane: one
    # wavefront each) behind BRA.DIV, whose mask's 32 threads are all there; then every warp
    # reads its result (LDS [t + t/4], 2 wavefronts) after the threads at or past n exit.
    # Stores: 8 instructions a block, 4 x 2 + 4 = 12 wavefronts: 6,256 and 9,384. Loads: the
    # same 8 and 12, but the last block's warps 2 and 3 have exited (2 instructions, 4
    # wavefronts) and its warp 1 has 3 threads, whose words 40-42 take one wavefront: 6,254
    # and 9,379.
    kernel = A.prepare(KERNELS / "cub.cu", "block_scan", "cdiv(n,128)", "128", {"n": 100_003})
    assert any(i.opcode == "BRA" and "DIV" in i.mods for i in kernel.program.instructions)
    r = rows(A.analyze_launch(kernel))
    for array, op in (("x", "load"), ("y", "store")):
        assert (r["global", array, op].requests, r["global", array, op].sectors) == (3_126, 12_501)
    assert (r["shared", "tmp", "store"].instructions, r["shared", "tmp", "store"].wavefronts) == (6_256, 9_384)
    assert (r["shared", "tmp", "load"].instructions, r["shared", "tmp", "load"].wavefronts) == (6_254, 9_379)


@needs_nvcc
def test_threads_that_exited_do_not_make_a_warp_diverged(tmp_path):
    # scan_low_warps at n = 100,003: the threads at or past n return first, then warps 0 and 1
    # scan behind BRA.DIV. In the last block warp 1 keeps threads 32-34 only: they are all of
    # its mask's threads still running, so the warp is converged (were the 29 that exited
    # counted as elsewhere, the kernel would be refused). x and y: 3,126 warps, 12,501 sectors.
    r = rows(written(tmp_path, "scan_low_warps", "cdiv(n,128)", "128", 100_003))
    assert (r["global", "x", "load"].requests, r["global", "x", "load"].sectors) == (3_126, 12_501)
    assert (r["global", "y", "store"].requests, r["global", "y", "store"].sectors) == (3_126, 12_501)


@needs_nvcc
def test_a_block_scan_in_a_grid_stride_loop_is_counted_tile_by_tile(tmp_path):
    # tiles_scan at n = 100,003 on 132 blocks: the 782 tiles of 128 of block_scan above, each scanned
    # by the block whose turn it is; the loop's condition is the same for every thread of a warp,
    # so it cannot split one at the BRA.DIV. The same global counts, 3,126 warps and 12,501 sectors
    # for x and y, and the same stores to shared memory, 8 instructions and 12 wavefronts a tile
    r = rows(written(tmp_path, "tiles_scan", "132", "128", 100_003))
    for array, op in (("x", "load"), ("y", "store")):
        assert (r["global", array, op].requests, r["global", array, op].sectors) == (3_126, 12_501)
    assert (r["shared", "tmp", "store"].instructions, r["shared", "tmp", "store"].wavefronts) == (6_256, 9_384)


@needs_nvcc
def test_a_collective_on_a_split_warp_is_refused_in_one_line(tmp_path):
    # the odd lanes scan, the even ones go on: every warp is split at the BRA.DIV
    with pytest.raises(UsageError, match=r"scan_odd_lanes: BRA\.DIV \(a warp collective's check that the warp "
                                         r"has converged\) in warp 0 of a block, whose threads are split between "
                                         r"paths there: .*at pc 0x[0-9a-f]+ \(BRA\.DIV UR\d+, 0x[0-9a-f]+\), line 28"):
        written(tmp_path, "scan_odd_lanes", "cdiv(n,128)", "128", 1000)


@needs_nvcc
def test_a_converged_warp_takes_bra_conv_to_its_named_barrier(tmp_path):
    # named_bars at n = 1,000 (the example of NVIDIA's forum thread on BRA.DIV): 32 blocks of 2
    # warps; warp 0 stores x[64 b + t] into shared memory, warp 1 copies it to out[64 b + t]. Both
    # warps reach their named barriers converged (BRA.DIV falls through, BRA.CONV is taken). x
    # and out: the blocks with 64 b < 1000, b = 0..15, a warp of 4 sectors each: 16 requests, 64
    # sectors; every block's warp 0 stores data (32 STS), the 16 blocks' warp 1 load it (16 LDS).
    r = rows(written(tmp_path, "named_bars", "cdiv(n,32)", "64", 1000))
    assert (r["global", "x", "load"].requests, r["global", "x", "load"].sectors) == (16, 64)
    assert (r["global", "out", "store"].requests, r["global", "out", "store"].sectors) == (16, 64)
    assert (r["shared", "data", "store"].instructions, r["shared", "data", "load"].instructions) == (32, 16)
