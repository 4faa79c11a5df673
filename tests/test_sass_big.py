"""Buffers past 4 GiB: a 64-bit address whose high word changes inside the launch. The block
range is cut where it changes (each piece then has one high word; a block that straddles the
edge runs by itself, its threads deciding), so a saxpy over 2^31 floats is counted, not refused.
Checked against the brute-force executor (every thread concrete) on launches small enough to run
thread by thread whose addresses still cross 4 GiB edges, and by derivation at full size."""

from __future__ import annotations

import pytest

from test_sass_engine import per_pc
from test_sass_frontend import needs_nvcc
from warpsim.sass import analyze as A

SOURCE = '''extern "C" __global__ void saxpy64(size_t n, float a, const float *x, float *y) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void saxpy32(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void from(size_t off, size_t n, const float *x, float *y) {
  size_t i = off + blockIdx.x * (size_t)blockDim.x + threadIdx.x;   // i crosses 2^30 k near off
  if (i < off + n) y[i - off] = x[i];
}
extern "C" __global__ void spread(int n, long long stride, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i * stride] = x[i];   // lanes stride floats apart: y spans n * stride * 4 bytes
}
'''


def prepare(tmp_path, name: str, args: dict, block: str = "256"):
    path = tmp_path / "big.cu"
    path.write_text(SOURCE)
    return A.prepare(path, name, f"cdiv(n,{block})", block, args)


def rows(kernel) -> dict:
    return {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(kernel).rows}


@needs_nvcc
@pytest.mark.parametrize("off", [2**30 - 1000, 2**31 - 1000, 3 * 2**30 - 1000, 2**32 - 1000])
def test_an_index_past_2_to_the_30_k_is_cut_at_the_block_that_crosses_it(tmp_path, monkeypatch, off):
    # x[i], i = off + 0 .. 63,999 (2,000 blocks of 32): the 64-bit index's low word, i << 2 (a
    # float's bytes) and the address cross 2^32 near i = 2^30 k. Counted in pieces cut at that
    # block (before: refused as a 32-bit wrap, or run block by block), equal to every thread run
    # concretely, pc by pc: 2,000 requests of 4 sectors each (a warp's 128 bytes start 32-byte
    # aligned). A launch this small that can run block by block does so (its cache figures as
    # before); here the cuts are asked for from any size, as they are past 1,048,576 blocks
    monkeypatch.setattr(A, "WIDE_CUTS_FROM", 0)
    k = prepare(tmp_path, "from", {"off": off, "n": 64_000, "x": "float[off+n]", "y": "float[n]"}, "32")
    fast = A.analyze_launch(k, by_pc=True)
    assert not fast.warnings
    assert per_pc(fast) == per_pc(A.brute_force(k, by_pc=True))
    assert rows(k)[("x", "load")] == (2_000, 8_000)


@needs_nvcc
@pytest.mark.parametrize("n,stride,block", [(1000, 1 << 22, "256"), (300, (1 << 20) + 3, "32"), (77, 3 << 26, "64")])
def test_addresses_across_4_gib_edges_count_as_thread_by_thread(tmp_path, n, stride, block):
    # y[i * stride]: 16 MiB, 4 MiB + 12 B and 768 MiB apart, so y's 4 GiB edges fall between
    # blocks, inside them and every few lanes; the cut pieces count what every thread run
    # concretely counts, instruction by instruction
    k = prepare(tmp_path, "spread", {"n": n, "stride": stride, "x": "float[n]", "y": f"float[n*{stride}]"}, block)
    fast = A.analyze_launch(k, by_pc=True)
    assert not fast.warnings  # counted symbolically in cut pieces, not by running each block
    assert per_pc(fast) == per_pc(A.brute_force(k, by_pc=True))
    # each lane's store a sector of its own: n sectors in cdiv(n, 32) requests
    assert rows(k)[("y", "store")] == (-(-n // 32), n)


@needs_nvcc
@pytest.mark.parametrize("name,n", [("saxpy64", 2**31 + 77), ("saxpy64", 5_000_000_000), ("saxpy32", 2_000_000_000)])
def test_a_saxpy_over_buffers_of_8_to_20_gb_is_counted(tmp_path, name, n):
    # x, y of n floats (8.6, 20 and 8 GB), 256-byte aligned: every access requests cdiv(n, 32)
    # warps' worth and touches cdiv(4 n, 32) sectors; 2^31 + 77: 67,108,867 and 268,435,466
    got = rows(prepare(tmp_path, name, {"n": n, "a": 2.0, "x": "float[n]", "y": "float[n]"}))
    want = (-(-n // 32), -(-4 * n // 32))
    assert got == {("x", "load"): want, ("y", "load"): want, ("y", "store"): want}
    if n == 2**31 + 77:
        assert want == (67_108_867, 268_435_466)


ROWS = '''extern "C" __global__ void rows4g(size_t stride, const float *x, float *y) {
  size_t i = threadIdx.y * stride + blockIdx.x * 32 + threadIdx.x;   // a block's 4 rows, stride floats apart
  y[i] = 2.0f * x[i];
}
'''


@needs_nvcc
@pytest.mark.parametrize("stride,pieces,sectors", [(2**30 + 5, [(0, 1_000)], 19),
                                                   (2**30 - 2**26 - 2**14, [(0, 512), (512, 1_000)], 16)])
def test_rows_4_gib_apart_keep_a_window_each(tmp_path, stride, pieces, sectors):
    # the 4 rows of a block of 32 x 4 lie 4 GiB and more apart, so the launch's addresses span
    # several 4 GiB windows, but each thread's stays in one over its 1,000 blocks: its high word
    # (and its low word's shift) is a number per thread (values.thread_windows), one piece
    # (before: block by block, and refused past 2**20 blocks). With 2**30 - 2**26 - 2**14 row 1
    # starts 64 KiB below a 4 GiB edge (the buffer lies 2**28 past one): its threads reach the
    # edge at block 512 (128 bytes a block), where the range is cut (values._thread_carry_cuts).
    # A block's sectors: row ty starts 4 ty stride bytes in, 4 sectors if that is a multiple of
    # 32, else 5: 2**30 + 5 gives 0, 20, 40, 60 (mod 32): 4 + 5 + 5 + 5 = 19; the other is a
    # multiple of 8 floats: 16
    path = tmp_path / "rows.cu"
    path.write_text(ROWS)
    k = A.prepare(path, "rows4g", "1000", "32x4", {"stride": stride, "x": "float[4*stride]", "y": "float[4*stride]"})
    fast = A.analyze_launch(k, by_pc=True, enumerate_blocks=0)  # never block by block
    assert per_pc(fast) == per_pc(A.brute_force(k, by_pc=True))
    assert sorted(ranges["x"] for ranges, _ in A.pieces(k)[0]) == pieces
    assert rows(k) == {("x", "load"): (4_000, 1_000 * sectors), ("y", "store"): (4_000, 1_000 * sectors)}


@needs_nvcc
def test_a_tiled_transpose_over_4_gib_past_2_to_the_20_blocks_is_counted():
    # kernels/transpose.cu's 32 x 32 tiles over 2,000,001 x 600 floats (4.8 GB each way), 19 x
    # 62,501 = 1,187,519 blocks (blind batch 32, measured exact): a tile's 32 rows of out lie 8 MB
    # apart, so its threads' 4 GiB windows differ; each is one number in each piece of the launch.
    # Refused before (no block index decided the window, too many blocks to run one by one).
    # in: each of M rows (2,400 bytes, 32-byte aligned) in 19 warps, 18 of 128 bytes (4 sectors)
    # and one of 96 (3). out: each of N rows in 62,501 warps, 62,500 of 128 bytes starting
    # 8,000,004 n bytes in (4 sectors where n % 8 == 0, else 5) and one float (1 sector)
    from pathlib import Path

    import numpy as np

    M, N = 2_000_001, 600
    k = A.prepare(Path(__file__).resolve().parent.parent / "kernels" / "transpose.cu", "transpose_tiled<0>",
                  "cdiv(N,32),cdiv(M,32)", "32x8", {"M": M, "N": N, "in": "float[M*N]", "out": "float[N*M]"})
    assert tuple(k.launch.grid) == (19, 62_501, 1) and 19 * 62_501 > A.ENUMERATE_BLOCKS
    n = np.arange(N)
    out = int((62_500 * np.where(n % 8 == 0, 4, 5) + 1).sum())
    got = rows(k)
    assert got[("in", "load")] == (19 * M, 75 * M) == (38_000_019, 150_000_075)
    assert got[("out", "store")] == (62_501 * N, out) == (37_500_600, 182_813_100)
