"""The cache figures of one launch: per array and in total, L1 hit sectors of global loads, L2
read and write sectors from L1, DRAM read and write bytes.

    Program --residency--> blocks per SM, L1 bytes, dispatch
            --l1.replay--> per access: L1 hit and fetch shares; per stream: distinct sectors
            --fast.count_site--> exact sectors per access (the shares apply to them)
            --tiles.events--> every block's L2 tiles in time, scaled to the exact 64-byte
                              pieces each array reads (footprint.exact) where they are counted
            --l2.simulate--> coalesced L2 reads, DRAM reads and writes

Figures are predictions within tolerance classes, not exact counts (docs/CACHES.md); they are
rounded to whole sectors and bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from warpsim.caches import footprint, l1, l2, lanes, tiles
from warpsim.caches.hardware import H200, Hierarchy
from warpsim.caches import residency as residency_module
from warpsim.caches.residency import Residency, dispatch_mode, residency

#: Bytes every launch reads from DRAM besides its arrays and its machine code: axpy_float2
#: (traces/sass/axpy_float2) reads 2752 and 2688 bytes more than its two vectors at n = 97 and
#: 1000, of which 512 are its code (32 instructions).
FIXED_DRAM_READ = 2208

#: The row that carries the fixed reads of a launch that touches no global array.
CODE_ROW = "(code)"
#: The row of a launch's local memory (LDL/STL: per-thread arrays and register spills).
LOCAL_ROW = "(local)"
#: The most DRAM read bytes a sector the model leaves out can add (a local sector's load that
#: misses L2, a sector a store filled in part read back before it is written back): a 64-byte
#: piece, DRAM's unit (warpsim.caches.footprint). Measured, 32 where neighbours pair: block_votes'
#: y[2 i] at 12,000,000, every sector half written, read 89.6 MB for 3 M sectors.
LEFT_OUT_DRAM_BYTES = 64
#: The most L1 hits of global loads a local sector (load or store) may take away, by filling L1
#: space they would have hit in. Measured, at most 0.042 a local sector: blind batch 26's ring at
#: 500,009 threads (H100) lost 1,745,886 of 2,018,380 predicted hits beside 42,000,784 local
#: sectors; batches 11-12 lost at most 0.008 (spill at 500,009).
LOCAL_L1_EVICTIONS = 1

FIELDS = ("load_sectors", "l1_hit_sectors", "l2_read_sectors", "l2_write_sectors", "dram_read_bytes",
          "dram_write_bytes")


@dataclass
class CacheRow:
    """One array's figures (or the total's): sectors are 32 bytes."""

    array: str
    load_sectors: int = 0  # global load sectors L1 is asked for (exact, as `analyze` counts them)
    l1_hit_sectors: int = 0  # of those, served by L1
    l2_read_sectors: int = 0  # sectors L1 reads from L2 (after the L2 request coalescer)
    l2_write_sectors: int = 0  # sectors L1 writes to L2 (stores)
    dram_read_bytes: int = 0
    dram_write_bytes: int = 0

    @property
    def lrc_merged_sectors(self) -> int:
        """L1's missed load sectors that the L2 request coalescer merges into another's request
        (the misses less the L2 read sectors: every miss is a fill, tests/test_caches_paths.py)."""
        return self.load_sectors - self.l1_hit_sectors - self.l2_read_sectors

    def as_dict(self) -> dict:
        return {"array": self.array, **{f: getattr(self, f) for f in FIELDS}}


@dataclass
class CachePrediction:
    kernel: str
    rows: list[CacheRow]
    residency: Residency
    dispatch: str  # waves | staggered | offset
    footprint_bytes: int | None = None  # the launch's arrays (buffers), bytes
    l2_bytes: int = 0  # the L2's size: the arrays fit when footprint_bytes <= l2_bytes
    fetched_sectors: int = 0  # sectors L1 asks L2 for, before the request coalescer
    repeated_sectors: tuple[int, int] = (0, 0)  # of those, repeats of another block's request at
    #                                             the same step: in the first wave, in later ones
    lockstep: bool = False  # blocks of 32 warps waiting at a barrier (their later waves merge more)
    partly_written: dict | None = None  # array -> sectors its stores fill only in part (None: not counted)
    local_sectors: tuple[int, int] = (0, 0)  # local memory's load and store sectors (exact)
    l1_invalidated: str = ""  # an instruction that invalidates L1 (program.l1_invalidations)
    bypass_repeats: int = 0  # sectors of loads L1 does not serve that repeat a recent request (l1.L1Replay)
    gpu: str = H200.name  # the hierarchy predicted for (warpsim.caches.hardware)

    @property
    def fits(self) -> bool | None:
        """Whether the launch's arrays fit in L2 together (None: unknown)."""
        return None if self.footprint_bytes is None else self.footprint_bytes <= self.l2_bytes

    @property
    def l2_read_range(self) -> tuple[int, int]:
        """The L2 read sectors whatever the coalescer's window, L1 as predicted: the sectors L1
        fetches less the most of their repeats any measured launch merged (l2.MOST_MERGED, first
        wave and later), and less none. The prediction lies inside. Measured L2 reads lie inside
        for 486 of 582 traces; outside, L1's misses are off (naive_coalesced 16x16 4096^3 fetches
        15% more than predicted) or the range is a point (no repeats) that ncu's few merges or L1
        misses move by about 1% (stencils, convolutions, transposes). What the figure leaves out
        (`left_out`: local memory's loads, which may each miss L1 and read a sector from L2, or
        none; the global hits L1 may lose to local lines or invalidations) widens it by as much;
        the repeats of loads L1 does not serve (`bypass_repeats`) lower its low end."""
        first, later = self.repeated_sectors
        most = l2.MOST_MERGED
        merged = most["first"] * first + most["later, lockstep" if self.lockstep else "later"] * later
        return math.floor(self.fetched_sectors - merged - self.bypass_repeats), self.fetched_sectors + self._l2_reads_added

    @property
    def l1_hit_range(self) -> tuple[int, int]:
        """The global loads' L1 hit sectors as predicted, or fewer by what local memory's lines or an
        L1 invalidation may take from them (`left_out`); the prediction where neither is."""
        hits = self.total.l1_hit_sectors
        return hits - self._most_hits_lost, hits

    @property
    def local(self) -> bool:
        """Whether the launch reaches local memory. Its loads and stores go through L1 to L2 beside
        the global ones: every store sector on to L2 (the local row's L2 write sectors; blind
        batches 11 and 12: L2 write sectors = global + local store sectors within 0.3%), the loads
        as far as L1 still holds what the thread stored, which hangs on the warps' timing (measured:
        0-94% of the local load sectors missed L1) and is not predicted: the L1 hit, L2 and DRAM
        read figures are then the global accesses', and the ranges (`l1_hit_range`,
        `l2_read_range`, `dram_read_range`) bound what the local ones take or add."""
        return any(self.local_sectors)

    @property
    def near_l2(self) -> bool:
        """Whether the arrays take between one and two times the L2 (l2.PITCH_BAND), where the H200's
        DRAM reads hang on the row pitch as much as on the size (traces/sweep)."""
        low, high = l2.PITCH_BAND
        return self.footprint_bytes is not None and low * self.l2_bytes < self.footprint_bytes <= high * self.l2_bytes

    @property
    def _l1_hits_lost(self) -> list[tuple[str, int]]:
        """What may take global hits from L1, and the most it may take: LOCAL_L1_EVICTIONS a local
        sector, the predicted hits at most; all of them where the kernel invalidates L1."""
        hits = self.total.l1_hit_sectors
        return [(what, n) for what, n in (
            ("local memory", min(hits, LOCAL_L1_EVICTIONS * sum(self.local_sectors))),
            (f"L1 invalidated by {self.l1_invalidated}", hits if self.l1_invalidated else 0)) if n]

    @property
    def _most_hits_lost(self) -> int:
        return max((n for _, n in self._l1_hits_lost), default=0)

    @property
    def _l2_reads_added(self) -> int:
        """The most L2 read sectors the figure leaves out: a sector a local load, and one a hit L1
        may lose."""
        return self.local_sectors[0] + self._most_hits_lost

    @property
    def left_out(self) -> dict[str, tuple[str, int]]:
        """Per figure that leaves out traffic the model does not predict: (what, the most it may
        move the figure by). L1 hit sectors: the hits that may be lost (`_l1_hits_lost`: local
        lines, an L1 invalidation, when is the warps' timing); L2 read sectors: what may add to
        them (`_l2_reads_added`: local loads, the lost hits) and take from them (the repeats of
        loads L1 does not serve, which the coalescer merges as timing allows); DRAM read bytes:
        LEFT_OUT_DRAM_BYTES a local sector and a sector the launch's stores fill in part
        (`partly_written`: the L2 reads it before it writes it back, docs/CACHES.md). Figures with
        nothing left out are absent; the ranges (`l1_hit_range`, ...) say which way each moves."""
        partial = sum((self.partly_written or {}).values())
        out = {}
        taken = self._l1_hits_lost
        if taken:
            out["l1_hit_sectors"] = (", ".join(w for w, _ in taken), self._most_hits_lost)
        names = (["local memory"] if self.local_sectors[0] else []) + [w for w, _ in taken]
        names += ["loads L1 does not serve, merged in flight"] if self.bypass_repeats else []
        if names:
            out["l2_read_sectors"] = (", ".join(dict.fromkeys(names)), self._l2_reads_added + self.bypass_repeats)
        dram = [(what, n) for what, n in (("local memory", sum(self.local_sectors)),
                                          ("sectors written in part", partial)) if n]
        if dram:
            out["dram_read_bytes"] = (", ".join(w for w, _ in dram), LEFT_OUT_DRAM_BYTES * sum(n for _, n in dram))
        return out

    @property
    def dram_read_range(self) -> tuple[int, int] | None:
        """Near the L2 (`near_l2`), the DRAM read bytes as far as the measurements of such launches
        spread around the model's (l2.DRAM_SPREAD: 0.77x to 2.2x); where traffic is left out of them
        (`left_out`: local memory, sectors written in part), up to that much more; None elsewhere."""
        extra = self.left_out.get("dram_read_bytes", ("", 0))[1]
        if not (self.near_l2 or extra):
            return None
        low, high = l2.DRAM_SPREAD if self.near_l2 else (1.0, 1.0)
        predicted = self.total.dram_read_bytes
        return math.floor(low * predicted), math.ceil(high * predicted) + extra

    @property
    def total(self) -> CacheRow:
        t = CacheRow("total")
        for r in self.rows:
            for f in FIELDS:
                setattr(t, f, getattr(t, f) + getattr(r, f))
        return t

    def as_dict(self) -> dict:
        res = self.residency
        return {"gpu": self.gpu, "blocks_per_sm": res.blocks_per_sm, "l1_bytes": res.l1_bytes,
                "dispatch": self.dispatch,
                "footprint_bytes": self.footprint_bytes, "fits_in_l2": self.fits,
                "repeated_sectors": sum(self.repeated_sectors), "bypass_repeats": self.bypass_repeats,
                "l1_hit_sectors_range": list(self.l1_hit_range),
                "l2_read_sectors_range": list(self.l2_read_range),
                "dram_read_bytes_range": list(self.dram_read_range) if self.dram_read_range else None,
                "partly_written_sectors": self.partly_written,
                "local_sectors": {"load": self.local_sectors[0], "store": self.local_sectors[1]},
                "l1_invalidated": self.l1_invalidated or None,
                "rows": [r.as_dict() for r in self.rows], "total": self.total.as_dict()}


def predict(program, hw: Hierarchy = H200, mode: str | None = None) -> CachePrediction:
    """Predict the cache figures of a launch (warpsim.caches.program.Program); `mode` forces
    the dispatch (waves, staggered or offset) instead of `residency.dispatch_mode`'s rule."""
    res = residency(program.threads, program.registers, program.shared_bytes, hw)
    counts = [lanes.count(a, program.threads) for a in program.accesses]
    sectors = np.array([c.get("sectors", 0) for c in counts], dtype=float)
    lines = sum(c.get("lines", 0) for c, a in zip(counts, program.accesses) if a.op == "load")
    reqs = sum(c.get("requests", 0) for c, a in zip(counts, program.accesses) if a.op == "load")
    mode = mode or dispatch_mode(lines / reqs if reqs else 0.0, program.synchronized, program.threads)
    stream_of, keys = tiles.streams(program)
    rep = l1.replay(program, res, stream_of, hw)
    loads = np.array([a.op == "load" for a in program.accesses], dtype=bool)
    stores = np.array([a.op == "store" for a in program.accesses], dtype=bool)
    # L2 read sectors are L1's read requests (ncu's ..._op_read): atomics and reductions go to L2
    # whole but as operations of their own (_op_atom, _op_red), so they fetch no read sectors;
    # their tiles still read from DRAM on first use, and are written
    fetched = np.where(loads, sectors * rep.fetch_share, 0.0)
    written = np.where(~loads, sectors, 0.0)
    ev = tiles.events(program, res, mode, fetched, rep.distinct, written, stream_of, keys, sectors)
    _fit_footprint(ev, footprint.exact(program))
    in_lockstep = lockstep(program)
    result = l2.simulate(ev, *l2_curve(hw, mode), in_lockstep)
    rows = {name: CacheRow(name) for name in program.arrays()}
    for a, s, share, is_load, is_store in zip(program.accesses, sectors, rep.hit_share, loads, stores):
        r = rows[a.array]
        if is_load:
            r.load_sectors += int(s)
            r.l1_hit_sectors += share * s
        if is_store:
            r.l2_write_sectors += int(s)
    for name, read, dr, dw in zip(result.arrays, result.l2_read, result.dram_read, result.dram_write):
        r = rows[name]
        r.l2_read_sectors, r.dram_read_bytes, r.dram_write_bytes = read, dr, dw
    for r in rows.values():
        for f in FIELDS:
            setattr(r, f, int(round(getattr(r, f))))
    # what every launch reads once besides its data (its machine code and 2.2 KB more): in the
    # first array's row, or in a row of its own (CODE_ROW) when the launch touches no array
    ordered = sorted(rows.values(), key=lambda r: r.array) or [CacheRow(CODE_ROW)]
    ordered[0].dram_read_bytes += FIXED_DRAM_READ + program.code_bytes
    if any(program.local_sectors):  # every local store sector goes on to L2; the loads' misses are a range
        ordered.append(CacheRow(LOCAL_ROW, l2_write_sectors=program.local_sectors[1]))
    repeated = (int(round(result.repeated_first.sum())), int(round(result.repeated_later.sum())))
    bypass_repeats = int(round(float((sectors * rep.repeat_share).sum())))
    return CachePrediction(program.name, ordered, res, mode, program.footprint_bytes, hw.l2,
                           int(round(result.fetched.sum())), repeated, in_lockstep, footprint.partly_written(program),
                           program.local_sectors, program.l1_invalidated, bypass_repeats, hw.name)


def l2_curve(hw: Hierarchy, mode: str) -> tuple[int, int]:
    """The L2 curve (effective capacity, softness) of `hw` for a launch dispatched in `mode`: the
    waves' curve, or the staggered one for staggered and offset launches (warpsim.caches.l2)."""
    if mode == "waves":
        return hw.l2_effective, hw.l2_softness
    return hw.l2_staggered_effective, hw.l2_staggered_softness


#: Threads of a block whose barrier keeps later waves' requests aligned (l2.merged_share): 32
#: warps, the most a block holds; the same blocks run offset (residency.dispatch_mode).
LOCKSTEP_THREADS = residency_module.LOCKSTEP_THREADS


def lockstep(program) -> bool:
    """Whether the launch's blocks run in lockstep for the L2 request coalescer: blocks of 32
    warps that wait at a barrier in their loop. Measured: the later waves of such kernels (smem,
    dgemm_smem, gemm_cp_async) merge 0.07-0.29 of their repeated requests, those of barrier
    kernels of 4-16 warps about 0.04, like the non-barrier kernels (warpsim.caches.l2)."""
    return bool(program.synchronized) and program.threads >= LOCKSTEP_THREADS


def _fit_footprint(ev, exact: dict | None) -> None:
    """Scale each array's tile sizes so that its distinct tiles add up to the exact count (in
    sectors, of the 64-byte pieces DRAM reads)."""
    if not exact:
        return
    tiles, first, index = np.unique(ev.tile, return_index=True, return_inverse=True)
    largest = np.zeros(len(tiles))  # a tile's size is the largest of its uses' (l2.stack_distances)
    np.maximum.at(largest, index, ev.size)
    for i, name in enumerate(ev.arrays):
        if name not in exact:
            continue
        mine = (ev.array[first] == i) & ev.reads[first]
        total = largest[mine].sum()
        if total > 0:
            ev.size[ev.array == i] *= exact[name] / total
