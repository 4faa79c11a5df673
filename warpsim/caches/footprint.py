"""The distinct pieces of memory a launch reads per array: what DRAM must deliver once.

`exact` counts, per array, the distinct 64-byte pieces (DRAM's unit, two sectors) that the
launch's loads and atomics touch, exactly and without making every lane concrete: a dimension
the address ignores is taken at the one value that admits the most lanes, threads of one address
are taken together, and a dimension of short address step is solved as a range per lane, so that
a launch of a few million warp requests per array is counted in well under a second (see
`exact`). `enumerated` is the brute force it is tested against: every lane of a small launch.
The tile model (warpsim.caches.tiles) sizes tiles from sampled blocks, which mis-weights edge
blocks' partial tiles and triangular loops; `warpsim.caches.model` scales each array's tiles
to this count where it is taken.

Limitations: None (not counted) past SPANS spans (4096^3 GEMMs: 8-50 M), where the sampled
tiles stand; a lane condition other than a conjunction of affine inequalities makes its access
evaluated thread by thread; the loads' and atomics' pieces count (a stored-only sector needs no
DRAM read).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warpsim import formula as F
from warpsim.caches.lanes import (SECTOR, affine, axis_array, axis_blocks, axis_extents, block_values, lanes, passing,
                                  requests)
from warpsim.fast import as_formula
from warpsim.caches.stream import loop_dims

LIMIT = 1 << 25  # lane evaluations of the brute-force count (`enumerated`), over the whole launch
SPANS = 1 << 24  # address spans the structured count (`exact`) may evaluate, over the whole launch
GRANULE = 64  # bytes: DRAM delivers two sectors at a time (see `exact`)
CHUNK = 1 << 20  # spans evaluated at once


def exact(program, granule: int = GRANULE, limit: int = SPANS) -> dict[str, int] | None:
    """Per array, the distinct `granule`-byte pieces its loads and atomics touch, in sectors
    (pieces x granule / 32); None where the count would evaluate more than `limit` spans.

    DRAM reads in pieces of 64 bytes: the lower-triangular product reads 48,256 bytes of L and
    B in 64-byte pieces at 97x61 (45,504 in sectors), and ncu measured 54,784 = 48,256 + its
    code (3,584) + 2,944; at 300x212, 1536x1024 and 2048^2 the remainders past the pieces and
    the code are 1.8-2.0 KB, 7.2 KB and 54 KB (in sectors: 11 KB, 32 KB and 87 KB). The dense
    arrays of every other launch read the same either way, less a piece at a misaligned end.

    The count is exact and structured, not enumerated lane by lane: per access, a launch
    dimension the address does not move with is taken at the one value that admits the most
    lanes (where a single lane condition names it); threads at the same address are taken
    together where a single condition tells them apart; and a dimension whose address step is at
    most a granule is solved for as a range per lane (its conditions bound it), so that each
    lane gives one contiguous span of granules. The spans' union is counted per array.
    """
    read = [a for a in program.accesses if a.op != "store"]
    plans = [_plan(a, program.threads, granule) for a in read if a.concrete is None]
    if sum(p.spans for p in plans) > limit:
        return None
    runs: dict[str, list] = {}
    for p in plans:
        runs.setdefault(p.access.array, []).extend(_spans(p, granule))
    for a in read:
        if a.concrete is None:
            continue
        c = a.concrete  # every lane's address is at hand: its granules, a chunk of blocks at a time
        per = CHUNK // c.address.shape[1] + 1
        for lo in range(0, len(c.address), per):
            first = a.base + c.address[lo:lo + per][c.live[lo:lo + per]]
            runs.setdefault(a.array, []).append(_merge(first // granule, (first + a.site.width - 1) // granule))
    return {name: _union(parts) * granule // SECTOR for name, parts in runs.items()}


WRITTEN_SPANS = 1 << 24  # store spans `partly_written` evaluates (12 M, one a thread: 1.6 s and 0.4 GB)


def partly_written(program, limit: int = WRITTEN_SPANS, bitmap: int | None = None) -> dict[str, int] | None:
    """Per array its stores write, the 32-byte sectors they fill only in part over the whole
    launch (some of a sector's bytes written and not all, as `block_votes`' y[2 i] or a row's
    misaligned ends); None where the count would evaluate more than `limit` spans.

    The L2 reads such a sector from DRAM before it writes it back (docs/CACHES.md, "Reads for
    partly written sectors"), which the DRAM model leaves out: the count bounds what that adds.
    Exact, as `exact`: each array's stores' spans in granules of its narrowest store (every store
    is aligned to its width, so a granule is written whole or not at all), their union, and the
    sectors where a run of written bytes starts or ends inside."""
    stores = [a for a in program.accesses if a.op == "store"]
    granule: dict[str, int] = {}
    for a in stores:
        granule[a.array] = min(granule.get(a.array, SECTOR), a.site.width)
    plans = [_plan(a, program.threads, granule[a.array]) for a in stores if a.concrete is None]
    if sum(p.spans for p in plans) > limit:
        return None
    runs: dict[str, list] = {}
    for p in plans:
        runs.setdefault(p.access.array, []).extend(_spans(p, granule[p.access.array]))
    for a in stores:
        if a.concrete is None:
            continue
        c, g = a.concrete, granule[a.array]
        per = CHUNK // c.address.shape[1] + 1
        for lo in range(0, len(c.address), per):
            first = a.base + c.address[lo:lo + per][c.live[lo:lo + per]]
            runs.setdefault(a.array, []).append(_merge(first // g, (first + a.site.width - 1) // g))
    out = {name: _partial_sectors(parts, granule[name], BITMAP if bitmap is None else bitmap)
           for name, parts in runs.items()}
    return None if None in out.values() else out


BITMAP = 1 << 22  # granules of an array's written range counted at once as a bitmap (a window: 64 MB)
WINDOWS = 64  # windows a written range may take to be counted window by window (above: from the runs)
MERGED_RUNS = 1 << 22  # runs counted from their union at most (12 M took 1.2 GB)


def _partial_sectors(parts: list, g: int, bitmap: int) -> int | None:
    """The sectors that runs of written granules (`parts`: (first, last) arrays, in granules of g
    bytes) cover in part: as a count of the granules written in each sector of their range, a
    window of `bitmap` granules at a time, where the range spans at most WINDOWS of them; else
    from the runs' union, where a run starts or ends (None past MERGED_RUNS runs)."""
    parts = [p for p in parts if len(p[0])]
    if not parts:
        return 0
    per = SECTOR // g
    lo = min(int(p[0].min()) for p in parts) // per * per
    hi = max(int(p[1].max()) for p in parts) + 1
    size = -(-bitmap // per) * per
    if size and -(-(hi - lo) // size) <= WINDOWS:
        partial = 0
        for w0 in range(lo, hi, size):  # windows start on a sector: each sector is counted in one
            starts, ends = [], []
            for first, last in parts:
                on = (first < w0 + size) & (last >= w0)
                starts.append(np.maximum(first[on], w0) - w0)
                ends.append(np.minimum(last[on], w0 + size - 1) + 1 - w0)
            depth = np.bincount(np.concatenate(starts), minlength=size + 1)
            depth -= np.bincount(np.concatenate(ends), minlength=size + 1)
            written = np.count_nonzero((np.cumsum(depth[:size]) > 0).reshape(-1, per), axis=1)
            partial += int(np.count_nonzero((written > 0) & (written < per)))
        return partial
    if sum(len(p[0]) for p in parts) > MERGED_RUNS:
        return None
    first, last = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    s, e = _merge(first, last)
    start, end = s * g, (e + 1) * g  # written bytes [start, end), disjoint, apart and in order
    # the sectors a run starts or ends inside, in order (a run's start, then its end, then the
    # next run's), so that a sector two runs share counts once
    edges = np.stack([start // SECTOR, (end - 1) // SECTOR], axis=1).ravel()
    edges = edges[np.stack([start % SECTOR != 0, end % SECTOR != 0], axis=1).ravel()]
    return int(len(edges) and 1 + np.count_nonzero(np.diff(edges)))


def enumerated(program) -> dict[str, int] | None:
    """Per array, the distinct sectors its loads and atomics touch, from every lane of the launch
    made concrete (the oracle `exact` is tested against); None past LIMIT lane evaluations."""
    if _lane_evaluations(program) > LIMIT:
        return None
    seen: dict[str, list] = {}
    for a in program.accesses:
        if a.op == "store":
            continue
        addr, live = _every_lane(program, a)
        _, line, mask = requests(addr.reshape(-1, 32), live.reshape(-1, 32))
        for k in range(4):
            on = ((mask >> k) & 1) == 1
            seen.setdefault(a.array, []).append(np.unique(line[on] * 4 + k))
    return {name: int(len(np.unique(np.concatenate(parts)))) for name, parts in seen.items()}


def enumerated_written(program) -> dict[str, int] | None:
    """Per array its stores write, the sectors they fill only in part, from every lane of the
    launch made concrete, byte by byte (the oracle `partly_written` is tested against); None past
    LIMIT lane evaluations."""
    if _lane_evaluations(program) > LIMIT:
        return None
    written: dict[str, list] = {}
    for a in program.accesses:
        if a.op != "store":
            continue
        addr, live = _every_lane(program, a)
        first = addr.ravel()[live.ravel()]
        written.setdefault(a.array, []).append((first[:, None] + np.arange(a.site.width)).ravel())
    out = {}
    for name, parts in written.items():
        sectors, counts = np.unique(np.unique(np.concatenate(parts)) // SECTOR, return_counts=True)
        out[name] = int(np.count_nonzero(counts < SECTOR))
    return out


def _lane_evaluations(program) -> int:
    total = 0
    for a in program.accesses:
        n = 1
        for blocks in a.blocks:
            n *= len(axis_blocks(blocks))
        for ld in loop_dims(a.site):
            n *= ld.extent
        total += n * program.threads
    return total


def _every_lane(program, a) -> tuple[np.ndarray, np.ndarray]:
    """Every lane's address of an access over the launch (every block and loop iteration), and
    whether it runs."""
    x_in, y_in, z_in = (axis_array(blocks) for blocks in a.blocks)
    z, y, x = np.meshgrid(z_in, y_in, x_in, indexing="ij")
    bvals, _ = block_values(a, x.ravel(), y.ravel(), z.ravel())
    dims = loop_dims(a.site)
    grids = np.meshgrid(*[np.arange(ld.extent) for ld in dims], indexing="ij") if dims else []
    nb, ni = x.size, (grids[0].size if dims else 1)
    values = {d: np.repeat(v, ni) for d, v in bvals.items()}
    for ld, g in zip(dims, grids):
        values[ld.dim] = np.tile(g.ravel().astype(np.int64), nb)
    return lanes(a, program.threads, values, nb * ni)


@dataclass
class _Plan:
    access: object
    coef: dict  # the address's nonzero coefficients
    dims: list  # (name, extent) enumerated
    fixed: dict  # dimension -> the one value it is taken at
    inner: tuple | None  # (name, extent, address step): solved as a range per lane
    conditions: list  # (coef dict, (reps,) thread part): sum(coef * value) + thread < 0, all must hold
    opaque: list  # conditions of another shape, evaluated lane by lane (reps are then threads)
    threads: np.ndarray  # the threads (or one per address class) evaluated
    address: np.ndarray  # (reps,) their address parts
    spans: int  # spans it evaluates
    block_threads: int


def _plan(access, threads: int, granule: int) -> _Plan:
    site = access.site
    coef = {d: int(c) for d, c in site.address.coef.items() if c}
    address = np.broadcast_to(np.asarray(site.address.thread, dtype=np.int64), (threads,))
    ok = np.ones(threads, dtype=bool)
    extents = {d: n for axis, blocks in zip("xyz", access.blocks) for d, n in axis_extents(axis, blocks).items()}
    extents.update({ld.dim: ld.extent for ld in loop_dims(site)})
    conds, opaque = [], []
    for part in (as_formula(site.region), as_formula(site.predicate)):
        for c in F.conjuncts(part):
            if isinstance(c, F.Const):
                ok &= np.broadcast_to(np.asarray(c.mask, dtype=bool), (threads,))
            elif isinstance(c, F.Lt):
                conds.append((dict(c.coef), np.broadcast_to(c.thread, (threads,))))
            elif isinstance(c, F.Not) and isinstance(c.child, F.Lt):  # value >= 0: -value - 1 < 0
                conds.append(({d: -v for d, v in c.child.coef}, -np.broadcast_to(c.child.thread, (threads,)) - 1))
            else:
                opaque.append(c)
    opaque_dims = set().union(*(c.dims() for c in opaque)) if opaque else set()
    reps = np.flatnonzero(ok)
    if not opaque and len(reps):
        reps, conds = _classes(reps, address, conds)
        reps, conds, lane = _lanes(reps, address, conds, granule)
        if lane is not None:
            coef[LANE], extents[LANE] = lane
    else:
        conds = [(cf, th[reps]) for cf, th in conds]
    fixed = {}
    for d, ext in extents.items():
        if d in coef or d in opaque_dims:
            continue
        named = [cf for cf, _ in conds if d in cf]
        if not named:
            fixed[d] = 0
        elif len(named) == 1:  # the lane passes for some value: the one that lowers the sum most
            fixed[d] = 0 if named[0][d] > 0 else ext - 1
    inner = None
    for d, ext in extents.items():
        if d in coef and abs(coef[d]) <= granule and d not in opaque_dims and ext > 1:
            if inner is None or ext > inner[1]:
                inner = (d, ext, coef[d])
    dims = [(d, ext) for d, ext in extents.items() if d not in fixed and (inner is None or d != inner[0])]
    n = len(reps) * int(np.prod([ext for _, ext in dims], dtype=np.int64)) if all(e > 0 for e in extents.values()) else 0
    return _Plan(access, coef, dims, fixed, inner, conds, opaque, reps, address[reps], n, threads)


#: The dimension that stands for a block's threads when their addresses step evenly (`_lanes`).
LANE = "lane"


def _lanes(reps, address, conds, granule):
    """Threads whose addresses step evenly by at most a granule, taken as one dimension (LANE):
    in address order the threads fall into runs, the j-th thread of a run at a + s j (a warp's
    row of 4-byte loads: s = 4, a run a row), in which every condition's thread part steps by its
    one d (the same in every run). A run may end early where a condition's thread part jumps
    (lanes 29-31 of a 61-float row run one iteration fewer than the others): each run's lanes
    are then bounded by its length, a condition of their own. Returns (reps, conditions,
    (s, longest run)): each run's first thread and its conditions, LANE's coefficients added; or
    the arguments and None where runs would not be fewer than half the threads. A run is then
    one span per block and iteration, not one per thread (the row softmax at 5000x1500: 22.6 M
    spans, 0.75 M)."""
    count = len(reps)
    if count < 2:
        return reps, conds, None
    order = np.argsort(address[reps], kind="stable")
    at = address[reps][order]
    parts = [th[order] for _, th in conds]
    step = _most_common(np.diff(at))
    if step == 0 or abs(step) > granule:
        return reps, conds, None
    slopes = [_most_common(np.diff(t)) for t in parts]
    cut = np.diff(at) != step
    for t, d in zip(parts, slopes):
        cut |= np.diff(t) != d
    starts = np.concatenate([[0], np.flatnonzero(cut) + 1])
    if 2 * len(starts) > count:
        return reps, conds, None
    lengths = np.diff(np.append(starts, count))
    out = [({**cf, LANE: d} if d else dict(cf), t[starts]) for (cf, _), t, d in zip(conds, parts, slopes)]
    if np.any(lengths != lengths[0]):
        out.append(({LANE: 1}, -lengths.astype(np.int64)))  # lane - length < 0
    return reps[order][starts], out, (step, int(lengths.max()))


def _most_common(values: np.ndarray) -> int:
    found, counts = np.unique(values, return_counts=True)
    return int(found[np.argmax(counts)])


def _classes(reps, address, conds):
    """Threads at one address taken together: where at most one condition tells the threads of
    an address apart, a lane of the class passes iff the class's least thread part passes."""
    _, cls = np.unique(address[reps], return_inverse=True)
    k = int(cls.max()) + 1
    varying = []
    for i, (_, th) in enumerate(conds):
        t = th[reps]
        lo = np.full(k, np.iinfo(np.int64).max)
        hi = np.full(k, np.iinfo(np.int64).min)
        np.minimum.at(lo, cls, t)
        np.maximum.at(hi, cls, t)
        if np.any(lo != hi):
            varying.append((i, lo))
    if len(varying) > 1:
        return reps, [(cf, th[reps]) for cf, th in conds]
    first = np.full(k, len(reps))
    np.minimum.at(first, cls, np.arange(len(reps)))
    out = reps[first]
    new = [(cf, th[out]) for cf, th in conds]
    for i, lo in varying:
        new[i] = (conds[i][0], lo)
    return out, new


def _spans(p: _Plan, granule: int):
    """(first, last) granule arrays of the plan's lanes, merged per chunk."""
    if p.spans == 0:
        return []
    skip = p.inner[0] if p.inner is not None else None
    shape = [ext for _, ext in p.dims]
    points = int(np.prod(shape, dtype=np.int64)) if shape else 1
    reps = len(p.threads)
    per = max(1, CHUNK // max(1, reps))
    out = []
    for lo_pt in range(0, points, per):
        idx = np.arange(lo_pt, min(points, lo_pt + per), dtype=np.int64)
        values = dict(zip([d for d, _ in p.dims], np.unravel_index(idx, shape) if shape else []))
        values = {d: v.astype(np.int64) for d, v in values.items()}
        g = len(idx)
        for d, v in p.fixed.items():
            values[d] = np.full(g, v, dtype=np.int64)
        shift = p.access.base + affine(p.coef.items(), values, g, skip)
        live = np.ones((g, reps), dtype=bool)
        if p.inner is not None:
            ulo = np.zeros((g, reps), dtype=np.int64)
            uhi = np.full((g, reps), p.inner[1] - 1, dtype=np.int64)
        for cf, th in p.conditions:
            v = affine(cf.items(), values, g, skip)[:, None] + th[None, :]
            cu = cf.get(skip, 0)
            if cu > 0:
                np.minimum(uhi, (-v - 1) // cu, out=uhi)
            elif cu < 0:
                np.maximum(ulo, v // (-cu) + 1, out=ulo)
            else:
                live &= v < 0
        if p.opaque:
            live &= passing(p.opaque, values, g, p.block_threads)[:, p.threads]
        first = shift[:, None] + p.address[None, :]
        last = first
        if p.inner is not None:
            live &= ulo <= uhi
            step = np.int64(p.inner[2])
            first, last = (first + step * ulo, first + step * uhi) if step > 0 else (first + step * uhi, first + step * ulo)
        out.append(_merge(first[live] // granule, last[live] // granule))
    return out


def _merge(first: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Disjoint runs covering the union of [first, last] (inclusive), sorted."""
    if len(first) == 0:
        return first, last
    order = np.argsort(first, kind="stable")
    s, e = first[order], np.maximum.accumulate(last[order])
    new = np.ones(len(s), dtype=bool)
    new[1:] = s[1:] > e[:-1] + 1
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:] - 1, len(s) - 1)
    return s[starts], e[ends]


def _union(parts) -> int:
    if not parts:
        return 0
    s, e = _merge(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))
    return int((e - s + 1).sum())


def overlap(program, members, iterations: int = 8) -> float:
    """The share of a stream's sectors per block that its neighbour blocks touch too (a
    misaligned row's last sector is the next block's first): summed over the block dimensions
    its address moves with, measured on a block in the middle of the launch over the first
    iterations of its loop. Tiles of neighbours count as disjoint in the tile model, so their
    sizes are scaled by 1 - overlap."""
    a = program.accesses[members[0]]
    ranges = [axis_blocks(blocks) for blocks in a.blocks]
    middle = [(len(r) - 1) // 2 for r in ranges]
    centre = np.array([r[m] for r, m in zip(ranges, middle)])
    coef = a.site.address.coef
    total = 0.0
    for axis, r in enumerate(ranges):
        # the next block along the axis (in a residue class, the class's next: the blocks between
        # are other pieces' and other streams'; taken as quotient and remainder, the next remainder)
        if not coef.get(f"blockIdx.{'xyz'[axis]}", 0) or middle[axis] + 1 >= len(r):
            continue
        sets = []
        for shift in (0, 1):
            at = centre.copy()
            at[axis] = r[middle[axis] + shift]
            sets.append(_sectors(program, members, at, iterations))
        if len(sets[0]):
            total += len(np.intersect1d(sets[0], sets[1])) / len(sets[0])
    return min(total, 0.9)


def _sectors(program, members, block: np.ndarray, iterations: int) -> np.ndarray:
    found = []
    for m in members:
        a = program.accesses[m]
        bvals, inside = block_values(a, *(np.array([v]) for v in block))
        if not inside.all():
            continue
        dims = loop_dims(a.site)
        grids = np.meshgrid(*[np.arange(min(ld.extent, iterations)) for ld in dims], indexing="ij") if dims else []
        n = grids[0].size if dims else 1
        values = {d: np.repeat(v, n) for d, v in bvals.items()}
        for ld, g in zip(dims, grids):
            values[ld.dim] = g.ravel().astype(np.int64)
        addr, live = lanes(a, program.threads, values, n)
        _, line, mask = requests(addr.reshape(-1, 32), live.reshape(-1, 32))
        for k in range(4):
            found.append(line[((mask >> k) & 1) == 1] * 4 + k)
    return np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
