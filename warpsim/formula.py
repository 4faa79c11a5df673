"""Lane conditions as boolean formulas over affine atoms: which threads reach, and pass, an access.

An atom is affine in the launch dimensions (block indices, loop counters) with a per-thread part:

    Lt(coef, thread):  sum(coef[d] * d) + thread[t] <  0
    Eq(coef, thread):  sum(coef[d] * d) + thread[t] == 0

and a formula combines atoms with And, Or and Not; `Const` is a condition of the thread alone
(a bool per thread of the block). The fast engine (warpsim.fast) counts a site exactly by
classifying each dimension's values by every atom's outcome, so any formula over atoms is exact
there; the constructors below fold what they can (an atom with no dimension becomes a Const,
constant parts of And/Or are combined), so conditions of the thread alone never reach it.

Formulas are immutable and compare by structure: `key` identifies a formula, and negation is
an involution (`f_not(f_not(f)).key == f.key`), so that the SASS engine can tell that a guard
it has seen is the one an instruction is predicated on.

Limitations: no simplification beyond folding and flattening (a formula and its logically
equal rewrite are different keys); thread parts are int64 arrays over the block's threads.
"""

from __future__ import annotations

import hashlib

import numpy as np


def _thread_key(thread) -> bytes:
    a = np.ascontiguousarray(thread)
    data = np.packbits(a).tobytes() if a.dtype == bool else a.tobytes()  # a mask's bits: an eighth to hash
    return hashlib.blake2b(data + str(a.dtype).encode() + str(a.shape).encode(), digest_size=12).digest()


class Formula:
    __slots__ = ("key", "_const_part")  # _const_part: const_part(self), kept once computed

    def dims(self) -> set[str]:
        raise NotImplementedError


class Const(Formula):
    """A condition of the thread alone: `mask` is a bool per thread (or a Python bool)."""

    __slots__ = ("mask", "_all", "_any")

    def __init__(self, mask):
        self.mask = mask if isinstance(mask, (bool, np.bool_)) else np.asarray(mask, dtype=bool)
        if isinstance(self.mask, np.ndarray) and self.mask.ndim == 0:
            self.mask = bool(self.mask)
        if isinstance(self.mask, np.bool_):
            self.mask = bool(self.mask)
        self.key = ("const", self.mask) if isinstance(self.mask, bool) else ("const", _thread_key(self.mask))
        self._all = self._any = None  # asked millions of times by the SASS engine: reduced once

    @property
    def all_true(self) -> bool:
        if self._all is None:
            self._all = bool(np.all(self.mask))
        return self._all

    @property
    def all_false(self) -> bool:
        if self._any is None:
            self._any = bool(np.any(self.mask))
        return not self._any

    def dims(self) -> set[str]:
        return set()


class _Atom(Formula):
    __slots__ = ("coef", "thread")
    kind = ""

    def __init__(self, coef: tuple[tuple[str, int], ...], thread):
        self.coef = tuple(sorted((d, int(c)) for d, c in coef if c))
        self.thread = np.asarray(thread, dtype=np.int64)
        self.key = (self.kind, self.coef, _thread_key(self.thread))

    def dims(self) -> set[str]:
        return {d for d, _ in self.coef}

    def value(self, shift: np.ndarray) -> np.ndarray:
        """(g, threads) values of the affine part: shift (g,) is sum(coef*d) per representative."""
        return shift[:, None] + np.atleast_1d(self.thread)[None, :]


class Lt(_Atom):
    kind = "lt"

    def holds(self, shift: np.ndarray) -> np.ndarray:
        return self.value(shift) < 0


class Eq(_Atom):
    kind = "eq"

    def holds(self, shift: np.ndarray) -> np.ndarray:
        return self.value(shift) == 0


class Not(Formula):
    __slots__ = ("child",)

    def __init__(self, child: Formula):
        self.child = child
        self.key = ("not", child.key)

    def dims(self) -> set[str]:
        return self.child.dims()


class And(Formula):
    __slots__ = ("children",)

    def __init__(self, children: tuple[Formula, ...]):
        self.children = children
        self.key = ("and", tuple(c.key for c in children))

    def dims(self) -> set[str]:
        return set().union(*(c.dims() for c in self.children))


class Or(Formula):
    __slots__ = ("children",)

    def __init__(self, children: tuple[Formula, ...]):
        self.children = children
        self.key = ("or", tuple(c.key for c in children))

    def dims(self) -> set[str]:
        return set().union(*(c.dims() for c in self.children))


TRUE = Const(True)
FALSE = Const(False)


# -- constructors that fold ------------------------------------------------------------------------

def lt(coef: dict[str, int] | tuple, thread) -> Formula:
    """sum(coef*d) + thread < 0."""
    coef = tuple(coef.items()) if isinstance(coef, dict) else tuple(coef)
    if not any(c for _, c in coef):
        return Const(np.asarray(thread, dtype=np.int64) < 0)
    return Lt(coef, thread)


def eq(coef: dict[str, int] | tuple, thread) -> Formula:
    """sum(coef*d) + thread == 0."""
    coef = tuple(coef.items()) if isinstance(coef, dict) else tuple(coef)
    if not any(c for _, c in coef):
        return Const(np.asarray(thread, dtype=np.int64) == 0)
    return Eq(coef, thread)


def _combine_consts(consts: list[Const], op) -> Const | None:
    if not consts:
        return None
    mask = consts[0].mask
    for c in consts[1:]:
        mask = op(mask, c.mask)
    return Const(mask)


def _flatten(kind, parts) -> list[Formula]:
    out = []
    for p in parts:
        if isinstance(p, kind):
            out.extend(p.children)
        else:
            out.append(p)
    return out


def _dedupe(parts: list[Formula]) -> list[Formula]:
    seen, out = set(), []
    for p in parts:
        if p.key not in seen:
            seen.add(p.key)
            out.append(p)
    return out


def f_and(*parts: Formula) -> Formula:
    parts = _flatten(And, parts)
    const = _combine_consts([p for p in parts if isinstance(p, Const)], np.logical_and)
    rest = _dedupe([p for p in parts if not isinstance(p, Const)])
    if const is not None and const.all_false:
        return FALSE
    if const is not None and not const.all_true:
        rest = [const] + rest
    if not rest:
        return TRUE
    return rest[0] if len(rest) == 1 else And(tuple(rest))


def f_or(*parts: Formula) -> Formula:
    parts = _flatten(Or, parts)
    if len(parts) > 1 and not any(isinstance(p, Const) for p in parts):
        factored = _factor(parts)
        if factored is not None:
            return factored
    const = _combine_consts([p for p in parts if isinstance(p, Const)], np.logical_or)
    rest = _dedupe([p for p in parts if not isinstance(p, Const)])
    if const is not None and const.all_true:
        return TRUE
    if const is not None and not const.all_false:
        rest = [const] + rest
    if not rest:
        return FALSE
    return rest[0] if len(rest) == 1 else Or(tuple(rest))


def _factor(parts: list[Formula]) -> Formula | None:
    """(X and a) or (X and b) -> X and (a or b); a or not a -> true. Keeps the threads of paths
    that split and meet again a conjunction (what loops' trip counts are read from)."""
    sets = [list(conjuncts(p)) for p in parts]
    common = set.intersection(*({c.key for c in s} for s in sets))
    rests = [[c for c in s if c.key not in common] for s in sets]
    keep = [c for c in sets[0] if c.key in common]
    if any(not r for r in rests):  # one part is X itself: X or (X and b) = X
        return f_and(*keep) if keep else TRUE
    residual = [f_and(*r) for r in rests]
    if len(residual) == 2 and f_not(residual[0]).key == residual[1].key:
        return f_and(*keep) if keep else TRUE
    if not keep:
        return None
    return f_and(*keep, Or(tuple(_dedupe(residual))) if len(_dedupe(residual)) > 1 else residual[0])


def f_not(f: Formula) -> Formula:
    """Negation, pushed to the atoms (an involution on keys)."""
    if isinstance(f, Const):
        return Const(np.logical_not(f.mask))
    if isinstance(f, Lt):  # not (x < 0)  <=>  -x - 1 < 0
        return Lt(tuple((d, -c) for d, c in f.coef), -f.thread - 1)
    if isinstance(f, Not):
        return f.child
    if isinstance(f, Eq):
        return Not(f)
    if isinstance(f, And):
        return f_or(*(f_not(c) for c in f.children))
    if isinstance(f, Or):
        return f_and(*(f_not(c) for c in f.children))
    raise TypeError(f"not a formula: {f!r}")


def f_xor(a: Formula, b: Formula) -> Formula:
    if isinstance(a, Const) and isinstance(b, Const):
        return Const(np.logical_xor(a.mask, b.mask))
    return f_or(f_and(a, f_not(b)), f_and(f_not(a), b))


def conjuncts(f: Formula) -> tuple[Formula, ...]:
    return f.children if isinstance(f, And) else (f,)


def const_part(f: Formula):
    """The conjunction of a formula's conjuncts that are conditions of the threads alone (None:
    there is none); kept on the formula, which is immutable: the SASS engine asks for it at every
    instruction."""
    try:
        return f._const_part
    except AttributeError:
        pass
    masks = [c.mask for c in conjuncts(f) if isinstance(c, Const)]
    out = None
    if masks:
        out = np.asarray(masks[0], dtype=bool)
        for m in masks[1:]:
            out = out & np.asarray(m, dtype=bool)
    f._const_part = out
    return out


# -- structure -------------------------------------------------------------------------------------

def atoms(f: Formula) -> list[_Atom]:
    """The distinct atoms of a formula, in first-seen order."""
    seen: dict = {}

    def walk(g):
        if isinstance(g, _Atom):
            seen.setdefault(g.key, g)
        elif isinstance(g, Not):
            walk(g.child)
        elif isinstance(g, (And, Or)):
            for c in g.children:
                walk(c)

    walk(f)
    return list(seen.values())


def evaluate(f: Formula, holds: dict, shape: tuple[int, int]) -> np.ndarray:
    """(g, threads) bool: `holds[atom.key]` gives each atom's lanes for g representatives."""
    if isinstance(f, Const):
        return np.broadcast_to(np.asarray(f.mask, dtype=bool), shape)
    if isinstance(f, _Atom):
        return np.broadcast_to(holds[f.key], shape)
    if isinstance(f, Not):
        return ~evaluate(f.child, holds, shape)
    parts = [evaluate(c, holds, shape) for c in f.children]
    out = np.array(parts[0], dtype=bool)
    for p in parts[1:]:
        if isinstance(f, And):
            out &= p
        else:
            out |= p
    return out


def substitute(f: Formula, dim: str, coef: dict[str, int], thread) -> Formula:
    """Replace `dim` by the affine expression sum(coef*d) + thread, folding what becomes constant."""
    if dim not in f.dims():
        return f
    if isinstance(f, _Atom):
        c = dict(f.coef)
        a = c.pop(dim)
        for d, v in coef.items():
            c[d] = c.get(d, 0) + a * v
        new_thread = f.thread + a * np.asarray(thread, dtype=np.int64)
        return (lt if isinstance(f, Lt) else eq)({d: v for d, v in c.items() if v}, new_thread)
    if isinstance(f, Not):
        return f_not(substitute(f.child, dim, coef, thread))
    parts = [substitute(c, dim, coef, thread) for c in f.children]
    return f_and(*parts) if isinstance(f, And) else f_or(*parts)


def thread_mask(f: Formula, threads: int) -> np.ndarray | None:
    """The bool per thread of a formula with no dimension (None if it has one)."""
    if f.dims():
        return None
    return np.broadcast_to(np.asarray(evaluate(f, {}, (1, threads))[0]), (threads,))
