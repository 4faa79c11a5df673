"""Symbolic index arithmetic for tracing a kernel model once instead of once per block and iteration.

A `Sym` is an integer expression that is affine in the *launch dimensions* (block indices and
the counters of runtime loops) plus an arbitrary *thread part*: an int64 array over the block's
threads (any function of threadIdx is allowed there, since every thread is enumerated anyway):

    value(dims, t) = sum(coef[d] * dims[d]) + thread[t]

A comparison of two such expressions is a `Cond`: a conjunction of atoms `sum(a[d]*dims[d]) + U[t] < 0`.
Because the launch dimensions appear only linearly, the fast engine can tell which dimension values
behave alike (same address residue, same lane mask) and count each class once.

Limitations: products of two launch dimensions, and division or remainder of an expression that
involves one, are not affine and raise `NotAffine`; write the model so that such arithmetic only
touches thread indices. `|` is supported only so that it can be negated (an early `return`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


class NotAffine(TypeError):
    """A model did arithmetic that is not affine in the block and loop indices."""


def _coef_add(a: dict[str, int], b: dict[str, int], sign: int = 1) -> dict[str, int]:
    out = dict(a)
    for d, c in b.items():
        out[d] = out.get(d, 0) + sign * c
        if out[d] == 0:
            del out[d]
    return out


class Sym:
    """sum(coef[d] * d) + thread, with integer coefficients and an int64 thread part."""

    __slots__ = ("coef", "thread")
    __array_ufunc__ = None  # `ndarray op Sym` defers to Sym's reflected operators

    def __init__(self, coef: dict[str, int] | None = None, thread=0):
        self.coef = dict(coef or {})
        self.thread = thread if isinstance(thread, np.ndarray) else np.int64(thread)

    # -- arithmetic -----------------------------------------------------------------------------
    def __add__(self, other):
        if isinstance(other, Sym):
            return Sym(_coef_add(self.coef, other.coef), self.thread + other.thread)
        return Sym(self.coef, self.thread + _as_int(other))

    __radd__ = __add__

    def __neg__(self):
        return Sym({d: -c for d, c in self.coef.items()}, -self.thread)

    def __sub__(self, other):
        return self + (-other if isinstance(other, Sym) else -_as_int(other))

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        if isinstance(other, Sym):
            if other.coef and self.coef:
                raise NotAffine("product of two expressions that both depend on block/loop indices")
            if other.coef:
                return other * self
            other = other.thread
        else:
            other = _as_int(other)
        if self.coef and not np.isscalar(other) and np.ndim(other) > 0:
            raise NotAffine("a block/loop-dependent expression times a per-thread value")
        return Sym({d: int(c * other) for d, c in self.coef.items() if c * other != 0}, self.thread * other)

    __rmul__ = __mul__

    def _thread_only(self, op: str):
        if self.coef:
            raise NotAffine(f"'{op}' of an expression that depends on {sorted(self.coef)}")
        return self.thread

    def __floordiv__(self, other):
        return Sym(None, self._thread_only("//") // _thread_of(other))

    def __mod__(self, other):
        return Sym(None, self._thread_only("%") % _thread_of(other))

    # -- comparisons: a < b  <=>  a - b < 0 ------------------------------------------------------
    def __lt__(self, other):
        return Cond.atom(self - other)

    def __le__(self, other):
        return Cond.atom(self - other - 1)

    def __gt__(self, other):
        return Cond.atom(_sym(other) - self)

    def __ge__(self, other):
        return Cond.atom(_sym(other) - self - 1)

    def __bool__(self):
        raise NotAffine("a symbolic index cannot drive Python control flow; use k.branch/k.range")

    def __repr__(self) -> str:
        terms = [f"{c}*{d}" for d, c in sorted(self.coef.items())]
        return "Sym(" + " + ".join(terms + ["thread"]) + ")"


def _as_int(x):
    if isinstance(x, (bool, np.bool_)):
        raise TypeError("booleans are not indices")
    if isinstance(x, np.ndarray):
        return x.astype(np.int64)
    if isinstance(x, (int, np.integer)):
        return np.int64(x)
    raise TypeError(f"index arithmetic needs integers, got {type(x).__name__}")


def _thread_of(x):
    return x._thread_only("operand") if isinstance(x, Sym) else _as_int(x)


def _sym(x) -> Sym:
    return x if isinstance(x, Sym) else Sym(None, _as_int(x))


@dataclass(frozen=True)
class Atom:
    """sum(coef[d] * d) + thread < 0."""

    coef: tuple[tuple[str, int], ...]
    thread: np.ndarray

    def negate(self) -> "Atom":
        # not (x < 0)  <=>  x >= 0  <=>  -x - 1 < 0
        return Atom(tuple((d, -c) for d, c in self.coef), -self.thread - 1)


class Cond:
    """A conjunction of atoms (an empty one is always true)."""

    __slots__ = ("atoms",)

    def __init__(self, atoms: tuple[Atom, ...] = ()):
        self.atoms = tuple(atoms)

    @staticmethod
    def atom(expr: Sym) -> "Cond":
        return Cond((Atom(tuple(sorted(expr.coef.items())), np.asarray(expr.thread, dtype=np.int64)),))

    def __and__(self, other: "Cond") -> "Cond":
        return Cond(self.atoms + other.atoms)

    def __or__(self, other: "Cond") -> "AnyOf":
        return AnyOf((self, other))

    def __invert__(self) -> "Cond | AnyOf":
        if len(self.atoms) != 1:
            return AnyOf(tuple(Cond((a.negate(),)) for a in self.atoms))
        return Cond((self.atoms[0].negate(),))

    def __bool__(self):
        raise NotAffine("a symbolic condition cannot drive Python control flow; use k.branch")


class AnyOf:
    """A disjunction of conditions: only ever negated (`if (a || b) return;`)."""

    __slots__ = ("conds",)

    def __init__(self, conds: tuple[Cond, ...]):
        self.conds = conds

    def __or__(self, other: Cond) -> "AnyOf":
        return AnyOf(self.conds + (other,))

    def __invert__(self) -> Cond:
        # not (a or b) = not a and not b; each disjunct must be a single atom
        out = Cond()
        for c in self.conds:
            neg = ~c
            if isinstance(neg, AnyOf):
                raise NotAffine("negating a disjunction of conjunctions is not supported")
            out = out & neg
        return out

    def __bool__(self):
        raise NotAffine("a symbolic condition cannot drive Python control flow; use k.branch")


class Ghost:
    """Stands in for a loaded value while tracing: absorbs arithmetic, holds nothing."""

    __slots__ = ()

    def _absorb(self, *_):
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __neg__ = _absorb
    __getitem__ = _absorb  # one component of a float4


GHOST = Ghost()
