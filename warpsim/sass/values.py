"""What a register holds while the SASS engine runs one block of threads symbolically.

    Sym       an integer affine in the launch dimensions (block indices, loop counters) with a
              per-thread part (warpsim.symbolic.Sym); a 32-bit register holds it modulo 2**32.
              The representative is exact: interpreting it as signed or unsigned 32 bits, or as
              half of a 64-bit pair, takes the window its range lies in (`signed`, `unsigned`),
              and a range that straddles a window (the real register wraps inside the launch)
              is refused rather than guessed.
    Opaque    data: a value loaded from memory, a float, anything that must not reach an address
              or a branch (the engine stops with the instruction's pc and line if it does).
    Poison    a value the analysis could not follow (why is kept for the message).
    Select    a per-thread choice between two values, by a condition (a guarded write, or two
              paths meeting); resolved where the condition is known.
    PredPack  predicates packed into a register by P2R, unpacked by R2P or a bit test.

Predicate registers hold formulas (warpsim.formula), or Opaque/Poison.

Ranges are over the box of the dimensions in scope (`Env.extents`: each dimension from 0 to its
extent - 1) and every thread of the block: conservative, so a value the launch never drives
across a window can still be refused; never the other way round.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from warpsim import formula as F
from warpsim.symbolic import Sym

TWO32 = 1 << 32
TWO31 = 1 << 31
MASK32 = TWO32 - 1


class EngineError(Exception):
    """The engine cannot count this kernel exactly; `str(e)` says why (pc and line are added)."""


class DataPredicate(EngineError):
    """A predicate computed from data (a float comparison, a loaded value)."""


class NotAffine(EngineError):
    pass


class Wraps(NotAffine):
    """A 32-bit value that wraps inside the launch: the kernel's own index arithmetic overflows."""


@dataclass(frozen=True)
class Opaque:
    origin: str = "data"  # e.g. "LDG at pc 0x240", "FFMA"


#: an Opaque's origin for the address of a function outside the code (constant bank 4): its name follows
EXTERNAL_ORIGIN = "the address of "


@dataclass(frozen=True)
class Poison:
    why: str


@dataclass(frozen=True, eq=False)
class Select:
    cond: F.Formula
    then: object
    other: object


@dataclass(frozen=True, eq=False)
class PredPack:
    base: object  # the register's other bits
    bits: dict = field(default_factory=dict)  # bit -> formula


OPAQUE = Opaque()


def _within(value, kind: type):
    """The first `kind` a value is, itself or on either side of its Selects (None: none)."""
    if isinstance(value, kind):
        return value
    if isinstance(value, Select):
        return _within(value.then, kind) or _within(value.other, kind)
    return None


def data_in(value) -> Opaque | None:
    """The first data (Opaque) a value holds."""
    return _within(value, Opaque)


def poison_in(value) -> Poison | None:
    """The first value the analysis could not follow that a value holds."""
    return _within(value, Poison)


@dataclass
class Env:
    """The launch dimensions in scope and their extents, and the block's thread count."""

    extents: dict[str, int]
    threads: int
    provisional: frozenset = frozenset()  # loop dimensions whose extent is a trial value (not yet known)
    live: np.ndarray | None = None  # while an instruction runs: the threads whose values matter (None: all)

    def with_dim(self, name: str, extent: int, provisional: bool = False) -> "Env":
        marks = self.provisional | {name} if provisional else self.provisional - {name}
        return Env({**self.extents, name: extent}, self.threads, frozenset(marks), self.live)


def const(value: int | np.ndarray) -> Sym:
    return Sym(None, np.asarray(value, dtype=np.int64) if isinstance(value, np.ndarray) else np.int64(value))


def is_int(v) -> bool:
    return isinstance(v, Sym)


def same(a, b) -> bool:
    """Structural equality of register values (integers compare modulo 2**32: a 32-bit register
    holds its representative modulo 2**32)."""
    if a is b:
        return True
    if isinstance(a, Sym) and isinstance(b, Sym):
        if a.coef != b.coef:
            return False
        x, y = np.broadcast_arrays(np.asarray(a.thread, dtype=np.int64), np.asarray(b.thread, dtype=np.int64))
        return bool(np.all(((x - y) & MASK32) == 0))
    if isinstance(a, F.Formula) and isinstance(b, F.Formula):
        return a.key == b.key
    if isinstance(a, Opaque) and isinstance(b, Opaque):
        return True
    return False


def bounds(v: Sym, env: Env) -> tuple[int, int]:
    """(min, max) of v over the box of the dimensions and the threads that matter (env.live), as
    Python ints: a value's other threads hold whatever their path left there."""
    t = np.asarray(v.thread)
    if env.live is not None and t.ndim:
        here = np.broadcast_to(env.live, t.shape)
        if here.any():
            t = t[here]
    lo, hi = int(t.min()), int(t.max())
    for d, c in v.coef.items():
        if d not in env.extents:
            raise EngineError(f"dimension {d} is used outside its loop")
        span = c * (env.extents[d] - 1)
        lo += min(0, span)
        hi += max(0, span)
    return lo, hi


def _wrapped(v: Sym, low: int) -> Sym:
    """A thread-only value's bits read as a 32-bit integer in [low, low + 2**32), low -2**31
    (signed) or 0 (unsigned): numpy's cast wraps modulo 2**32, one pass where masking took three."""
    t = np.asarray(v.thread, dtype=np.int64)
    if t.ndim:
        return const(t.astype(np.int32 if low else np.uint32).astype(np.int64))
    return const(((int(t) - low) & MASK32) + low)


def _window(v: Sym, env: Env, low: int, what: str) -> Sym:
    """v shifted by a multiple of 2**32 into [low, low + 2**32) (on the threads that matter);
    low -2**31 (signed) or 0 (unsigned)."""
    if not v.coef:
        return _wrapped(v, low)
    lo, hi = bounds(v, env)
    k = (lo - low) // TWO32
    if hi - k * TWO32 >= low + TWO32:
        windows = thread_windows(v - low, env)
        if windows is not None:  # each thread's value in one window (rows 4 GiB apart): its own shift
            return v - windows * TWO32
        raise Wraps(f"a 32-bit value wraps around inside the launch ({what}: it ranges over "
                        f"[{lo}, {hi}]), so it is not affine in {', '.join(sorted(v.coef))}")
    return v - k * TWO32 if k else v


def signed(v: Sym, env: Env) -> Sym:
    """The register read as a signed 32-bit integer."""
    return _window(v, env, -TWO31, "as a signed int")


def unsigned(v: Sym, env: Env) -> Sym:
    """The register read as an unsigned 32-bit integer."""
    return _window(v, env, 0, "as an unsigned int")


def norm(v: Sym) -> Sym:
    """A thread-only value folded into the signed 32-bit window (cheap; keeps numbers small)."""
    return v if v.coef else _wrapped(v, -TWO31)


def pair(lo: Sym, hi: Sym, env: Env) -> Sym:
    """The 64-bit value of a register pair (lo, hi), as an exact integer: read as signed (int64
    wraps a hi word of 2**31 or more to a negative value, the pair of a negative offset)."""
    if not lo.coef and not hi.coef:
        tl = np.asarray(lo.thread, dtype=np.int64) & MASK32
        th = np.asarray(hi.thread, dtype=np.int64) & MASK32
        return const((th << 32) | tl)
    with np.errstate(over="ignore"):  # the same two's-complement wrap as the shift above
        return unsigned(hi, env) * TWO32 + unsigned(lo, env)


def split(value: Sym, env: Env, strides: bool = True) -> tuple[Sym, Sym]:
    """A 64-bit value -> (lo, hi) 32-bit registers. A value whose range crosses a 4 GiB boundary
    inside the launch has a hi word that is not affine: refused, but where coefficients of 2**32
    and more make it affine, or (StrideRequest) would in residue classes of a block index
    (`strides`; without, refused as before residue classes)."""
    if not value.coef:
        t = np.asarray(value.thread, dtype=np.int64)
        return norm(const(t & MASK32)), norm(const((t >> 32) & MASK32))
    lo, hi = bounds(value, env)
    k = lo // TWO32
    if hi // TWO32 == k:
        return value - k * TWO32, const(k)
    whole, inner = residues(value)
    if whole.coef and strides:  # the high word is affine where inner stays in one window
        ilo, ihi = bounds(inner, env)
        k = ilo // TWO32
        if ihi // TWO32 == k:
            return inner - k * TWO32, whole + k
        windows = thread_windows(inner, env)  # each thread's inner in one window, not all threads' in one
        if windows is not None:
            return inner - windows * TWO32, whole + windows
    windows = thread_windows(value, env)
    if windows is not None:
        return value - windows * TWO32, windows
    found = wrap_stride(value, env) if strides else None
    if found is not None:
        raise StrideRequest(*found, "a 64-bit value's high word that is affine in a block index only within "
                            "each residue class of it (a quotient by a constant)")
    raise NotAffine(f"a 64-bit value crosses a 4 GiB boundary inside the launch (range [{lo:#x}, {hi:#x}])")


def thread_windows(value: Sym, env: Env, shift: int = 32) -> Sym | None:
    """The 4 GiB window (2**shift bytes) each thread's value lies in over the whole box, where each
    thread's stays in one (a number per thread: a 32 x 32 tile's rows, 4 GiB apart across a buffer
    past 4 GiB, each in its own); None where a thread's crosses a boundary (on the threads that
    matter)."""
    lo, hi = bounds(Sym(value.coef), env)
    t = np.asarray(value.thread, dtype=np.int64)
    first, last = (lo + t) >> shift, (hi + t) >> shift
    same = first == last
    if env.live is not None and t.ndim:  # as bounds reads them: the threads that matter, if any
        live = np.broadcast_to(env.live, t.shape)
        if live.any():
            same |= ~live
    if not np.all(same):
        return None
    return const(first)


def residues(value: Sym) -> tuple[Sym, Sym]:
    """value = 2**32 * whole + inner, each coefficient split into a multiple of 2**32 and a residue
    in [-2**31, 2**31) (whole has no thread part): a block index in a residue class times the
    inverse of the class's divisor is q * (2**32 * 2**s + e), whose high word is q * 2**s but for
    the carries of inner."""
    whole, rest = {}, {}
    for d, c in value.coef.items():
        a, b = divmod(c + TWO31, TWO32)
        whole[d], rest[d] = a, b - TWO31
    return (Sym({d: a for d, a in whole.items() if a}),
            Sym({d: c for d, c in rest.items() if c}, value.thread))


BLOCK_DIM = "blockIdx."  # the prefix of a block index's dimension (warpsim.sass.machine)
#: A piece's key for a block axis taken as quotient and remainder by a divisor D (analyze.pieces):
#: (QUOTIENT, D, q0, q1, r0, r1), the blocks D q + r for q in [q0, q1) and r in [r0, r1). The
#: remainder keeps the axis's dimension name; the quotient's is quotient_dim(axis)
QUOTIENT = "quotient"


def quotient_dim(axis: str) -> str:
    return f"{BLOCK_DIM}{QUOTIENT}.{axis}"


def _stridable(d: str, env: Env, step: int) -> bool:
    """Whether block index d can be split into `step` residue classes (fewer than its values)."""
    return d.startswith(BLOCK_DIM) and 2 <= step < env.extents.get(d, 0)


def pow2_stride(v: Sym, bits: int, env: Env) -> tuple[str, int] | None:
    """A block index and a step k such that, within each residue class of the index modulo k,
    every coefficient of v is a multiple of 2**bits (so that v's bits from `bits` up are affine
    and those below one number a class: `blockIdx.x / 16`, `% 16`). None where a loop index's
    coefficient is not already one, or there would be a class a block."""
    for d, c in v.coef.items():
        if c % (1 << bits):
            k = (1 << bits) // math.gcd(c, 1 << bits)
            return (d, k) if _stridable(d, env, k) else None
    return None


def wrap_stride(v: Sym, env: Env) -> tuple[str, int] | None:
    """A block index and a step k such that k times its coefficient in v is close to a multiple of
    2**32 (the continued fraction of coefficient / 2**32): nvcc's quotient by a constant H
    multiplies by m ~ 2**(32+s) / H and keeps the high word, which is affine in the index within
    each residue class modulo H (but for a class's first block, which carry_cuts cuts off). None
    where no block index has such a step short of a class a block."""
    for d, c in v.coef.items():
        extent = env.extents.get(d, 0)
        if not d.startswith(BLOCK_DIM) or c % TWO32 == 0:
            continue
        p, q = c % TWO32, TWO32
        k0, k1 = 1, 0  # the denominators of the convergents of p/q
        while q:
            a, (p, q) = p // q, (q, p % q)
            k0, k1 = k1, a * k1 + k0
            if not _stridable(d, env, k1):
                if k1 >= extent:
                    break
                continue
            residue = (k1 * c + TWO31) % TWO32 - TWO31
            if abs(residue) * -(-extent // k1) < TWO32 // 4:
                return d, k1
    return None


def floor_div_pow2(v: Sym, s: int, env: Env | None = None) -> Sym:
    """floor(v / 2**s), exact when every dimension's coefficient is a multiple of 2**s, or when the
    quotient is one number over the whole box (given env)."""
    if s == 0:
        return v
    if env is not None and v.coef:
        lo, hi = bounds(v, env)
        if lo >> s == hi >> s:
            return const(lo >> s)
    if env is not None and any(c % (1 << s) for c in v.coef.values()):
        # v = 2**s w + rest, w affine: where each thread's rest stays between two multiples of 2**s
        # over the box (a block index taken as 2**s q + r, r < 2**s: values.QUOTIENT), floor(v / 2**s)
        # is w plus that thread's window
        rest = Sym({d: c % (1 << s) for d, c in v.coef.items() if c % (1 << s)}, v.thread)
        windows = thread_windows(rest, env, s)
        if windows is not None:
            return Sym({d: c >> s for d, c in v.coef.items() if c >> s}) + windows
    if any(c % (1 << s) for c in v.coef.values()):
        why = (f"a shift right by {s} of a value whose block/loop coefficients {dict(v.coef)} are not "
               f"multiples of {1 << s}")
        found = pow2_stride(v, s, env) if env is not None else None
        if found is not None:  # a block index divided by a power of two
            raise StrideRequest(*found, why)
        raise NotAffine(why)
    return Sym({d: c >> s for d, c in v.coef.items()}, np.asarray(v.thread, dtype=np.int64) >> s)


def split_low(v: Sym, m: int) -> tuple[Sym, np.ndarray]:
    """v = high + low with low = (thread part mod 2**m) in [0, 2**m) and high's every part a
    multiple of 2**m, when v's coefficients are multiples of 2**m."""
    t = np.asarray(v.thread, dtype=np.int64)
    low = t & ((1 << m) - 1) if m < 63 else t
    return Sym(v.coef, t - low), low


def two_adic(v: Sym) -> int:
    """The largest m <= 32 with every coefficient of v divisible by 2**m."""
    m = 32
    for c in v.coef.values():
        m = min(m, (c & -c).bit_length() - 1)
    return m


class SplitRequest(EngineError):
    """A value depends on which side of a boundary a block index lies: the analysis reruns with
    that index's range cut at `cuts` (absolute block indices), so that each piece is decided."""

    def __init__(self, dim: str, cuts: list[int], why: str):
        super().__init__(f"{why} (splitting {dim} at {cuts})")
        self.dim, self.cuts, self.why = dim, cuts, why


class StrideRequest(SplitRequest):
    """A value is affine in a block index only within each residue class of it modulo `step` (a
    quotient or remainder of the index by a constant: nvcc's shift, mask, or multiply by the
    divisor's inverse): the analysis reruns with that index's range split into `step` strided
    pieces, in each of which the quotient is affine and the remainder one number."""

    def __init__(self, dim: str, step: int, why: str):
        EngineError.__init__(self, f"{why} (splitting {dim} into {step} residue classes)")
        self.dim, self.step, self.cuts, self.why = dim, step, [], why


def atom_bounds(atom, env: Env) -> tuple[int, int]:
    """(min, max) of an atom's affine value over the box of dimensions and every thread."""
    return bounds(Sym(dict(atom.coef), atom.thread), env)


def decide(f, env: Env):
    """A formula with every atom that the box decides (always or never holding) replaced by a
    constant, folded; atoms over dimensions not in scope are left alone."""
    if isinstance(f, (F.Lt, F.Eq)):
        if not all(d in env.extents and d not in env.provisional for d, _ in f.coef):
            return f
        lo, hi = atom_bounds(f, env)
        if isinstance(f, F.Lt):
            return F.TRUE if hi < 0 else F.FALSE if lo >= 0 else f
        return F.FALSE if lo > 0 or hi < 0 else (F.TRUE if lo == hi == 0 else f)
    if isinstance(f, F.Not):
        child = decide(f.child, env)
        return f if child is f.child else F.f_not(child)
    if isinstance(f, (F.And, F.Or)):
        parts = [decide(c, env) for c in f.children]
        if all(a is b for a, b in zip(parts, f.children)):
            return f
        return F.f_and(*parts) if isinstance(f, F.And) else F.f_or(*parts)
    return f


def carry_cuts(total: Sym, env: Env, block_dims: set, shift: int = 32) -> tuple[str, list[int]] | None:
    """Where to cut one block index's range so that floor(total / 2**shift) (the carry out of a
    32-bit sum; a 64-bit value's high word; a shift's bits that cross a word) is one number in each
    piece: the block index whose values each decide it (but for the few at an edge, which become
    pieces of their own and are decided by the threads still running there), with the cuts where
    it changes. None: no block index does. Where the extremes' carries do not change over any
    block index but a thread's between them does (a tile's rows 4 GiB apart: the row that
    reaches a boundary), the cuts where any thread's changes (`_thread_carry_cuts`)."""
    best = None
    for d, c in total.coef.items():
        if d not in block_dims or env.extents[d] < 2:
            continue
        lo, hi = bounds(Sym({k: v for k, v in total.coef.items() if k != d}, total.thread), env)
        at = np.arange(env.extents[d], dtype=np.int64) * c
        carry = np.stack([(lo + at) >> shift, (hi + at) >> shift])
        changes = np.flatnonzero((carry[:, 1:] != carry[:, :-1]).any(axis=0)) + 1
        if len(changes) and (best is None or len(changes) < len(best[1])):
            best = (d, changes.tolist())
    return best if best is not None else _thread_carry_cuts(total, env, block_dims, shift)


THREAD_CUTS = 1024  # the most cuts _thread_carry_cuts makes (each a piece of the launch to run)


def _thread_carry_cuts(total: Sym, env: Env, block_dims: set, shift: int) -> tuple[str, list[int]] | None:
    """carry_cuts thread by thread: the block index whose values decide floor(total / 2**shift)
    in each thread (given the other dimensions' extremes), with the values where any thread's
    changes; None where none does in at most THREAD_CUTS cuts."""
    t = np.unique(np.asarray(total.thread, dtype=np.int64))
    best = None
    for d, c in total.coef.items():
        if d not in block_dims or env.extents[d] < 2 or c == 0:
            continue
        lo, hi = bounds(Sym({k: v for k, v in total.coef.items() if k != d}), env)
        starts = np.unique(np.concatenate([lo + t, hi + t]))  # each value at index 0
        span = c * (env.extents[d] - 1)
        first, last = (starts + min(0, span)) >> shift, (starts + max(0, span)) >> shift
        if int(np.sum(last - first)) > THREAD_CUTS:
            continue
        cuts = set()
        for s, a, b in zip(starts.tolist(), first.tolist(), last.tolist()):
            for m in range(a + 1, b + 1):  # the index where s + c q reaches (c > 0) or leaves (c < 0) window m
                edge = (m << shift) - s
                cuts.add(-(-edge // c) if c > 0 else edge // c + 1)  # first q with s + c q >= edge, < edge
        inside = sorted(q for q in cuts if 0 < q < env.extents[d])
        if inside and len(inside) <= THREAD_CUTS and (best is None or len(inside) < len(best[1])):
            best = (d, inside)
    return best


def block_cuts(f, env: Env, block_dims: set) -> tuple[str, list[int]] | None:
    """Where to cut one block index's range so that f's atoms over it are decided in each piece:
    the first atom over a single block index gives the index and the edges of its interval."""
    for atom in F.atoms(f):
        dims = [d for d, _ in atom.coef]
        if len(dims) != 1 or dims[0] not in block_dims:
            continue
        (d, a), = atom.coef
        t = np.atleast_1d(atom.thread)
        cuts = set()
        for edge in (-int(t.max()), -int(t.min())):  # a*d + t < 0 for every / no thread
            q = edge // a
            cuts.update((q, q + 1))
        inside = sorted(c for c in cuts if 0 < c < env.extents[d])
        if inside:
            return d, inside
    return None
