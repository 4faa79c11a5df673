"""The seeds' warp table, and whole-launch totals, predicted exactly. Each number shows its arithmetic."""

import pytest

from warpsim.engine import analyze


def per_request(a, array, op):
    r = a.row("global", array, op)
    return r.sectors / r.requests


def test_seed000_naive_warp_view():
    a = analyze("naive", 4096, 4096, 4096)
    assert per_request(a, "A", "load") == 32  # 32 lanes = 32 rows, K*4 B apart: one sector each
    assert a.row("global", "A", "load").ideal_sectors / a.row("global", "A", "load").requests == 4  # 128 B
    assert per_request(a, "B", "load") == 1  # col is warp-invariant: one address, one sector
    b = a.row("global", "B", "load")
    assert b.broadcast_requests == b.requests  # every B request is a broadcast
    assert per_request(a, "C", "load") == 32  # C strided like A: rows N*4 B apart
    assert per_request(a, "C", "store") == 32


def test_coalesced_warp_view():
    a = analyze("coalesced", 4096, 4096, 4096)
    assert per_request(a, "A", "load") == 1  # row is warp-invariant now: broadcast
    assert per_request(a, "B", "load") == 4  # 32 consecutive floats = 128 B = 4 sectors
    assert per_request(a, "C", "load") == 4
    assert per_request(a, "C", "store") == 4


def test_naive_coalesced_16x16_blocks():
    a = analyze("naive_coalesced", 4096, 4096, 4096, block=(16, 16))
    # a warp = 2 rows x 16 columns: A has 2 addresses (2 rows) -> 2 sectors;
    # B has 16 consecutive floats = 64 B, 2 sectors (16-float runs start 64-byte aligned)
    assert per_request(a, "A", "load") == 2
    assert per_request(a, "B", "load") == 2
    assert per_request(a, "C", "store") == 4  # 2 rows x 64 B = 2 x 2 sectors
    assert a.row("global", "A", "load").broadcast_requests == a.row("global", "A", "load").requests


WARPS_4096 = 128 * 128 * 32  # blocks x warps per block, every warp fully inside the matrix
K = 4096


def test_naive_totals_at_4096():
    a = analyze("naive", 4096, 4096, 4096)
    A, B = a.row("global", "A", "load"), a.row("global", "B", "load")
    assert A.requests == WARPS_4096 * K == 2_147_483_648  # one A load per warp per k
    assert A.sectors == 32 * WARPS_4096 * K == 68_719_476_736
    assert B.sectors == WARPS_4096 * K  # one sector each
    assert A.bytes_requested + B.bytes_requested == 2 * 4096**3 * 4  # seed 000's 549.8 GB
    assert a.row("global", "C", "load").sectors == 32 * WARPS_4096 == 16_777_216
    assert a.row("global", "C", "store").sectors == 32 * WARPS_4096


def test_coalesced_totals_at_4096():
    a = analyze("coalesced", 4096, 4096, 4096)
    assert a.row("global", "A", "load").sectors == WARPS_4096 * K  # broadcast: 1 each
    assert a.row("global", "B", "load").sectors == 4 * WARPS_4096 * K == 8_589_934_592
    assert a.row("global", "C", "load").sectors == 4 * WARPS_4096 == 2_097_152
    assert a.row("global", "C", "store").requests == WARPS_4096


def test_naive_coalesced_totals_at_4096():
    a = analyze("naive_coalesced", 4096, 4096, 4096)
    assert a.row("global", "B", "load").sectors == 4 * WARPS_4096 * K
    assert a.row("global", "A", "load").sectors == WARPS_4096 * K
    assert a.row("global", "C", "store").sectors == 4 * WARPS_4096
    with pytest.raises(KeyError):
        a.row("global", "C", "load")  # this kernel never reads C


def test_naive_edge_M33():
    # M=N=33: grid 2x2 blocks. Warps are indexed by threadIdx.y (= col); lanes by threadIdx.x (= row).
    # Live warps: col < 33 -> blocks with bx=0 have 32 live warps, bx=1 has 1 (col 32).
    # Per live warp: 32 live lanes in by=0, 1 live lane (row 32) in by=1.
    a = analyze("naive", 33, 33, 33)
    A = a.row("global", "A", "load")
    live_warps = (32 + 1) * 2  # (bx=0: 32, bx=1: 1) for each of by=0, by=1
    assert A.requests == live_warps * 33  # K = 33 iterations each
    # by=0 warps: 32 lanes, rows 33*4 = 132 B apart -> 32 sectors; by=1 warps: 1 lane -> 1 sector
    assert A.sectors == 33 * 33 * 32 + 33 * 33 * 1
    assert A.active_lanes == 33 * 33 * 33  # one lane access per (row, col, k)
    C = a.row("global", "C", "store")
    assert C.requests == live_warps and C.active_lanes == 33 * 33


def test_naive_small_K_packs_rows_into_sectors():
    # K=1: the 32 rows of a warp's A column are 4 B apart: contiguous, 4 sectors, not 32
    a = analyze("naive", 64, 64, 1)
    assert per_request(a, "A", "load") == 4
