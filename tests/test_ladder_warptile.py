"""vectorized, warptile, warptile_db: the models compute the GEMM, the fast engine equals brute force,
and the per-instruction counts of docs/LADDER.md (measured on the H200 at 1024^3) come out exactly.

Each exact number shows its arithmetic. At 1024^3 every warp is wholly inside the matrices and
every row is 32-byte aligned, so whole-launch totals divided by instructions are the per-warp
instruction numbers of LADDER.md's tables.
"""


import pytest

from warpsim.engine import analyze

# (for every kernel: the model computes the GEMM and fast == brute force in tests/test_engine.py;
# sites == SASS in tests/test_models_match_sass.py; the H200's counters in tests/test_recorded_h200.py)


def per_instruction(a, space, array, op, counter):
    row = a.row(space, array, op)
    return getattr(row, counter) / row.instructions


def test_vectorized_per_instruction_at_1024():
    a = analyze("vectorized", 1024, 1024, 1024)
    warp_tiles = 8 * 8 * 8 * (1024 // 8)  # blocks x warps x K tiles (BK = 8)
    assert a.row("global", "A", "load").instructions == warp_tiles  # one LDG.E.128 per warp per tile
    # A: 32 lanes = 16 rows (tid/2) x 2 float4s = 16 rows x 32 B: one sector per row
    assert per_instruction(a, "global", "A", "load", "sectors") == 16
    # B: 32 consecutive float4s = 512 B = 16 sectors
    assert per_instruction(a, "global", "B", "load", "sectors") == 16
    # As scalar STS (4 per warp per tile): rows tid/2 in 16 banks, innerColA 0/1 are 4*128 floats
    # apart (same bank): 2 words per bank = 2 wavefronts, 1 of them a conflict
    assert a.row("shared", "A", "store").instructions == 4 * warp_tiles
    assert per_instruction(a, "shared", "A", "store", "wavefronts") == 2
    assert per_instruction(a, "shared", "A", "store", "bank_conflicts") == 1
    # Bs STS.128: 512 contiguous bytes, 4 quarter-warp wavefronts, no conflict
    assert per_instruction(a, "shared", "B", "store", "wavefronts") == 4
    assert a.row("shared", "B", "store").bank_conflicts == 0
    # As LDS.128 (16 per warp per tile): 2 addresses (threadRow), lanes pair up: 2 half-warp wavefronts
    assert a.row("shared", "A", "load").instructions == 16 * warp_tiles
    assert per_instruction(a, "shared", "A", "load", "wavefronts") == 2
    assert a.row("shared", "A", "load").bank_conflicts == 0
    # Bs LDS.128: a quarter's 8 float4s are 32 B apart on 4 bank groups: 2 words per bank,
    # 8 wavefronts where 4 would do
    assert per_instruction(a, "shared", "B", "load", "wavefronts") == 8
    assert per_instruction(a, "shared", "B", "load", "bank_conflicts") == 4
    # C float4s (16 per thread): 16 lanes 32 B apart in each of 2 rows = 32 sectors, ideal 16
    for op in ("load", "store"):
        assert a.row("global", "C", op).instructions == 16 * 8 * 8 * 8  # per warp x warps x blocks
        assert per_instruction(a, "global", "C", op, "sectors") == 32
        assert per_instruction(a, "global", "C", op, "ideal_sectors") == 16


def test_warptile_per_instruction_at_1024():
    a = analyze("warptile", 1024, 1024, 1024)
    warp_tiles = 8 * 8 * 4 * (1024 // 16)  # blocks x warps x K tiles (BK = 16)
    assert a.row("global", "A", "load").instructions == 4 * warp_tiles  # 4 LDG.E.128 per warp per tile
    # A: 8 rows (tid/4) x 4 float4s = 8 rows x 64 B = 16 sectors
    assert per_instruction(a, "global", "A", "load", "sectors") == 16
    assert per_instruction(a, "global", "B", "load", "sectors") == 16  # 512 contiguous B
    # As STS (16 per warp per tile): 8 rows in 8 banks, innerColA 0..3 are 4*128 floats apart
    # (same bank): 4 words per bank = 4 wavefronts, 3 conflicts
    assert a.row("shared", "A", "store").instructions == 16 * warp_tiles
    assert per_instruction(a, "shared", "A", "store", "wavefronts") == 4
    assert per_instruction(a, "shared", "A", "store", "bank_conflicts") == 3
    assert a.row("shared", "A", "store").bank_conflicts == 786_432  # LADDER.md's aggregate, matched on the H200
    assert per_instruction(a, "shared", "B", "store", "wavefronts") == 4  # STS.128 of 512 B
    # As LDS.128 (32 per warp per tile): lanes lane/4 share an address, pair up: 2 wavefronts
    assert a.row("shared", "A", "load").instructions == 32 * warp_tiles
    assert per_instruction(a, "shared", "A", "load", "wavefronts") == 2
    # Bs LDS.128 (64 per warp per tile): 4 float4s = 64 contiguous B, lanes n, n^1 differ:
    # quarter-warps of 8 lanes, no conflict: 4 wavefronts
    assert a.row("shared", "B", "load").instructions == 64 * warp_tiles
    assert per_instruction(a, "shared", "B", "load", "wavefronts") == 4
    assert a.row("shared", "B", "load").bank_conflicts == 0
    # C float4s (32 per thread): 8 rows x 64 contiguous B = 16 sectors, the ideal
    for op in ("load", "store"):
        assert a.row("global", "C", op).instructions == 32 * 4 * 8 * 8  # per warp x warps x blocks
        assert per_instruction(a, "global", "C", op, "sectors") == 16
        assert per_instruction(a, "global", "C", op, "ideal_sectors") == 16


def test_warptile_db_per_instruction_at_1024():
    a = analyze("warptile_db", 1024, 1024, 1024)
    warps = 4 * 8 * 8  # blocks (1024/256 x 1024/128) x warps
    tiles = 1024 // 8  # BK = 8
    # A: the prologue's copy fetches tile 0, the loop's copy tiles 1..127 (not on the last tile)
    assert a.row("global", "A", "load").instructions == warps * (1 + (tiles - 1))
    assert a.row("global", "B", "load").instructions == 2 * warps * tiles  # 2 LDG.E.128 each
    assert per_instruction(a, "global", "A", "load", "sectors") == 16  # 16 rows x 32 B
    assert per_instruction(a, "global", "B", "load", "sectors") == 16  # 512 contiguous B
    # As STS (4 per tile, stage 0 at byte 0, stage 1 at 4096: same banks): 2 wavefronts, 1 conflict
    assert a.row("shared", "A", "store").instructions == 4 * warps * tiles
    assert per_instruction(a, "shared", "A", "store", "wavefronts") == 2
    assert per_instruction(a, "shared", "A", "store", "bank_conflicts") == 1
    assert a.row("shared", "A", "store").bank_conflicts == 131_072  # LADDER.md's aggregate
    assert per_instruction(a, "shared", "B", "store", "wavefronts") == 4  # 2 STS.128 per tile
    assert a.row("shared", "A", "load").instructions == 16 * warps * tiles
    assert per_instruction(a, "shared", "A", "load", "wavefronts") == 2
    assert a.row("shared", "B", "load").instructions == 32 * warps * tiles
    assert per_instruction(a, "shared", "B", "load", "wavefronts") == 4
    for op in ("load", "store"):
        assert a.row("global", "C", op).instructions == 32 * warps
        assert per_instruction(a, "global", "C", op, "sectors") == 16


@pytest.mark.parametrize("name,sectors", [
    # A: (M*K*4/32 sectors) x N-blocks; B: (K*N*4/32) x M-blocks (1000 is a multiple of 8: rows
    # 32-B aligned, partial tiles cost only their rows/columns); C: M*N*4/32 = 125,000, twice for
    # vectorized, whose two float4s per row segment each touch half of every 32-B sector
    ("vectorized", 125_000 * 8 + 125_000 * 8 + 2 * 125_000),  # 2,250,000
    ("warptile", 125_000 * 8 + 125_000 * 8 + 125_000),  # 2,125,000
    ("warptile_db", 125_000 * 4 + 125_000 * 8 + 125_000),  # 1,625,000: BN = 256, 4 column blocks
])
def test_global_load_sectors_at_1000(name, sectors):
    assert analyze(name, 1000, 1000, 1000).total("global", "load", "sectors") == sectors


# --- where SASS predicates and where it branches ----------------------------------------------

@pytest.mark.parametrize("name,warps,predicated", [("vectorized", 8, 15), ("warptile", 4, 31), ("warptile_db", 8, 31)])
def test_epilogue_predicated_then_exit(name, warps, predicated):
    # M=1, N=4: one block, one live C float4 (row 0, col 0). Every warp executes the predicated
    # C float4s (instructions, no request); the last one sits after `@P EXIT` on row >= 7: no warp
    a = analyze(name, 1, 4, 4)
    for op in ("load", "store"):
        c = a.row("global", "C", op)
        assert c.instructions == predicated * warps
        assert c.requests == 1 and c.active_lanes == 1


def test_warptile_db_last_tile_has_no_loop_copies():
    # K = 8: one tile, fetched by the prologue; the loop's `if (hasNext)` is never taken
    a = analyze("warptile_db", 128, 256, 8)
    assert a.row("global", "A", "load").instructions == 8  # 8 warps x 1 prologue LDG.E.128
    assert a.row("global", "B", "load").instructions == 16  # 8 warps x 2
    assert a.row("shared", "A", "store").instructions == 32  # 8 warps x 4 STS
    # K = 24: three tiles, the loop's copies fetch tiles 1 and 2
    a = analyze("warptile_db", 128, 256, 24)
    assert a.row("global", "A", "load").instructions == 8 * (1 + 2)
    assert a.row("shared", "B", "store").instructions == 8 * 2 * (1 + 2)
    assert a.row("shared", "A", "load").instructions == 8 * 16 * 3  # the compute runs every tile

