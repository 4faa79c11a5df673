"""The order a block's global accesses happen in, and the address stream of sampled blocks.

A block runs its accesses in program order, each loop's body once per iteration. With loop
dimensions named as the front-ends name them (`i` for a hand model's `k.range`, `k0%2=1` for
phase 1 of `k.range_cycle`, `loop@0x230` for a machine-code loop), an access inside loops l1..lj
at iterations v1..vj happens at the position

    (first access of l1, v1, first access of l2 within l1, v2, ..., the access's own position)

compared lexicographically (loops are contiguous in program order, so this is the order the
code runs in). `Window` chooses which iterations of each loop a sample simulates: all of a short
loop, the first iterations of a long one, as many as a budget of replayed lines allows.

Limitations: warps of a block, and the blocks sharing an SM, are interleaved in lockstep at each
access (a warp's accesses in order, the SM's warps one after another at each access); real warps
drift apart, which the L1 model (warpsim.caches.l1) stands for by counting a re-touch before the
data returned as a hit, except between blocks held together by barriers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import gcd

import numpy as np

from warpsim.caches.lanes import block_values, lanes, requests
from warpsim.sass.values import BLOCK_DIM

_PHASE = re.compile(r"^(.*)%(\d+)=(\d+)$")
MIN_WINDOW = 4  # iterations of a loop a sample replays at the least


@dataclass(frozen=True)
class LoopDim:
    """A site's loop dimension, as the loop it belongs to: iteration = phase + period * value."""

    dim: str
    loop: str
    extent: int  # values of the dimension
    period: int
    phase: int

    @property
    def iterations(self) -> int:
        """Iterations of the whole loop this dimension covers part of (an upper bound for phases)."""
        return self.extent * self.period


def line_period(step: int, line: int = 128, cap: int = 32) -> int:
    """Iterations after which an address moving `step` bytes per iteration is back at the same
    place within a 128-byte line (at most `cap`)."""
    step = abs(int(step)) % line
    return 1 if step == 0 else min(cap, line // gcd(step, line))


def _lcm_capped(a: int, b: int, cap: int = 32) -> int:
    return min(cap, a * b // gcd(a, b))


def loop_dims(site) -> list[LoopDim]:
    out = []
    for d, extent in site.dims:
        if d.startswith(BLOCK_DIM):  # blockIdx.x, .y, .z (and a quotient of one: warpsim.sass.values.QUOTIENT)
            continue
        m = _PHASE.match(d)
        if m:
            out.append(LoopDim(d, m[1], int(extent), int(m[2]), int(m[3])))
        else:
            out.append(LoopDim(d, d, int(extent), 1, 0))
    return out


def order_columns(accesses) -> tuple[dict, int]:
    """Per access: (loop names, the first position of each loop) for the lexicographic key, and
    the deepest nesting."""
    first: dict[tuple, int] = {}
    nests = {}
    for a in accesses:
        loops = tuple((a.blocks, ld.loop) for ld in loop_dims(a.site))  # a loop of one piece of the launch
        nests[a.order] = loops
        for depth in range(1, len(loops) + 1):
            key = loops[:depth]
            first[key] = min(first.get(key, a.order), a.order)
    depth = max((len(v) for v in nests.values()), default=0)
    return {o: (loops, [first[loops[:k + 1]] for k in range(len(loops))]) for o, loops in nests.items()}, depth


@dataclass(frozen=True)
class Window:
    """Which iterations of each loop a sample runs: the first `length` of `iterations`."""

    iterations: dict  # loop name -> iterations of the loop
    length: dict  # loop name -> iterations simulated

    @staticmethod
    def choose(program, groups, budget: int, least: int = MIN_WINDOW) -> "Window":
        """Iterations to replay: each loop as many as keep the replay of `groups` near `budget`
        warp-request lines (measured on one iteration), at least `least`, at most all."""
        its: dict[str, int] = {}
        for a in program.accesses:
            for ld in loop_dims(a.site):
                its[ld.loop] = max(its.get(ld.loop, 0), ld.iterations)
        if not its:
            return Window({}, {})
        probe = sample_records(program, groups, Window(its, {name: 1 for name in its}))
        cost = dict.fromkeys(its, 0)
        fixed = 0
        for ai, a in enumerate(program.accesses):
            n = int(np.count_nonzero(probe.access == ai))
            dims = loop_dims(a.site)
            if dims:
                cost[dims[0].loop] += n
            else:
                fixed += n
        share = max(1, budget - fixed) / len(its)
        period = dict.fromkeys(its, 1)
        for a in program.accesses:
            for ld in loop_dims(a.site):
                period[ld.loop] = _lcm_capped(period[ld.loop], line_period(a.site.address.coef.get(ld.dim, 0)) * ld.period)
        length = {}
        for name, n in its.items():
            unit = 2 * period[name]  # each half of the window a whole number of line periods
            want = max(least, share // max(1, cost[name]))
            length[name] = int(min(n, -(-want // unit) * unit))
        return Window(its, length)

    def scale(self, site) -> float:
        """Instances of the site in the whole loop nest per instance simulated."""
        s = 1.0
        for ld in loop_dims(site):
            simulated = len(range(ld.phase, self.length[ld.loop], ld.period))
            s *= ld.extent / max(1, simulated)
        return s


def instances(site, window: Window) -> tuple[dict, np.ndarray, int]:
    """The simulated values of the site's loop dimensions (a dict of (n,) arrays), the loop
    iterations they are (n, depth), and n."""
    grids, its = [], []
    for ld in loop_dims(site):
        simulated = np.arange(len(range(ld.phase, min(window.length[ld.loop], ld.iterations), ld.period)))
        simulated = simulated[simulated < ld.extent]
        grids.append(simulated)
        its.append(ld.phase + ld.period * simulated)
    if not grids:
        return {}, np.zeros((1, 0), dtype=np.int64), 1
    mesh = np.meshgrid(*grids, indexing="ij")
    imesh = np.meshgrid(*its, indexing="ij")
    dims = loop_dims(site)
    values = {ld.dim: m.ravel().astype(np.int64) for ld, m in zip(dims, mesh)}
    iters = np.stack([m.ravel() for m in imesh], axis=1).astype(np.int64)
    return values, iters, len(iters)


@dataclass
class Records:
    """Warp-request lines of sampled blocks, in no particular order; `key` sorts them in time."""

    access: np.ndarray  # index into the program's accesses
    group: np.ndarray  # which sampled SM
    block: np.ndarray  # block index (linear)
    line: np.ndarray
    mask: np.ndarray  # sectors asked for
    key: np.ndarray  # (n, columns) int64: the time order within a group (the generation first)
    cold: np.ndarray  # in the first half of its loop's simulated window
    iteration: np.ndarray  # the iteration of the access's outermost loop (-1: in no loop)

    def sorted(self) -> "Records":
        order = np.lexsort(tuple(self.key[:, c] for c in range(self.key.shape[1] - 1, -1, -1)) + ())
        order = order[np.argsort(self.group[order], kind="stable")]
        return Records(self.access[order], self.group[order], self.block[order], self.line[order],
                       self.mask[order], self.key[order], self.cold[order], self.iteration[order])


def sample_records(program, groups: list[list[int]], window: Window, resident: int | None = None) -> Records:
    """The lines every warp request of the sampled blocks asks for, over the window's iterations.
    `groups` lists, per sampled SM, the blocks resident on it together; or with `resident`, the
    blocks it runs one after another, `resident` at a time (each generation of them after the
    one before)."""
    columns, depth = order_columns(program.accesses)
    gx, gy, _ = program.grid
    warps = program.threads // 32
    out = {k: [] for k in ("access", "group", "block", "line", "mask", "key", "cold", "iteration")}
    flat = [(gi, slot, b) for gi, g in enumerate(groups) for slot, b in enumerate(g)]
    gid = np.array([f[0] for f in flat], dtype=np.int64)
    slot = np.array([f[1] for f in flat], dtype=np.int64)
    generation = slot // resident if resident else np.zeros_like(slot)
    slot = slot % resident if resident else slot
    blk = np.array([f[2] for f in flat], dtype=np.int64)
    bx, by, bz = blk % gx, (blk // gx) % gy, blk // (gx * gy)
    for ai, a in enumerate(program.accesses):
        bvals, inside = block_values(a, bx, by, bz)
        if not inside.any():
            continue
        lvals, iters, n = instances(a.site, window)
        nb = int(inside.sum())
        g = nb * n
        pick = np.flatnonzero(inside)
        values = {d: np.repeat(v[pick], n) for d, v in bvals.items()}
        values.update({d: np.tile(v, nb) for d, v in lvals.items()})
        addr, live = lanes(a, program.threads, values, g)
        row, line, mask = requests(addr.reshape(g * warps, 32), live.reshape(g * warps, 32))
        point, warp = row // warps, row % warps
        which, inst = pick[point // n], point % n
        loops, firsts = columns[a.order]
        key = np.full((len(row), 2 * depth + 4), -1, dtype=np.int64)
        key[:, 0] = generation[which]
        pos = 1
        for k in range(len(loops)):
            key[:, pos] = firsts[k]
            key[:, pos + 1] = iters[inst, k]
            pos += 2
        key[:, pos] = a.order
        key[:, -2] = slot[which]
        key[:, -1] = warp
        half = np.array([window.length[ld.loop] for ld in loop_dims(a.site)[:1]] or [0])[0] / 2
        cold = iters[inst, 0] < half if len(loops) else np.zeros(len(row), dtype=bool)
        out["access"].append(np.full(len(row), ai, dtype=np.int64))
        out["group"].append(gid[which])
        out["block"].append(blk[which])
        out["line"].append(line)
        out["mask"].append(mask)
        out["key"].append(key)
        out["cold"].append(np.asarray(cold, dtype=bool))
        out["iteration"].append(iters[inst, 0] if len(loops) else np.full(len(row), -1, dtype=np.int64))
    width = 2 * depth + 4
    cat = {k: (np.concatenate(v) if v else np.zeros((0, width) if k == "key" else 0, dtype=np.int64))
           for k, v in out.items()}
    return Records(cat["access"], cat["group"], cat["block"], cat["line"], cat["mask"].astype(np.uint8),
                   cat["key"], cat["cold"].astype(bool), cat["iteration"])
