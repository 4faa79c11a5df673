"""A sectored, set-associative LRU cache over a stream of (line, sector mask) accesses, in numpy.

Lines of 4 sectors are allocated whole and filled sector by sector (a miss fetches only the
sectors asked for, as NVIDIA's L1 and L2 do); the least recently used line of a set is evicted.
Sets are independent, so the stream is replayed set-parallel: round r handles the r-th access
of every set at once, and the cost is (accesses per set) rounds of a few array operations over
the sets, not one Python step per access. Several caches (the L1s of several SMs) are one call:
give each its own `group`, and each gets its own sets.

Limitations: no timing (a sector asked for twice before its data returns counts as a hit the
second time); a set's line is found by its hashed line index (real caches hash too, by a
function NVIDIA does not publish).
"""

from __future__ import annotations

import numpy as np

_MIX = np.uint64(0x9E3779B97F4A7C15)


def set_index(line: np.ndarray, sets: int) -> np.ndarray:
    """A hashed set per line (Fibonacci hashing of the line index)."""
    h = (line.astype(np.uint64) * _MIX) >> np.uint64(29)
    return (h % np.uint64(sets)).astype(np.int64)


def simulate(line: np.ndarray, mask: np.ndarray, lines: int, ways: int,
             group: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Replay the accesses in stream order through caches of `lines` lines each (one per group).

    Returns per access: `hit`, the sectors found (a 4-bit mask)."""
    n = len(line)
    sets = max(1, lines // ways)
    ways = max(1, min(ways, lines))
    s = set_index(line, sets)
    if group is not None:
        s = s + group.astype(np.int64) * sets
    total_sets = int(s.max()) + 1 if n else 1
    order = np.argsort(s, kind="stable")
    counts = np.bincount(s, minlength=total_sets)
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - first[s[order]]
    by_round = np.argsort(rank, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(rank, minlength=1))))
    tags = np.full((total_sets, ways), -1, dtype=np.int64)
    valid = np.zeros((total_sets, ways), dtype=np.uint8)
    age = np.zeros((total_sets, ways), dtype=np.int64)
    hit = np.zeros(n, dtype=np.uint8)
    for r in range(len(bounds) - 1):
        idx = by_round[bounds[r]:bounds[r + 1]]
        si, li, mi = s[idx], line[idx], mask[idx]
        eq = tags[si] == li[:, None]
        present = eq.any(axis=1)
        way = np.where(present, eq.argmax(axis=1), age[si].argmin(axis=1))
        held = np.where(present, valid[si, way], 0).astype(np.uint8)
        hit[idx] = held & mi
        valid[si, way] = held | mi
        tags[si, way] = li
        age[si, way] = r + 1
    return {"hit": hit}


POPCOUNT = np.array([bin(i).count("1") for i in range(16)], dtype=np.int64)


def sectors(mask: np.ndarray) -> np.ndarray:
    """How many sectors each 4-bit mask holds."""
    return POPCOUNT[mask]
