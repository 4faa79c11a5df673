"""L1: what each SM's L1 serves of the global loads, from a replay of sampled SMs.

For a few SMs spread over the launch (`sample_groups`), the blocks resident on each together
(`warpsim.caches.residency`; in a launch without loops of more than a wave, every block each SM
runs, a resident set after another: `histories`) replay the first iterations of every loop (warpsim.caches.stream)
through that SM's L1: a sectored LRU of the bytes the shared-memory carve-out leaves
(warpsim.caches.lru), allocating on loads and not on cp.async .BYPASS, stores or atomics. Per
access, the share of its sectors that hit is measured twice, over the first half of the window
(the loop's cold start) and over the second (its steady state), and extrapolated to the whole
loop; the exact sector count of the access (warpsim.fast) times that share is the prediction.

What the replay also yields, for the L2 model: per access the share of its sectors that reach
L2 as reads (its misses, less those the L2 request coalescer merges with a co-resident block's
miss of the same sector at the same instruction: `in_flight`), and per stream
(warpsim.caches.tiles) the distinct sectors a block touches per iteration of the stream's loop.

Supported by: naive's L1 hit share, 0.992 at every size measured (its misses, 550M of 70.9G
sectors at 4096^3, are within 3% of the sectors each block touches once: 16384 blocks x 32768);
coalesced's 0.95 (= 1 - 32768 / 655360 per block); blocktile2d's C loads (8 loads of the same
32 sectors per thread, back to back: 7 of 8 hit, the measured hits of 0.087-0.104 of all load
sectors at 2048x1024x4096 and 4096^3 are its C re-touches, 0.097); smem's 0.000 at 4096^3 (each
block touches each sector once) and 0.09 at 1000x1030x999 (a misaligned row's last sector is the
next tile's first, still in L1 one K step later).

Limitations: an L1 re-touch before the first touch's data came back (an in-flight miss) counts
as a hit; stores neither allocate nor invalidate; the sampled SMs stand for all (a launch whose
blocks differ, e.g. edge tiles, is averaged over the samples).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warpsim.caches.hardware import H200, Hierarchy
from warpsim.caches.lanes import axis_blocks
from warpsim.caches.lru import sectors, simulate
from warpsim.caches.residency import FIRST_WAVE_GAPS, LATER_GAPS, Residency, co_resident
from warpsim.caches.stream import Window, loop_dims, sample_records

SAMPLES = 4  # SMs replayed (more where pieces of the launch need them)
#: The most blocks an SM holds whose barrier keeps them in lockstep with each other (`in_flight`):
#: measured in lockstep with 1-3 (smem, gemm_cp_async, dgemm_smem 2; blocktile2d, vectorized 2;
#: blocktile1d, warptile 3; warptile_db 1: counting their co-resident blocks' re-reads as hits puts
#: L1 hits of blocktile1d, blocktile2d, vectorized and warptile at 1536^3 9-14% of the load sectors
#: high), and not with 10 (wmma_tf32_smem, blind batch 5 at 1500x700x600: blocks 132 apart share B
#: columns, grid 22 wide, and 29% of the load sectors hit, where the lockstep rule predicted none;
#: without it, +0.6% and +1.9%; wmma_half_smem 1111x999x555 -6% becomes -3.4%). No trace has a
#: barrier kernel of 4-9 blocks an SM.
LOCKSTEP_BLOCKS = 3
BUDGET = 200_000  # warp-request lines replayed, about: what the window of iterations is chosen for


def group_of(block: int, res: Residency, blocks: int, k: int = 0) -> list[int]:
    """The blocks resident with `block` on its SM (the k-th sample: which of the gaps measured
    between co-resident blocks it takes, residency.FIRST_WAVE_GAPS or LATER_GAPS)."""
    wave_first = (block // res.slots) * res.slots
    gaps = FIRST_WAVE_GAPS if wave_first == 0 else LATER_GAPS
    return co_resident(wave_first + (block - wave_first) % res.sms, res, blocks, gaps[k % len(gaps)])


def holding(block: int, res: Residency, blocks: int) -> list[int]:
    """`group_of(block)` with `block` in it: group_of stands a block of a later slot by its
    slot's first-slot block (so that evenly spaced samples are whole blocks of the launch's
    body); a piece of the launch that only one edge block runs needs that block itself."""
    group = group_of(block, res, blocks)
    if block not in group:
        slot = min(block % res.slots // res.sms, len(group) - 1)
        group = sorted(set(group[:slot] + [block] + group[slot + 1:]))
    return group


def sample_groups(program, res: Residency, samples: int = SAMPLES) -> list[list[int]]:
    """Groups of co-resident blocks: SMs at evenly spaced blocks of the launch (the first and the
    last included), and one more, at its middle block, for every piece of the launch (machine
    code splits a launch at edges) that none of those holds but on its last row or column, so
    that every access is replayed by a block that runs it whole (that block itself: `holding`;
    trmm_lower at 1000x700 runs 232 loads in its last block alone, which `group_of` stood by
    another: never replayed, they hit nothing and fetched every sector, L2 reads +91%)."""
    blocks = program.blocks
    picks = dict.fromkeys(round(k * (blocks - 1) / max(1, samples - 1)) for k in range(samples))
    groups = {tuple(group_of(b, res, blocks, k)) for k, b in enumerate(picks)}
    for b in uncovered(program, groups):
        groups.add(tuple(holding(b, res, blocks)))
    return [list(g) for g in sorted(groups)]


def uncovered(program, groups):
    """Yields the middle block of every piece of the launch that no block of `groups` holds but
    on its last row or column (an edge block may run a few of its warps: split-K's last block at
    M = 97, one); `groups` is read again at each piece, so that a group the caller adds for one
    piece may hold the next."""
    gx, gy, _ = program.grid
    for ranges in dict.fromkeys(a.blocks for a in program.accesses):
        axes = [axis_blocks(blocks) for blocks in ranges]
        if not any(all(v in r and (len(r) == 1 or v != r[-1]) for v, r in zip(at, axes))
                   for g in groups for at in ((b % gx, (b // gx) % gy, b // (gx * gy)) for b in g)):
            x, y, z = (r[(len(r) - 1) // 2] for r in axes)
            yield x + gx * (y + gy * z)


def histories(program, res: Residency, samples: int, budget: int) -> list[list[int]]:
    """A launch without loops of more blocks than one wave: whole SMs over the launch, each SM s
    its blocks s, s + sms, s + 2 sms, ... in order (co-resident blocks stay about an SM count
    apart as each freed slot takes the next block: warpsim.caches.residency), as many SMs as
    the budget of lines allows (evenly spaced), and the SM of each piece's middle block that
    none of them holds. What one block leaves in L1 its SM's later blocks find: bias_add's
    `b[i % N]` (a row of N floats every block reads a stretch of) misses on each SM once per
    sector, 16,500 = 132 x 125 sectors of its 125,000 at 1000x1000 (traces/holdout/blind6),
    where replaying the blocks of one wave alone missed three times as many."""
    sms, blocks = res.sms, program.blocks
    one = sample_records(program, [list(range(0, blocks, sms))], Window({}, {}), res.blocks_per_sm)
    n = min(sms, max(samples, budget // max(1, len(one.line))))
    picks = {round(k * (sms - 1) / max(1, n - 1)) for k in range(n)}
    groups = [list(range(s, blocks, sms)) for s in sorted(picks)]
    for b in uncovered(program, groups):
        groups.append(list(range(b % sms, blocks, sms)))
    return sorted(groups)


@dataclass
class L1Replay:
    """What the sampled SMs' L1s did, per access (arrays indexed like program.accesses) and per
    stream (warpsim.caches.tiles)."""

    hit_share: np.ndarray  # share of the access's sectors that hit in L1
    fetch_share: np.ndarray  # share of them read from L2 (misses less those merged with a co-resident block's)
    repeat_share: np.ndarray  # of a load L1 does not serve, the share of sectors its SM asked for before,
    #                           within the reach of L1's size: the most the L2 request coalescer may merge
    distinct: np.ndarray  # per stream: distinct sectors a block touches per iteration of its loop (or in all)
    simulated: int  # warp-request lines replayed


def _extrapolate(cold: np.ndarray, counted: np.ndarray, asked: np.ndarray, scale: float) -> float:
    """The share counted/asked over the whole loop: the window's cold half as it is, its warm
    half standing for every later iteration."""
    a_c, a_w = asked[cold].sum(), asked[~cold].sum()
    h_c, h_w = counted[cold].sum(), counted[~cold].sum()
    if a_w > 0 and scale > 1:
        rest = (a_c + a_w) * scale - a_c
        return float((h_c + h_w * rest / a_w) / (a_c + rest))
    return float((h_c + h_w) / max(1, a_c + a_w))


def _loop_free_samples(program, res: Residency, samples: int, budget: int) -> int:
    """A launch without loops replays as many SMs as its budget of lines allows, all of them at
    most: its edge blocks (a row or plane of the grid that runs a few lanes) hit less than its
    inner ones, and four SMs' worth of blocks weigh them as chance has it. stencil7 at 130x97x61
    (grid 5 x 25 x 31, its last x column runs 2 of 32 lanes): L1 hits +3.9% of the load sectors
    with 4 SMs, +1.5% with every SM; at 66x33x17 +0.0% (was -1.5%)."""
    groups = sample_groups(program, res, samples)
    lines = len(sample_records(program, groups, Window.choose(program, groups, budget)).line)
    return min(res.sms, max(samples, samples * budget // max(1, lines)))


def replay(program, res: Residency, stream_of: np.ndarray, hw: Hierarchy = H200, samples: int = SAMPLES,
           budget: int = BUDGET) -> L1Replay:
    if program.blocks <= res.sms:
        # a block to an SM: replay every one. Evenly spaced samples alias with the period of the
        # rows' alignment: row_sum at 97x61 (rows 244 r bytes apart: 4 samples at 0, 32, 64, 96
        # all start on a sector, where 84 of the 97 rows share one between their two warps; L1
        # hits -9.3% of the load sectors), layernorm_warp at 361x129 (rows 516 B apart, 4 a block:
        # even blocks start on a sector, odd ones 16 B in; 16 samples 6 apart were all even, and
        # x's L1 misses came out 1.5% below the distinct sectors every launch must fetch)
        samples = max(samples, program.blocks)
    resident = None  # groups are blocks resident together (else whole SMs, `resident` at a time)
    if program.blocks > res.sms and not any(loop_dims(a.site) for a in program.accesses):
        if program.blocks > res.slots:
            groups, resident = histories(program, res, samples, budget), res.blocks_per_sm
        else:
            groups = sample_groups(program, res, _loop_free_samples(program, res, samples, budget))
    else:
        groups = sample_groups(program, res, samples)
    window = Window.choose(program, groups, budget)
    rec = sample_records(program, groups, window, resident).sorted()
    n = len(program.accesses)
    allocating = np.array([a.l1 for a in program.accesses], dtype=bool)
    hit = np.zeros(len(rec.line), dtype=np.uint8)
    use = allocating[rec.access] if len(rec.line) else np.zeros(0, dtype=bool)
    if use.any():
        result = simulate(rec.line[use], rec.mask[use], res.l1_bytes // hw.line, hw.l1_ways, group=rec.group[use])
        hit[use] = result["hit"]
    # loads that do not go through L1 (program.NO_L1): their repeats of a sector asked for shortly
    # before go to L2 all the same, where the request coalescer merges those still in flight
    # (blind batch 27: a stencil's three __ldcg loads, 14 sectors a warp, read 10.6 from L2)
    bypass = np.array([a.op == "load" and not a.l1 for a in program.accesses], dtype=bool)
    again = np.zeros(len(rec.line), dtype=np.uint8)
    others = bypass[rec.access] if len(rec.line) else np.zeros(0, dtype=bool)
    if others.any():
        again[others] = simulate(rec.line[others], rec.mask[others], res.l1_bytes // hw.line, hw.l1_ways,
                                 group=rec.group[others])["hit"]
    if program.synchronized and res.blocks_per_sm <= LOCKSTEP_BLOCKS:
        hit, merged = in_flight(rec, hit)
    else:
        merged = np.zeros_like(hit)
    asked, got, joined = sectors(rec.mask), sectors(hit), sectors(merged)
    hit_share, fetch_share, repeat_share = np.zeros(n), np.ones(n), np.zeros(n)
    repeated = sectors(again)
    for ai in range(n):
        sel = rec.access == ai
        if not sel.any():
            continue
        scale = window.scale(program.accesses[ai].site)
        hit_share[ai] = _extrapolate(rec.cold[sel], got[sel], asked[sel], scale)
        fetch_share[ai] = _extrapolate(rec.cold[sel], asked[sel] - got[sel] - joined[sel], asked[sel], scale)
        if bypass[ai]:
            repeat_share[ai] = _extrapolate(rec.cold[sel], repeated[sel], asked[sel], scale)
    distinct = np.zeros(int(stream_of.max()) + 1 if n else 0)
    for sid in range(len(distinct)):
        sel = np.isin(rec.access, np.flatnonzero(stream_of == sid))
        if not sel.any():
            continue
        # per (block, iteration) the stream runs: a triangular loop's blocks differ in trip count
        runs = len(np.unique(rec.block[sel] * (1 << 32) + rec.iteration[sel] + 1))
        distinct[sid] = distinct_sectors(rec.line[sel], rec.mask[sel], rec.block[sel]) / runs
    return L1Replay(hit_share, fetch_share, repeat_share, distinct, len(rec.line))


def distinct_sectors(line: np.ndarray, mask: np.ndarray, block: np.ndarray) -> int:
    """Distinct (block, sector) pairs among records."""
    _, blk = np.unique(block, return_inverse=True)
    total = 0
    for k in range(4):
        on = ((mask >> k) & 1) == 1
        total += len(np.unique(line[on] * 1024 + blk.ravel()[on]))
    return total


def in_flight(rec, hit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Blocks whose loops wait at a barrier run in lockstep with the blocks sharing their SM (up
    to LOCKSTEP_BLOCKS of them; an SM of more interleaves them, and they drift apart): a
    sector one block fetches at an access is still on its way when the other blocks ask for it
    at the same access (the same instruction and iteration), so for them it is a miss, and its
    fill request meets the first one's in the L2 request coalescer, which merges them (L1 itself
    merges nothing: traces/paths, every L1 tag miss is one sector filled, and the merges of the
    barrier kernels of 32 warps are counted within a GPC, none across GPCs; tests/
    test_caches_paths.py). A block that waits for a tile whose fetch another block started is
    released when that fetch returns, which holds them together. Warps of one
    block are not held to this (naive's 32 warps re-read each A sector at once, and 99.2% of its
    sectors hit). Returns the corrected hit masks and the masks of the misses merged.

    Supported by: smem at 1000x1030x999 (a barrier in its K loop), whose co-resident blocks b and
    b + 132 (the grid is 33 wide) read the same B tile at every K step: 0.092 of its sectors
    hit, the share its misaligned rows alone explain (counting the second block's B sectors as
    hits gives 0.33); and coalesced at the same size (no barrier), whose co-resident blocks
    share B rows alike: 0.953 hit, as many as counting them all as hits gives."""
    n = len(rec.line)
    if n == 0:
        return hit, np.zeros(0, dtype=np.uint8)
    changed = np.ones(n, dtype=bool)  # records are sorted by (group, key): an instance is a run
    changed[1:] = (rec.group[1:] != rec.group[:-1]) | np.any(rec.key[1:, :-2] != rec.key[:-1, :-2], axis=1)
    instance = np.cumsum(changed)
    merged = np.zeros(n, dtype=np.uint8)
    for k in range(4):
        has = np.flatnonzero((rec.mask >> k) & 1)
        if len(has) == 0:
            continue
        sector = rec.line[has] * 4 + k
        order = np.lexsort((has, sector, instance[has], rec.group[has]))
        idx = has[order]
        sec, inst, grp = sector[order], instance[idx], rec.group[idx]
        start = np.ones(len(idx), dtype=bool)
        start[1:] = (sec[1:] != sec[:-1]) | (inst[1:] != inst[:-1]) | (grp[1:] != grp[:-1])
        head = np.maximum.accumulate(np.where(start, np.arange(len(idx)), 0))
        first = idx[head]
        first_missed = ((hit[first] >> k) & 1) == 0
        other_block = rec.block[idx] != rec.block[first]
        turn = ~start & first_missed & other_block & (((hit[idx] >> k) & 1) == 1)
        bit = np.uint8(1 << k)
        hit[idx[turn]] &= np.uint8(~bit & 0xF)
        merged[idx[turn]] |= bit
    return hit, merged
