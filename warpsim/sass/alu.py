"""Integer and floating-point arithmetic of SASS on warpsim's register values (pure functions).

Integers are `Sym`s (affine in the launch dimensions, a per-thread part; see values.py). What is
affine stays exact: sums, products by a value the same for every thread and dimension-free, shifts
and bitwise operations whose dimension coefficients leave the bits they touch alone. Anything else
on a value that depends on a dimension raises NotAffine, which the engine turns into a refusal
naming the instruction; on values of the threads alone (no dimension) every operation is computed
exactly with numpy, 32-bit wrap-around included.

Floating point is computed only on values of the threads alone (constants: a parameter, a loop
bound's reciprocal in nvcc's integer-division sequence), in float32/float16/float64 as the
opcode says; a float of anything else is Opaque.

Limitations: MUFU.RCP is computed as the correctly rounded reciprocal, where the hardware's is
within 1 ulp of it; nvcc uses it only as the first guess of an integer division that corrects
itself, so the quotient is the same. Other MUFU functions are Opaque.
"""

from __future__ import annotations

import itertools

import numpy as np

from warpsim.sass.values import (BLOCK_DIM, MASK32, TWO32, Env, NotAffine, const, norm, pow2_stride, signed,
                                split_low, two_adic, unsigned)
from warpsim.symbolic import Sym


def thread_only(*values) -> bool:
    return all(isinstance(v, Sym) and not v.coef for v in values)


def u32(v: Sym) -> np.ndarray:
    """The register bits of a dimension-free value as uint32-valued int64."""
    return np.asarray(v.thread, dtype=np.int64) & MASK32


def i32(v: Sym) -> np.ndarray:
    return np.asarray(norm(v).thread, dtype=np.int64)


def from_bits(bits) -> Sym:
    return norm(const(np.asarray(bits, dtype=np.int64)))


# -- integer ----------------------------------------------------------------------------------------

def mul(a: Sym, b: Sym) -> Sym:
    """a * b modulo 2**32 (the representative is the exact product)."""
    if a.coef and b.coef:
        raise NotAffine("a product of two values that both depend on block or loop indices")
    if b.coef:
        a, b = b, a
    if a.coef:
        t = np.asarray(b.thread)
        if t.ndim and not np.all(t == t.flat[0]):
            raise NotAffine("a block/loop-dependent value times a value that differs per thread")
        k = int(t.flat[0]) if t.ndim else int(t)
        return Sym({d: c * k for d, c in a.coef.items() if c * k}, np.asarray(a.thread, dtype=np.int64) * k)
    return norm(const(i32(a) * i32(b)))


def mul_wide(a: Sym, b: Sym, env: Env, is_signed: bool) -> Sym:
    """The exact 64-bit product of two 32-bit registers (IMAD.WIDE[.U32])."""
    ext = signed if is_signed else unsigned
    a, b = ext(a, env), ext(b, env)
    if thread_only(a, b):
        x = np.asarray(a.thread, dtype=np.int64)
        y = np.asarray(b.thread, dtype=np.int64)
        if is_signed:
            return const(x * y)
        return const((x.astype(np.uint64) * y.astype(np.uint64)).astype(np.int64))  # mod 2**64
    return mul(a, b)


def mul_hi_add(a: Sym, b: Sym, c: Sym, is_signed: bool) -> Sym:
    """High 32 bits of a*b + c, c a 64-bit value (IMAD.HI), for values of the threads alone,
    computed modulo 2**64 as the hardware does."""
    if not thread_only(a, b, c):
        raise NotAffine("the high half of a product of block/loop-dependent values (an integer division?)")
    addend = np.asarray(c.thread, dtype=np.int64).astype(np.uint64)
    if is_signed:
        p = (i32(a) * i32(b)).astype(np.uint64)  # the exact product, as 64-bit two's complement
    else:
        p = u32(a).astype(np.uint64) * u32(b).astype(np.uint64)
    return from_bits(((p + addend) >> np.uint64(32)).astype(np.int64))


def shl(a: Sym, s: int) -> Sym:
    return a * (1 << s) if s else a


def shr(a: Sym, s: int, env: Env, arithmetic: bool) -> Sym:
    """a >> s of a 32-bit register (arithmetic or logical)."""
    if s == 0:
        return a
    if s >= 32:
        s = 31 if arithmetic else 32
    x = signed(a, env) if arithmetic else unsigned(a, env)
    if not x.coef:
        return from_bits(np.asarray(x.thread, dtype=np.int64) >> s)
    from warpsim.sass.values import floor_div_pow2

    return floor_div_pow2(x, s, env)


def shift_amount(v: Sym) -> int | np.ndarray:
    if v.coef:
        raise NotAffine("a shift by an amount that depends on block or loop indices")
    t = u32(v)
    if np.ndim(t) and np.all(t == t.flat[0]):
        return int(t.flat[0])
    return t if np.ndim(t) else int(t)


def lop3(a: Sym, b: Sym, c: Sym, lut: int, env: Env | None = None) -> Sym:
    """Bitwise f(a, b, c) where `lut` is f(0xF0, 0xCC, 0xAA); `env`: the dimensions' extents,
    whose ranges fix a value's high bits, and where not affine, the ways to split a block index
    that would make it so (_bits_differ); None: neither (as before residue classes).

    Values with dimensions: write each as high + low, low = its thread part's bits below 2**m,
    where every dimension coefficient is a multiple of 2**m; f acts on the low bits per thread,
    and on the high bits it must be affine: at most one operand may have high bits other than all
    zeros or all ones, and f restricted to that operand is then 0, x, ~x or all ones."""
    if thread_only(a, b, c):
        return from_bits(_lut(u32(a), u32(b), u32(c), lut))
    ops = [a, b, c]
    dims = [i for i, v in enumerate(ops) if v.coef]
    if len(dims) > 1 and env is not None:
        ops = _low_bits_only(ops, dims, lut, env)
        dims = [i for i, v in enumerate(ops) if v.coef]
        if not dims:
            return from_bits(_lut(*(u32(v) for v in ops), lut))
    if len(dims) > 1:
        raise NotAffine("a bitwise operation combining two block/loop-dependent values")
    (i,) = dims
    only = _only_of(lut, i)
    if only is not None:  # f depends on operand i alone: x, ~x (= -x - 1), or a constant
        return {(0, 0): const(0), (0, 1): ops[i], (1, 0): -ops[i] - 1, (1, 1): const(MASK32)}[only]
    # Split at bit m, where every dimension coefficient of operand i is a multiple of 2**m: the low
    # bits are per thread; on the high bits f must be the same function g of operand i's bit at every
    # position and in every thread (given the bits the other operands have there), and g must be one
    # of 0, x, ~x, 1: then the high part is affine. From bit `width` up operand i is one number over
    # the launch (its range says so: a non-negative index's bits past its largest value are zero;
    # a piece of blocks may fix more): there f is computed per thread.
    x = ops[i]
    m = two_adic(x)
    width, fixed = 32, 0
    if env is None and m == 0:  # (without its range, as before residue classes)
        raise NotAffine("a bitwise operation on a block/loop-dependent value whose low bit varies")
    if env is not None:
        from warpsim.sass.values import bounds

        lo, hi = bounds(x, env)
        width = next((k for k in range(m + 1, 32) if lo >> k == hi >> k), 32)
        fixed = (lo >> width) << width if width < 32 else 0
    functions = _high_functions(ops, i, m, width, lut)
    if len(functions) != 1:
        found = _windowed(ops, i, width, fixed, lut, env) if env is not None else None
        if found is not None:
            return found
        raise _bits_differ(ops, i, m, width, lut, env)
    highs, lows = zip(*(split_low(v - fixed if j == i else v, m) for j, v in enumerate(ops)))
    low = _lut(*(np.asarray(v, dtype=np.int64) for v in lows), lut) & ((1 << m) - 1)
    upper = MASK32 & ~((1 << width) - 1)  # f with operand i's fixed bits
    low = low + (_lut(*(np.int64(fixed & MASK32) if j == i else u32(v) for j, v in enumerate(ops)), lut) & upper)
    top = ((1 << width) - 1) & ~((1 << m) - 1)  # the bits from m to width
    hx = highs[i]
    g = functions.pop()
    if g == (0, 0):
        high = const(0)
    elif g == (0, 1):
        high = hx
    elif g == (1, 1):
        high = const(top)
    else:  # ~x on the high bits: top - x
        high = const(top) - hx
    return high + const(low)


def _windowed(ops: list, i: int, width: int, fixed: int, lut: int, env: Env) -> Sym | None:
    """f where operand i is 2**k w + low, w affine and low in [0, 2**k) in each thread over the box
    (values.thread_windows): a block index taken as quotient and remainder, 16 q + r with r < 16
    (values.QUOTIENT), masked by ~15 or 15. Exact where f is one function of operand i's bit at
    every position below k, and one at every position from k to `width` (in every thread, given
    the others' bits there), each 0, x, ~x or 1: then both parts are affine. None where no k
    does; bits from `width` up as lop3 computes them (operand i's `fixed` bits there)."""
    from warpsim.sass.values import thread_windows

    x = ops[i] - fixed
    upper = MASK32 & ~((1 << width) - 1)
    above = const(_lut(*(np.int64(fixed & MASK32) if j == i else u32(v) for j, v in enumerate(ops)), lut) & upper)
    for k in range(1, width):
        highs, lows = _high_functions(ops, i, k, width, lut), _high_functions(ops, i, 0, k, lut)
        if len(highs) != 1 or len(lows) != 1:
            continue
        rest = Sym({d: c % (1 << k) for d, c in x.coef.items() if c % (1 << k)}, x.thread)
        windows = thread_windows(rest, env, k)
        if windows is None:
            continue
        low = rest - windows * (1 << k)  # x's bits below k: affine, in [0, 2**k) in each thread
        high = x - low  # x's bits from k to width
        parts, top = [], ((1 << width) - 1) & ~((1 << k) - 1)
        for g, part, ones in ((lows.pop(), low, (1 << k) - 1), (highs.pop(), high, top)):
            parts.append({(0, 0): const(0), (0, 1): part, (1, 1): const(ones), (1, 0): const(ones) - part}[g])
        return parts[0] + parts[1] + above
    return None


def _low_bits_only(ops: list, dims: list[int], lut: int, env: Env) -> list:
    """ops with each block/loop-dependent operand whose bits f reads lie below bit k, and whose
    dimension coefficients are multiples of 2**k, replaced by those bits (one number per thread):
    `(t << 4) | (blockIdx.x & 15)`, nvcc's `t * 16 + blockIdx.x % 16`, reads the index's low four
    bits only, which a residue class of it modulo 16 fixes. Where the coefficients are not such
    multiples: NotAffine with the `stride` (index, step) that would make them so (its residue
    classes), as _bits_differ gives it. The others as they are."""
    ops = list(ops)
    for j in dims:
        k = _read_bits(ops, j, lut).bit_length()
        if k == 32:
            continue
        if all(c % (1 << k) == 0 for c in ops[j].coef.values()):
            ops[j] = const(np.asarray(ops[j].thread, dtype=np.int64) & ((1 << k) - 1))
            continue
        stride = pow2_stride(ops[j], k, env)
        if stride is not None and sum(1 for v in ops if v.coef) > 1:
            error = NotAffine("a bitwise operation combining two block/loop-dependent values, one of them by "
                              f"its low {k} bits")
            error.stride, error.cut = stride, None
            raise error
    return ops


def _read_bits(ops: list, j: int, lut: int) -> int:
    """The mask of bit positions at which f = lut(ops) depends on operand j's bit, given the bits
    the operands of one number per thread have there in any thread (the dependent others free)."""
    words = [None if i == j or v.coef else np.atleast_1d(u32(v)) for i, v in enumerate(ops)]
    mask = 0
    for p in range(32):
        present = []
        for w in words:
            if w is None:
                present.append((0, 1))
            else:
                bit = (w >> p) & 1
                present.append(tuple(x for x in (0, 1) if np.any(bit == x)))
        for bits in itertools.product(*present):
            at = [list(bits), list(bits)]
            at[0][j], at[1][j] = 0, 1
            if (lut >> (4 * at[0][0] + 2 * at[0][1] + at[0][2])) & 1 != (lut >> (4 * at[1][0] + 2 * at[1][1]
                                                                              + at[1][2])) & 1:
                mask |= 1 << p
                break
    return mask


def _bits_differ(ops: list, i: int, m: int, width: int, lut: int, env: Env | None) -> NotAffine:
    """The refusal of a bitwise operation that treats operand i's bits from m to width unalike,
    with the ways a block index can be split so that it does not (`blockIdx.x % 16`, `^ 256`):
    `stride` (index, step), where in each residue class the bits it treats alike start higher, and
    `cut` (index, cuts), where in each piece of blocks the bits above those it treats alike are one
    number (values.carry_cuts); either None. ops_int.op_lop3 takes the one of fewer pieces."""
    from warpsim.sass.values import carry_cuts

    error = NotAffine("a bitwise operation whose effect on the bits of a block/loop index differs from bit to bit "
                      "(a mask that keeps some of them)" if m else
                      "a bitwise operation on a block/loop-dependent value whose low bit varies")
    error.stride = error.cut = None
    if env is None:
        return error
    x = ops[i]
    above = next((k for k in range(m + 1, width) if len(_high_functions(ops, i, k, width, lut)) == 1), None)
    if above is not None:
        error.stride = pow2_stride(x, above, env)
    below = next((k for k in range(width - 1, m, -1) if len(_high_functions(ops, i, m, k, lut)) == 1), None)
    if below is not None:
        blocks = {d for d in x.coef if d.startswith(BLOCK_DIM)}
        error.cut = carry_cuts(x, env, blocks, below)
    return error


def _high_functions(ops: list, i: int, m: int, width: int, lut: int) -> set:
    """The functions (f at 0, f at 1) of operand i's bit that f is at the bits from m to width,
    over the bits the other operands have there in any thread (one: f is affine on them)."""
    top = ((1 << width) - 1) & ~((1 << m) - 1)  # the bits from m to width
    present = []  # per operand: the bit values it has somewhere at and above m
    for j, v in enumerate(ops):
        if j == i:
            present.append((0, 1))
            continue
        hi = np.atleast_1d(np.asarray(v.thread, dtype=np.int64) & MASK32 & top)
        present.append(tuple(x for x, there in ((0, bool(np.any(hi != top))), (1, bool(np.any(hi != 0)))) if there))
    functions = set()
    for bj in present[(i + 1) % 3]:
        for bk in present[(i + 2) % 3]:
            bits = {i: None, (i + 1) % 3: bj, (i + 2) % 3: bk}

            def f_at(x: int) -> int:
                v = [x if j == i else bits[j] for j in range(3)]
                return (lut >> (4 * v[0] + 2 * v[1] + v[2])) & 1

            functions.add((f_at(0), f_at(1)))
    return functions


def _only_of(lut: int, i: int) -> tuple[int, int] | None:
    """(f at x=0, f at x=1) if the truth table `lut` depends on operand i alone, else None."""
    pairs = set()
    for other in range(4):
        bits = [(other >> 1) & 1, other & 1]
        args = bits[:i] + [None] + bits[i:]
        f = []
        for x in (0, 1):
            v = list(args)
            v[i] = x
            f.append((lut >> (4 * v[0] + 2 * v[1] + v[2])) & 1)
        pairs.add(tuple(f))
    return pairs.pop() if len(pairs) == 1 else None


def _lut(a, b, c, lut: int):
    out = np.zeros(np.broadcast(a, b, c).shape, dtype=np.int64)
    for i in range(8):
        if lut >> i & 1:
            term = (a if i & 4 else ~a) & (b if i & 2 else ~b) & (c if i & 1 else ~c)
            out |= term
    return out & MASK32


def absolute(a: Sym, env: Env) -> Sym:
    from warpsim.sass.values import bounds

    x = signed(a, env)
    if not x.coef:
        return from_bits(np.abs(np.asarray(x.thread, dtype=np.int64)))
    lo, hi = bounds(x, env)
    if lo >= 0:
        return x
    if hi < 0:
        return -x
    raise NotAffine("the absolute value of a block/loop-dependent value of either sign")


def popc(a: Sym) -> Sym:
    if not thread_only(a):
        raise NotAffine("a population count of a block/loop-dependent value")
    t = u32(a)
    count = np.zeros_like(t)
    for i in range(32):
        count += (t >> i) & 1
    return const(count)


def flo(a: Sym, is_signed: bool, shift_amount_mode: bool) -> Sym:
    if not thread_only(a):
        raise NotAffine("a leading-one search on a block/loop-dependent value")
    t = u32(a)
    if is_signed:
        t = np.where(t & (1 << 31), ~t & MASK32, t)
    pos = np.full(np.shape(t), -1, dtype=np.int64)
    for i in range(32):
        pos = np.where((t >> i) & 1, i, pos)
    if shift_amount_mode:
        pos = np.where(pos >= 0, 31 - pos, -1)
    return from_bits(pos & MASK32)


def brev(a: Sym) -> Sym:
    if not thread_only(a):
        raise NotAffine("a bit reversal of a block/loop-dependent value")
    t, out = u32(a), 0
    out = np.zeros_like(t)
    for i in range(32):
        out |= ((t >> i) & 1) << (31 - i)
    return from_bits(out)


def prmt(a: Sym, sel: Sym, b: Sym) -> Sym:
    """Byte permute: result byte i = byte (sel's nibble i) of the 8 bytes b:a."""
    if not thread_only(a, sel, b):
        raise NotAffine("a byte permute of a block/loop-dependent value")
    x = (u32(b).astype(np.uint64) << np.uint64(32)) | u32(a).astype(np.uint64)
    s = u32(sel)
    out = np.zeros(np.broadcast(x, s).shape, dtype=np.int64)
    for i in range(4):
        nib = (s >> (4 * i)) & 0xF
        byte = ((x >> (8 * (nib & 7)).astype(np.uint64)) & np.uint64(0xFF)).astype(np.int64)
        byte = np.where(nib & 8, np.where(byte & 0x80, 0xFF, 0), byte)  # sign replicate
        out |= byte << (8 * i)
    return from_bits(out)


def bmsk(pos: Sym, width: Sym) -> Sym:
    if not thread_only(pos, width):
        raise NotAffine("a bit mask of block/loop-dependent width")
    p, w = u32(pos) & 31, np.minimum(u32(width), 32)
    return from_bits((((1 << w) - 1) << p) & MASK32)


def sign_extend(a: Sym, bits: int, is_signed: bool) -> Sym:
    """I2I / PRMT-style narrowing: the low `bits` of a, sign- or zero-extended."""
    if not thread_only(a):
        raise NotAffine(f"a {bits}-bit conversion of a block/loop-dependent value")
    t = u32(a) & ((1 << bits) - 1)
    if is_signed:
        t = np.where(t & (1 << (bits - 1)), t - (1 << bits), t)
    return from_bits(t)


# -- floating point: values of the threads alone -------------------------------------------------------

def f32(v: Sym) -> np.ndarray:
    return u32(v).astype(np.uint32).view(np.float32)


def from_f32(x) -> Sym:
    return from_bits(np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.int64))


def round32(s, err=0.0, mode: str = "RN") -> np.ndarray:
    """The float32 that s + err rounds to in `mode` (RN: to nearest even; RZ, RM, RP: toward zero,
    -inf, +inf): s a float64, err its exact remainder (at most half an ulp of s), so that one
    rounding of the exact value is made, not two. Rounding s to float32 can meet a tie, or fall
    on the wrong side of the exact value, only by err: there it decides."""
    s = np.asarray(s, dtype=np.float64)
    err = np.broadcast_to(np.asarray(err, dtype=np.float64), s.shape)
    with np.errstate(over="ignore", invalid="ignore"):
        r = s.astype(np.float32)
        diff = s - r.astype(np.float64)  # exact: r is s's nearest float32
        if mode == "RN":
            other = np.nextafter(r, np.where(diff > 0, np.float32(np.inf), np.float32(-np.inf)))
            tie = np.isfinite(err) & (err != 0) & (diff != 0) & (diff == other.astype(np.float64) - s)
            pick = np.where(err > 0, np.maximum(r, other), np.minimum(r, other))
            return np.where(tie, pick, r).astype(np.float32)
        side = np.where(np.isfinite(s), np.where(diff != 0, np.sign(diff), np.sign(err)), 0)  # exact vs r
        toward = {"RZ": np.where(r > 0, side < 0, side > 0) & (r != 0), "RM": side < 0, "RP": side > 0}[mode]
        target = {"RZ": np.float32(0), "RM": np.float32(-np.inf), "RP": np.float32(np.inf)}[mode]
        return np.where(toward, np.nextafter(r, target), r).astype(np.float32)


def fma32(a, b, c, mode: str = "RN") -> np.ndarray:
    """a * b + c over float32, rounded once (FFMA): the product is exact in float64 and the sum's
    rounding error is recovered exactly (TwoSum), so `round32` rounds the exact value."""
    a, b, c = (np.asarray(v, dtype=np.float32).astype(np.float64) for v in (a, b, c))
    with np.errstate(over="ignore", invalid="ignore"):
        return round32(*_two_sum(a * b, c), mode)


def add32(a, b, mode: str = "RN") -> np.ndarray:
    """a + b over float32 in `mode` (FADD), rounded once."""
    a, b = (np.asarray(v, dtype=np.float32).astype(np.float64) for v in (a, b))
    with np.errstate(over="ignore", invalid="ignore"):
        return round32(*_two_sum(a, b), mode)


def mul32(a, b, mode: str = "RN") -> np.ndarray:
    """a * b over float32 in `mode` (FMUL): the product is exact in float64."""
    a, b = (np.asarray(v, dtype=np.float32).astype(np.float64) for v in (a, b))
    with np.errstate(over="ignore", invalid="ignore"):
        return round32(a * b, 0.0, mode)


def _two_sum(a, b):
    """s = a + b rounded, and its exact error (Knuth)."""
    s = a + b
    back = s - a
    return s, (a - (s - back)) + (b - back)


def _two_product(a, b):
    """p = a * b rounded, and its exact error (Dekker, by Veltkamp's split)."""
    p = a * b
    ta, tb = 134217729.0 * a, 134217729.0 * b
    ah, bh = ta - (ta - a), tb - (tb - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


#: fma64's error-free path holds where every input lies in this range (or is zero): no overflow in
#: the split, no error term lost below the subnormals
_FMA64_SAFE = (2.0**-400, 2.0**400)


def fma64(a, b, c) -> np.ndarray:
    """a * b + c over float64, rounded to nearest even once (DFMA): the product's and the sum's
    exact errors, added rounded to odd, then the sum rounded to nearest (Boldo and Melquiond's
    emulated FMA). Lanes with a zero or a non-finite input take the plain expression, exact there;
    lanes past the safe range, exact rational arithmetic."""
    shape = np.broadcast(a, b, c).shape
    a, b, c = (np.array(np.broadcast_to(np.atleast_1d(np.asarray(v, dtype=np.float64)), shape or (1,)))
               for v in (a, b, c))
    lo, hi = _FMA64_SAFE
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        plain = a * b + c
        uh, ul = _two_product(a, b)
        th, tl = _two_sum(c, uh)
        v, e = _two_sum(tl, ul)
        even = (np.ascontiguousarray(v).view(np.int64) & 1) == 0
        v = np.where((e != 0) & even, np.nextafter(v, np.where(e > 0, np.inf, -np.inf)), v)  # rounded to odd
        z = th + v
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    simple = ~finite | (a == 0) | (b == 0) | (c == 0)
    inside = np.all([(np.abs(x) >= lo) & (np.abs(x) <= hi) for x in (a, b, c)], axis=0)
    out = np.where(simple, np.where(np.isfinite(a) & np.isfinite(b) & ~np.isfinite(c), c, plain), z)
    for k in zip(*np.nonzero(~simple & ~inside)):
        out[k] = _fma64_exact(float(a[k]), float(b[k]), float(c[k]))
    return out.reshape(shape)


def _fma64_exact(a: float, b: float, c: float) -> float:
    from fractions import Fraction
    x = Fraction(a) * Fraction(b) + Fraction(c)
    if x == 0:
        return a * b + c
    try:
        near = float(x)  # Fraction -> float rounds to nearest even, once
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")
    return near


def fimm(text: str) -> float:
    t = text.upper().lstrip("+")
    neg = t.startswith("-")
    t = t.lstrip("-")
    value = float("inf") if t == "INF" else float("nan") if t in ("QNAN", "NAN") else float(t)
    return -value if neg else value


def f16_bits(x: float) -> int:
    return int(np.array(x, dtype=np.float16).view(np.uint16))


#: a float rounded to an integral value, by the modifier F2I and FRND name (none: to nearest even)
TO_INTEGRAL = {"TRUNC": np.trunc, "FLOOR": np.floor, "CEIL": np.ceil}


def integral_rounding(mods) -> str:
    """The rounding to an integral value an F2I or FRND's modifiers name ("RN" where none does)."""
    return next((r for r in TO_INTEGRAL if r in mods), "RN")


def to_integral(x, rounding: str) -> np.ndarray:
    return TO_INTEGRAL.get(rounding, np.rint)(x)


def f2i(x: np.ndarray, is_signed: bool, bits: int, rounding: str) -> np.ndarray:
    """Float -> integer with saturation (NaN -> 0), as F2I does."""
    x = np.asarray(x, dtype=np.float64)
    r = to_integral(x, rounding)
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if is_signed else (0, (1 << bits) - 1)
    r = np.where(np.isnan(r), 0, np.clip(r, lo, hi))
    big = r >= 2.0**63  # a signed 64-bit result saturated at 2^63 - 1, which float64 cannot hold
    return np.where(big, np.int64(2**63 - 1), np.where(big, 0, r).astype(np.int64))


def i2f(v: Sym, is_signed: bool, rounding: str) -> np.ndarray:
    """Integer -> float32 with the opcode's rounding (.RP: towards +inf, .RM: -inf, .RZ: zero)."""
    t = i32(v) if is_signed else u32(v)
    exact = t.astype(np.float64)
    nearest = exact.astype(np.float32)
    if rounding in ("RP", "RM", "RZ"):
        back = nearest.astype(np.float64)
        up = np.nextafter(nearest, np.float32(np.inf))
        down = np.nextafter(nearest, np.float32(-np.inf))
        if rounding == "RP":
            nearest = np.where(back < exact, up, nearest)
        elif rounding == "RM":
            nearest = np.where(back > exact, down, nearest)
        else:
            toward = np.where(exact >= 0, np.where(back > exact, down, nearest), np.where(back < exact, up, nearest))
            nearest = toward
    return nearest.astype(np.float32)


TWO32_F = float(TWO32)
