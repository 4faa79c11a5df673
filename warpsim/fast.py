"""The fast engine: count a `Site` for every block and loop iteration without enumerating them.

Why it is exact. A site's address is `sum(c[d] * d) + thread_part`, and its lane conditions are
formulas over atoms `sum(a[d] * d) + U < 0` or `== 0` (warpsim.formula). For one value of the
launch dimensions the instruction's counts depend on (1) the common shift `sum(c[d] * d)` only
modulo 128 bytes (sectors, lines and banks are all invariant under shifting every lane by a
multiple of 128 B), and (2) each atom's lanes. So each dimension's values fall into classes
with equal (shift mod 128, atom outcomes), where a `<` atom's outcome is "every thread passes",
"no thread passes", or, near an edge, the exact value `sum(a[d] * d)`, and an `==` atom's is
"no thread" or the exact value. Dimensions that share an atom are classified jointly. Counting
one representative per combination of classes, weighted by the class sizes, gives exactly the
brute-force sum. No per-kernel formula is involved: only the site's coefficients.

The classes are found without enumerating a dimension: along one dimension d each `<` atom
passes for every thread on one side of an interval, for none on the other, and is an edge only
inside it (as wide as the thread part's spread divided by the coefficient); an `==` atom holds
at isolated points. Between those points the classes are the residues of d modulo
128 / gcd(c[d], 128), counted by arithmetic. So the cost grows with the number of classes, not
with the extents: any size is counted in the same time. A group of dimensions coupled by an atom
is classified along its largest dimension for each value of the others.

Counts are Python integers (exact at any size): weights past 2**62 are summed as such.

Limitations: a condition coupling two large dimensions costs the product of all but the largest
extent; models and kernels keep conditions to one launch dimension, or one and a short loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import numpy as np

from warpsim import formula as F
from warpsim.tally import tally

PERIOD = 128  # bytes: every counter is invariant under a shift of the whole warp by this much
CHUNK_LANES = 1 << 21  # lanes evaluated at once (bounds memory)
SAFE = 1 << 62  # weights up to this are summed in int64


@dataclass(frozen=True)
class _Classes:
    """Representatives of one group of dimensions: their values and how many each stands for."""

    dims: tuple[str, ...]
    values: np.ndarray  # (r, len(dims)) int64
    weight: list  # (r,) Python ints


def as_formula(cond) -> F.Formula:
    """A site condition: a formula, or (hand models) a tuple of `symbolic.Atom`s, all of which hold."""
    if isinstance(cond, F.Formula):
        return cond
    return F.f_and(*(F.lt(a.coef, a.thread) for a in cond))


def _groups(dims_order: list[str], address: dict, atoms: list) -> list[tuple[str, ...]]:
    """Dimensions that appear in the site, grouped so that no atom spans two groups."""
    involved = set(address)
    for atom in atoms:
        involved.update(d for d, _ in atom.coef)
    parent = {d: d for d in involved}

    def find(d):
        while parent[d] != d:
            parent[d] = parent[parent[d]]
            d = parent[d]
        return d

    for atom in atoms:
        ds = [d for d, _ in atom.coef]
        for d in ds[1:]:
            parent[find(d)] = find(ds[0])
    groups: dict[str, list[str]] = {}
    for d in sorted(involved, key=dims_order.index):
        groups.setdefault(find(d), []).append(d)
    return [tuple(g) for g in groups.values()]


def _residue_classes(lo: int, hi: int, period: int) -> tuple[list[int], list[int]]:
    """Values in [lo, hi) by residue mod period: (one value per residue, how many share it)."""
    n = hi - lo
    if n <= 0:
        return [], []
    if n <= period:
        return list(range(lo, hi)), [1] * n
    reps = list(range(lo, lo + period))
    return reps, [(hi - 1 - r) // period + 1 for r in reps]


@dataclass(frozen=True)
class _Spread:
    """An atom's thread part as the classification reads it: its least and greatest value and
    (for `==`) the set of values, taken once per site rather than once per class."""

    low: int
    high: int
    values: frozenset

    @staticmethod
    def of(thread) -> "_Spread":
        u = np.unique(np.atleast_1d(thread))
        return _Spread(int(u[0]), int(u[-1]), frozenset(int(x) for x in u))


def _breakpoints(d_coef: int, base: int, spread: _Spread, kind: str, extent: int) -> tuple[list[int], list[int]]:
    """Along one dimension d (atom value a*d + base + U): the d where the atom's outcome may change
    (interval ends), and the d that are edges to enumerate one by one."""
    a = d_coef
    if kind == "eq":
        points = []
        for uv in sorted(spread.values):
            num = -(base + uv)
            if num % a == 0 and 0 <= num // a < extent:
                points.append(num // a)
        return [], points
    umin, umax = spread.low, spread.high
    # every thread passes: a*d + base + umax < 0; no thread: a*d + base + umin >= 0
    ends = set()
    for edge in (-(base + umax), -(base + umin)):
        q = edge // a
        for k in (q - 1, q, q + 1, q + 2):
            if 0 <= k <= extent:
                ends.add(k)
    return sorted(ends), []


def _status(a: int, base: int, spread: _Spread, kind: str, d: int):
    """The outcome of an atom at d: ('all'|'none'|'edge', exact value for an edge)."""
    v = a * d + base
    if kind == "eq":
        return ("edge", v) if -v in spread.values else ("none", 0)
    if v + spread.high < 0:
        return ("all", 0)
    if v + spread.low >= 0:
        return ("none", 0)
    return ("edge", v)


def _classify_line(extent: int, c_addr: int, atoms: list) -> tuple[list[int], list[int]]:
    """Representatives along one dimension of the given extent, where the address moves by c_addr
    per step: atoms given as (coefficient, base, the thread part's _Spread, kind). The other
    dimensions' part of the address adds one residue to the whole line, so it does not split it."""
    period = PERIOD // gcd(c_addr % PERIOD, PERIOD) if c_addr % PERIOD else 1
    cuts, points = {0, extent}, set()
    for a, base, thread, kind in atoms:
        ends, pts = _breakpoints(a, base, thread, kind, extent)
        cuts.update(ends)
        points.update(pts)
    for p in points:
        cuts.update((p, p + 1))
    cuts = sorted(c for c in cuts if 0 <= c <= extent)
    reps, weights = [], []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        if hi <= lo:
            continue
        first = [_status(a, base, t, k, lo) for a, base, t, k in atoms]
        last = [_status(a, base, t, k, hi - 1) for a, base, t, k in atoms]
        edge = any(s[0] == "edge" for s in first + last) or any(f[0] != g[0] for f, g in zip(first, last))
        if edge or any(lo <= p < hi for p in points):
            reps += list(range(lo, hi))  # an edge: every value is its own class
            weights += [1] * (hi - lo)
        else:
            r, w = _residue_classes(lo, hi, period)
            reps += r
            weights += w
    return reps, weights


def _classify(group: tuple[str, ...], extents: dict, address: dict, atoms: list, spreads: dict) -> _Classes:
    """`spreads`: each atom's _Spread, by its key."""
    if len(group) == 1:
        (d,) = group
        mine = [(dict(a.coef)[d], 0, spreads[a.key], a.kind) for a in atoms if d in dict(a.coef)]
        reps, weights = _classify_line(extents[d], address.get(d, 0), mine)
        return _Classes(group, np.asarray(reps, dtype=np.int64).reshape(-1, 1), weights)
    # along the largest dimension, for each value of the others
    line = max(group, key=lambda d: extents[d])
    others = [d for d in group if d != line]
    grids = np.meshgrid(*[np.arange(extents[d], dtype=np.int64) for d in others], indexing="ij")
    combos = np.stack([g.ravel() for g in grids], axis=1)
    rows, weights = [], []
    for combo in combos:
        at = dict(zip(others, (int(v) for v in combo)))
        mine = []
        for a in atoms:
            coef = dict(a.coef)
            if coef.get(line, 0):  # an atom without the line is constant along it: the combination is its class
                base = sum(c * at[x] for x, c in coef.items() if x != line)
                mine.append((coef[line], base, spreads[a.key], a.kind))
        reps, ws = _classify_line(extents[line], address.get(line, 0), mine)
        for r, w in zip(reps, ws):
            rows.append([*(at[x] for x in others), r])
            weights.append(w)
    values = np.asarray(rows, dtype=np.int64).reshape(-1, len(group))
    order = [*others, line]
    return _Classes(tuple(order), values, weights)


def count_site(site, threads: int) -> dict[str, int]:
    """All counters of one site summed over every block, warp and loop iteration in its scope."""
    extents = dict(site.dims)
    unknown = set(site.address.coef) - set(extents)
    if unknown:
        raise ValueError(f"line {site.line}: index uses {sorted(unknown)} outside its loop")
    region, pred = as_formula(site.region), as_formula(site.predicate)
    atoms = list({a.key: a for a in F.atoms(region) + F.atoms(pred)}.values())
    for a in atoms:
        if set(d for d, _ in a.coef) - set(extents):
            raise ValueError(f"line {site.line}: a condition uses a dimension outside its scope")
    order = [d for d, _ in site.dims]
    spreads = {a.key: _Spread.of(a.thread) for a in atoms}
    classes = [_classify(g, extents, site.address.coef, atoms, spreads)
               for g in _groups(order, site.address.coef, atoms)]
    used = {d for c in classes for d in c.dims}
    repeat = 1
    for d, e in site.dims:
        if d not in used:
            repeat *= int(e)

    # Combine the groups' representatives (outer product) into flat arrays of length G.
    G = 1
    for c in classes:
        G *= len(c.weight)
    if G == 0 or repeat == 0:
        return {}
    idx_of = []
    inner = G
    for c in classes:
        r = len(c.weight)
        inner //= r
        idx_of.append((np.arange(G) // inner) % r)
    cols: dict[str, np.ndarray] = {}
    for c, idx in zip(classes, idx_of):
        for j, d in enumerate(c.dims):
            cols[d] = c.values[idx, j]
    weight = _weights(classes, idx_of, G, repeat, threads)

    def shift_of(coef) -> np.ndarray:
        out = np.zeros(G, dtype=np.int64)
        for d, a in dict(coef).items():
            out += a * cols[d]
        return out

    base = shift_of(site.address.coef) % PERIOD  # the common shift, mod 128 (see the docstring)
    shifts = {a.key: shift_of(a.coef) for a in atoms}
    lane_addr = np.broadcast_to(site.address.thread, (threads,)).astype(np.int64)
    warps = threads // 32
    totals: dict[str, int] = {}
    step = max(1, CHUNK_LANES // threads)
    for lo in range(0, G, step):
        sl = slice(lo, min(G, lo + step))
        g = sl.stop - sl.start
        holds = {a.key: a.holds(shifts[a.key][sl]) for a in atoms}
        reach = F.evaluate(region, holds, (g, threads))
        live = reach & F.evaluate(pred, holds, (g, threads))
        addr = (base[sl, None] + lane_addr[None, :]).reshape(g * warps, 32)
        w = weight[sl]
        counts = tally(site.space, site.width, addr, live.reshape(g * warps, 32),
                       reach.reshape(g * warps, 32).any(axis=1), np.repeat(w, warps), site.op)
        for k, v in counts.items():
            totals[k] = totals.get(k, 0) + v
    return totals


def _weights(classes, idx_of, G: int, repeat: int, threads: int) -> np.ndarray:
    """Each combined representative's weight: int64 when every weighted sum stays below 2**62
    (a row's counters are at most 1024: 32 lanes of 16 bytes, or 64 sectors), else Python
    integers (an object array), so that no count ever wraps."""
    top = repeat
    for c in classes:
        top *= max(c.weight)
    if top * 1024 * G * max(1, threads // 32) < SAFE:
        w = np.full(G, repeat, dtype=np.int64)
        for c, idx in zip(classes, idx_of):
            w *= np.asarray(c.weight, dtype=np.int64)[idx]
        return w
    w = np.full(G, repeat, dtype=object)
    for c, idx in zip(classes, idx_of):
        w *= np.asarray(c.weight, dtype=object)[idx]
    return w
