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
