"""The state of one path through a kernel: registers, predicates, and which threads are on it.

A `Path` is a pc, a `State` (general and uniform registers, predicate and uniform predicate
registers, and the words of local memory every thread keeps at the same address) and `cond`, the formula of the threads that follow it (warpsim.formula): the block's
threads that have neither exited nor branched elsewhere, inside the current loop iteration.
Paths split at a branch the threads may take either way and merge where they meet (the engine
runs the path with the lowest pc first, so paths meet at the first pc both reach).

Merging two states keeps what both hold and turns a register that differs into a `Select` on
the first path's condition; `resolve` undoes that where an instruction's guard or its path's
condition says which side holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from warpsim import formula as F
from warpsim.sass.values import Opaque, Poison, Select, same
from warpsim.symbolic import Sym

UNDEFINED = Poison("read before written")


@dataclass
class State:
    r: dict = field(default_factory=dict)  # R0..R254
    ur: dict = field(default_factory=dict)  # UR0..UR62
    p: dict = field(default_factory=dict)  # P0..P6 -> formula
    up: dict = field(default_factory=dict)  # UP0..UP6 -> formula
    # local memory's 32-bit words at one address for every thread (a register spilled by STL and
    # reloaded by LDL, a per-thread array at a fixed index): byte address -> value, like a register
    local: dict = field(default_factory=dict)

    def copy(self) -> "State":
        return State(dict(self.r), dict(self.ur), dict(self.p), dict(self.up), dict(self.local))

    def files(self):
        return (("r", self.r), ("ur", self.ur), ("p", self.p), ("up", self.up), ("local", self.local))


@dataclass
class Path:
    pc: int
    state: State
    cond: F.Formula  # the threads on this path
    via_back_edge: bool = False  # arrived at a loop header from inside the loop


def select(cond: F.Formula, then, other):
    """`cond ? then : other` per thread, folded where the choice is decided or the same. A choice
    by a condition of the threads alone is kept as a Select too (not merged at once): a later
    instruction guarded by the same condition then reads `then` on every thread (see resolve)."""
    if same(then, other):
        return then
    if isinstance(cond, F.Const) and cond.all_true:
        return then
    # (a condition false for every thread is kept: an instruction under the same guard, executed
    # with every lane predicated off, still reads `then` to know which array it addresses; and a
    # predicate written under a guard stays a Select, so that a reader under the same guard reads
    # `then` itself, a carry bit say, rather than a formula equal to it only under the guard)
    if isinstance(then, Opaque) and isinstance(other, (Opaque, Poison)):
        return then  # data stays data: where it came from does not matter
    if isinstance(then, Poison) and isinstance(other, Opaque):
        return other
    return Select(cond, then, other)


def _merged(cond: F.Const, then, other):
    """A Select by a condition of the threads alone, as one value per thread where both sides
    are integers with the same dimensions."""
    if isinstance(then, Sym) and isinstance(other, Sym) and then.coef == other.coef:
        return Sym(then.coef, np.where(np.asarray(cond.mask), then.thread, other.thread))
    return None


def resolve(value, known: set, live: np.ndarray | None = None, decide=None):
    """A Select undone where its condition (or its negation) is among the `known` formula keys, or,
    for a condition of the threads alone, where the threads that matter (`live`, a bool per thread)
    all lie on one side; else merged per thread where both sides allow it."""
    while isinstance(value, Select):
        c = value.cond
        if decide is not None and not isinstance(c, F.Const):
            c = decide(c)
            if isinstance(c, F.Const) and (c.all_true or c.all_false):
                value = value.then if c.all_true else value.other
                continue
        if c.key in known:
            value = value.then
            continue
        if F.f_not(c).key in known:
            value = value.other
            continue
        if isinstance(c, F.Const) and live is not None:
            here, mask = np.broadcast_arrays(live, np.asarray(c.mask, dtype=bool))
            if not np.any(here & ~mask):
                value = value.then
                continue
            if not np.any(here & mask):
                value = value.other
                continue
        if isinstance(c, F.Const):  # each side matters only on its own threads
            mask = np.asarray(c.mask, dtype=bool)
            live_then = mask if live is None else np.logical_and(live, mask)
            live_other = ~mask if live is None else np.logical_and(live, ~mask)
            if not np.any(live_then):
                value = value.other
                live = live_other
                continue
            if not np.any(live_other):
                value = value.then
                live = live_then
                continue
            a, b = resolve(value.then, known, live_then, decide), resolve(value.other, known, live_other, decide)
        else:
            a, b = resolve(value.then, known, live, decide), resolve(value.other, known, live, decide)
        if same(a, b):
            return a
        if isinstance(c, F.Const):
            merged = _merged(c, a, b)
            if merged is not None:
                return merged
        return Select(c, a, b)
    return value


def as_formula(value):
    """A predicate value as one formula: its Selects written out (cond and then, or not cond and
    other); values that are not formulas are returned as they are."""
    if isinstance(value, Select):
        a, b = as_formula(value.then), as_formula(value.other)
        if isinstance(a, F.Formula) and isinstance(b, F.Formula):
            return F.f_or(F.f_and(value.cond, a), F.f_and(F.f_not(value.cond), b))
        return value
    return value


def merge(paths: list[Path]) -> Path:
    """Paths at one pc -> one path: the union of their threads, registers merged by Select."""
    if len(paths) == 1:
        return paths[0]
    first, rest = paths[0], paths[1:]
    cond = F.f_or(*(p.cond for p in paths))
    state = first.state.copy()
    c = first.cond  # the threads whose values `state` holds so far
    for other in rest:
        for (name, mine), (_, theirs) in zip(state.files(), other.state.files()):
            for k in set(mine) | set(theirs):
                a = mine.get(k, UNDEFINED)
                b = theirs.get(k, UNDEFINED)
                if a is not b:
                    mine[k] = select(c, a, b)
        c = F.f_or(c, other.cond)
    return Path(first.pc, state, cond, any(p.via_back_edge for p in paths))


def live_mask(cond: F.Formula, guard: F.Formula, context_masks: list):
    """A bool per thread: the threads that may execute an instruction (None: every thread)."""
    parts = [m for m in (F.const_part(cond), F.const_part(guard), *context_masks) if m is not None]
    if not parts:
        return None
    out = np.asarray(parts[0], dtype=bool)
    for m in parts[1:]:
        out = np.logical_and(out, np.asarray(m, dtype=bool))
    return np.atleast_1d(out)
