"""The coalescer on hand-built warps: exact counts with their arithmetic, and its invariants."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from warpsim.coalescer import atomic_passes, coalesce, local

LANES = np.arange(32, dtype=np.int64)
ALL = np.ones((1, 32), dtype=bool)


def one(addr, width=4, mask=ALL):
    c = coalesce(np.asarray(addr, dtype=np.int64).reshape(1, 32), mask, width)
    return {k: int(getattr(c, k)[0]) for k in ("active", "requests", "sectors", "lines", "distinct",
                                               "broadcast", "ideal_sectors")}


def test_contiguous_floats_are_four_sectors():
    c = one(LANES * 4)
    assert c["sectors"] == 4  # 32 lanes x 4 B = 128 B = 4 sectors
    assert c["lines"] == 1  # 128 B from a 128-aligned base = 1 line
    assert c["ideal_sectors"] == 4 and c["broadcast"] == 0


def test_strided_rows_are_32_sectors():
    c = one(LANES * 4096 * 4)  # seed 000's A: lanes K floats apart
    assert c["sectors"] == 32  # each lane alone in its own sector
    assert c["ideal_sectors"] == 4  # 128 distinct bytes could ride in 4 sectors
    assert c["lines"] == 32


def test_one_address_is_a_broadcast_of_one_sector():
    c = one(np.full(32, 1000))
    assert c["sectors"] == 1 and c["distinct"] == 1 and c["broadcast"] == 1
    assert c["ideal_sectors"] == 1  # 4 distinct bytes still need one sector


def test_misaligned_float4_straddles_two_sectors():
    mask = np.zeros((1, 32), dtype=bool)
    mask[0, 0] = True
    c = one(np.full(32, 24), width=16, mask=mask)
    assert c["sectors"] == 2  # bytes 24..39 cross the boundary at 32
    assert c["ideal_sectors"] == 1  # 16 bytes fit one sector


def test_float4_contiguous_is_16_sectors():
    c = one(LANES * 16, width=16)
    assert c["sectors"] == 16  # 32 lanes x 16 B = 512 B = 16 sectors
    assert c["lines"] == 4


def test_no_active_lane_is_no_request():
    c = one(LANES * 4, mask=np.zeros((1, 32), dtype=bool))
    assert c == {"active": 0, "requests": 0, "sectors": 0, "lines": 0, "distinct": 0, "broadcast": 0,
                 "ideal_sectors": 0}


def test_partial_warp_at_an_edge():
    mask = (LANES < 1).reshape(1, 32)  # M = 33: the last warp has one live lane
    c = one(LANES * 4096 * 4, mask=mask)
    assert c["sectors"] == 1 and c["requests"] == 1 and c["active"] == 1


warps = st.integers(1, 6).flatmap(lambda n: st.tuples(
    hnp.arrays(np.int64, (n, 32), elements=st.integers(0, 1 << 20)),
    hnp.arrays(np.bool_, (n, 32)),
    st.sampled_from([1, 2, 4, 8, 16]),
))


def _aligned(addr, width):
    return addr - addr % width


@settings(max_examples=200, deadline=None)
@given(warps)
def test_inactive_lanes_add_nothing(w):
    addr, mask, width = w
    addr = _aligned(addr, width)
    scrambled = np.where(mask, addr, addr[::-1] * 7 + 3)
    a, b = coalesce(addr, mask, width), coalesce(scrambled, mask, width)
    for field in ("sectors", "lines", "distinct", "broadcast", "ideal_sectors", "active"):
        assert np.array_equal(getattr(a, field), getattr(b, field))


@settings(max_examples=200, deadline=None)
@given(warps, st.randoms())
def test_permuting_lanes_changes_nothing(w, rnd):
    addr, mask, width = w
    perm = list(range(32))
    rnd.shuffle(perm)
    a, b = coalesce(addr, mask, width), coalesce(addr[:, perm], mask[:, perm], width)
    for field in ("sectors", "lines", "distinct", "broadcast", "ideal_sectors"):
        assert np.array_equal(getattr(a, field), getattr(b, field))


@settings(max_examples=200, deadline=None)
@given(warps, st.integers(-1000, 1000))
def test_shifting_by_sectors_changes_no_sector_count(w, k):
    addr, mask, width = w
    a, b = coalesce(addr, mask, width), coalesce(addr + 32 * k + (1 << 30), mask, width)
    for field in ("sectors", "distinct", "broadcast", "ideal_sectors"):
        assert np.array_equal(getattr(a, field), getattr(b, field))


@settings(max_examples=200, deadline=None)
@given(warps)
def test_bounds(w):
    addr, mask, width = w
    c = coalesce(addr, mask, width)
    assert np.all(c.ideal_sectors <= c.sectors)
    assert np.all(c.sectors <= 2 * c.active)  # a lane touches at most two sectors
    assert np.all(c.lines <= c.sectors)
    assert np.all(c.distinct <= c.active)


def test_against_a_per_lane_set_reference():
    rng = np.random.default_rng(1)
    addr = rng.integers(0, 4096, size=(200, 32)) * 4
    mask = rng.random((200, 32)) < 0.7
    c = coalesce(addr, mask, 4)
    for i in range(200):
        live = addr[i][mask[i]]
        assert c.sectors[i] == len({a // 32 for a in live})
        assert c.lines[i] == len({a // 128 for a in live})
        assert c.ideal_sectors[i] == -(-4 * len(set(live)) // 32)


# Global atomics: lanes on one word are applied one a pass, so a request's sector counts once per
# lane on its busiest word (kernels/atomics.cu and atomics2.cu, measured: traces/holdout/atoms3,
# traces/h100/atoms4).


def passes(addr, mask=ALL):
    return int(atomic_passes(np.asarray(addr, dtype=np.int64).reshape(1, 32), mask)[0])


def test_atomic_passes_as_measured():
    assert passes(np.zeros(32)) == 32  # f32_one, dsum, u64_one, f32_old: every lane on one word
    assert passes(4 * (LANES & 1)) == 16  # f32_two, f64_two (8-byte words): 16 lanes on each
    assert passes(32 * (LANES & 7)) == 32  # f32_eight: 8 sectors of 4 lanes each
    assert passes(4 * LANES) == 4  # distinct words: as a load, 4 sectors
    # atomics2's uneven: with i = lane, 11 lanes (i % 3 == 0) on word 0, 21 on word 1: the busiest, 21
    assert passes(np.where(LANES % 3 == 0, 0, 4)) == 21
    # atomics2's mixed: 24 lanes on word 0 (sector 0), lanes 24..31 alone on words 32..39 (sector 1): 24 + 1
    assert passes(4 * np.where(LANES < 24, 0, LANES + 8)) == 25
    assert passes(np.zeros(32), LANES[None, :] < 8) == 8  # only the active lanes count
    assert passes(np.zeros(32), np.zeros((1, 32), dtype=bool)) == 0


@settings(max_examples=200, deadline=None)
@given(warps)
def test_atomic_passes_lie_between_the_sectors_and_the_lanes(w):
    addr, mask, width = w
    addr = _aligned(addr, width)
    c, p = coalesce(addr, mask, width), atomic_passes(addr, mask)
    assert np.all(c.sectors <= p) and np.all(p <= c.active)
    assert np.all((p == c.sectors) | (c.distinct < c.active))  # more passes only where lanes share a word


# Local memory (LDL/STL): the hardware interleaves a warp's local memory a 4-byte word per lane,
# word w of lane l at 128 w + 4 l, so the figures below are blind batch 11's (traces/holdout/blind11).


def one_local(offsets, width=4, mask=ALL):
    c = local(np.broadcast_to(np.asarray(offsets, dtype=np.int64), (32,)).reshape(1, 32), mask, width)
    return {k: int(getattr(c, k)[0]) for k in ("active", "requests", "sectors", "lines", "broadcast",
                                               "ideal_sectors")}


def test_local_word_the_whole_warp_names_is_four_sectors():
    # stack_sum's v[t]: one offset for the warp, lanes 0..31 at 4 l: 128 B, 4 sectors, no broadcast
    assert one_local(40) == {"active": 32, "requests": 1, "sectors": 4, "lines": 1, "broadcast": 0,
                             "ideal_sectors": 4}
    # its last warp at n = 97 has one lane: 1 sector (3 x 24 x 4 + 24 = 312 at n = 97)
    assert one_local(40, mask=(LANES < 1).reshape(1, 32))["sectors"] == 1


def test_local_index_per_lane_is_a_sector_per_lane():
    # scatter_local's v[(7 t + i) & 31]: 32 different words, each lane in a line of its own
    c = one_local(((7 * 3 + LANES) & 31) * 4)
    assert c["sectors"] == 32 and c["lines"] == 32 and c["ideal_sectors"] == 4


def test_local_float4_is_four_words_each_its_own_line():
    # scatter_local's STL.128 (v[t] = 0, four at a time): each of the 4 words is a line of the
    # warp's 32 lanes, 16 sectors; the 3 lanes of the last warp at n = 97 take a sector per word
    assert one_local(64, width=16)["sectors"] == 16
    three = one_local(64, width=16, mask=(LANES < 3).reshape(1, 32))
    assert three["sectors"] == 4 and three["lines"] == 4 and three["ideal_sectors"] == 2


def test_local_double_is_two_words():
    # derived, not measured: 8 B a lane are words w and w + 1, 128 B apart: 8 sectors a full warp
    # (as a coalesced global double), 2 for a lone lane (1 for a lone lane's global double)
    assert one_local(8, width=8)["sectors"] == 8
    assert one_local(8, width=8, mask=(LANES < 1).reshape(1, 32))["sectors"] == 2


@settings(max_examples=200, deadline=None)
@given(warps, st.integers(-1000, 1000))
def test_local_against_a_byte_by_byte_reference(w, k):
    offsets, mask, width = w
    offsets = _aligned(offsets, width)
    c = local(offsets, mask, width)
    shifted = local(offsets + 4 * k + (1 << 20), mask, width)  # any whole-word shift: the fast path's classes
    for i in range(offsets.shape[0]):
        placed = {128 * (b // 4) + 4 * lane + b % 4 for lane in np.flatnonzero(mask[i])
                  for b in range(int(offsets[i, lane]), int(offsets[i, lane]) + width)}
        assert c.sectors[i] == shifted.sectors[i] == len({a // 32 for a in placed})
        assert c.lines[i] == len({a // 128 for a in placed})
        assert c.ideal_sectors[i] == -(-len(placed) // 32) == -(-width * int(mask[i].sum()) // 32)
        assert c.broadcast[i] == 0 and c.active[i] == mask[i].sum()
