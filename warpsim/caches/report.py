"""Presenting a CachePrediction: the table `warpsim analyze --caches` prints, its JSON and CSV,
and seed 000's sentence.

The sentence answers seed 000's question for any launch: of the bytes the loads request, how
many the L1 served (requested less what L1 read from L2), how many the L2 served (its read
sectors less what came from DRAM), and how many came from DRAM (its read bytes). The three add
up to the requested bytes. (A sector L2 sends serves as many requested bytes as its lanes ask
for; counting L2's and DRAM's shares in the bytes they move is what the sentence's "came from"
means here: the traffic each level carried.) Where L2 alone carries more than the loads request
(loads whose lanes use a few bytes of each sector: 1-byte pixels 3 bytes apart), those shares
would leave L1 nothing, whatever it hits; the sentence then counts sectors instead, where L1
hits some (a launch whose last sector carries a few bytes past the requested ones, and whose L1
hits none, keeps the bytes: block_scan at 1,000,003 floats, 4,000,012 bytes in 125,001 sectors).
"""

from __future__ import annotations

import csv
import io

from warpsim.caches.l2 import DRAM_SPREAD, MOST_MERGED, PITCH_BAND
from warpsim.caches.model import FIELDS, LEFT_OUT_DRAM_BYTES, LOCAL_ROW, CachePrediction
from warpsim.terminal import Column, Count, layouts

SECTOR = 32
GB = 1e9

COLUMNS = [Column("array", numeric=False), Column("load sectors"), Column("L1 hit sectors"), Column("L1 hit %"),
           Column("L2 read sectors"), Column("L2 write sectors"), Column("DRAM read bytes"),
           Column("DRAM write bytes")]


def _cells(r) -> list:
    share = f"{r.l1_hit_sectors / r.load_sectors:.1%}" if r.load_sectors else ""
    return [r.array, Count(r.load_sectors), Count(r.l1_hit_sectors), share, Count(r.l2_read_sectors),
            Count(r.l2_write_sectors), Count(r.dram_read_bytes), Count(r.dram_write_bytes)]


def cache_layouts(p: CachePrediction) -> list:
    """The cache table: one row per array and a total, in the forms `terminal.fit` picks from."""
    res = p.residency
    start = "in waves" if p.dispatch == "waves" else "staggered"
    title = (f"caches, predicted for the {p.gpu} ({res.blocks_per_sm} blocks/SM, {res.l1_bytes // 1024} KB of L1, "
             f"starts {start}): within tolerances, docs/CACHES.md")
    cells = [_cells(r) for r in p.rows] + [_cells(p.total)]
    return layouts(title, COLUMNS, cells, bold_last=True)


def to_csv(launch: dict, p: CachePrediction) -> str:
    """One header line, then a row per array and the total: the launch's keys, then the figures."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[*launch, "array", *FIELDS], lineterminator="\n")
    writer.writeheader()
    for r in [*p.rows, p.total]:
        writer.writerow({**launch, **r.as_dict()})
    return out.getvalue()


def shares(p: CachePrediction, requested_bytes: int) -> tuple[float, float, float]:
    """(from L1, from L2, from DRAM) in bytes, adding up to `requested_bytes` (see the module)."""
    t = p.total
    l2 = min(t.l2_read_sectors * SECTOR, requested_bytes)
    dram = min(t.dram_read_bytes, l2)
    return requested_bytes - l2, l2 - dram, dram


def sentence(p: CachePrediction, requested_bytes: int) -> str:
    """`Of 549.8 GB requested, 532.6 GB came from L1, 8.7 GB from L2 and 8.5 GB from DRAM.`"""
    def gb(x: float) -> str:  # each figure in its own decimal unit: 549.8 GB, 30.9 kB, 0 B
        for unit, scale in (("GB", GB), ("MB", 1e6), ("kB", 1e3)):
            if x >= scale:
                return f"{x / scale:.1f} {unit}"
        return f"{x:.0f} B"

    if requested_bytes <= 0:
        return (f"The launch has no global loads: DRAM delivers {gb(p.total.dram_read_bytes)}, its machine code "
                "and what every launch reads (predicted).")
    t = p.total
    if t.l2_read_sectors * SECTOR > requested_bytes and t.l1_hit_sectors > 0:
        hit = f" ({t.l1_hit_sectors / t.load_sectors:.0%})" if t.load_sectors else ""
        return (f"The loads request {gb(requested_bytes)} in {t.load_sectors:,} sectors of 32 bytes: L1 serves "
                f"{t.l1_hit_sectors:,} of them{hit}, L2 {t.l2_read_sectors:,} ({gb(t.l2_read_sectors * SECTOR)}, more "
                f"than the lanes ask for) and DRAM {gb(t.dram_read_bytes)} of those (predicted).")
    l1, l2, dram = shares(p, requested_bytes)
    return (f"Of {gb(requested_bytes)} requested by the loads, {gb(l1)} came from L1, {gb(l2)} from L2 and "
            f"{gb(dram)} from DRAM (predicted).")


#: Below this share of repeated sectors, the coalescer's window moves the L2 read sectors by too
#: little to name.
REPEATS_WORTH_NAMING = 0.05


def coalescer_note(p: CachePrediction) -> str:
    """What the L2 read sectors hang on, when it is much: `51% of the sectors L1 asks L2 for ...`;
    "" when under REPEATS_WORTH_NAMING of them repeat another block's request."""
    repeated = sum(p.repeated_sectors)
    if not p.fetched_sectors or repeated < REPEATS_WORTH_NAMING * p.fetched_sectors:
        return ""
    low, high = p.l2_read_range[0], p.fetched_sectors  # none merged; what is left out: local_note, ...
    return (f"{repeated / p.fetched_sectors:.0%} of the sectors L1 asks L2 for repeat another block's request at "
            f"the same step, which the L2 request coalescer merges as the blocks' timing allows (up to "
            f"{MOST_MERGED['first']:.0%} of a first wave's in the launches measured): with L1 as predicted, the L2 "
            f"read sectors lie between {low:,} and {high:,} ({p.total.l2_read_sectors:,} predicted).")


def pitch_note(p: CachePrediction) -> str:
    """When the arrays take one to two times the L2: how far the DRAM read bytes may lie from the
    model's (`CachePrediction.dram_read_range`); "" elsewhere."""
    if not p.near_l2:
        return ""
    low, high = p.dram_read_range
    return (f"The arrays take {p.footprint_bytes / p.l2_bytes:.2f}x the L2: between {PITCH_BAND[0]:g}x and "
            f"{PITCH_BAND[1]:g}x, what DRAM serves hangs on the row pitch as much as on the size (sizes 32 apart read "
            f"up to 2.3x apart on the H200, traces/sweep), which the model does not follow; launches measured there "
            f"read {DRAM_SPREAD[0]:g}x to {DRAM_SPREAD[1]:g}x its figure: {low:,} to {high:,} DRAM read bytes "
            f"({p.total.dram_read_bytes:,} predicted).")


def partial_note(p: CachePrediction) -> str:
    """When stores fill sectors only in part: how many, and the DRAM reads they may add, which the
    model leaves out (the L2 reads such a sector before it writes it back: docs/CACHES.md); "" when
    every stored sector is filled, or the count was not taken."""
    partial = {name: n for name, n in (p.partly_written or {}).items() if n}
    if not partial:
        return ""
    names = ", ".join(f"{name} {n:,}" for name, n in sorted(partial.items()))
    extra = LEFT_OUT_DRAM_BYTES * sum(partial.values())
    return (f"Stores fill sectors only in part ({names}): the L2 reads such a sector from DRAM before it writes "
            f"it back, which the DRAM figures leave out; on the H200 that added the DRAM bytes written back to the "
            f"reads (docs/CACHES.md): up to {extra:,} bytes more DRAM reads here, if every such sector is evicted.")



def local_note(p: CachePrediction) -> str:
    """When the launch reaches local memory: its sectors, what is predicted of them and what is
    only bounded (`CachePrediction.local`); "" when it does not."""
    if not p.local:
        return ""
    loads, stores = p.local_sectors
    low, high = p.l2_read_range
    dram_low, dram_high = p.dram_read_range  # the local sectors widen it (`left_out`)
    hit_low, hits = p.l1_hit_range
    return (f"Local memory (per-thread arrays, register spills): {loads:,} load and {stores:,} store sectors. Every "
            f"store sector goes on to L2 (the {LOCAL_ROW} row); how many loads L1 still serves hangs on the warps' "
            f"timing (0-94% missed in the launches measured), which the model does not follow: the L2 and DRAM read "
            f"figures above are the global accesses', the local loads may add up to their sectors and the global hits "
            f"local lines take (below) as many again: L2 read sectors "
            f"between {low:,} and {high:,}, DRAM read bytes between {dram_low:,} and {dram_high:,} "
            f"({LEFT_OUT_DRAM_BYTES} bytes a local sector at most). Local lines also take L1 space from the global "
            f"ones, which the L1 hit figures leave out: L1 hit sectors between {hit_low:,} and {hits:,} (measured up to "
            f"57% of the load sectors fewer hits than predicted, never more).")


def invalidation_note(p: CachePrediction) -> str:
    """When the kernel invalidates L1 (`CachePrediction.l1_invalidated`): what that leaves of the L1
    hit figure; "" when it does not."""
    if not p.l1_invalidated:
        return ""
    low, high = p.l1_hit_range
    l2_low, l2_high = p.l2_read_range
    return (f"The kernel invalidates L1 ({p.l1_invalidated}, after an acquire load or a fence): lines other "
            f"warps would hit are dropped at moments the warps' timing decides, so the L1 hit sectors are "
            f"between {low:,} and {high:,}, and each hit lost is a sector more read from L2: L2 read sectors "
            f"between {l2_low:,} and {l2_high:,}.")
