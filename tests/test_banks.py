"""The shared-memory bank model on hand-built warps (each case measured on the H200 in
docs/LADDER.md), and its invariants."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from warpsim.banks import shared_access

L = np.arange(32, dtype=np.int64)
ALL = np.ones((1, 32), dtype=bool)


def wf(addr, width=4, mask=ALL):
    s = shared_access(np.asarray(addr, dtype=np.int64).reshape(1, 32), mask, width)
    return int(s.wavefronts[0]), int(s.bank_conflicts[0])


def test_scalar_rules():
    assert wf(L * 4) == (1, 0)  # 32 consecutive words, 32 banks
    assert wf(np.zeros(32)) == (1, 0)  # one word: a broadcast
    assert wf(L * 128) == (32, 31)  # stride 32 words: every lane in bank 0
    # vectorized's transposed As store: As[(tid%2 * 4) * 128 + tid/2]: 16 banks x 2 words
    assert wf((((L % 2) * 4) * 128 + L // 2) * 4) == (2, 1)
    # warptile's: As[(tid%4 * 4) * 128 + tid/4]: 8 banks x 4 words
    assert wf((((L % 4) * 4) * 128 + L // 4) * 4) == (4, 3)


def test_lds128_rules():
    assert wf(L * 16, 16) == (4, 0)  # 512 contiguous bytes: 4 quarter-warp wavefronts, ideal 4
    assert wf(np.zeros(32), 16) == (2, 0)  # lanes pair up (n, n^1 equal): 2 half-warp wavefronts
    assert wf((L // 4) * 32, 16) == (2, 0)  # warptile's As fragment: lanes 4 by 4 on one address
    # blocktile2d's Bs fragment: 16 chunks 32 B apart, twice: per quarter 2 words per bank
    assert wf((L % 16) * 32, 16) == (8, 4)
    assert wf((L % 4) * 16, 16) == (4, 0)  # warptile's Bs: lane n = lane n+4, no n^1/n^2 pairing


warps = st.integers(1, 5).flatmap(lambda n: st.tuples(
    hnp.arrays(np.int64, (n, 32), elements=st.integers(0, 4095).map(lambda w: 4 * w)),
    hnp.arrays(np.bool_, (n, 32)),
    st.sampled_from([4, 8, 16]),
))


@settings(max_examples=200, deadline=None)
@given(warps)
def test_inactive_lanes_add_nothing(w):
    addr, mask, width = w
    addr = addr - addr % width
    a = shared_access(addr, mask, width)
    b = shared_access(np.where(mask, addr, addr[:, ::-1] + 4 * width), mask, width)
    assert np.array_equal(a.wavefronts, b.wavefronts) and np.array_equal(a.bank_conflicts, b.bank_conflicts)


@settings(max_examples=200, deadline=None)
@given(warps, st.integers(-50, 50))
def test_shifting_by_128_bytes_changes_nothing(w, k):
    addr, mask, width = w
    addr = addr - addr % width
    a, b = shared_access(addr, mask, width), shared_access(addr + 128 * k + (1 << 20), mask, width)
    assert np.array_equal(a.wavefronts, b.wavefronts) and np.array_equal(a.bank_conflicts, b.bank_conflicts)


@settings(max_examples=200, deadline=None)
@given(warps, st.randoms())
def test_permuting_lanes_of_a_scalar_access_changes_nothing(w, rnd):
    addr, mask, _ = w  # 4-byte accesses are served as one phase; wider ones by lane groups
    perm = list(range(32))
    rnd.shuffle(perm)
    a, b = shared_access(addr, mask, 4), shared_access(addr[:, perm], mask[:, perm], 4)
    assert np.array_equal(a.wavefronts, b.wavefronts)


@settings(max_examples=200, deadline=None)
@given(warps)
def test_bounds(w):
    addr, mask, width = w
    addr = addr - addr % width
    s = shared_access(addr, mask, width)
    active = mask.any(axis=1)
    assert np.all(s.bank_conflicts >= 0)
    assert np.all((s.wavefronts >= 1) == active)  # a live instruction takes at least one wavefront
    assert np.all(s.wavefronts <= 32 * max(1, width // 4))  # at worst every word alone
