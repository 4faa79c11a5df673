"""Integer, predicate and move instructions: the address arithmetic and the control conditions.

Each handler gets (machine, instruction, path, guard formula, known formula keys) and either
updates the path's state and returns None (fall through) or returns the successor paths
(warpsim.sass.machine.Machine.step). The arithmetic itself is warpsim.sass.alu's.
"""

from __future__ import annotations

import numpy as np

from warpsim import formula as F
from warpsim.sass import alu, isa
from warpsim.sass.state import select
from warpsim.sass.values import (
    MASK32,
    OPAQUE,
    TWO31,
    TWO32,
    DataPredicate,
    EngineError,
    NotAffine,
    Opaque,
    Poison,
    PredPack,
    StrideRequest,
    Wraps,
    block_cuts,
    bounds,
    carry_cuts,
    const,
    norm,
    pair,
    signed,
    thread_windows,
    unsigned,
)
from warpsim.symbolic import Sym


def data_of(*values):
    """What an instruction makes of inputs that are not all addresses: the first Poison (a value
    the engine lost, which poisons everything computed from it), else the first Opaque (data)."""
    for v in values:
        if isinstance(v, Poison):
            return v
    for v in values:
        if isinstance(v, Opaque):
            return v
    return Poison("a value the engine could not follow")


def _dst_preds(ops) -> tuple[list[isa.Pred], list]:
    """Leading predicate destinations (carry-outs, ISETP's pair) and the rest."""
    out = []
    i = 0
    while i < len(ops) and isinstance(ops[i], isa.Pred):
        out.append(ops[i])
        i += 1
    return out, list(ops[i:])


def _ints(m, path, ops, known):
    return [m.read_int(path, o, known) for o in ops]


def _all_int(values) -> bool:
    return all(isinstance(v, Sym) for v in values)


def op_mov(m, ins, path, guard, known):
    dst, src = ins.operands[0], ins.operands[1]
    m.write(path, dst, m.read(path, src, known), guard)


def op_s2r(m, ins, path, guard, known):
    m.write(path, ins.operands[0], m.read(path, ins.operands[1], known), guard)


def op_cs2r(m, ins, path, guard, known):
    v = m.read(path, ins.operands[1], known)
    width = 64 if "32" not in ins.mods else 32
    if width == 64:
        m.write_pair(path, ins.operands[0], v if isinstance(v, Sym) else OPAQUE, guard)
    else:
        m.write(path, ins.operands[0], v, guard)


def op_ldc(m, ins, path, guard, known):
    dst, src = ins.operands[0], ins.operands[1]
    if "64" in ins.mods:
        lo = m.read(path, src, known)
        hi = m.read(path, src, known, offset=1)
        m.write(path, dst, lo, guard)
        m.write(path, isa.Reg(dst.file, dst.index + 1), hi, guard)
    else:
        v = m.read(path, src, known)
        if isinstance(v, Sym) and any(x in ins.mods for x in ("U8", "S8", "U16", "S16")):
            bits = 8 if "8" in "".join(ins.mods) else 16
            v = alu.sign_extend(v, bits, any(x.startswith("S") for x in ins.mods))
        m.write(path, dst, v, guard)


def op_iadd3(m, ins, path, guard, known):
    dst, rest = ins.operands[0], list(ins.operands[1:])
    carries_out, rest = _dst_preds(rest)
    srcs, carries_in = rest[:3], rest[3:]
    values = _ints(m, path, srcs, known)
    if not _all_int(values):
        m.write(path, dst, data_of(*values), guard)
        for p in carries_out:
            m.write(path, p, F.FALSE, guard)
        return
    total = values[0] + values[1] + values[2]
    cin = [m.read_pred(path, p, known) for p in carries_in if isinstance(p, isa.Pred)]
    for c in cin:
        total = total + _bit(c)
    if any(not p.true for p in carries_out):
        carry = _carry_count(m, srcs, values, cin)
        for k, p in enumerate(carries_out):
            m.write(path, p, _carry_bit(carry, k), guard)
    m.write(path, dst, total, guard)


def _bit(c: F.Formula) -> Sym:
    if isinstance(c, F.Const):
        return const(np.asarray(c.mask, dtype=np.int64)) if not isinstance(c.mask, bool) else const(int(c.mask))
    raise NotAffine("a carry that depends on block or loop indices")


def _contribution(m, op, v: Sym) -> Sym:
    """What an operand adds to the 32-bit sum's carry chain (v is its value, modifiers applied):
    u(x) for x, 2**32 - u(x) for -x and 2**32 - 1 - u(x) for ~x, since the hardware adds ~x + 1
    and ~x (so -0 carries)."""
    if isinstance(op, isa.Reg) and op.neg:
        return const(TWO32) - _in_window(m, -v, True)
    if isinstance(op, isa.Reg) and op.inv:
        return const(TWO32 - 1) - _in_window(m, -v - 1, True)
    return _in_window(m, v, True)


def _carry_count(m, srcs, values, cin) -> Sym:
    total = const(0)
    for op, v in zip(srcs, values):
        total = total + _contribution(m, op, v)
    for c in cin:
        total = total + _bit(c)
    return _carries(m, total)


def _carries(m, total: Sym) -> Sym:
    """floor(total / 2**32) of a sum of unsigned 32-bit parts: the carries out of bit 31."""
    if not total.coef:
        return const(np.asarray(total.thread, dtype=np.int64) >> 32)
    lo, hi = bounds(total, m.env)
    if lo >> 32 != hi >> 32:
        windows = thread_windows(total, m.env)
        if windows is not None:  # each thread's carry one number over the piece (rows 4 GiB apart)
            return windows
        cut = carry_cuts(total, m.env, m.block_dims)
        if cut is not None:  # decided on each side of a block edge (a row before the first, say)
            m.split_at(cut, "a carry between 32-bit halves that depends on the block's side of an edge")
        raise NotAffine("a carry between 32-bit halves that differs across blocks or iterations "
                        "(a 64-bit value crosses a 4 GiB boundary)")
    return const(lo >> 32)


def _carry_bit(carry: Sym, k: int) -> F.Formula:
    t = np.asarray(carry.thread, dtype=np.int64)
    return F.Const(((t >> k) & 1).astype(bool)) if t.ndim else F.Const(bool((int(t) >> k) & 1))


def op_imad(m, ins, path, guard, known):
    mods = set(ins.mods)
    dst, rest = ins.operands[0], list(ins.operands[1:])
    carries_out, rest = _dst_preds(rest)
    a_op, b_op, c_op = rest[0], rest[1], rest[2]
    carries_in = [o for o in rest[3:] if isinstance(o, isa.Pred)]
    is_signed = "U32" not in mods
    if "WIDE" in mods or "HI" in mods:
        # both add c's register pair (c+1:c) as a 64-bit addend: IMAD.WIDE d, a, b, c writes the pair
        # a*b + (c+1:c); IMAD.HI d, a, b, c its high half (nvcc's integer division zeroes c and puts
        # its estimate in c+1 to add it this way)
        a, b = m.read_int(path, a_op, known), m.read_int(path, b_op, known)
        c = m.read_pair(path, c_op, known)
        write = m.write_pair if "WIDE" in mods else m.write
        if not _all_int([a, b, c]):
            write(path, dst, data_of(a, b, c), guard)
        elif "WIDE" in mods:
            try:
                write(path, dst, alu.mul_wide(a, b, m.env, is_signed) + c, guard)
            except StrideRequest as e:
                raise StrideRequest(e.dim, e.step, _divided(a, b) or str(e)) from None
            except NotAffine:
                why = _divided(a, b)
                if why is None:
                    raise
                raise NotAffine(why) from None
        elif alu.thread_only(a, b, c) or (a.coef and b.coef) or not m.strides:
            write(path, dst, alu.mul_hi_add(a, b, c, is_signed), guard)
        else:  # a block index times a constant: a quotient by a divisor the launch gives (values.split)
            ext = signed if is_signed else unsigned
            why = "the high half of a product of a block/loop index (an integer division by a value the launch gives)"
            try:
                write(path, dst, m.high_word(alu.mul(ext(a, m.env), ext(b, m.env)) + c), guard)
            except StrideRequest as e:
                raise StrideRequest(e.dim, e.step, why) from None
            except NotAffine:
                raise NotAffine(why) from None
        return
    if "MOV" in mods:  # IMAD.MOV d, RZ, RZ, c: a move, which copies a Select as it is
        m.write(path, dst, m.read(path, c_op, known), guard)
        return
    a, b, c = _ints(m, path, [a_op, b_op, c_op], known)
    if not _all_int([a, b, c]):
        m.write(path, dst, data_of(a, b, c), guard)
        return
    if "SHL" in mods:
        result = alu.mul(a, b)
    elif "IADD" in mods:
        result = a * 1 + c if _is_one(b) else alu.mul(a, b) + c
    else:
        result = alu.mul(a, b) + c
    for p in carries_in:
        result = result + _bit(m.read_pred(path, p, known))
    if any(not p.true for p in carries_out):
        raise NotAffine("IMAD with a carry-out")
    m.write(path, dst, result, guard)


def _divided(a: Sym, b: Sym) -> str | None:
    """What a wide product whose high word is not affine computes, where one factor is a constant
    of 2**24 or more (as unsigned) and the other depends on a block or loop index: nvcc's division
    by a constant, which multiplies by the divisor's inverse and keeps the high word. None else."""
    for x, k in ((a, b), (b, a)):
        if x.coef and not k.coef and np.ndim(k.thread) == 0 and int(k.thread) & MASK32 >= 1 << 24:
            return (f"a block or loop index divided by a constant (nvcc multiplies it by {int(k.thread) & MASK32:#x} "
                    "and keeps the high word: a quotient or remainder of the index), which is not affine in it")
    return None


def _is_zero(v: Sym) -> bool:
    return not v.coef and np.all(np.asarray(v.thread) == 0)


def _is_one(v: Sym) -> bool:
    return not v.coef and np.all(np.asarray(v.thread) == 1)


def op_lea(m, ins, path, guard, known):
    mods = set(ins.mods)
    dst, rest = ins.operands[0], list(ins.operands[1:])
    carries_out, rest = _dst_preds(rest)
    carries_in = [o for o in rest if isinstance(o, isa.Pred)]
    rest = [o for o in rest if not isinstance(o, isa.Pred)]
    shift = rest[-1].value if isinstance(rest[-1], isa.Imm) else None
    if shift is None:
        raise EngineError("LEA with a shift amount in a register")
    cin = [m.read_pred(path, p, known) for p in carries_in]
    if "HI" in mods:
        # LEA.HI d, a, b, c, s: d = b + hi32((c:a) << s); LEA.HI.SX32 d, a, b, s: c is a's sign
        a, b = m.read_int(path, rest[0], known), m.read_int(path, rest[1], known)
        c = m.read_int(path, rest[2], known) if len(rest) == 4 else None
        if not _all_int([a, b] + ([c] if c is not None else [])):
            m.write(path, dst, data_of(a, b, c if c is not None else a), guard)
            return
        if any(not p.true for p in carries_out):
            raise NotAffine("LEA.HI with a carry-out")
        result = b + _hi_of_shift(m, a, c, shift)
        for cbit in cin:
            result = result + _bit(cbit)
        m.write(path, dst, result, guard)
        return
    a, b = m.read_int(path, rest[0], known), m.read_int(path, rest[1], known)
    if not _all_int([a, b]):
        m.write(path, dst, data_of(a, b), guard)
        for p in carries_out:
            m.write(path, p, F.FALSE, guard)
        return
    shifted = alu.shl(a, shift)
    if any(not p.true for p in carries_out):
        window = (lambda v: _in_window(m, v, True)) if m.wide_cuts else (lambda v: unsigned(v, m.env))
        low = window(shifted) if shifted.coef else const(alu.u32(shifted))
        total = low + window(b)
        for cbit in cin:
            total = total + _bit(cbit)
        carry = _carries(m, total)
        for k, p in enumerate(carries_out):
            m.write(path, p, _carry_bit(carry, k), guard)
    result = shifted + b
    for cbit in cin:
        result = result + _bit(cbit)
    m.write(path, dst, result, guard)


def _hi_of_shift(m, a: Sym, c: Sym | None, s: int) -> Sym:
    """hi32(X << s) = floor(X / 2**(32 - s)), X = (c:a), or a sign-extended when c is None."""
    if alu.thread_only(a, *([c] if c is not None else [])):
        if c is None:
            x = alu.i32(a)
            return const((x >> (32 - s)) & MASK32) if s < 32 else const(x & MASK32)
        x = (alu.u32(c).astype(np.uint64) << np.uint64(32)) | alu.u32(a).astype(np.uint64)
        return const(((x >> np.uint64(32 - s)) & np.uint64(MASK32)).astype(np.int64))
    x = signed(a, m.env) if c is None else pair(a, c, m.env)
    return _floor_pow2(m, x, 32 - s)


def _floor_pow2(m, v: Sym, s: int) -> Sym:
    """floor(v / 2**s) (a shift's result; the high word of a 64-bit value). Where it is not affine
    in a block index over the whole launch (an index past 2**32 / 2**s at a large grid: a buffer
    over 4 GiB), the block range is cut where it changes, so that each piece has one."""
    from warpsim.sass.values import floor_div_pow2

    try:
        return floor_div_pow2(v, s, m.env)
    except StrideRequest as e:  # a quotient by 2**s: fewer pieces if the index has fewer quotients than classes
        if m.strides:
            m.cut_instead(carry_cuts(v, m.env, m.block_dims, s), e, f"a value's bits above bit {s} that change "
                          "between blocks")
            raise
        error = NotAffine(e.why)  # as before residue classes
    except NotAffine as e:
        error = e
    cut = carry_cuts(v, m.env, m.block_dims, s) if m.wide_cuts else None
    if cut is not None:
        m.split_at(cut, f"a value's bits above bit {s} that depend on the block's side of an edge")
    raise error


def op_lop3(m, ins, path, guard, known):
    ops = list(ins.operands)
    pdst = ops.pop(0) if isinstance(ops[0], isa.Pred) else None
    dst = ops.pop(0)
    a_op, b_op, c_op, lut_op = ops[0], ops[1], ops[2], ops[3]
    lut = lut_op.value & 0xFF
    a, b, c = _ints(m, path, [a_op, b_op, c_op], known)
    if isinstance(a, PredPack) and isinstance(b, Sym) and isinstance(c, Sym) and lut == 0xC0:
        result = _test_bits(a, b, c)
    elif not _all_int([a, b, c]):
        result = data_of(a, b, c)
    else:
        try:
            result = alu.lop3(a, b, c, lut, m.env if m.strides else None)
        except NotAffine as e:  # a block index's bits kept or dropped: split it, or cut it into pieces
            stride, cut = (getattr(e, "stride", None), getattr(e, "cut", None)) if m.strides else (None, None)
            if cut is not None and (stride is None or len(cut[1]) + 1 < stride[1]):
                m.split_at(cut, f"{e} (bits the mask treats alike, one number in each piece)",
                           by_strides=stride[1] if stride is not None else 1)
            if stride is not None:
                raise StrideRequest(*stride, str(e)) from None
            raise
    m.write(path, dst, result, guard)
    if pdst is not None and not pdst.true:
        m.write(path, pdst, _nonzero(m, result), guard)


def _test_bits(pack: PredPack, mask: Sym, c: Sym):
    """P2R's packed predicates ANDed with one bit: that bit's predicate, as a PredPack."""
    if mask.coef or c.coef or np.any(np.asarray(c.thread) != 0):
        return Poison("bit operations on packed predicates")
    bits = int(np.asarray(mask.thread).flat[0]) & MASK32
    if bits == 0 or bits & (bits - 1) or bits.bit_length() - 1 not in pack.bits:
        return Poison("bit operations on packed predicates")
    return PredPack(const(0), {bits.bit_length() - 1: pack.bits[bits.bit_length() - 1]})


def _nonzero(m, v) -> F.Formula | Poison:
    if isinstance(v, PredPack):
        if isinstance(v.base, Sym) and not v.base.coef and np.all(alu.u32(v.base) == 0) and len(v.bits) == 1:
            return next(iter(v.bits.values()))
        return Poison("a test of packed predicates")
    if isinstance(v, Sym):
        return F.f_not(_compare(m, v, const(0), "EQ", False))
    if isinstance(v, Opaque):
        return v
    return Poison("a test of a value the engine could not follow")


def op_shf(m, ins, path, guard, known):
    mods = set(ins.mods)
    dst, a_op, s_op, c_op = ins.operands[:4]
    a, s, c = _ints(m, path, [a_op, s_op, c_op], known)
    if not _all_int([a, s, c]):
        m.write(path, dst, data_of(a, s, c), guard)
        return
    amount = alu.shift_amount(s)
    if not isinstance(amount, int):
        if not alu.thread_only(a, c):
            raise NotAffine("a shift by an amount that differs per thread of a block/loop-dependent value")
    is_signed = "S32" in mods or "S64" in mods
    wide64 = "U64" in mods or "S64" in mods
    left = "L" in mods
    hi_result = "HI" in mods
    if alu.thread_only(a, c):
        lo = alu.u32(a).astype(np.uint64)
        hiw = alu.u32(c)
        amt = np.minimum(np.asarray(amount, dtype=np.int64), 64 if wide64 else 32)
        if is_signed:
            x = (np.where(hiw & (1 << 31), hiw - TWO32, hiw).astype(np.int64) << 32) | lo.astype(np.int64)
            y = (x << amt) if left else (x >> np.minimum(amt, 63))
            y = y.astype(np.int64)
        else:
            x = (hiw.astype(np.uint64) << np.uint64(32)) | lo
            au = amt.astype(np.uint64)
            y = np.where(amt >= 64, np.uint64(0), (x << au) if left else (x >> np.minimum(au, np.uint64(63))))
            y = y.view(np.int64) if isinstance(y, np.ndarray) else np.int64(y)
        y = np.asarray(y, dtype=np.int64)
        out = (y >> 32) & MASK32 if hi_result else y & MASK32
        m.write(path, dst, const(out), guard)
        return
    if not isinstance(amount, int):
        raise NotAffine("a per-thread shift of a block/loop-dependent value")
    hi_part = signed(c, m.env) if is_signed else unsigned(c, m.env)
    x = hi_part * TWO32 + unsigned(a, m.env)
    if left:
        y = x * (1 << amount)
    else:
        y = _floor_pow2(m, x, amount)
    if hi_result:
        if not y.coef:
            out = const((np.asarray(y.thread, dtype=np.int64) >> 32) & MASK32)
        else:
            lo_b, hi_b = bounds(y, m.env)
            windows = thread_windows(y, m.env) if lo_b >> 32 != hi_b >> 32 else None
            if windows is not None:  # each thread's high word one number over the piece
                out = windows
            elif lo_b >> 32 != hi_b >> 32:
                out = _floor_pow2(m, y, 32)
            else:
                out = const(lo_b >> 32)
    else:
        out = y
    m.write(path, dst, out, guard)


def op_shl_shr(m, ins, path, guard, known):
    dst, a_op, s_op = ins.operands[:3]
    a, s = _ints(m, path, [a_op, s_op], known)
    if not _all_int([a, s]):
        m.write(path, dst, data_of(a, s), guard)
        return
    amount = alu.shift_amount(s)
    if ins.opcode in ("SHL", "USHL"):
        out = alu.shl(a, amount) if isinstance(amount, int) else const(alu.u32(a) << amount)
    else:
        is_signed = "U32" not in ins.mods
        if isinstance(amount, int):
            out = alu.shr(a, amount, m.env, is_signed)
        else:
            out = const((alu.i32(a) if is_signed else alu.u32(a)) >> amount)
    m.write(path, dst, out, guard)


def _in_window(m, v: Sym, is_unsigned: bool) -> Sym:
    """v read as an unsigned or signed 32-bit number. Where it crosses the window's edge inside the
    launch (`n - i` below zero for the threads past n, read unsigned), the block range is cut where
    a block index decides the side, so that each piece reads one window (the edge block by thread)."""
    try:
        return (unsigned if is_unsigned else signed)(v, m.env)
    except Wraps:
        low = 0 if is_unsigned else -TWO31
        if m.wide_cuts:  # windows [k 2^32, (k + 1) 2^32) or shifted down by 2^31: the highest edge it crosses
            edge = (bounds(v, m.env)[1] - low) // TWO32 * TWO32 + low
        else:  # the side of the window it crosses: v < edge changes there
            edge = low if bounds(v, m.env)[0] < low else low + TWO32
        cut = block_cuts(F.lt(v.coef, np.asarray(v.thread, dtype=np.int64) - edge), m.env, m.block_dims)
        if cut is not None:
            m.split_at(cut, "a 32-bit value whose window depends on the block's side of an edge")
        raise


def _compare(m, a: Sym, b: Sym, cmp: str, is_unsigned: bool) -> F.Formula:
    d = _in_window(m, a, is_unsigned) - _in_window(m, b, is_unsigned)
    coef, t = d.coef, d.thread
    if cmp == "LT":
        return F.lt(coef, t)
    if cmp == "LE":
        return F.lt(coef, np.asarray(t) - 1)
    if cmp == "GT":
        return F.lt({k: -v for k, v in coef.items()}, -np.asarray(t))
    if cmp == "GE":
        return F.lt({k: -v for k, v in coef.items()}, -np.asarray(t) - 1)
    if cmp == "EQ":
        return F.eq(coef, t)
    if cmp == "NE":
        return F.f_not(F.eq(coef, t))
    if cmp == "T":
        return F.TRUE
    if cmp == "F":
        return F.FALSE
    raise EngineError(f"comparison {cmp}")


_BOOL = {"AND": F.f_and, "OR": F.f_or, "XOR": F.f_xor}


def op_isetp(m, ins, path, guard, known):
    mods = list(ins.mods)
    cmp = mods[0]
    is_unsigned = "U32" in mods
    logic = next((x for x in mods if x in _BOOL), "AND")
    ex = "EX" in mods
    ops = list(ins.operands)
    p_out, q_out, a_op, b_op = ops[0], ops[1], ops[2], ops[3]
    c_in = m.read_pred(path, ops[4], known) if len(ops) > 4 else F.TRUE
    a, b = m.read_int(path, a_op, known), m.read_int(path, b_op, known)
    if isinstance(a, PredPack) and cmp in ("EQ", "NE") and not ex and isinstance(b, Sym) and _is_zero(b):
        nonzero = _nonzero(m, a)  # P2R's packed predicate, tested: the predicate itself
        if isinstance(nonzero, F.Formula):
            c = nonzero if cmp == "NE" else F.f_not(nonzero)
            m.write(path, p_out, _BOOL[logic](c, c_in), guard)
            m.write(path, q_out, _BOOL[logic](F.f_not(c), c_in), guard)
            return
    if not _all_int([a, b]):
        value = data_of(a, b)
        m.write(path, p_out, value, guard)
        m.write(path, q_out, value, guard)
        return
    if ex:
        # the high halves of a 64-bit comparison; ops[5] holds the low halves' comparison
        low = m.read_pred(path, ops[5], known)
        strict = {"GE": "GT", "GT": "GT", "LE": "LT", "LT": "LT"}.get(cmp)
        equal = _compare(m, a, b, "EQ", True)
        if cmp in ("EQ",):
            c = F.f_and(equal, low)
        elif cmp == "NE":
            c = F.f_or(F.f_not(equal), low)
        else:
            c = F.f_or(_compare(m, a, b, strict, is_unsigned), F.f_and(equal, low))
    else:
        c = _compare(m, a, b, cmp, is_unsigned)
    combine = _BOOL[logic]
    m.write(path, p_out, combine(c, c_in), guard)
    m.write(path, q_out, combine(F.f_not(c), c_in), guard)


def _lut_formula(lut: int, a: F.Formula, b: F.Formula, c: F.Formula) -> F.Formula:
    terms = []
    for i in range(8):
        if lut >> i & 1:
            terms.append(F.f_and(a if i & 4 else F.f_not(a), b if i & 2 else F.f_not(b), c if i & 1 else F.f_not(c)))
    return F.f_or(*terms) if terms else F.FALSE


def op_plop3(m, ins, path, guard, known):
    ops = list(ins.operands)
    p_out, q_out = ops[0], ops[1]
    a, b, c = (m.read_pred(path, o, known) for o in ops[2:5])
    lut = ops[5].value & 0xFF
    lut2 = ops[6].value & 0xFF if len(ops) > 6 else 0
    m.write(path, p_out, _lut_formula(lut, a, b, c), guard)
    m.write(path, q_out, _lut_formula(lut2, a, b, c), guard)


def op_sel(m, ins, path, guard, known):
    """SEL/FSEL d, a, b, p: a when p else b, kept as a Select when p varies (the bits are not looked at)."""
    dst, a_op, b_op, p_op = ins.operands[:4]
    cond = m.read_pred(path, p_op, known)
    a, b = m.read(path, a_op, known), m.read(path, b_op, known)
    m.write(path, dst, select(cond, a, b), guard)


#: the modifiers IMNMX, VIMNMX and VIADDMNMX are computed with (SIMD halves, `.S16x2`, are not)
_MNMX_MODS = {"U32", "S32", "RELU"}


def _mnmx(m, ins, a: Sym, b: Sym, want_min) -> object:
    """min(a, b) where `want_min` holds for every thread, max where it holds for none, as a choice
    of a or b; .RELU clamps the result at 0 from below (`max(min(i - c, m - 1), 0)`: relu of the
    minimum is the minimum of the relus, each a choice of its own)."""
    mods = set(ins.mods)
    if mods - _MNMX_MODS or {"U32", "RELU"} <= mods:
        raise EngineError(f"{ins.name}: a modifier the engine does not compute ({'.'.join(sorted(mods - {'S32'}))})")
    is_min = want_min.all_true if isinstance(want_min, F.Const) and (want_min.all_true or want_min.all_false) else None
    if is_min is None:
        raise NotAffine(f"{ins.opcode} whose min/max choice differs per thread")
    less = _compare(m, a, b, "LT", "U32" in mods)
    if "RELU" in mods:  # each side read as the signed 32-bit number it is (VIADDMNMX's a + 0xffffffff: a - 1)
        zero = const(0)
        a, b = (select(_compare(m, v, zero, "LT", False), zero, _in_window(m, v, False)) for v in (a, b))
    return select(less, a, b) if is_min else select(less, b, a)


def op_imnmx(m, ins, path, guard, known):
    """IMNMX/VIMNMX d, a, b, P: min where P is true, max where it is false (`_mnmx`)."""
    dst, a_op, b_op, p_op = ins.operands[:4]
    a, b = m.read_int(path, a_op, known), m.read_int(path, b_op, known)
    want_min = m.read_pred(path, p_op, known)
    if not _all_int([a, b]):
        m.write(path, dst, data_of(a, b), guard)
        return
    m.write(path, dst, _mnmx(m, ins, a, b, want_min), guard)


def op_vimnmx(m, ins, path, guard, known):
    """VIMNMX d, a, b, P (sm_90): min where P is true, max where it is false; .RELU as `_mnmx`."""
    op_imnmx(m, ins, path, guard, known)


def op_viadd(m, ins, path, guard, known):
    dst, a_op, b_op = ins.operands[:3]
    a, b = m.read_int(path, a_op, known), m.read_int(path, b_op, known)
    m.write(path, dst, a + b if _all_int([a, b]) else data_of(a, b), guard)


def op_viaddmnmx(m, ins, path, guard, known):
    """VIADDMNMX d, a, b, c, P: min(a + b, c) where P is true, max where it is false; .RELU as `_mnmx`."""
    dst, a_op, b_op, c_op, p_op = ins.operands[:5]
    a, b, c = _ints(m, path, [a_op, b_op, c_op], known)
    if not _all_int([a, b, c]):
        m.write(path, dst, data_of(a, b, c), guard)
        return
    m.write(path, dst, _mnmx(m, ins, a + b, c, m.read_pred(path, p_op, known)), guard)


def op_iabs(m, ins, path, guard, known):
    dst, a_op = ins.operands[:2]
    a = m.read_int(path, a_op, known)
    m.write(path, dst, alu.absolute(a, m.env) if isinstance(a, Sym) else a, guard)


def op_vabsdiff(m, ins, path, guard, known):
    """VABSDIFF d, a, b, c (`__sad`, `__usad`): |a - b| + c, a and b read as signed 32-bit integers
    (unsigned with .U32), their difference exact; affine where its sign is decided over the
    launch, else not (a block index then runs value by value)."""
    dst, a_op, b_op, c_op = ins.operands[:4]
    a, b, c = (m.read_int(path, o, known) for o in (a_op, b_op, c_op))
    if set(ins.mods) - {"U32"}:
        m.write(path, dst, Opaque(ins.name), guard)
        return
    if not _all_int([a, b, c]):
        m.write(path, dst, data_of(a, b, c), guard)
        return
    read = unsigned if "U32" in ins.mods else signed
    d = read(a, m.env) - read(b, m.env)
    if not d.coef:
        m.write(path, dst, const(np.abs(np.asarray(d.thread, dtype=np.int64))) + c, guard)
        return
    lo, hi = bounds(d, m.env)
    if lo < 0 <= hi:
        raise NotAffine("the absolute difference of block/loop-dependent values of either order")
    m.write(path, dst, (d if lo >= 0 else -d) + c, guard)


def op_unary_bits(m, ins, path, guard, known):
    dst, a_op = ins.operands[0], ins.operands[-1]
    a = m.read_int(path, a_op, known)
    if not isinstance(a, Sym):
        m.write(path, dst, a, guard)
        return
    op = ins.opcode.removeprefix("U")  # UPOPC, UFLO, UBREV: the same on a uniform register
    if op == "POPC":
        out = alu.popc(a)
    elif op == "FLO":
        out = alu.flo(a, "U32" not in ins.mods, "SH" in ins.mods)
    else:
        out = alu.brev(a)
    m.write(path, dst, out, guard)


def op_prmt(m, ins, path, guard, known):
    """PRMT d, a, sel, b: bytes of b:a chosen by sel's nibbles (the default mode); .F4E, .B4E,
    .RC8, .ECL, .ECR and .RC16 choose otherwise, and are refused."""
    if ins.mods:
        raise EngineError(f"{ins.name}: a byte-permute mode the engine does not compute")
    dst, a_op, s_op, b_op = ins.operands[:4]
    a, s, b = _ints(m, path, [a_op, s_op, b_op], known)
    m.write(path, dst, alu.prmt(a, s, b) if all(isinstance(v, Sym) and not v.coef for v in (a, s, b))
            else data_of(a, s, b) if not _all_int([a, s, b]) else Opaque("PRMT"), guard)


def op_bmsk(m, ins, path, guard, known):
    """BMSK d, pos, width: `width` ones from bit `pos`, where pos and width lie below 32 (the clamp
    and wrap modes, .W, agree there; past it the launch is refused, not guessed)."""
    dst, a_op, b_op = ins.operands[:3]
    a, b = _ints(m, path, [a_op, b_op], known)
    if _all_int([a, b]) and alu.thread_only(a, b) and np.any((alu.u32(a) > 31) | (alu.u32(b) > 31)):
        raise EngineError(f"{ins.name} of a position or width past 31, where its clamp and wrap modes differ")
    m.write(path, dst, alu.bmsk(a, b) if _all_int([a, b]) else data_of(a, b), guard)


def op_i2i(m, ins, path, guard, known):
    dst, a_op = ins.operands[0], ins.operands[-1]
    a = m.read_int(path, a_op, known)
    kind = next((x for x in ins.mods if x in ("U8", "S8", "U16", "S16", "U32", "S32")), "S32")
    if isinstance(a, Sym) and kind in ("U8", "S8", "U16", "S16"):
        a = alu.sign_extend(a, int(kind[1:]), kind.startswith("S"))
    m.write(path, dst, a, guard)


def op_p2r(m, ins, path, guard, known):
    """P2R d, PR, base, mask: the predicates of `mask` packed into base's low bits (.B1-.B3, into
    another byte, are refused)."""
    if ins.mods:
        raise EngineError(f"{ins.name}: a byte of the predicate register the engine does not pack")
    dst, _pr, base_op, mask_op = ins.operands[:4]
    mask = mask_op.value & 0x7F
    base = m.read_int(path, base_op, known)
    bits = {i: m.read_pred(path, isa.Pred("P", i), known) for i in range(7) if mask >> i & 1}
    if isinstance(base, Sym) and not base.coef and all(isinstance(f, F.Const) for f in bits.values()):
        value = alu.u32(base) & ~mask
        for i, f in bits.items():
            value = value | (np.asarray(f.mask, dtype=np.int64) << i)
        m.write(path, dst, const(value), guard)
        return
    m.write(path, dst, PredPack(base, bits), guard)


def op_r2p(m, ins, path, guard, known):
    """R2P PR, src, mask: the predicates of `mask` from src's low bits (.B1-.B3 refused, as P2R's)."""
    if ins.mods:
        raise EngineError(f"{ins.name}: a byte of the predicate register the engine does not unpack")
    _pr, src_op, mask_op = ins.operands[:3]
    mask = mask_op.value & 0x7F
    src = m.read_int(path, src_op, known)
    for i in range(7):
        if not mask >> i & 1:
            continue
        if isinstance(src, PredPack):
            value = src.bits.get(i, Poison("R2P of a bit P2R did not pack"))
        elif isinstance(src, Sym) and not src.coef:
            value = F.Const(((alu.u32(src) >> i) & 1).astype(bool))
        else:
            value = data_of(src) if not isinstance(src, Sym) else Poison("R2P of a block/loop-dependent value")
        m.write(path, isa.Pred("P", i), value, guard)


def op_shfl(m, ins, path, guard, known):
    """SHFL.{IDX,UP,DOWN,BFLY} Pd, d, a, b(lane/delta), c(clamp/segment mask)."""
    ops = list(ins.operands)
    p_out, dst, a_op, b_op, c_op = ops[:5]
    a, b, c = _ints(m, path, [a_op, b_op, c_op], known)
    mode = ins.mods[0]
    if not (isinstance(b, Sym) and not b.coef and isinstance(c, Sym) and not c.coef):
        m.write(path, dst, OPAQUE, guard)
        m.write(path, p_out, Poison("SHFL lane arithmetic"), guard)
        return
    lane = m.linear % 32
    warp_base = m.linear - lane
    bval, cval = alu.u32(b) & 31, alu.u32(c)
    clamp, seg = cval & 31, (cval >> 8) & 31
    min_lane = lane & seg
    max_lane = min_lane | (clamp & ~seg)
    if mode == "IDX":
        src = min_lane | (bval & ~seg)
        ok = src <= max_lane
    elif mode == "UP":
        src = lane - bval
        ok = src >= min_lane
    elif mode == "DOWN":
        src = lane + bval
        ok = src <= max_lane
    else:
        src = lane ^ bval
        ok = src <= max_lane
    src = np.where(ok, src, lane)
    index = warp_base + src
    if isinstance(a, Sym):
        value = Sym(a.coef, np.asarray(np.broadcast_to(a.thread, m.linear.shape))[index])
    else:
        value = a
    m.write(path, dst, value, guard)
    m.write(path, p_out, F.Const(np.asarray(ok, dtype=bool)), guard)


def _lanes(m, f: F.Formula) -> F.Formula:
    """A condition over a warp's lanes, decided; one that a block index at an edge decides cuts the
    block range there (each piece then has one mask per warp)."""
    f = m.decide(f)
    cut = None if isinstance(f, F.Const) else block_cuts(f, m.env, m.block_dims)
    if cut is not None:
        m.split_at(cut, "a warp-wide operation over threads that depend on the block's side of an edge")
    return f


def _per_warp(m, path, guard, a, compare_only: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
    """A value's bits and the executing lanes as (warps, 32) arrays, or None where the lanes, or a
    value that is not the thread's alone, depend on a block or loop index. `compare_only`: the
    lanes' values are only compared with each other, so a part common to the warp (the block and
    loop indices' terms) may be left out."""
    active = _lanes(m, F.f_and(path.cond, guard))
    if not (isinstance(a, Sym) and (compare_only or not a.coef) and isinstance(active, F.Const)):
        return None
    n = len(m.linear)
    bits = np.broadcast_to(np.asarray(a.thread, dtype=np.int64) & MASK32, (n,)).reshape(-1, 32)
    return bits, np.broadcast_to(np.asarray(active.mask, dtype=bool), (n,)).reshape(-1, 32)


def op_redux(m, ins, path, guard, known):
    """REDUX.{SUM,MIN,MAX,AND,OR,XOR}[.S32] URd, Ra: a register reduced over the warp's executing
    lanes into a uniform register (nvcc's aggregation of atomicMax/Min/And/Or/Xor to one address)."""
    dst, src = ins.operands[0], ins.operands[1]
    a = m.read_int(path, src, known)
    if not isinstance(a, Sym):
        m.write(path, dst, data_of(a), guard)
        return
    warps = _per_warp(m, path, guard, a)
    if warps is None:
        m.write(path, dst, Poison("REDUX of a block/loop-dependent value"), guard)
        return
    bits, on = warps
    op = next((x for x in ins.mods if x in ("SUM", "MIN", "MAX", "AND", "OR", "XOR")), "AND")
    v = np.where(bits >= 1 << 31, bits - (1 << 32), bits) if "S32" in ins.mods else bits
    if op in ("MIN", "MAX"):
        pick = np.min if op == "MIN" else np.max
        fill = v.max() if op == "MIN" else v.min()
        out = pick(np.where(on, v, fill), axis=1)
    elif op == "SUM":
        out = np.where(on, v, 0).sum(axis=1)
    else:
        ufunc = {"AND": np.bitwise_and, "OR": np.bitwise_or, "XOR": np.bitwise_xor}[op]
        out = ufunc.reduce(np.where(on, v, MASK32 if op == "AND" else 0), axis=1)
    m.write(path, dst, alu.from_bits(np.repeat(out, 32) & MASK32), guard)


def op_match(m, ins, path, guard, known):
    """MATCH.ANY Rd, Ra: each lane's mask of the executing lanes holding the same value (ALL: the
    executing lanes' mask where all agree, else 0, and a predicate)."""
    ops = list(ins.operands)
    p_out = ops.pop(0) if isinstance(ops[0], isa.Pred) else None
    dst, src = ops[0], ops[1]
    a = m.read_int(path, src, known)
    warps = _per_warp(m, path, guard, a, compare_only=True) if isinstance(a, Sym) and "U64" not in ins.mods else None
    if warps is None:
        m.write(path, dst, data_of(a) if not isinstance(a, Sym) else Poison("MATCH over lanes that depend on a "
                                                                               "block or loop index, or of 64 bits"),
                guard)
        if p_out is not None:
            m.write(path, p_out, Poison("MATCH"), guard)
        return
    bits, on = warps
    lanes = np.int64(1) << np.arange(32, dtype=np.int64)
    same = (bits[:, :, None] == bits[:, None, :]) & on[:, None, :]
    masks = (same * lanes).sum(axis=2)  # (warps, lanes): the lanes agreeing with each lane
    if "ALL" in ins.mods:
        full = (on * lanes).sum(axis=1, keepdims=True)
        agree = (masks == full)
        masks = np.where(agree, full, 0)
        if p_out is not None:
            m.write(path, p_out, F.Const(np.asarray(agree, dtype=bool).reshape(-1)), guard)
    m.write(path, dst, alu.from_bits(masks.reshape(-1)), guard)


BAR_RESULT = isa.Reg("R", 256)  # where a barrier's reduction waits for B2R.RESULT (no real register)


def op_bar(m, ins, path, guard, known):
    """BAR.SYNC and the other barriers: no effect on the counts. BAR.RED.{POPC,AND,OR} (the
    __syncthreads_count/and/or of a predicate) also reduces the predicate over the block's threads
    for B2R.RESULT: a number where the predicate is the threads' and the block's, data where it is data."""
    if "SYNC" in ins.mods and [type(o) for o in ins.operands] == [isa.Imm] or "RED" in ins.mods:
        m.barriers += 1  # a block-wide barrier (an id, no thread count: __syncthreads): ops_memory._shared_words
    if "RED" not in ins.mods:
        return None
    preds = [o for o in ins.operands if isinstance(o, isa.Pred)]
    try:
        cond = _lanes(m, m.read_pred(path, preds[-1], known)) if preds else F.TRUE
    except DataPredicate:
        m.write(path, BAR_RESULT, Opaque(f"{ins.name} of data"), F.TRUE)
        return None
    active = _lanes(m, path.cond)
    if not (isinstance(cond, F.Const) and isinstance(active, F.Const)):
        m.write(path, BAR_RESULT, Poison(f"{ins.name} of a loop-dependent condition"), F.TRUE)
        return None
    n = len(m.linear)  # a block's threads, or (run block by block) several blocks' one after another
    on = np.broadcast_to(np.asarray(active.mask, dtype=bool), (n,)).reshape(-1, m.threads)
    yes = np.broadcast_to(np.asarray(cond.mask, dtype=bool), (n,)).reshape(-1, m.threads) & on
    count = yes.sum(axis=1)
    value = count if "POPC" in ins.mods else count > 0 if "OR" in ins.mods else count == on.sum(axis=1)
    m.write(path, BAR_RESULT, const(np.repeat(value.astype(np.int64), m.threads)), F.TRUE)
    return None


def op_b2r(m, ins, path, guard, known):
    """B2R.RESULT Rd[, Pd]: the last barrier reduction's result (Pd: whether it is not zero)."""
    if "RESULT" not in ins.mods:
        raise EngineError(f"{ins.name} (a barrier's state) is not supported")
    value = m.reg(path, BAR_RESULT)
    if not isinstance(value, (Sym, Opaque, Poison)):
        value = Poison("B2R.RESULT without a barrier reduction before it")
    dst = ins.operands[0]
    m.write(path, dst, value, guard)
    for p in ins.operands[1:]:
        if isinstance(p, isa.Pred):
            m.write(path, p, F.Const(np.asarray(alu.u32(value) != 0)) if isinstance(value, Sym) else value, guard)


def op_vote(m, ins, path, guard, known):
    ops = list(ins.operands)
    mode = ins.mods[0]
    if isinstance(ops[0], isa.Reg):
        dst, p_out, p_in = ops[0], ops[1], ops[2]
    else:
        dst, p_out, p_in = None, ops[0], ops[1]
    cond = _lanes(m, m.read_pred(path, p_in, known))  # a condition of data raises DataPredicate: data out
    active = _lanes(m, path.cond)
    if not (isinstance(cond, F.Const) and isinstance(active, F.Const)):
        if dst is not None:
            m.write(path, dst, Opaque("VOTE over threads that depend on a loop or the block"), guard)
        m.write(path, p_out, Poison("VOTE of a block/loop-dependent condition"), guard)
        return
    n = len(m.linear)
    c = np.broadcast_to(np.asarray(cond.mask, dtype=bool), (n,)) & np.broadcast_to(np.asarray(active.mask), (n,))
    lanes = (m.linear % 32)
    ballot = np.bitwise_or.reduceat((c.astype(np.int64) << lanes), np.arange(0, n, 32))
    ballot = np.repeat(ballot, 32)
    act = np.repeat(np.bitwise_or.reduceat(np.broadcast_to(np.asarray(active.mask), (n,)).astype(np.int64) << lanes,
                                           np.arange(0, n, 32)), 32)
    if mode == "ANY":
        p = ballot != 0
    elif mode == "ALL":
        p = ballot == act
    else:  # EQ
        p = (ballot == 0) | (ballot == act)
    if dst is not None:
        m.write(path, dst, norm(const(ballot)), guard)
    m.write(path, p_out, F.Const(p), guard)
