"""L2 and DRAM: the tiles every block asks for, in time, through the L2 request coalescer and an
LRU whose capacity is soft.

Two things happen to a tile that L1s ask for (warpsim.caches.tiles):

1. Coalescing. GH100 puts a request coalescer (ncu's unit `lrc`: `lrc__request_sectors_op_read_
   coalescing_achieved_type_hardware`, tests/fixtures/ncu_sass/gh100_metric_names.txt) between
   the crossbar and the L2 slices: read requests of several SMs for one sector that meet there
   become one L2 request. `lts__t_sectors_srcunit_tex_op_read` counts what is left. Of the k
   blocks asking for one tile at one step, the first asks L2 and each of the k - 1 others meets
   an earlier request, and is merged, with a chance: FIRST_SHARE among the launch's first wave
   (its blocks start together and run alike, so the same request of two SMs comes close in
   time), LATER_SHARE in later waves (their blocks start one after another as slots free). In a
   kernel whose blocks of 32 warps wait at a barrier every step (`lockstep`), later waves stay
   aligned a while: wave w merges FIRST_SHARE / (1 + w / LOCKSTEP_WAVES), LATER_SHARE at least.
2. Caching. The L2 keeps tiles in least-recently-used order; a tile re-used after d bytes of
   other tiles (its stack distance) misses with a chance that rises from 0 to 1 around the
   effective capacity (hardware.l2_effective, 35.5 MiB, over l2_softness, 3.25 MiB): a miss, and a
   tile's first use, read it from DRAM (its distinct sectors); a stored tile is dirty and is
   written to DRAM when evicted (what is still dirty when the kernel ends stays in L2: ncu's
   DRAM writes of the kernel do not see it).

Supported by: (1) the launches that run in one wave: no block re-reads a sector of A or B, so
their L2 read sectors less L1's missed sectors are the merged repeats: solved per launch (with
the model's k), the share of repeats merged is 0.2-0.5 for 32 of the 44 launches whose first
wave holds half their traffic or more (median 0.33; blocktile2d and vectorized at 2048x1024x4096, 128
blocks, 0.64; warptile at the same size 0.33), at every k from 2 (dgemm_smem 97x61x45, 8
blocks: 0.84, wmma_tf32_global 48x80x24: 0.59) to 30: a constant chance per repeat, not a cap
on the requests (a cap, min(k, 5 x blocks per SM), merges nothing where k is small, and put
six launches of 6-8 blocks 16-71% high). In launches of many waves L2 reads are 0.94-0.99 of the
misses (smem, naive, coalesced at 4096^3). FIRST_SHARE and LATER_SHARE are the pair of those
tried (0.1-0.7 and 0-0.08) that puts the most L2 read sectors of the 121 traces within 10% (90;
83-87 for 0.25 and 0.35; 73 for the cap above).
(1b) later waves: solved per launch with the first wave's 0.3, the share of a later wave's
repeats merged is 0.07-0.29 for the eight launches of 1024-thread barrier kernels (smem at
1000-4096, dgemm_smem 1024x1536x2048, gemm_cp_async 2048^3), falling as the launch has more
waves (0.17-0.29 at 4-9 waves, 0.13 at 16-25, 0.12 at 35, 0.07 at 63), where the 19 launches
of 4 waves or more of non-barrier kernels with the same blocks (naive, coalesced, naive_coalesced,
trmm_lower) give -0.16 to +0.12 (median 0.02); the barrier kernels of 4-16 warps a block
(blocktile1d/2d, vectorized, warptile(_db), wmma at 2-11 waves) spread around 0.04 (-0.2 to
+0.2, as their first waves' shares spread). FIRST_SHARE / (1 + w / 8) for those eight and
LATER_SHARE for the others puts 94 of the 121 traces within 10% (90 with LATER_SHARE for all;
the same 94 for 5-24 waves in place of 8; 89 or fewer when every barrier kernel gets it); 93
since launches of a block an SM replay 16 SMs in L1 (warpsim.caches.l1), which left the
coalescer's excess merging in two of them uncovered, and where FIRST_SHARE 0.25 gives 85.
(2) DRAM reads equal the matrices once (within 1%) when they fit; at 4096^3 naive re-reads B
once per block row (8.52 GB = 127 x 67 MB: its staggered slots put the next reader of a B
column half a block later, after 63 MB of other tiles), coalesced once per two (4.33 GB: in
waves, b and b + 128 share a wave for half the blocks); at 3072^3, 1.8x the L2, the ladder
reads 1.4-8.4x its matrices, which a hard 60 MiB LRU predicts as 1.0x (no re-read's distance
reaches 60 MiB). The curve is read off two groups of launches whose re-uses sit at one distance:
coalesced, smem and naive_coalesced at 2560^3 re-read B after 25-28 MiB of other tiles (617 MB
of re-uses each) and read 37 MB more than their arrays (6% of those re-uses miss); at 3072^3
their re-uses sit at 36-40 MiB and 61-76% miss. A logistic through both: 35.5 MiB over 3.25 MiB
(the width a hashed, set-associative cache gives: a line is evicted when its set receives as
many other lines as it has ways, a count that spreads about its mean). It puts DRAM reads within
15% for 24 of the 29 launches larger than L2 and within 5% for 84 of the 92 that fit (19 and 83
with 36 over 2 MiB, the pair before, which missed the 2560^3 re-reads; 24 for 35.25-35.75 MiB
over 3-3.25, at most 23 elsewhere in 35-36.5 over 2.75-3.75). 35.5 MiB is about the 30 MiB of
one of the L2's two partitions: data every SM reads may be held in both.
(2b) staggered and offset launches (naive; smem, dgemm_smem, gemm_cp_async: warpsim.caches.
residency.dispatch_mode) get a curve of their own, centred at 40 MiB over 4 MiB
(hardware.l2_staggered_effective): the block schedules (traces/schedule/) show naive and smem
staggered half a block at 2816^3, 3072^3 and 4096^3, and with the waves' curve the model's
staggered re-uses miss too often just above the L2 (naive 3072^3 +79%, 2816^3 +62%: its re-uses
at 36-38 MiB would have to miss 32%, where those of launches in waves at that distance miss
61-76%): the model's stack distances of a launch whose slots start half a block apart come
out longer than what the L2 sees (why is not known; the curve stands for it). 40 MiB
over 4 MiB is the middle of the plateau (39.5-40.5 MiB over 4 MiB) that puts DRAM reads of 26
of the 29 launches larger than L2 within 15% and keeps 84 of the 92 that fit within 5%; 39-39.5
over 3.5-4 give 25, over 3.25 at most 24, over 4.5 lose a launch that fits.

Limitations: the L2 is one LRU over tiles (its two partitions, hashing and replacement policy
are stood for by the soft capacity; a staggered launch's timing within a block by a second
curve, not by its distances); tiles are the granularity of eviction; the coalescer's
timing is two chances fitted to the traces, not a model of its window (per kernel the first wave
merges 0.2-0.64 of its repeats); why full-size barrier blocks keep later waves aligned and
smaller ones do not is not known (one candidate: with 32 warps a block's time is its slowest
warp's, so durations vary less).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FIRST_SHARE = 0.3  # share of the first wave's repeated requests for one tile step that coalesce
LATER_SHARE = 0.04  # share of a later wave's repeated requests for one tile step that coalesce
LOCKSTEP_WAVES = 8  # waves over which a lockstep kernel's later waves lose half the first's merges
#: The most of a launch's repeated requests (another block's for the same tile at the same step)
#: that the coalescer merged, as measured over the memory-path traces (traces/paths, both passes;
#: merged sectors over the model's repeats and in-flight merges, 118 and 133 launches whose repeats
#: are 2% of their fills or more): in a first wave, up to 0.767 (layernorm_warp 1000x1030; the
#: least, 0.008, wmma_tf32_global 2048^3); in later waves, with every merge laid on them, up to 0.16
#: (coalesced 1536^3, of the 27 and 33 launches whose first wave holds under 15% of the repeats)
#: and 0.33 where blocks of 32 warps wait at a barrier (smem 1536^3, of 6 and 8). Whatever the
#: window, a launch's L2 read sectors lie between its fetched sectors less these shares of its
#: repeats and less none (CachePrediction.l2_read_range).
MOST_MERGED = {"first": 0.77, "later": 0.16, "later, lockstep": 0.33}
#: Arrays that take between these multiples of the L2 re-use their tiles at stack distances around
#: its capacity, where what DRAM serves depends on the row pitch (the L2's address hash), not on the
#: size alone: the sweep of naive, coalesced and smem from 2816^3 to 3200^3 (traces/sweep) reads 1.5-2.3x
#: more at 3000^3 than at its neighbours 32 apart, reproducibly.
PITCH_BAND = (1.0, 2.0)
#: Measured over predicted DRAM read bytes, the least and the most, over the 243 measurements of
#: launches in PITCH_BAND (every trace: committed, held out, memory path, blind batches, sweep):
#: 0.779 (smem 3072^3, a repeat) to 2.152 (softmax_warp 3001x4093; smem 3000^3 1.99), rounded
#: outward (3.169, smem 3000^3, before the exact footprint scaled first reads there). Where the
#: arrays fit (0.5-1x the L2, 129 measurements) the spread is 0.78-1.81, 0.97-1.03 for 90%.
DRAM_SPREAD = (0.77, 2.2)


@dataclass
class L2Result:
    """Per array (the events' arrays): sectors read from L2 by L1, bytes read from and written
    to DRAM; all floats (sampled and scaled)."""

    arrays: list
    l2_read: np.ndarray
    dram_read: np.ndarray
    dram_write: np.ndarray
    fetched: np.ndarray  # sectors L1 asks L2 for, before the coalescer
    repeated_first: np.ndarray  # of those, repeats of another block's request at the same step, first wave
    repeated_later: np.ndarray  # the same, later waves


def merged_share(wave: np.ndarray, lockstep: bool, first: float = FIRST_SHARE,
                 later: float = LATER_SHARE) -> np.ndarray:
    """The chance that a repeated request of a block starting in `wave` coalesces: `first` in
    the first wave, `later` after it, or `first` fading over LOCKSTEP_WAVES waves (never below
    `later`) where the blocks run in `lockstep`."""
    wave = np.asarray(wave, dtype=float)
    if lockstep:
        return np.maximum(first / (1.0 + wave / LOCKSTEP_WAVES), later)
    return np.where(wave == 0, first, later)


def _groups(ev):
    """The events grouped by (tile, time), in (tile, time, block) order: the order, each group's
    index per ordered event, whether an ordered event starts its group, and per group k, the
    blocks asking (a block's own streams that meet on one tile at one step are one SM's requests,
    which L1 has already merged or served: k counts blocks, not events)."""
    n = len(ev.time)
    order = np.lexsort((ev.block, ev.time, ev.tile))
    tile, time, block = ev.tile[order], ev.time[order], ev.block[order]
    start = np.ones(n, dtype=bool)
    start[1:] = (tile[1:] != tile[:-1]) | (time[1:] != time[:-1])
    group = np.cumsum(start) - 1
    other = start.copy()
    other[1:] |= block[1:] != block[:-1]
    return order, group, start, np.bincount(group, weights=other).astype(float)


def _shares(ev, first: float, later: float, lockstep: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per event, from one grouping: the share of its fetched sectors that reach L2, and the
    share that repeats another block's request for the same tile at the same step."""
    n = len(ev.time)
    if n == 0:
        return np.zeros(0), np.zeros(0)
    order, group, start, k = _groups(ev)
    merged = merged_share(ev.wave[order][start], lockstep, first, later)
    reach, repeated = np.empty(n), np.empty(n)
    reach[order] = ((k - merged * (k - 1)) / k)[group]
    repeated[order] = ((k - 1) / k)[group]
    return reach, repeated


def coalesced_requests(ev, first: float = FIRST_SHARE, later: float = LATER_SHARE,
                       lockstep: bool = False) -> np.ndarray:
    """Per event, the share of its fetched sectors that reach L2 (the rest coalesce with another
    block's request for the same tile at the same time)."""
    return _shares(ev, first, later, lockstep)[0]


def repeated_share(ev) -> np.ndarray:
    """Per event, the share of its fetched sectors that repeat another block's request for the
    same tile at the same step, (k - 1) / k: what the coalescer may merge (MOST_MERGED)."""
    return _shares(ev, FIRST_SHARE, LATER_SHARE, False)[1]


def miss_probability(distance: np.ndarray | float, capacity: float, width: float) -> np.ndarray:
    """The chance that a tile re-used after `distance` bytes of other tiles (its LRU stack
    distance) is gone: a soft step at `capacity`, `width` wide (a logistic), less its value at
    0 (a re-use after nothing else never misses)."""
    at_zero = 1.0 / (1.0 + np.exp(capacity / width))
    p = 1.0 / (1.0 + np.exp(-(np.asarray(distance, dtype=float) - capacity) / width))
    return (p - at_zero) / (1.0 - at_zero)


def stack_distances(ev, limit: float, sector: int = 32, bucket: float = 1 << 20):
    """Per event: the bytes of distinct other tiles used since the tile's last use (its LRU
    stack distance; inf at a tile's first use, and once it exceeds `limit`, past which every
    re-use misses), and whether it is the first event of its (tile, time) group (the others use
    the same fetch); per event, the tile's size before it in sectors (0 at its first use). At the
    end, per tile still dirty: (its last event, its stack distance then). A tile grows to the
    largest size any use gives it: two streams of one block that start at one address name one
    tile (a loop's first iterations peeled off its unrolled body, both from the row's start:
    row_sum), and the larger use's sectors past the smaller's are then read for the first time.

    The LRU stack is kept in buckets of about `bucket` bytes (a tile's distance is the bytes in
    the buckets newer than its own), so a use costs a sum over the newest buckets, as many as
    `limit` needs."""
    n = len(ev.time)
    distance = np.full(n, np.inf)
    before = np.zeros(n)
    leader = np.zeros(n, dtype=bool)
    tiles, sizes, times = ev.tile.tolist(), (ev.size * sector).tolist(), ev.time.tolist()
    writes = (ev.written > 0).tolist()
    where: dict = {}  # tile -> bucket index
    size_of: dict = {}
    buckets: list[float] = [0.0]
    reach = int(4 * limit // bucket) + 2  # newest buckets summed before a distance counts as past limit
    dirty: dict = {}  # tile -> event of its last write

    def depth(b: int) -> float:
        newer = buckets[max(b + 1, len(buckets) - reach):]
        d = sum(newer)
        if b + 1 < len(buckets) - reach and d < limit:
            d = sum(buckets[b + 1:])
        return d if d < limit else np.inf

    previous = None
    for i in range(n):
        t = tiles[i]
        key = (t, times[i])
        if key == previous:
            if writes[i]:
                dirty[t] = i
            continue
        previous = key
        leader[i] = True
        b = where.get(t)
        if b is not None:
            distance[i] = depth(b)
            buckets[b] -= size_of[t]
            before[i] = size_of[t]
        if buckets[-1] >= bucket:
            buckets.append(0.0)
        where[t] = len(buckets) - 1
        size_of[t] = max(sizes[i], before[i])
        buckets[-1] += size_of[t]
        if writes[i]:
            dirty[t] = i
    # at the end every bucket is settled: a tile's distance is the bytes of the buckets newer than
    # its own, one suffix sum for all (a depth() per dirty tile cost 0.8 s for stencil2d's 94,000)
    newer = np.append(np.cumsum(buckets[::-1])[::-1][1:], 0.0)
    ends = [(i, float(newer[where[t]]) if newer[where[t]] < limit else np.inf) for t, i in dirty.items()]
    return distance, before / sector, leader, ends


def cache(ev, capacity: float, width: float, sector: int = 32) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Expected DRAM bytes read and written per event, and the chance each event's tile missed.

    A tile's first use reads it from DRAM (unless it is only stored); a re-use misses with
    `miss_probability` of its stack distance; a dirty tile is written back when it is evicted,
    which is charged to the write (DRAM writes during the kernel: what is still in L2 at its
    end is not counted, as ncu does not count it)."""
    distance, before, leader, ends = stack_distances(ev, capacity + 12 * width, sector)
    whole = np.isinf(distance)  # a first use, or a re-use past the limit: read whole
    p = np.where(whole, 1.0, miss_probability(np.where(whole, 0, distance), capacity, width))
    p = np.where(leader, p, 0.0)
    # a re-use misses on what the tile held (its size so far), and reads what it grows by
    held = np.where(whole, ev.size, np.minimum(ev.size, before))
    grown = np.where(leader & ~whole, np.maximum(ev.size - before, 0.0), 0.0)
    read = np.where(ev.reads, (p * held + grown) * sector, 0.0)
    write = np.zeros(len(p))
    for i, d in ends:
        dirty = min(ev.written[i], ev.size[i])  # distinct sectors written (a store request may move more)
        write[i] += (1.0 if np.isinf(d) else float(miss_probability(d, capacity, width))) * dirty * sector
    return read, write, p


def simulate(ev, capacity_bytes: int, width: float, lockstep: bool = False) -> L2Result:
    """`lockstep`: the kernel's blocks are of 32 warps and wait at a barrier in their loop
    (`lockstep` in warpsim.caches.model)."""
    read, write, missed = cache(ev, capacity_bytes, width)
    share, repeated_of = _shares(ev, FIRST_SHARE, LATER_SHARE, lockstep)
    k = len(ev.arrays)

    def per_array(weights: np.ndarray) -> np.ndarray:
        return np.bincount(ev.array, weights=weights, minlength=k)

    repeated = ev.fetched * repeated_of
    first = ev.wave == 0
    return L2Result(ev.arrays, per_array(ev.fetched * share), per_array(read), per_array(write),
                    per_array(ev.fetched), per_array(np.where(first, repeated, 0.0)),
                    per_array(np.where(first, 0.0, repeated)))
