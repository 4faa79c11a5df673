"""Sector passes of global atomics whose lanes share words: exact where no two lanes name one
word offset of two lines beside a sector of two or more words, else a lower bound, reported and
not claimed (warpsim.coalescer.atomic_passes_bound). The evidence is committed: traces/h100/atomics
(29 warp patterns, blind batch 25's Zipf histogram in chunks, two of its warps changed 39 ways)
and traces/h100/blind25."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_sass_frontend import needs_nvcc
from warpsim.coalescer import atomic_passes, atomic_passes_bound

BASE = 1 << 32  # a buffer's base, 256-byte aligned
# warp 3571 of blind batch 25's Zipf keys (bins: counts[keys[i] & 1023]): ncu counted 17 sector passes
# (traces/h100/atomics/atomdelta, w3571_orig), the rule 16; bins 180 and 20 share word offset 20 of
# lines 5 and 0, and 20 shares sector 2 with 18
WARP_3571 = [1, 10, 32, 0, 14, 3, 0, 2, 1, 1, 43, 0, 3, 0, 180, 20, 12, 0, 2, 0, 97, 2, 3, 1, 18, 373, 650, 0,
             1, 1, 1, 934]


def rows(*warps):
    bins = np.asarray(warps, dtype=np.int64)
    return BASE + 4 * bins, bins >= 0


def test_the_warp_ncu_counts_more_for_is_a_bound_and_without_its_pairs_it_is_exact():
    addresses, mask = rows(WARP_3571)
    assert atomic_passes(addresses, mask).tolist() == [16] and atomic_passes_bound(addresses, mask).tolist() == [True]
    # its 12 lanes off sector 0 each sent to a sector of its own (127, 126, ... down, skipping those
    # it uses): the rule counts 7 for sector 0 (runs 7, 7, 3, 3 on its words) and 1 for each of the
    # 12 others, 19, what ncu counted (1,216 over 64 warps: atomdelta, w3571_others_alone)
    used = {b // 8 for b in WARP_3571}
    free = [s for s in range(127, -1, -1) if s not in used]
    moved, k = [], 0
    for b in WARP_3571:
        moved.append(b if b < 8 else 8 * free[k])
        k += b >= 8
    addresses, mask = rows(moved)
    assert atomic_passes(addresses, mask).tolist() == [1216 // 64]
    assert atomic_passes_bound(addresses, mask).tolist() == [False]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 31), min_size=32, max_size=32), st.permutations(range(32)))
def test_one_line_is_never_a_bound_and_the_flag_ignores_lane_order(words, order):
    # lanes within one 128-byte line share no word offset with another line: the rule is claimed
    addresses, mask = rows(words)
    assert not atomic_passes_bound(addresses, mask).any()
    # the flag is a property of the set of words, not of which lane names them
    spread = [w + 32 * (w % 3) for w in words]
    a, m = rows(spread)
    b, n = rows([spread[i] for i in order])
    assert atomic_passes_bound(a, m).tolist() == atomic_passes_bound(b, n).tolist()


def test_inactive_lanes_and_single_word_sectors_are_not_bounds():
    # word 0 and word 32 share offset 0 of lines 0 and 1, but each sector holds one word: the
    # rule was measured exact there (traces/h100/atomics/atomruns, r2: bins 0, 0, 8, 16, ... 240)
    addresses, mask = rows([0, 0] + [8 * (s + 1) for s in range(30)])
    assert atomic_passes(addresses, mask).tolist() == [32] and not atomic_passes_bound(addresses, mask).any()
    addresses, mask = rows([-1] * 32)
    assert atomic_passes_bound(addresses, mask).tolist() == [False]


@needs_nvcc
@pytest.mark.parametrize("folder, launches, claimed, above", [
    # atomruns: 29 patterns x 2 runs, none a bound, every one the rule's; atomzipf: 18 launches of Zipf
    # warps x 2, each holding flagged warps and counted above the rule; atomdelta: 78 variants x 2,
    # 4 variants (8 launches) unflagged and exact, 66 above the rule (all flagged), 8 flagged and
    # equal to it
    ("traces/h100/atomics", 250, 66, 168),
    ("traces/h100/blind25", 4, 0, 2),  # n = 97 (4 warps) equal to the rule, n = 200,003 above it; both bounds
])
def test_recorded_passes_equal_the_rule_unless_bounded_and_never_fall_below_it(folder, launches, claimed, above):
    # every committed launch of sparse.cu's histogram: ncu's sector passes of its REDs against
    # warpsim's, claimed (and equal) where no request is a bound, at least warpsim's everywhere
    from profiling.compare import compare
    from profiling.traces import load_trace

    metric = "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"
    traces = [load_trace(p) for p in sorted(Path(folder).rglob("histogram__*.json"))]
    frame = compare(traces, {})
    passes = frame[frame["metric"] == metric]
    assert len(passes) == len(traces) == launches
    assert (passes["measured"] >= passes["predicted"]).all()
    assert (passes[passes["exact_claimed"]]["measured"] == passes[passes["exact_claimed"]]["predicted"]).all()
    assert (passes["exact_claimed"].sum(), (passes["measured"] > passes["predicted"]).sum()) == (claimed, above)
