"""The fast engine: count a `Site` for every block and loop iteration without enumerating them.

Why it is exact. A site's address is `sum(c[d] * d) + thread_part`, and each lane condition is
`sum(a[d] * d) + U < 0`. For one value of the launch dimensions the instruction's counts depend on
(1) the common shift `sum(c[d] * d)` only modulo 128 bytes (sectors, lines and banks are all
invariant under shifting every lane by a multiple of 128 B), and (2) the lane masks. So each
dimension's values fall into classes with equal (shift mod 128, condition outcome), where a
condition's outcome is "every thread passes", "no thread passes", or, near an edge, the exact
value `sum(a[d] * d)`. Dimensions that share a condition are classified jointly. Counting one
representative per combination of classes, weighted by the class sizes, gives exactly the
brute-force sum. No per-kernel formula is involved: only the site's coefficients.

Limitations: a condition that couples two large dimensions is classified over their joint
product (exact, but slower); models keep conditions to one launch dimension each, as kernels do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warpsim.symbolic import Atom
from warpsim.tally import tally
from warpsim.trace import Site

PERIOD = 128  # bytes: every counter is invariant under a shift of the whole warp by this much
CHUNK_LANES = 1 << 21  # lanes evaluated at once (bounds memory)


@dataclass(frozen=True)
class _Classes:
    """Representatives of one group of dimensions: their values and how many each stands for."""

    dims: tuple[str, ...]
    values: np.ndarray  # (r, len(dims)) int64
    weight: np.ndarray  # (r,) int64


def _groups(site: Site) -> list[tuple[str, ...]]:
    """Dimensions that appear in the site, grouped so that no condition spans two groups."""
    involved = set(site.address.coef)
    for atom in site.region + site.predicate:
        involved.update(d for d, _ in atom.coef)
    parent = {d: d for d in involved}

    def find(d):
        while parent[d] != d:
            parent[d] = parent[parent[d]]
            d = parent[d]
        return d

    for atom in site.region + site.predicate:
        ds = [d for d, _ in atom.coef]
        for d in ds[1:]:
            parent[find(d)] = find(ds[0])
    groups: dict[str, list[str]] = {}
    order = [d for d, _ in site.dims]
    for d in sorted(involved, key=order.index):
        groups.setdefault(find(d), []).append(d)
    return [tuple(g) for g in groups.values()]


def _dot(coef: dict[str, int], dims: tuple[str, ...], values: np.ndarray) -> np.ndarray:
    out = np.zeros(values.shape[0], dtype=np.int64)
    for j, d in enumerate(dims):
        c = coef.get(d, 0)
        if c:
            out += c * values[:, j]
    return out


def _classify(site: Site, dims: tuple[str, ...], extents: dict[str, int]) -> _Classes:
    grids = np.meshgrid(*[np.arange(extents[d], dtype=np.int64) for d in dims], indexing="ij")
    values = np.stack([g.ravel() for g in grids], axis=1)
    keys = [_dot(site.address.coef, dims, values) % PERIOD]
    for atom in site.region + site.predicate:
        coef = dict(atom.coef)
        if not coef or not set(coef) <= set(dims):
            continue
        v = _dot(coef, dims, values)
        all_pass = v + int(atom.thread.max()) < 0
        none_pass = v + int(atom.thread.min()) >= 0
        status = np.where(all_pass, 0, np.where(none_pass, 1, 2))
        keys += [status, np.where(status == 2, v, 0)]
    _, first, counts = np.unique(np.stack(keys, axis=1), axis=0, return_index=True, return_counts=True)
    return _Classes(dims, values[first], counts.astype(np.int64))


def _mask(atoms: tuple[Atom, ...], shift: dict[tuple, np.ndarray], threads: int) -> np.ndarray:
    """(g, threads) lanes passing every atom, for g combined representatives."""
    g = next(iter(shift.values())).shape[0] if shift else 1
    out = np.ones((g, threads), dtype=bool)
    for atom in atoms:
        out &= (shift[id(atom)][:, None] + np.broadcast_to(atom.thread, (threads,))[None, :]) < 0
    return out


def count_site(site: Site, threads: int) -> dict[str, int]:
    """All counters of one site summed over every block, warp and loop iteration in its scope."""
    extents = dict(site.dims)
    unknown = set(site.address.coef) - set(extents)
    if unknown:
        raise ValueError(f"line {site.line}: index uses {sorted(unknown)} outside its loop")
    classes = [_classify(site, g, extents) for g in _groups(site)]
    used = {d for c in classes for d in c.dims}
    repeat = int(np.prod([e for d, e in site.dims if d not in used], dtype=np.int64))

    # Combine the groups' representatives (outer product) into flat arrays of length G.
    G = int(np.prod([len(c.weight) for c in classes], dtype=np.int64))
    weight = np.ones(G, dtype=np.int64)
    cols: dict[str, np.ndarray] = {}
    inner = G
    for c in classes:
        r = len(c.weight)
        inner //= r
        idx = (np.arange(G) // inner) % r
        weight *= c.weight[idx]
        for j, d in enumerate(c.dims):
            cols[d] = c.values[idx, j]

    def shift_of(coef) -> np.ndarray:
        out = np.zeros(G, dtype=np.int64)
        for d, a in dict(coef).items():
            out += a * cols[d]
        return out

    base = shift_of(site.address.coef)
    shifts = {id(a): shift_of(a.coef) for a in site.region + site.predicate}
    lane_addr = np.broadcast_to(site.address.thread, (threads,)).astype(np.int64)
    warps = threads // 32
    totals: dict[str, int] = {}
    step = max(1, CHUNK_LANES // threads)
    for lo in range(0, G, step):
        sl = slice(lo, min(G, lo + step))
        part = {k: v[sl] for k, v in shifts.items()}
        g = sl.stop - sl.start
        region = _mask(site.region, part, threads) if site.region else np.ones((g, threads), bool)
        pred = _mask(site.predicate, part, threads) if site.predicate else np.ones((g, threads), bool)
        addr = (base[sl, None] + lane_addr[None, :]).reshape(g * warps, 32)
        region = region.reshape(g * warps, 32)
        counts = tally(site.space, site.width, addr, region & pred.reshape(g * warps, 32),
                       region.any(axis=1), np.repeat(weight[sl], warps) * repeat)
        for k, v in counts.items():
            totals[k] = totals.get(k, 0) + v
    return totals
