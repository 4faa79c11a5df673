"""What the L2 sees of a launch: each block's L1 misses as tiles, placed in time.

Accesses that move together (the same array, the same coefficient on every block and loop
dimension: a loop's unrolled copies, a load and the store back to it) form a *stream*; a block's
stream touches, per chunk of its loop's iterations, one *tile* of the array. Tiles of two blocks
are the same tile when their addresses coincide (the A tile that every block of one block row
reads at the same K step: the same array and the same first address), else disjoint. A tile's size is the stream's distinct sectors per
block (from the L1 replay) spread evenly over the chunks; it happens at the block's start plus
the chunk's share of the block's active time (warpsim.caches.residency). A block runs its
outermost loops one after another: each takes a share of the active time as large as its share
of the block's sectors, in program order (a row softmax's three passes over its row: the second
re-reads the row a third of the block's time after the first, when every other block has read
its own row too, not at the same instant); an access outside every loop happens between the
loops it comes between.

Tiles of neighbouring blocks that share a few sectors (a misaligned row's last sector is the
next block's first) are sized less that share (footprint.overlap).

Limitations: tiles of different streams that overlap in part (a triangular loop's remainder
and its main part) count as disjoint; a loop's sectors are spread evenly over its share of a
block's run, and that share follows its sectors, not its instructions (a loop of arithmetic
alone takes no time here).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warpsim.caches import footprint
from warpsim.caches.lanes import block_values
from warpsim.caches.residency import Residency, active_time, start_times
from warpsim.caches.stream import loop_dims
from warpsim.sass.values import BLOCK_DIM

EVENTS = 200_000  # tile accesses, about: what the chunks per block are chosen for


def stream_key(access) -> tuple:
    """What an access moves together with: a concrete access (caches.program.Concrete), whose
    addresses are no function to compare, with none but itself (a grid-stride loop's k-th run
    reads other bytes than its first)."""
    site = access.site
    if access.concrete is not None:
        return (site.array, ("concrete", access.order), (), access.blocks)
    return (site.array, tuple(sorted(site.address.coef.items())), tuple(ld.loop for ld in loop_dims(site)),
            access.blocks)


def streams(program) -> tuple[np.ndarray, list[tuple]]:
    """Per access, the index of its stream; and the streams' keys."""
    keys: dict[tuple, int] = {}
    ids = np.array([keys.setdefault(stream_key(a), len(keys)) for a in program.accesses], dtype=np.int64)
    return ids, list(keys)


@dataclass
class Events:
    """Tile accesses of every block, sorted by time (then block)."""

    time: np.ndarray  # units of D
    block: np.ndarray
    wave: np.ndarray  # the wave the block starts in (0: the launch's first)
    tile: np.ndarray  # int64 key: equal for the same bytes
    size: np.ndarray  # distinct sectors of the tile (float)
    fetched: np.ndarray  # sectors this block's L1 asks L2 for, for this tile (float)
    written: np.ndarray  # sectors this block stores into it (float)
    reads: np.ndarray  # bool: the tile's stream loads (a stored-only tile is allocated unread)
    array: np.ndarray  # index into `arrays`
    arrays: list


def phases(program, work: np.ndarray) -> tuple[dict[str, tuple[float, float]], np.ndarray]:
    """When in a block's active time each outermost loop runs: loop -> (start, share), the
    loops one after another in program order, each for its share of `work` (per access: its
    sectors); and per access outside every loop, the time (a share of the active time) at which
    it happens: after the loops that come before it."""
    weight: dict[str, float] = {}
    order: dict[str, int] = {}
    for a, w in zip(program.accesses, work):
        dims = loop_dims(a.site)
        if dims:
            loop = dims[0].loop
            weight[loop] = weight.get(loop, 0.0) + float(w)
            order[loop] = min(order.get(loop, a.order), a.order)
    loops = sorted(weight, key=order.get)
    total = sum(weight.values())
    share = {lp: (weight[lp] / total if total > 0 else 1.0 / len(loops)) for lp in loops}
    out, at = {}, 0.0
    for lp in loops:
        out[lp] = (at, share[lp])
        at += share[lp]
    alone = np.array([sum(share[lp] for lp in loops if order[lp] < a.order) for a in program.accesses])
    return out, np.minimum(alone, 1.0)


def events(program, res: Residency, mode: str, fetched: np.ndarray, distinct: np.ndarray, written: np.ndarray,
           stream_of: np.ndarray, keys: list, work: np.ndarray, budget: int = EVENTS) -> Events:
    """Every block's tile accesses. Per access, `fetched` and `written`: the sectors its L1s
    fetch from and store to L2 over the whole launch, and `work`: the sectors it asks L1 for
    (what the block's loops' shares of its time follow); per
    stream, `distinct`: the distinct sectors a block touches per iteration of the stream's loop
    (per block, outside loops)."""
    gx, gy, _ = program.grid
    blocks_all = np.arange(program.blocks, dtype=np.int64)
    bx, by, bz = blocks_all % gx, (blocks_all // gx) % gy, blocks_all // (gx * gy)
    phase, alone = phases(program, work)
    looped = sum(1 for k in keys if k[2])
    chunks = max(1, min(64, budget // max(1, program.blocks * max(1, looped))))
    arrays = program.arrays()
    starts = start_times(program.blocks, res, mode)
    waves = np.arange(program.blocks) // (res.sms if mode == "staggered" else res.slots)
    active = active_time(res, mode)
    out = {k: [] for k in ("time", "block", "tile", "size", "fetched", "written", "reads", "array")}
    longest: dict[str, int] = {}
    for a in program.accesses:
        dims = loop_dims(a.site)
        if dims:
            longest[dims[0].loop] = max(longest.get(dims[0].loop, 0), dims[0].extent)
    for sid, key in enumerate(keys):
        members = np.flatnonzero(stream_of == sid)
        a = program.accesses[members[0]]
        values, inside = block_values(a, bx, by, bz)
        blk = np.flatnonzero(inside)
        if len(blk) == 0:
            continue
        dims = loop_dims(a.site)
        site = a.site
        if a.concrete is not None:  # a block's tile starts at its least address (blocks of no lane have none)
            none = np.iinfo(np.int64).max
            least = np.min(a.concrete.address, axis=1, where=a.concrete.live, initial=none)[blk]
            blk, anchor = blk[least < none], a.base + least[least < none]
            if len(blk) == 0:
                continue
        else:
            anchor = np.full(len(blk), a.base + int(np.min(site.address.thread)), dtype=np.int64)
        for d, c in site.address.coef.items():
            if c and d.startswith(BLOCK_DIM):
                anchor += np.int64(c) * values[d][blk]
        if dims:
            # chunks of the same iterations in every piece of the launch, so that pieces whose
            # loops run different lengths still name one tile alike
            lead = dims[0]
            per_chunk = -(-longest[lead.loop] // chunks)
            n_chunks = -(-lead.extent // per_chunk)
            first = np.arange(n_chunks) * per_chunk
            length = np.minimum(per_chunk, lead.extent - first)
            begin, span = phase[lead.loop]
            frac = begin + span * (first + length / 2) / lead.extent
            step = np.int64(site.address.coef.get(lead.dim, 0)) * first
            size = distinct[sid] * length  # the stream runs once per value of its dimension
        else:
            frac = np.array([alone[members[0]]])
            step = np.zeros(1, dtype=np.int64)
            size = np.array([distinct[sid]])
            n_chunks = 1
        shape = (len(blk), n_chunks)
        anchors = anchor[:, None] + step[None, :]
        t = starts[blk][:, None] + active * frac[None, :]
        live = _live_chunks(program, a, blk, bx, by, bz, dims[0], first, length) if dims else None
        keep = live.ravel() > 0 if live is not None else np.ones(anchors.size, dtype=bool)
        n = int(keep.sum())
        if n == 0:
            continue
        sizes = (np.broadcast_to(size, shape) * (live if live is not None else 1.0)).ravel()[keep]
        sizes = sizes * (1.0 - footprint.overlap(program, members))  # neighbours' shared sectors once
        if not sizes.sum() > 0:
            # no sampled SM ran the stream (a remainder loop only some blocks reach): its tiles
            # are sized as what they fetch, evenly
            sizes = np.full(n, (fetched[members].sum() + written[members].sum()) / n)
        weight = sizes / sizes.sum() if sizes.sum() > 0 else np.full(n, 1.0 / n)
        out["time"].append(t.ravel()[keep])
        out["block"].append(np.broadcast_to(blk[:, None], shape).ravel()[keep])
        out["tile"].append((anchors * 64 + arrays.index(site.array)).ravel()[keep])
        out["size"].append(sizes)
        out["fetched"].append(fetched[members].sum() * weight)
        out["written"].append(written[members].sum() * weight)
        out["array"].append(np.full(n, arrays.index(site.array), dtype=np.int64))
        out["reads"].append(np.full(n, any(program.accesses[m].op != "store" for m in members)))
    cat = {k: np.concatenate(v) if v else np.zeros(0) for k, v in out.items()}
    order = np.lexsort((cat["block"], cat["time"]))
    blk = cat["block"][order].astype(np.int64)
    return Events(cat["time"][order], blk, waves[blk], cat["tile"][order].astype(np.int64), cat["size"][order],
                  cat["fetched"][order], cat["written"][order], cat["reads"][order].astype(bool),
                  cat["array"][order].astype(np.int64), arrays)


LIVE_LANES = 1 << 22  # lane evaluations spent finding which chunks a block runs
POINTS = 4  # iterations of a chunk sampled


def _live_chunks(program, access, blk, bx, by, bz, lead, first, length) -> np.ndarray | None:
    """(blocks, chunks): the share of each chunk's iterations each block runs, when the access's
    conditions tie the loop to the block indices (a triangular loop); None otherwise. Sampled
    at up to POINTS iterations of each chunk."""
    from warpsim.caches.lanes import block_values, lanes
    from warpsim.fast import as_formula
    from warpsim import formula as F

    site = access.site
    atoms = F.atoms(as_formula(site.region)) + F.atoms(as_formula(site.predicate))
    coupled = any(lead.dim in dict(a.coef) and any(d.startswith(BLOCK_DIM) for d in dict(a.coef)) for a in atoms)
    if not coupled:
        return None
    points = np.minimum(POINTS, length)
    offsets = [np.floor(np.arange(p) * (n / p)).astype(np.int64) for p, n in zip(points, length)]
    at = np.concatenate([f + o for f, o in zip(first, offsets)])
    chunk = np.concatenate([np.full(len(o), c) for c, o in enumerate(offsets)])
    per = max(1, LIVE_LANES // max(1, len(at) * program.threads))
    live = np.zeros((len(blk), len(first)))
    for lo in range(0, len(blk), per):
        part = blk[lo:lo + per]
        bvals, _ = block_values(access, bx[part], by[part], bz[part])
        g = len(part) * len(at)
        values = {d: np.repeat(v, len(at)) for d, v in bvals.items()}
        values[lead.dim] = np.tile(at, len(part))
        for dim, _extent in site.dims:
            values.setdefault(dim, np.zeros(g, dtype=np.int64))
        _, on = lanes(access, program.threads, values, g)
        runs = on.any(axis=1).reshape(len(part), len(at)).astype(float)
        for c in range(len(first)):
            live[lo:lo + len(part), c] = runs[:, chunk == c].mean(axis=1)
    return live
