"""A block index divided by a constant: `batch = blockIdx.x / tiles, tile = blockIdx.x % tiles`.
nvcc multiplies by the divisor's inverse and keeps the high word (a constant divisor, or one the
launch gives), or shifts and masks (a power of two): none of it is affine in the block index, but
all of it is within each residue class of the index modulo the divisor, where the quotient is
the class's own index and the remainder one number. warpsim.sass.analyze.pieces splits the index
so (values.StrideRequest), or cuts its range where the quotient changes where that makes fewer
pieces; before, such a launch ran block by block, and past 2**20 blocks was refused.

The oracle here is arithmetic, not the engine: block b moves the 32 floats from float
(b / H) * stride + (b % H) * 32, 4 sectors where that start is a multiple of 8 floats, else 5."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A
from warpsim.sass.values import QUOTIENT

BATCHED = '''extern "C" __global__ void {name}(const float *x, float *y, int tiles, int stride) {{
  {T} b = blockIdx.x, batch = b / ({div}), tile = b % ({div});   // tile b % H of batch b / H
  {T} i = batch * stride + tile * 32 + threadIdx.x;          // one warp's 32 floats; batches `stride` apart
  y[i] = 2.0f * x[i];
}}
'''
KERNELS = "".join(BATCHED.format(name=name, T=T, div=div) for name, T, div in (
    ("by_tiles", "unsigned", "tiles"), ("by_3", "unsigned", "3"), ("by_6", "int", "6"), ("by_16", "int", "16"))) + '''
extern "C" __global__ void by_3_in_a_loop(const float *x, float *y, int tiles, int stride) {
  float acc = 0.0f;
  for (unsigned k = 0; k < tiles; ++k) acc += x[(k / 3) * stride + threadIdx.x];   // a loop index: no class
  y[blockIdx.x * 32 + threadIdx.x] = acc;
}
'''
GROUPED = '''// C = A B, a 32 x 32 tile a block of 32 x 8 threads, the tiles in Triton's grouped order: GROUP rows of
// tiles at a time, so that blocks resident together share tiles of A and B in L2
extern "C" __global__ void grouped_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
  const int GROUP = 8, tiles_m = (M + 31) / 32, tiles_n = (N + 31) / 32;
  int pid = blockIdx.x, in_group = GROUP * tiles_n, group = pid / in_group;
  int first_m = group * GROUP, size_m = min(tiles_m - first_m, GROUP);
  int tile_m = first_m + (pid % in_group) % size_m, tile_n = (pid % in_group) / size_m;
  int row = tile_m * 32 + threadIdx.y, col = tile_n * 32 + threadIdx.x;
  for (int r = 0; r < 32; r += 8) {
    float acc = 0.0f;
    if (row + r < M && col < N) {
      for (int k = 0; k < K; ++k) acc += A[(row + r) * K + k] * B[k * N + col];
      C[(row + r) * N + col] = acc;
    }
  }
}
'''
DIVISORS = {"by_3": 3, "by_6": 6, "by_16": 16}


def analyze(tmp_path, entry: str, blocks: int, tiles: int, stride: int):
    path = tmp_path / "quotients.cu"
    path.write_text(KERNELS)
    k = A.prepare(path, entry, str(blocks), "32", {"tiles": tiles, "stride": stride})
    return k, A.analyze_launch(k, enumerate_blocks=0)  # symbolic or refused: never block by block


def expected(blocks: int, divisor: int, stride: int) -> tuple[int, int]:
    """(requests, sectors) of y's stores (x's loads are the same): one warp a block, whose 128
    bytes start at float (b / H) * stride + (b % H) * 32: 4 sectors if that is a multiple of 8
    floats (32 bytes), else 5."""
    b = np.arange(blocks, dtype=np.int64)
    start = (b // divisor) * stride + (b % divisor) * 32
    return blocks, int(np.sum(np.where(start % 8 == 0, 4, 5)))


def counts(a) -> dict:
    return {(r.array, r.op): (r.requests, r.sectors) for r in a.rows}


@needs_nvcc
@pytest.mark.parametrize("entry,tiles,blocks", [
    ("by_3", 0, 3_071), ("by_6", 0, 1_000), ("by_16", 0, 5_003),
    ("by_tiles", 48, 3_071), ("by_tiles", 7, 301), ("by_tiles", 1_000, 3_071), ("by_tiles", 300, 3_000)])
def test_a_quotient_of_the_block_index_is_counted_symbolically(tmp_path, entry, tiles, blocks):
    # stride 33 floats: batch q starts 132 q bytes in, on a sector boundary where q % 8 == 0
    _, a = analyze(tmp_path, entry, blocks, tiles, 33)
    want = expected(blocks, DIVISORS.get(entry, tiles), 33)
    assert counts(a) == {("x", "load"): want, ("y", "store"): want}
    assert not a.warnings


@needs_nvcc
@pytest.mark.parametrize("entry,tiles,pieces", [("by_3", 0, 3), ("by_6", 0, 6), ("by_16", 0, 16), ("by_tiles", 7, 8)])
def test_the_index_is_split_into_its_residue_classes(tmp_path, entry, tiles, pieces):
    # by_3: one piece per class b = 3q + r, in which b / 3 = q and b % 3 = r; by_6 (signed, nvcc's
    # m = 0x2aaaaaab = ceil(2**32 / 6)) the same with 6; by_16 (a shift and a mask) 16. by_tiles,
    # a divisor the launch gives: nvcc's estimate of the quotient is one short on class 0's
    # blocks past the first (7q * m < 2**32 q), so that class is cut after its first block: 8
    # (quotients=False: the cache model's pieces, which never take the index as quotient and remainder)
    k, _ = analyze(tmp_path, entry, 1_000, tiles, 33)
    found, _ = A.pieces(k, quotients=False)
    assert len(found) == pieces
    # the pieces are the launch: every block in exactly one
    blocks = sorted(b for ranges, _ in found for b in range(*ranges["x"]))
    assert blocks == list(range(1_000))


def _blocks(key: tuple) -> list[int]:
    """The blocks of a piece's key: a range, or values.QUOTIENT's D q + r."""
    if key[0] != QUOTIENT:
        return list(range(*key))
    _, d, q0, q1, r0, r1 = key
    return [d * q + r for q in range(q0, q1) for r in range(r0, r1)]


@needs_nvcc
@pytest.mark.parametrize("entry,tiles,pieces", [("by_3", 0, 3), ("by_6", 0, 2), ("by_16", 0, 2), ("by_tiles", 7, 5)])
def test_the_index_is_taken_as_quotient_and_remainder(tmp_path, entry, tiles, pieces):
    # 1,000 blocks as b = H q + r, q and r each a dimension: by_6 and by_16 (a shift and a mask, which
    # keeps r's bits apart from 16 q's since r < 16) the 166 or 62 whole rows and the partial last;
    # by_3 and by_tiles 7 also cut where nvcc's estimate of the quotient is one short (r = 0 past the
    # first row; by_3's last row is its r = 0 alone). Fewer pieces than the residue classes above
    k, a = analyze(tmp_path, entry, 1_000, tiles, 33)
    found, _ = A.pieces(k)
    assert len(found) == pieces and all(ranges["x"][0] == QUOTIENT for ranges, _ in found)
    assert sorted(b for ranges, _ in found for b in _blocks(ranges["x"])) == list(range(1_000))
    assert [vars(r) for r in a.rows] == [vars(r) for r in A.brute_force(k).rows]


@needs_nvcc
def test_fewer_quotients_than_classes_cut_the_range_instead(tmp_path):
    # tiles = 1,000 of 3,071 blocks: 1,000 classes, but the quotient takes 4 values, so the range
    # is cut where it changes (and where the estimate is one short, at a quotient's first block)
    k, _ = analyze(tmp_path, "by_tiles", 3_071, 1_000, 33)
    found, _ = A.pieces(k)
    assert all(len(ranges["x"]) == 2 for ranges, _ in found)  # (start, stop): no residue class
    assert len(found) < 16


@needs_nvcc
def test_a_launch_past_the_block_by_block_limit_is_counted(tmp_path):
    # 2**21 + 5 blocks, more than ENUMERATE_BLOCKS: refused before quotients were split
    blocks = (1 << 21) + 5
    assert blocks > A.ENUMERATE_BLOCKS
    for entry, tiles in (("by_3", 0), ("by_tiles", 48)):
        _, a = analyze(tmp_path, entry, blocks, tiles, 33)
        want = expected(blocks, DIVISORS.get(entry, tiles), 33)
        assert counts(a)[("y", "store")] == want


@needs_nvcc
def test_too_many_classes_and_quotients_take_the_index_as_quotient_and_remainder(tmp_path):
    # tiles = 1,000 of 2**21 blocks: 1,000 classes and 2,098 quotients, each more pieces than
    # MAX_STRIDED_PIECES, and too many blocks to run one by one (refused before). b = 1,000 q + r,
    # q and r each a dimension of its own: the whole rows of quotients (q < 2,097), the partial
    # last row (r < 152), and where nvcc's estimate of the quotient is one short (r = 0 past q = 0)
    # the cuts that decide it
    blocks = 1 << 21
    k, a = analyze(tmp_path, "by_tiles", blocks, 1_000, 33)
    want = expected(blocks, 1_000, 33)
    assert counts(a) == {("x", "load"): want, ("y", "store"): want}
    found, _ = A.pieces(k)
    keys = [ranges["x"] for ranges, _ in found]
    assert all(key[:2] == (QUOTIENT, 1_000) for key in keys) and len(keys) <= 8
    assert sorted(b for key in keys for b in _blocks(key)) == list(range(blocks))  # each block in one piece


@needs_nvcc
def test_a_quotient_and_remainder_piece_agrees_with_the_block_by_block_run(tmp_path):
    # 700 classes of 70,003 blocks (100 quotients): the range is cut where the quotient changes
    # below 256 pieces, so the reshaped index is forced by a divisor with more quotients than that:
    # 300 classes of 90,001 blocks (301 quotients), 29 floats a batch apart, against every block
    k, a = analyze(tmp_path, "by_tiles", 90_001, 300, 29)
    assert any(ranges["x"][0] == QUOTIENT for ranges, _ in A.pieces(k)[0])
    assert [vars(r) for r in a.rows] == [vars(r) for r in A.brute_force(k).rows]


@needs_nvcc
def test_a_loop_index_divided_by_a_constant_is_named(tmp_path):
    # a loop's rounds are not split into classes (only block indices are): the refusal says what
    # nvcc's multiply by 0xaaaaaaab (the inverse of 3) computes
    with pytest.raises(UsageError, match=r"a block or loop index divided by a constant \(nvcc multiplies it by "
                                         r"0xaaaaaaab and keeps the high word"):
        analyze(tmp_path, "by_3_in_a_loop", 4, 100_000, 33)


@needs_nvcc
def test_the_symbolic_counts_are_the_block_by_block_counts(tmp_path):
    # the reference: every block run concretely (analyze.brute_force), at a size where it is quick
    for entry, tiles in (("by_3", 0), ("by_6", 0), ("by_16", 0), ("by_tiles", 48)):
        k, a = analyze(tmp_path, entry, 777, tiles, 29)
        assert [vars(r) for r in a.rows] == [vars(r) for r in A.brute_force(k).rows]


@needs_nvcc
def test_triton_grouped_order_is_counted_symbolically(tmp_path):
    # pid / in_group and pid % in_group (signed, a divisor the launch gives: nvcc's sign test is
    # pid ^ in_group), then % size_m and / size_m, a size the last group clamps. 400 x 200: 13 x 7
    # tiles, 91 blocks in groups of 56 (the second of 5 rows of tiles). Every tile's 32 x 32 (or
    # clipped) C stores once, each of its rows in 1 request of 4 sectors (128 aligned bytes) where
    # it is 32 columns wide, 8 columns at the right edge (200 = 6 x 32 + 8): one sector. So C is
    # 400 rows x (6 requests x 4 + 1 x 1) sectors = 10,000 sectors in 2,800 requests
    path = tmp_path / "grouped.cu"
    path.write_text(GROUPED)
    k = A.prepare(path, "grouped_gemm", "cdiv(M,32)*cdiv(N,32)", "32x8", {"M": 400, "N": 200, "K": 8})
    a = A.analyze_launch(k, enumerate_blocks=0)
    c = next(r for r in a.rows if r.array == "C")
    assert (c.requests, c.sectors) == (2_800, 10_000)
    assert [vars(r) for r in a.rows] == [vars(r) for r in A.brute_force(k).rows]


HEADS = '''// [tokens, 16 heads, 64] to [16 heads, tokens, 64]: nvcc computes t * 16 + head as (t << 4) | (b & 15)
extern "C" __global__ void heads(int tokens, const float *x, float *y) {
  int head = blockIdx.x % 16, t = (blockIdx.x / 16) * 4 + threadIdx.y;
  if (t < tokens) y[((size_t)head * tokens + t) * 64 + threadIdx.x] = x[((size_t)t * 16 + head) * 64 + threadIdx.x];
}
'''


@needs_nvcc
@pytest.mark.parametrize("tokens", [7, 5_003, (1 << 18) + 3])
def test_a_remainder_ored_into_a_shifted_quotient_is_counted_symbolically(tmp_path, tokens):
    # LOP3 a | (b & c) of two block-dependent values, (t << 4) and the index, which reads the
    # index's low 4 bits only: one number in each residue class modulo 16 (before, block by block,
    # and refused past 2**20 blocks: 2**18 + 3 tokens make 16 x 65,537 = 1,048,592). Every live
    # warp moves 32 floats of one 256-byte row: 1 request, 4 sectors; two warps a token and head
    path = tmp_path / "heads.cu"
    path.write_text(HEADS)
    k = A.prepare(path, "heads", "16*cdiv(tokens,4)", "64x4", {"tokens": tokens, "x": "float[tokens*1024]",
                                                              "y": "float[tokens*1024]"})
    a = A.analyze_launch(k, enumerate_blocks=0)  # symbolic or refused: never block by block
    want = (32 * tokens, 128 * tokens)
    assert counts(a) == {("x", "load"): want, ("y", "store"): want}
    found, _ = A.pieces(k)
    if tokens > 7:  # one piece per class of blockIdx.x modulo 16 (at 7 tokens, 32 blocks, the
        # classes of 2 blocks are not split: modulo 4, then cut where the quotient changes)
        assert len(found) == 16 and {ranges["x"][2] for ranges, _ in found} == {16}
    if tokens < 10_000:
        assert [vars(r) for r in a.rows] == [vars(r) for r in A.brute_force(k).rows]


@pytest.fixture(scope="module")
def kernels_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("quotients")  # one file, compiled once for every example


@needs_nvcc
@settings(max_examples=30, deadline=None)
@given(tiles=st.integers(2, 300), blocks=st.integers(1, 3_000), stride=st.integers(1, 100))
def test_any_divisor_any_grid(kernels_dir, tiles, blocks, stride):
    _, a = analyze(kernels_dir, "by_tiles", blocks, tiles, stride)
    assert counts(a)[("y", "store")] == expected(blocks, tiles, stride)


@needs_nvcc
@settings(max_examples=15, deadline=None)
@given(tiles=st.integers(257, 5_000), quotients=st.integers(257, 3_000), extra=st.integers(0, 4_999),
       stride=st.integers(1, 100))
def test_any_divisor_of_more_than_256_classes_any_grid(kernels_dir, tiles, quotients, extra, stride):
    # more classes and more quotients than MAX_STRIDED_PIECES: the index as quotient and remainder
    blocks = tiles * quotients + extra % tiles
    _, a = analyze(kernels_dir, "by_tiles", blocks, tiles, stride)
    assert counts(a)[("y", "store")] == expected(blocks, tiles, stride)


QUOTIENTS_CU = Path(__file__).resolve().parent.parent / "kernels" / "quotients.cu"


@needs_nvcc
def test_a_divisor_of_977_classes_past_2_to_the_20_blocks(tmp_path):
    # kernels/quotients.cu's batched_scale, 1,100 rows of 250,001 floats: 977 tiles of 256 a row
    # (977 classes) and 1,074,700 blocks, refused before. Row r's warp w moves floats r n + 32 w on,
    # min(32, n - 32 w) of them: 976 x 8 + 5 warps a row (the last tile's 145 floats), sectors
    # from the first byte's sector to the last's (the numpy below)
    batches, n = 1_100, 250_001
    k = A.prepare(QUOTIENTS_CU, "batched_scale", "batches*cdiv(n,256)", "256",
                  {"batches": batches, "n": n, "x": "float[batches*n]", "y": "float[batches*n]"})
    assert int(np.prod(k.launch.grid)) > A.ENUMERATE_BLOCKS
    a = A.analyze_launch(k, enumerate_blocks=0)
    start = np.arange(batches)[:, None] * n + 32 * np.arange(7_813)[None, :]
    end = start + np.minimum(32, n - 32 * np.arange(7_813))[None, :]
    want = (batches * 7_813, int(np.sum((4 * end + 31) // 32 - 4 * start // 32)))
    assert want == (8_594_300, 41_891_244)
    assert counts(a) == {("x", "load"): want, ("y", "store"): want}


@needs_nvcc
def test_a_flat_grid_transpose_of_1250_tiles_a_row(tmp_path):
    # transpose_flat at 40,000 x 40,000 (6.4 GB a matrix): tile row b / 1,250, column b % 1,250, a
    # divisor the launch gives, of 1,562,500 blocks (refused before). Every 32-float row of a tile
    # is 128 aligned bytes, in and out: 40,000^2 / 32 = 50,000,000 requests of 4 sectors each
    k = A.prepare(QUOTIENTS_CU, "transpose_flat", "cdiv(rows,32)*cdiv(cols,32)", "32,8",
                  {"rows": 40_000, "cols": 40_000, "in": "float[rows*cols]", "out": "float[rows*cols]"})
    # (the shared tile: 4 warp instructions a warp each way, 1,562,500 x 8 x 4, one wavefront each:
    # a row of 33 floats puts a column's 32 words in 32 banks)
    a = A.analyze_launch(k, enumerate_blocks=0)
    rows = {(r.array, r.op): (r.requests, r.sectors) for r in a.rows if r.space == "global"}
    assert rows == {("in", "load"): (50_000_000, 200_000_000), ("out", "store"): (50_000_000, 200_000_000)}
    shared = {(r.array, r.op): (r.instructions, r.wavefronts, r.bank_conflicts) for r in a.rows if r.space == "shared"}
    assert shared == {("tile", "store"): (50_000_000, 50_000_000, 0), ("tile", "load"): (50_000_000, 50_000_000, 0)}


FLAT = '''// an element-wise kernel over an H x W matrix as one flat index, the shape PyTorch-style kernels take
extern "C" __global__ void flat_transpose(const float *in, float *out, int H, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= H * W) return;
  int r = i / W, c = i % W;                                  // a thread's row and column: a division by W
  out[c * H + r] = in[i];
}
'''


def flat_expected(H: int, W: int) -> dict:
    """Requests and sectors of flat_transpose, lane by lane: element i = 32 w + l of warp w loads
    in[i] and stores out[(i % W) H + i / W]; a request per warp with a live lane, its sectors the
    distinct 32-byte pieces of its lanes' addresses."""
    i = np.arange(-(-H * W // 256) * 256, dtype=np.int64).reshape(-1, 32)
    live = i < H * W
    warps = int(live.any(axis=1).sum())

    def sectors(index):
        s = np.where(live, 4 * index // 32, -1)
        s.sort(axis=1)
        return int(((s[:, 1:] != s[:, :-1]) & (s[:, 1:] >= 0)).sum() + (s[:, 0] >= 0).sum())
    return {("in", "load"): (warps, sectors(i)), ("out", "store"): (warps, sectors((i % W) * H + i // W))}


def flat(tmp_path, H: int, W: int):
    path = tmp_path / "flat.cu"
    path.write_text(FLAT)
    return A.prepare(path, "flat_transpose", "cdiv(H*W,256)", "256", {"H": H, "W": W, "in": "float[H*W]",
                                                                     "out": "float[H*W]"})


@needs_nvcc
def test_a_flat_index_divided_by_a_width_the_launch_gives_is_counted_symbolically(tmp_path):
    # i / W with W = 4096 at run time: nvcc's estimate (2**20 - 1) * i >> 32 is one short for the
    # threads t < 16 of a block whose quotient passes 256 t, blocks of class 0 of 16 (256 x 16 = W).
    # Within each piece every thread's estimate lies in one 4 GiB window, though the threads' do not
    # share one (values.split); before, the 65,536 blocks ran one by one. in: 4 sectors a warp;
    # out: the 32 lanes 4 W bytes apart, 32 sectors
    k = flat(tmp_path, 4096, 4096)
    a = A.analyze_launch(k, enumerate_blocks=0)  # refused, not run block by block, if not symbolic
    assert counts(a) == flat_expected(4096, 4096) == {("in", "load"): (524_288, 2_097_152),
                                                            ("out", "store"): (524_288, 16_777_216)}


@needs_nvcc
@settings(max_examples=20, deadline=None)
@given(H=st.integers(1, 300), W=st.sampled_from([256, 512, 768, 1024, 1280, 2048, 3000, 4096, 1000]))
def test_a_flat_index_divided_by_any_width_is_exact_or_refused(kernels_dir, H, W):
    # never a wrong count: symbolic where every thread's estimate is decided piece by piece, else
    # refused (enumerate_blocks=0 forbids the block-by-block run that counts those)
    k = flat(kernels_dir, H, W)
    try:
        a = A.analyze_launch(k, enumerate_blocks=0)
    except UsageError:
        return
    assert counts(a) == flat_expected(H, W)
