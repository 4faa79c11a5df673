"""A loop of machine code, run for all its iterations at once: induction, trip count, exits.

For a loop reached with state S0 by the threads `F0` (symbolic mode only):

1. probe: run the body once, recording nothing: S1 is the state at the back edge. A register
   with S1 = S0 + d, d a constant the same for every thread, is an induction variable; one
   with S1 = S0 is invariant; data (Opaque) stays data; anything else becomes Poison (an
   address computed from it is refused).
2. hypothesis: with a new launch dimension j (the iteration), S(j) = S0 + j*d. Run the body on
   S(j) (still recording nothing) and check the back edge's state is S(j+1): if a register
   fails, it is Poison and the body runs again. The back edge's condition G(j) (which threads
   go round again) comes out of this run as a formula in j.
3. trip count: G(j) must be a conjunction of atoms, each either free of j or one that turns
   false for good once j is large (a < b with b - a falling in j; a != b with the gap a
   multiple of the step). A thread runs iterations 0..J, J the first j where G(j) is false; J
   may differ per thread and per block. active(j) says whether a thread is still in the loop.
4. record: run the body once more on S(j) with the dimension's extent set (max J + 1), under
   F0 and active(j): every memory instruction is recorded once, for every iteration. The
   induction is checked again, now with every 32-bit wrap-around check over the whole extent.
5. exits: each path that left the body continues after the loop with j replaced by J.

Why it is exact: step 2's check is an induction proof (if the state at iteration j is S(j), the
state at j+1 is S(j+1)), over exact integer arithmetic; step 4 repeats it with the ranges of
the real extent, so no 32-bit value wraps that was assumed not to. A lane's activity is its trip
count, not a sample.

Limitations: an induction step that differs per thread or depends on another dimension, a
loop whose exit condition is not of the forms above (data-dependent, or of two counters at once
with a post-loop value needed), and several exits whose threads cannot be told apart are refused.
"""

from __future__ import annotations

import numpy as np

from warpsim import formula as F
from warpsim.sass.program import Loop
from warpsim.sass.state import UNDEFINED, Path, State, merge, resolve
from warpsim.sass.values import EngineError, Opaque, SplitRequest, Poison, PredPack, Select, bounds, const, same
from warpsim.symbolic import Sym


def _quiet(access) -> None:
    pass


class _Phase:
    """Run the body with recording off (or on) and the environment given; restores both."""

    def __init__(self, machine, env, record):
        self.m, self.env, self.record = machine, env, record

    def __enter__(self):
        self.saved = (self.m.env, self.m.record)
        self.m.env, self.m.record = self.env, self.record
        return self

    def __exit__(self, *exc):
        self.m.env, self.m.record = self.saved
        return False


def _body(machine, loop: Loop, state: State, cond: F.Formula):
    latches, exits = machine.execute([Path(loop.header, state, cond)], loop.body, loop.header)
    latch = merge(latches) if latches else None
    return latch, exits


def _on(v, live):
    """v with its per-thread part kept only where `live` (other threads: the first live one's)."""
    if live is None or not isinstance(v, Sym) or np.ndim(v.thread) == 0:
        return v
    t = np.asarray(v.thread)
    here = np.broadcast_to(live, t.shape)
    if not here.any():
        return Sym(v.coef, t[0])
    return Sym(v.coef, np.where(here, t, t[np.argmax(here)]))


def _step(v0, v1, machine=None, live=None):
    """The per-iteration change of a register on the threads that go round again (`live`), or why
    it is not an induction variable."""
    v0, v1 = _on(v0, live), _on(v1, live)
    if same(v0, v1):
        return 0
    for v in (v0, v1):
        if isinstance(v, Select) and machine is not None:  # a value that differs across an edge of blocks
            machine.split_on(v)
    if isinstance(v1, Opaque):
        return v1
    if isinstance(v0, Sym) and isinstance(v1, Sym):
        d = v1 - v0
        t = ((np.asarray(d.thread, dtype=np.int64) + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)  # mod 2**32
        if not d.coef and (t.ndim == 0 or np.all(t == t.flat[0])):
            return int(t) if t.ndim == 0 else int(t.flat[0])
        return Poison("a loop-carried value whose step differs per thread or depends on another index")
    if isinstance(v0, Poison) and v0 is UNDEFINED:
        return Poison("a value set inside the loop and read at the next iteration before it is set")
    return Poison("a loop-carried value the engine cannot follow")


def _hypothesis(s0: State, steps: dict, dim: str) -> State:
    out = State()
    for (name, regs), (_, out_regs) in zip(s0.files(), out.files()):
        for k in set(regs) | {k for (f, k) in steps if f == name}:
            step = steps.get((name, k), 0)
            v0 = regs.get(k, UNDEFINED)
            if isinstance(step, int):
                out_regs[k] = v0 + Sym({dim: step}) if step else v0
            else:
                out_regs[k] = step
    return out


_REG_NAMES = {"r": "R", "ur": "UR", "p": "P", "up": "UP", "local": "local word at "}


def _flat(v, machine=None):
    """A Select by a condition of the threads alone, or one the box decides, as one value where
    it can be."""
    if not isinstance(v, Select):
        return v
    return resolve(v, set(), None, machine.decide if machine is not None else None)


def _steps(s0: State, s1: State, machine=None, live=None) -> dict:
    out = {}
    for (name, r0), (_, r1) in zip(s0.files(), s1.files()):
        for k in set(r0) | set(r1):
            v0, v1 = _flat(r0.get(k, UNDEFINED), machine), _flat(r1.get(k, UNDEFINED), machine)
            if v0 is not r0.get(k, UNDEFINED):
                r0[k] = v0  # the hypothesis starts from the merged value
            step = _step(v0, v1, machine, live)
            if isinstance(step, Poison):  # say which register, for the message of whoever reads it
                step = Poison(f"{step.why} ({_REG_NAMES[name]}{k:#x})" if name == "local" else
                              f"{step.why} ({_REG_NAMES[name]}{k})")
            if not (isinstance(step, int) and step == 0):
                out[(name, k)] = step
    return out


def _going_round(cond: F.Formula, entry_mask) -> np.ndarray | None:
    """The threads that may take the back edge: the part of its condition (and of the loop's
    entry) that is a condition of the threads alone; None when there is none."""
    parts = [m for m in (F.const_part(cond), entry_mask) if m is not None]
    if not parts:
        return None
    out = np.asarray(parts[0], dtype=bool)
    for m in parts[1:]:
        out = np.logical_and(out, m)
    return np.atleast_1d(out)


def _failures(hyp: State, after: State, steps: dict, dim: str, live=None) -> list:
    """Registers whose value after one iteration from S(j) is not S(j+1), on the threads that go
    round again (`live`: a bool per thread, or None for all)."""
    bad = []
    for (name, rh), (_, ra) in zip(hyp.files(), after.files()):
        for k in set(rh) | set(ra):
            step = steps.get((name, k), 0)
            if not isinstance(step, int):
                continue  # data or poison already
            expected = rh.get(k, UNDEFINED)
            if step:
                expected = expected + step
            if not same(_on(_flat(expected), live), _on(_flat(ra.get(k, UNDEFINED)), live)):
                bad.append((name, k))
    return bad


def run_loop(machine, entry: Path, loop: Loop) -> list[Path]:
    """Every iteration of `loop` for the threads of `entry` at once; returns the paths after it.

    A loop whose state comes back only every p iterations (a double buffer's stage toggled each
    iteration) is run p iterations at a time (p = 2, 4) when the period-1 analysis fails; its trip
    count must then be the same for every thread (the remainder iterations are run one by one).
    What an attempt recorded is kept only if the attempt succeeds."""
    first_error = None
    for period in (1, 2, 4, "unroll"):
        target, buffer = machine.record, []
        machine.record = buffer.append
        try:
            if period == "unroll":
                exits = _unrolled(machine, entry, loop)
            else:
                exits = _attempt(machine, entry, loop, period)
        except SplitRequest:
            raise
        except EngineError as e:
            first_error = first_error or e
            continue
        finally:
            machine.record = target
        for access in buffer:
            target(access)
        return exits
    raise first_error


MAX_UNROLL = 256


def _unrolled(machine, entry: Path, loop: Loop) -> list[Path]:
    """The last resort for a short loop: its iterations one after another (exact, no dimension),
    up to MAX_UNROLL of them."""
    exits, state, cond = [], entry.state.copy(), entry.cond
    for _ in range(MAX_UNROLL):
        latch, out = _body(machine, loop, state, cond)
        exits += out
        if latch is None:
            return exits
        state, cond = latch.state.copy(), latch.cond
    raise EngineError(f"the loop at pc {loop.header:#x} runs more than {MAX_UNROLL} iterations and its "
                      "state does not follow an induction the engine can prove")


def _attempt(machine, entry: Path, loop: Loop, period: int) -> list[Path]:
    dim = f"loop@{loop.header:#x}"
    f0, s0 = entry.cond, entry.state
    machine.context.append({c.key for c in F.conjuncts(f0)} | {f0.key})
    entry_mask = F.const_part(f0)
    machine.context_masks.append(entry_mask if entry_mask is not None else np.ones(1, dtype=bool))
    record = machine.record
    try:
        state = s0.copy()
        with _Phase(machine, machine.env, _quiet):
            for r in range(period):
                latch, _ = _body(machine, loop, state, F.TRUE)
                if latch is None:
                    if period == 1:  # no thread ever goes round: the body runs once
                        with _Phase(machine, machine.env, record):
                            return _body(machine, loop, s0.copy(), f0)[1]
                    raise EngineError(f"the loop at pc {loop.header:#x} runs fewer than {period} iterations")
                state = latch.state.copy()
        steps = _steps(s0, state, machine, _going_round(latch.cond, entry_mask))
        trial_env = machine.env.with_dim(dim, 1, provisional=True)
        for _ in range(64):
            hyp = _hypothesis(s0, steps, dim)
            conds = []
            with _Phase(machine, trial_env, _quiet):
                st = hyp.copy()
                for r in range(period):
                    latch, _ = _body(machine, loop, st, F.TRUE)
                    if latch is None:
                        raise EngineError(f"the loop at pc {loop.header:#x} ends after its first iteration "
                                          "only for some threads in a way the engine cannot follow")
                    conds.append(latch.cond)
                    st = latch.state.copy()
            bad = _failures(hyp, st, steps, dim, _going_round(latch.cond, entry_mask))
            if not bad:
                break
            for key in bad:
                steps[key] = Poison("a loop-carried value that is not an induction variable")
        else:
            raise EngineError(f"the loop at pc {loop.header:#x}: no induction hypothesis holds")
        if period == 1:
            trip = _trip(conds[0], dim, machine, loop, f0)
            env = machine.env.with_dim(dim, trip.extent)
            with _Phase(machine, env, record):
                latch2, exits = _body(machine, loop, hyp.copy(), F.f_and(f0, trip.active))
                if latch2 is not None and _failures(hyp, latch2.state, steps, dim,
                                                    _going_round(latch2.cond, entry_mask)):
                    raise EngineError(f"the loop at pc {loop.header:#x}: its induction variables do not hold "
                                      "over every iteration")
            return [_after(p, dim, trip, loop) for p in exits]
        return _periodic(machine, loop, dim, period, hyp, steps, conds, f0, s0, record)
    finally:
        machine.context.pop()
        machine.context_masks.pop()


def _periodic(machine, loop, dim, period, hyp, steps, conds, f0, s0, record) -> list[Path]:
    """Record a loop p iterations at a time: Q = T // p summarized steps, then T % p iterations."""
    total = None
    for r, g in enumerate(conds):
        if dim not in g.dims():
            continue
        trip = _trip(g, dim, machine, loop)
        if not (isinstance(trip.active, F.Const) and trip.active.all_true):
            raise EngineError(f"the loop at pc {loop.header:#x}: its trip count differs per thread, and its "
                              f"state repeats only every {period} iterations")
        last = int(np.asarray(trip.last.thread))
        total = min(total, period * last + r + 1) if total is not None else period * last + r + 1
    if total is None:
        raise EngineError(f"the loop at pc {loop.header:#x} never ends")
    q, rem = divmod(total, period)
    st, cond = s0.copy(), f0
    if q:
        env = machine.env.with_dim(dim, q)
        with _Phase(machine, env, record):
            st, cond = hyp.copy(), f0
            for r in range(period):
                latch, exits = _body(machine, loop, st, cond)
                if latch is None:
                    break
                st, cond = latch.state.copy(), latch.cond
            if latch is not None and _failures(hyp, st, steps, dim, _going_round(cond, None)):
                raise EngineError(f"the loop at pc {loop.header:#x}: its induction variables do not hold "
                                  "over every iteration")
        end = _Trip(q, F.TRUE, const(q - 1))
        if rem == 0:
            return [_after(p, dim, end, loop) for p in exits]
        if latch is None:
            raise EngineError(f"the loop at pc {loop.header:#x} ends earlier than its trip count says")
        after = _after(Path(loop.header, st, cond), dim, end, loop)
        st, cond = after.state, after.cond
    exits = []
    with _Phase(machine, machine.env, record):
        for r in range(rem):
            latch, exits = _body(machine, loop, st, cond)
            if r < rem - 1:
                if latch is None:
                    raise EngineError(f"the loop at pc {loop.header:#x} ends earlier than its trip count says")
                st, cond = latch.state.copy(), latch.cond
    return exits


class _Trip:
    def __init__(self, extent: int, active: F.Formula, last: Sym | None):
        self.extent = extent  # iterations of the launch dimension: max over threads of J + 1
        self.active = active  # threads still in the loop at iteration j
        self.last = last  # J, the last iteration, as an affine value (None: not affine)


def _trip(g: F.Formula, dim: str, machine, loop: Loop, f0: F.Formula = F.TRUE) -> _Trip:
    """From G(j) (the threads that go round again after iteration j) to the trip count. Where the
    box of dimensions alone cannot show that every thread entering (`f0`) meets its bound, the
    claim is handed to the counting engine, which checks it exactly over every block and thread
    (a violation refuses the kernel)."""
    where = f"the loop at pc {loop.header:#x}"
    line = machine.program.by_pc[loop.header].line
    if line:
        where += f" (line {line})"
    parts = F.conjuncts(g)
    bounds_j = []  # per atom with j: n, the first j at which it is false, as an affine value
    invariant = []
    must_reach = []  # counters compared with != must meet their bound, not step over it
    for p in parts:
        if dim not in p.dims():
            invariant.append(p)
            continue
        n, exact_stop = _first_false(p, dim, where)
        bounds_j.append(n)
        if exact_stop:
            must_reach.append(n)
    env = machine.env
    for n in must_reach:
        low = bounds(n, env)[0] if n.coef else int(np.min(n.thread))
        if low < 0:
            machine.check(loop.header, f0, _at_least_zero(n),
                          f"{where}: some threads enter it past its bound and would count around the 32-bit range")
    if not bounds_j:
        raise EngineError(f"{where} never ends for the threads that enter it (its exit does not depend "
                          "on its iteration count)")
    if len(bounds_j) == 1 and not invariant:
        n = bounds_j[0]
        if not n.coef:
            t = np.maximum(np.asarray(n.thread, dtype=np.int64), 0)
            last = const(t)
            top = int(t.max())
            if t.ndim == 0 or np.all(t == t.flat[0]):
                return _Trip(top + 1, F.TRUE, const(top))
            return _Trip(top + 1, F.lt({dim: 1}, -t - 1), last)  # j <= J
        lo, hi = bounds(n, env)
        if lo < 0:
            machine.check(loop.header, f0, _at_least_zero(n),
                          f"{where}: some threads enter it with a trip count below one, which the engine "
                          "cannot write as an affine last iteration")
        active = F.lt({dim: 1, **{d: -c for d, c in n.coef.items()}}, -np.asarray(n.thread) - 1)
        return _Trip(hi + 1, active, n)
    # several conditions: exact activity, no affine last iteration
    top = 0
    for n in bounds_j:
        top = max(top, bounds(n, env)[1] if n.coef else int(np.max(n.thread)))
    shifted = F.substitute(g, dim, {dim: 1}, -1)  # G(j - 1)
    active = F.f_or(F.lt({dim: 1}, -1), shifted)  # j < 1 or G(j - 1)
    return _Trip(max(top, 0) + 1, active, None)


def _at_least_zero(n: Sym) -> F.Formula:
    return F.lt({d: -c for d, c in n.coef.items()}, -np.asarray(n.thread) - 1)  # -n - 1 < 0


def _first_false(p: F.Formula, dim: str, where: str) -> tuple[Sym, bool]:
    """For an atom in j that holds for small j and fails for good from some j on: that j, and
    whether the atom is `!=` (then a thread whose bound is already behind it would wrap)."""
    if isinstance(p, F.Lt):
        coef = dict(p.coef)
        a = coef.pop(dim)
        if a <= 0:
            raise EngineError(f"{where}: its exit condition does not become true as it iterates")
        # a*j + D + t < 0  <=>  j < -(D + t)/a: the first j failing is ceil(-(D + t)/a), which is
        # -D/a - floor(t/a) when a divides D's coefficients
        if any(c % a for c in coef.values()):
            raise EngineError(f"{where}: its trip count is a ceiling division of block/loop indices "
                              "the engine cannot write as an affine value")
        return Sym({d: -c // a for d, c in coef.items()}, -(np.asarray(p.thread, dtype=np.int64) // a)), False
    if isinstance(p, F.Not) and isinstance(p.child, F.Eq):
        coef = dict(p.child.coef)
        a = coef.pop(dim)
        t = np.asarray(p.child.thread)
        if any(c % a for c in coef.values()) or np.any(t % a):
            raise EngineError(f"{where}: it counts until a value equals a bound it may step over")
        return Sym({d: -c // a for d, c in coef.items()}, -t // a), True  # a*j + rest == 0 at j = -rest/a
    raise EngineError(f"{where}: its exit condition is not a comparison of its counter with a bound")


def _subst(v, dim: str, last: Sym | None):
    if isinstance(v, Sym):
        if dim not in v.coef:
            return v
        if last is None:
            return Poison("a value left by a loop whose last iteration differs per thread in a way "
                          "the engine cannot write")
        coef = dict(v.coef)
        a = coef.pop(dim)
        return Sym(coef, v.thread) + last * a
    if isinstance(v, F.Formula):
        if dim not in v.dims():
            return v
        if last is None:
            return Poison("a condition left by a loop whose last iteration is not affine")
        return F.substitute(v, dim, last.coef, last.thread)
    if isinstance(v, Select):
        return Select(_subst(v.cond, dim, last), _subst(v.then, dim, last), _subst(v.other, dim, last))
    if isinstance(v, PredPack):
        return PredPack(_subst(v.base, dim, last), {i: _subst(f, dim, last) for i, f in v.bits.items()})
    return v


def _after(path: Path, dim: str, trip: _Trip, loop: Loop) -> Path:
    state = State()
    for (_, src), (_, dst) in zip(path.state.files(), state.files()):
        for k, v in src.items():
            dst[k] = _subst(v, dim, trip.last)
    cond = _subst(path.cond, dim, trip.last)
    if isinstance(cond, Poison):
        raise EngineError(f"the loop at pc {loop.header:#x}: the threads that leave it cannot be told "
                          "apart by an affine condition")
    return Path(path.pc, state, cond)
