"""The shared-memory tiling models (smem, blocktile1d, blocktile2d): they compute the GEMM, the fast
engine equals brute force on them, and they reproduce docs/LADDER.md's per-instruction counts.

Each exact count shows its arithmetic. At 1024^3 every warp is full and every row starts 32-byte
aligned, so the per-request ratios are those of one interior warp instruction (LADDER.md's
"measured 1024^3" column).
"""

from __future__ import annotations



from warpsim.engine import analyze

def per_request(a, space, array, op, counter):
    r = a.row(space, array, op)
    return getattr(r, counter) / r.requests


# (for every kernel: the model computes the GEMM and fast == brute force in tests/test_engine.py;
# sites == SASS in tests/test_models_match_sass.py; the H200's counters in tests/test_recorded_h200.py)


# --- docs/LADDER.md at 1024^3, per warp instruction ------------------------------------------


def test_smem_at_1024():
    a = analyze("smem", 1024, 1024, 1024)
    warp_tiles = 32 * 32 * 32 * 32  # blocks (32 x 32) x warps (32) x K tiles (1024/32)
    assert a.row("global", "A", "load").instructions == warp_tiles  # 1 LDG per warp per tile
    assert a.row("shared", "A", "load").instructions == 8 * warp_tiles  # 32 As reads = 8 LDS.128
    assert a.row("shared", "B", "load").instructions == 32 * warp_tiles  # 32 scalar LDS
    assert per_request(a, "global", "A", "load", "sectors") == 4  # 32 floats of one row = 128 B
    assert per_request(a, "global", "B", "load", "sectors") == 4  # 32 floats of one B row
    assert per_request(a, "shared", "A", "store", "wavefronts") == 1  # 32 consecutive words
    assert per_request(a, "shared", "B", "store", "wavefronts") == 1
    # LDS.128 at one address for the whole warp: lanes pair up -> 2 half-warp wavefronts, ideal 2
    assert per_request(a, "shared", "A", "load", "wavefronts") == 2
    assert a.row("shared", "A", "load").bank_conflicts == 0
    assert a.row("shared", "A", "load").broadcast_requests == 8 * warp_tiles
    assert per_request(a, "shared", "B", "load", "wavefronts") == 1  # 32 consecutive words
    assert a.row("global", "C", "load").requests == 32 * 32 * 32  # one per warp, behind the EXIT
    assert per_request(a, "global", "C", "load", "sectors") == 4
    assert per_request(a, "global", "C", "store", "sectors") == 4


def test_blocktile1d_at_1024():
    a = analyze("blocktile1d", 1024, 1024, 1024)
    warp_tiles = 16 * 16 * 16 * 128  # blocks (16 x 16) x warps (512/32) x K tiles (1024/8)
    assert a.row("global", "A", "load").instructions == warp_tiles
    assert per_request(a, "global", "A", "load", "sectors") == 4  # 4 rows x 8 floats = 4 x 32 B
    assert per_request(a, "global", "B", "load", "sectors") == 4  # 32 consecutive floats
    assert per_request(a, "shared", "A", "store", "wavefronts") == 1  # As[tid]
    assert per_request(a, "shared", "B", "store", "wavefronts") == 1  # Bs[tid]
    assert a.row("shared", "B", "load").instructions == 8 * warp_tiles  # tmpB, one per dotIdx
    assert per_request(a, "shared", "B", "load", "wavefronts") == 1  # 32 consecutive threadCols
    assert a.row("shared", "A", "load").instructions == 16 * warp_tiles  # 8 resIdx x 2 LDS.128
    assert per_request(a, "shared", "A", "load", "wavefronts") == 2  # warp-uniform: pairs -> 2
    assert a.row("shared", "A", "load").bank_conflicts == 0
    C = a.row("global", "C", "load")
    assert C.instructions == 8 * 16 * 16 * 16  # 8 resIdx per warp
    assert per_request(a, "global", "C", "load", "sectors") == 4  # 32 consecutive columns
    assert per_request(a, "global", "C", "store", "sectors") == 4


def test_blocktile2d_at_1024():
    a = analyze("blocktile2d", 1024, 1024, 1024)
    warp_tiles = 8 * 8 * 8 * 128  # blocks (8 x 8) x warps (256/32) x K tiles (1024/8)
    assert a.row("global", "A", "load").instructions == 4 * warp_tiles  # 4 rows 32 apart
    assert per_request(a, "global", "A", "load", "sectors") == 4  # 4 rows x 8 floats
    assert per_request(a, "global", "B", "load", "sectors") == 4  # 32 consecutive floats
    assert per_request(a, "shared", "A", "store", "wavefronts") == 1
    assert per_request(a, "shared", "B", "store", "wavefronts") == 1
    As, Bs = a.row("shared", "A", "load"), a.row("shared", "B", "load")
    assert As.instructions == Bs.instructions == 16 * warp_tiles  # 8 x 2 LDS.128 each
    # As: 2 addresses (threadRow 2w, 2w+1), lanes pair up -> 2 half-warp wavefronts, no conflict
    assert per_request(a, "shared", "A", "load", "wavefronts") == 2
    assert As.bank_conflicts == 0
    # Bs: 16 float4s 32 B apart; per quarter-warp 8 float4s over 256 B -> 2 words per bank:
    # 4 quarters x 2 = 8 wavefronts, ideal 4, so 4 conflicts
    assert per_request(a, "shared", "B", "load", "wavefronts") == 8
    assert per_request(a, "shared", "B", "load", "bank_conflicts") == 4
    # C: 2 rows x 16 lanes 32 B apart, one sector per lane = 32 sectors (ideal 4)
    C = a.row("global", "C", "load")
    assert C.instructions == 64 * 8 * 8 * 8  # 64 per warp x 64 blocks x 8 warps
    assert per_request(a, "global", "C", "load", "sectors") == 32
    assert per_request(a, "global", "C", "load", "ideal_sectors") == 4
    assert per_request(a, "global", "C", "store", "sectors") == 32


# --- docs/LADDER.md's 1000^3 aggregate: all global load sectors, A + B + C --------------------


def test_global_load_sectors_at_1000():
    # Rows of A, B and C are 4000 B = 125 sectors apart, so every row starts 32-B aligned.
    # smem: grid 32 x 32, 32 K tiles. A: each of 1000 rows, per block column, 31 full tiles x 4
    # sectors + the last (k0 = 992, 8 floats) 1 = 125, x 32 block columns = 4,000,000;
    # B the same by symmetry (1000 rows x 125 x 32 block rows); C: 1000 rows x 125 = 125,000.
    assert analyze("smem", 1000, 1000, 1000).total("global", "load", "sectors") == 8_125_000
    # blocktile1d: grid 16 x 16, 125 K tiles of 8. A: 1000 rows x 125 tiles x 1 sector x 16
    # block columns = 2,000,000; B: 1000 rows x (15 x 8 + 5 (40 floats)) x 16 = 2,000,000; C 125,000
    assert analyze("blocktile1d", 1000, 1000, 1000).total("global", "load", "sectors") == 4_125_000
    # blocktile2d: grid 8 x 8. A: 1000 x 125 x 8 = 1,000,000; B: 1000 x (7 x 16 + 13) x 8 =
    # 1,000,000; C: every C sector read by 8 instructions (resIdxN 0..7): 125,000 x 8 = 1,000,000
    assert analyze("blocktile2d", 1000, 1000, 1000).total("global", "load", "sectors") == 3_000_000


# --- edges: predicated accesses are executed by every warp, branched ones only by live ones ---


def test_smem_edge_warps_skip_the_epilogue():
    # M = 33: grid (1, 2). Block row 1 has one live warp (ty = 0 -> row 32), and the C accesses
    # sit behind `@P0 EXIT`: 32 + 1 warps execute them. The tile loads are predicated: all
    # 2 x 32 warps execute the A load, 33 of them with a live lane.
    a = analyze("smem", 33, 32, 32)
    assert a.row("global", "C", "load").instructions == 33
    assert a.row("global", "A", "load").instructions == 64
    assert a.row("global", "A", "load").requests == 33


def test_blocktile1d_edge_epilogue():
    # M = 1, N = 64: one block, 16 warps, row = threadRow*8 + resIdx: only threadRow 0 (warps 0, 1)
    # at resIdx 0 is live. resIdx 0..6 are predicated: 7 x 16 = 112 instructions, 2 requests of
    # 32 lanes (4 sectors); resIdx 7 is after the EXIT: no warp has a live lane, so 0 more.
    C = analyze("blocktile1d", 1, 64, 8).row("global", "C", "load")
    assert C.instructions == 7 * 16
    assert C.requests == 2
    assert C.sectors == 2 * 4


def test_blocktile2d_edge_epilogue():
    # M = 1, N = 128: one block, 8 warps, warp w holds threadRows 2w, 2w+1; only threadRow 0 at
    # resIdxM 0 is live. 62 predicated instructions x 8 warps = 496; requests: warp 0 at resIdxM 0,
    # resIdxN 0..7 = 8, each 16 lanes 32 B apart = 16 sectors. The 2 branched ones (resIdxM 7)
    # have no live lane anywhere: not executed.
    C = analyze("blocktile2d", 1, 128, 8).row("global", "C", "load")
    assert C.instructions == 62 * 8
    assert C.requests == 8
    assert C.sectors == 8 * 16

