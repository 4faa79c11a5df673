"""The global-memory coalescer: which 32-byte sectors does one warp instruction touch?

Pure numpy. Input: byte addresses shaped (n, 32) (one row per warp instruction, one column per
lane), an active-lane mask of the same shape, and the access width in bytes. Output: per-row
counts. A row with no active lane is not a request and counts zero everywhere.

Local memory (LDL/STL: per-thread arrays, register spills) is interleaved by the hardware: a
thread's 4-byte word w of its local window lies at 128 w + 4 lane of its warp's, so lanes that
name the same offset touch consecutive words (`local`; blind batch 11 measured it, see
docs/EXACTNESS.md section 3).

Atomics and reductions (ATOMG, REDG) whose lanes share a word are applied one lane a pass: ncu's
`l1tex__t_sectors` counts, per sector, as many passes as the most lanes that name one word in it,
where its per-instruction `L2 Theoretical Sectors Global` counts the distinct sectors (`atomic_passes`; measured
in stop 26 on the H200: a float, double or 64-bit reduction, or an ATOMG, with all 32 lanes on one
word takes 32 sectors, on two words of one sector 16, on eight words a sector apart 4 each, 32 in
all; distinct words a sector as loads: kernels/atomics.cu, traces/holdout/atoms3). Where lanes of two
128-byte lines name one word offset beside a sector of single-lane words, ncu may count more: such a
request's passes are a lower bound (`atomic_passes_bound`; docs/EXACTNESS.md section 3).

Limitations: widths above 32 bytes are not CUDA loads and are rejected; the L1's handling of one
request in several passes (wavefronts) is not modelled here, only what ncu's `t_sectors` counts:
the distinct sectors a request touches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SECTOR = 32  # bytes
LINE = 128  # bytes
WIDTHS = (1, 2, 4, 8, 16)
_SENTINEL = np.iinfo(np.int64).max


@dataclass(frozen=True)
class Coalesced:
    """Per-request counts, each an int64 array shaped (n,)."""

    active: np.ndarray  # active lanes
    requests: np.ndarray  # 1 where at least one lane is active
    sectors: np.ndarray  # distinct 32-byte sectors touched (a straddling lane touches two)
    lines: np.ndarray  # distinct 128-byte lines touched
    distinct: np.ndarray  # distinct lane addresses
    broadcast: np.ndarray  # 1 where two or more active lanes share an address
    ideal_sectors: np.ndarray  # ceil(distinct bytes / 32): the fewest sectors that could carry them


def _distinct_sorted(x: np.ndarray) -> np.ndarray:
    """Count distinct non-sentinel values per row of a row-sorted array."""
    valid = x != _SENTINEL
    new = np.ones_like(valid)
    new[:, 1:] = x[:, 1:] != x[:, :-1]
    return np.count_nonzero(valid & new, axis=1)


def _distinct_spans(first: np.ndarray, last: np.ndarray, mask: np.ndarray) -> np.ndarray:
    both = np.concatenate([np.where(mask, first, _SENTINEL), np.where(mask, last, _SENTINEL)], axis=1)
    both.sort(axis=1)
    return _distinct_sorted(both)


def coalesce(addresses: np.ndarray, mask: np.ndarray, width: int) -> Coalesced:
    """Count sectors, lines and broadcasts of each warp instruction (row). Units in field docs."""
    if width not in WIDTHS:
        raise ValueError(f"access width {width} B is not one of {WIDTHS}")
    addresses = np.asarray(addresses, dtype=np.int64)
    mask = np.asarray(mask, dtype=bool)
    if addresses.ndim != 2 or addresses.shape != mask.shape:
        raise ValueError(f"addresses {addresses.shape} and mask {mask.shape} must both be (n, 32)")
    end = addresses + (width - 1)
    sectors = _distinct_spans(addresses // SECTOR, end // SECTOR, mask)
    lines = _distinct_spans(addresses // LINE, end // LINE, mask)

    starts = np.where(mask, addresses, _SENTINEL)
    starts.sort(axis=1)
    distinct = _distinct_sorted(starts)
    active = np.count_nonzero(mask, axis=1)

    # Union of the byte ranges [a, a + width): each distinct start contributes up to `width`
    # bytes, less where the next start overlaps it.
    valid = starts != _SENTINEL
    gap = np.full(starts.shape, width, dtype=np.int64)
    nxt_valid = valid[:, 1:]
    gap[:, :-1] = np.where(nxt_valid, starts[:, 1:] - np.where(valid[:, :-1], starts[:, :-1], 0), width)
    union = np.sum(np.where(valid, np.minimum(gap, width), 0), axis=1)
    return Coalesced(
        active=active,
        requests=(active > 0).astype(np.int64),
        sectors=sectors,
        lines=lines,
        distinct=distinct,
        broadcast=(distinct < active).astype(np.int64),
        ideal_sectors=-(-union // SECTOR),
    )


def atomic_passes(addresses: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per row, the sector passes of a global atomic or reduction (ncu's `l1tex__t_sectors` of
    `_op_red`/`_op_atom`): each distinct sector once per lane on its busiest word, since lanes that
    update one word are applied one at a time. Rows shaped (n, 32); atomics are aligned, so a
    lane's word lies in one sector."""
    addresses = np.asarray(addresses, dtype=np.int64)
    mask = np.asarray(mask, dtype=bool)
    sectors = np.zeros(addresses.shape[0], dtype=np.int64)
    if not mask.any():
        return sectors
    starts = np.where(mask, addresses, _SENTINEL)
    starts.sort(axis=1)
    # per row, the run length of each distinct address (at its last lane in sorted order)
    same = np.zeros(starts.shape, dtype=bool)
    same[:, 1:] = (starts[:, 1:] == starts[:, :-1]) & (starts[:, 1:] != _SENTINEL)
    run = np.zeros(starts.shape, dtype=np.int64)
    count = np.zeros(starts.shape[0], dtype=np.int64)
    for k in range(starts.shape[1]):
        count = np.where(same[:, k], count + 1, 1)
        run[:, k] = count
    last = np.ones(starts.shape, dtype=bool)
    last[:, :-1] = ~same[:, 1:]
    last &= starts != _SENTINEL
    # per row and sector, the longest run of an address in it
    rows, cols = np.nonzero(last)  # row-major: rows ascending, and within a row addresses ascending,
    sector = starts[rows, cols] // SECTOR  # so each row's sectors come in order too
    runs = run[rows, cols]
    new = np.ones(len(rows), dtype=bool)
    new[1:] = (rows[1:] != rows[:-1]) | (sector[1:] != sector[:-1])
    group = np.cumsum(new) - 1
    most = np.zeros(group[-1] + 1, dtype=np.int64)
    np.maximum.at(most, group, runs)
    np.add.at(sectors, rows[new], most)
    return sectors


def atomic_passes_bound(addresses: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per row, whether `atomic_passes` is only a lower bound on what ncu counts: two of its lanes
    name words at one offset of two different 128-byte lines (one bank), one of those words lying
    in a sector that holds two or more of the row's words, each named by one lane only. Measured
    (H100; traces/h100/atomics and traces/h100/blind25): ncu counted exactly `atomic_passes` for every
    launch of warps without such lanes (29 patterns of equal and unequal runs on the words of one
    or two sectors, lanes of other lines on the same offsets as the runs' words, each over 512 warps;
    the variants of two Zipf warps below), and at least that for every launch with them: blind batch
    25's histogram of Zipf keys 124,575 for the rule's 123,966, the excess a property of single warps
    (4 of 96 warps measured alone take 1-2 more each, all of them flagged here, as 54 of the 96 are),
    which lanes' removal or reordering moves (39 variants each of warps 3571 and 3607). Which of the
    flagged warps count more, and by how much, was not found: such a count is reported, not claimed."""
    addresses = np.asarray(addresses, dtype=np.int64)
    mask = np.asarray(mask, dtype=bool)
    rows, cols = np.nonzero(mask)
    out = np.zeros(addresses.shape[0], dtype=bool)
    if len(rows) == 0:
        return out
    pairs, runs = np.unique(np.stack([rows, addresses[rows, cols] // 4]), axis=1, return_counts=True)
    row, word = pairs  # each row's distinct words, and the lanes on each
    _, at_sector, words = np.unique(np.stack([row, word // (SECTOR // 4)]), axis=1, return_inverse=True,
                                    return_counts=True)
    at_sector = at_sector.reshape(-1)
    longest = np.zeros(len(words), dtype=np.int64)
    np.maximum.at(longest, at_sector, runs)
    single_words = (words[at_sector] >= 2) & (longest[at_sector] == 1)  # its sector: 2+ words, a lane each
    line = word // (LINE // 4)
    groups, at_bank = np.unique(np.stack([row, word % (LINE // 4)]), axis=1, return_inverse=True)
    at_bank = at_bank.reshape(-1)
    lo, hi = np.full(groups.shape[1], np.iinfo(np.int64).max), np.full(groups.shape[1], -1)
    np.minimum.at(lo, at_bank, line)
    np.maximum.at(hi, at_bank, line)
    touched = np.zeros(groups.shape[1], dtype=bool)
    np.logical_or.at(touched, at_bank, single_words)
    out[groups[0][(hi > lo) & touched]] = True
    return out


WORD = 4  # bytes: the interleave of local memory, one word per lane in turn


def local(offsets: np.ndarray, mask: np.ndarray, width: int) -> Coalesced:
    """`coalesce` for local memory: each lane's `width` bytes at its local offset, word by word
    at the address the interleave gives them (word w of lane l at 128 w + 4 l). No two lanes share
    a byte, so nothing is a broadcast; `active` counts lanes, not words."""
    if width not in WIDTHS:
        raise ValueError(f"access width {width} B is not one of {WIDTHS}")
    offsets = np.asarray(offsets, dtype=np.int64)
    mask = np.asarray(mask, dtype=bool)
    words = max(1, width // WORD)  # an aligned access of 8 or 16 B is 2 or 4 words, each its own line
    lane = np.arange(offsets.shape[1], dtype=np.int64) * WORD
    first = offsets // WORD
    spread = [(first + j) * (WORD * 32) + lane + offsets % WORD for j in range(words)]
    c = coalesce(np.concatenate(spread, axis=1), np.tile(mask, (1, words)), min(width, WORD))
    active = np.count_nonzero(mask, axis=1)
    return Coalesced(active=active, requests=c.requests, sectors=c.sectors, lines=c.lines, distinct=active,
                     broadcast=np.zeros_like(active), ideal_sectors=c.ideal_sectors)
