"""Floating-point and data instructions: computed where their inputs are constants of the
threads alone (a parameter, nvcc's integer-division sequence), data (Opaque) otherwise.
"""

from __future__ import annotations

import numpy as np

from warpsim import formula as F
from warpsim.sass import alu, isa
from warpsim.sass.ops_int import _BOOL, op_sel
from warpsim.sass.values import (
    MASK32,
    Opaque,
    const,
    data_in,
    norm,
)
from warpsim.sass.state import select
from warpsim.symbolic import Sym

# -- floating point on constants ----------------------------------------------------------------------

def _note_indexed(m, vals) -> None:
    """Tell the machine when floating point is applied to a block or loop index: what it computes
    is exact once the indices are numbers (the launch is then counted block by block where it
    reaches an address or a branch, `analyze.pieces`)."""
    if any(isinstance(v, Sym) and v.coef for v in vals):
        m.index_floats = True


def _float(m, path, o, known, wide: bool = False, ftz: bool = False):
    """A float operand's value, float32 (float64 where `wide`: a register pair, a 64-bit constant),
    its |x| and -x applied as a float's; None where it is not a constant of the threads alone (data,
    or a block or loop index not yet a number: noted, `_note_indexed`). An integer immediate of a
    float instruction is a float's value (`FFMA R4, R3, -R7, 1` adds 1.0)."""
    dtype = np.float64 if wide else np.float32
    if isinstance(o, (isa.Imm, isa.FImm)):
        return dtype(_float_imm(o))
    plain = isa.Reg(o.file, o.index, sel=o.sel) if isinstance(o, isa.Reg) else o
    words = [m.read(path, plain, known, k) for k in range(2 if wide else 1)]
    _note_indexed(m, words)
    if not all(isinstance(w, Sym) and not w.coef for w in words):
        m.float_data = m.float_data or next(filter(None, map(data_in, words)), None)
        return None
    if wide:
        bits = (alu.u32(words[1]).astype(np.uint64) << np.uint64(32)) | alu.u32(words[0]).astype(np.uint64)
        x = np.ascontiguousarray(bits).view(np.float64)
    else:
        x = alu.f32(words[0])
    if isinstance(o, isa.Reg) and o.abs:
        x = np.abs(x)
    if isinstance(o, isa.Reg) and o.neg:
        x = -x
    return _ftz(x) if ftz else x


def _floats(m, path, ops, known, wide: bool = False, ftz: bool = False):
    """`_float` of each operand, or None if one is not a constant of the threads alone (the data
    among them, if any, is kept in `m.float_data`: what the result is made of, for its origin)."""
    m.float_data = None
    xs = [_float(m, path, o, known, wide, ftz) for o in ops]
    return None if any(x is None for x in xs) else xs


def _write_float(m, path, dst, x, guard, wide: bool = False) -> None:
    """A float32 result into dst, or a float64 one into dst and the register after it."""
    if not wide:
        m.write(path, dst, alu.from_f32(x), guard)
        return
    bits = np.ascontiguousarray(np.asarray(x, dtype=np.float64)).view(np.uint64)
    m.write(path, dst, alu.from_bits((bits & np.uint64(MASK32)).astype(np.int64)), guard)
    if not dst.zero:
        m.write(path, isa.Reg(dst.file, dst.index + 1), alu.from_bits((bits >> np.uint64(32)).astype(np.int64)), guard)


def _ftz(x):
    """Float32 denormals flushed to a zero of their sign (.FTZ)."""
    x = np.asarray(x, dtype=np.float32)
    return np.where(np.abs(x) < np.finfo(np.float32).tiny, np.copysign(np.float32(0), x), x).astype(np.float32)


#: rounding and clamping modifiers the float conversions are not computed with (their results are data)
_UNMODELLED = {"RZ", "RM", "RP", "SAT"}
_DIRECTED = ("RZ", "RM", "RP")

#: FADD, FMUL, FFMA (rounded once, to nearest or as the modifier directs) and their doubles (to nearest)
_FP = {
    "FADD": lambda v, mode: alu.add32(*v, mode), "DADD": lambda v, mode: v[0] + v[1],
    "FMUL": lambda v, mode: alu.mul32(*v, mode), "DMUL": lambda v, mode: v[0] * v[1],
    "FFMA": lambda v, mode: alu.fma32(*v, mode), "DFMA": lambda v, mode: alu.fma64(*v),
}


def op_fp(m, ins, path, guard, known):
    """FADD/FMUL/FFMA (.RZ/.RM/.RP too: roundf's FADD.RZ), DADD/DMUL/DFMA: computed when every
    input is a constant of the threads alone, else the result is data."""
    wide, ftz = ins.opcode.startswith("D"), "FTZ" in ins.mods
    vals = _floats(m, path, [o for o in ins.operands[1:] if not isinstance(o, isa.Pred)], known, wide, ftz)
    known_mods = {"RN", "FTZ", "RZ", "RM", "RP"} if not wide else {"RN"}
    unknown = set(ins.mods) - known_mods
    if vals is None or ins.opcode not in _FP or unknown:  # .SAT (expf's reduction), a scaling: data
        data = m.float_data
        if data is None and unknown:
            data = Opaque(f"{ins.opcode}.{'.'.join(sorted(unknown))}, a modifier the engine does not compute")
        op_opaque(m, ins, path, guard, known, data)
        return
    mode = next((r for r in _DIRECTED if r in ins.mods), "RN")
    with np.errstate(over="ignore", invalid="ignore"):  # overflows to inf and NaN, as the GPU's
        x = _FP[ins.opcode](vals, mode)
    _write_float(m, path, ins.operands[0], _ftz(x) if ftz else x, guard, wide)


def op_mufu(m, ins, path, guard, known):
    """MUFU.RCP, the correctly rounded reciprocal, where the hardware's approximation (within an ulp
    of it) cannot show: an integer division's first guess, which the division corrects
    (`_corrected_guess`), or a float division's fast path, which FCHK admits only where it gives
    the correctly rounded quotient. Anywhere else (`__fdividef`, fast-math `1.0f / x`) it is data.
    MUFU.RSQ likewise, as sqrtf's seed only (`_sqrt_fast_path`, `_sqrt_seed`); the other functions
    (EX2, LG2, SIN, COS, ...) are data."""
    dst, a_op = ins.operands[:2]
    vals = _floats(m, path, [a_op], known)
    slow_path = m.program.ieee.get(ins.pc)
    if vals is not None and slow_path:
        seed = _slow_path_seed(m, ins.mods[0], slow_path, vals[0])
        why = f"MUFU.{ins.mods[0]} in the {slow_path} slow path, of a value its refinement is not known to round " \
              "correctly from"
        m.write(path, dst, Opaque(why) if seed is None else alu.from_f32(seed), guard)
        return
    if vals is not None and ins.mods[0] == "RCP" and _rcp_fast_path(m.program, ins):
        r = _rcp_seed(m, vals[0])
        m.write(path, dst, Opaque("a reciprocal its fast path does not round correctly from the engine's seed")
                if r is None else alu.from_f32(r), guard)
        return
    if vals is not None and ins.mods[0] == "RSQ" and ins.guard is None and _sqrt_fast_path(m.program, ins):
        r = _sqrt_seed(m, vals[0])
        m.write(path, dst, Opaque("sqrtf of a value its fast path does not take: negative, denormal or "
                                  "infinite") if r is None else alu.from_f32(r), guard)
        return
    if vals is None or ins.mods[0] != "RCP" or not _corrected_guess(m.program, ins):
        where = {"RCP": " outside a division", "RSQ": " outside sqrtf's fast path"}.get(ins.mods[0], "")
        why = f"{where}: the hardware's approximation, not the engine's" if vals is not None else ""
        m.write(path, dst, m.float_data or Opaque(f"MUFU.{ins.mods[0]}{why}"), guard)
        return
    with np.errstate(divide="ignore", over="ignore"):
        m.write(path, dst, alu.from_f32(np.float32(1.0) / vals[0]), guard)


def _sqrt_fast_path(program, ins) -> bool:
    """Whether MUFU.RSQ r, x at `ins` seeds nvcc's sqrtf fast path and nothing else: after it, in
    order, FMUL.FTZ s, x, r; FMUL.FTZ r, r, 0.5 (r itself gone); FFMA e, -s, s, x; FFMA q, e, r, s."""
    r, x = ins.operands[0], ins.operands[1]
    if not (isinstance(r, isa.Reg) and isinstance(x, isa.Reg)):
        return False
    want = [("FMUL", lambda o: _same(o[1], x) and _same(o[2], r) or _same(o[1], r) and _same(o[2], x)),
            ("FMUL", lambda o: _same(o[0], r) and _same(o[1], r) and isinstance(o[2], isa.FImm)
             and alu.fimm(o[2].text) == 0.5),
            ("FFMA", lambda o: o[1].neg and _same(o[1], o[2]) and _same(o[3], x)),
            ("FFMA", lambda o: _same(o[2], r))]
    roles: dict = {}
    for k in range(1, 4 * _GUESS_REACH):
        other = program.by_pc.get(ins.pc + k * isa.INSTRUCTION_BYTES)
        if other is None or not want:
            break
        ops = list(other.operands)
        opcode, fits = want[0]
        if other.opcode == opcode and other.guard is None and len(ops) >= 3 and fits(ops):
            if opcode == "FMUL" and "s" not in roles:
                roles["s"] = ops[0]
            elif opcode == "FFMA" and "e" not in roles:
                if not _same(ops[1], roles["s"]):
                    return False
                roles["e"] = ops[0]
            elif opcode == "FFMA" and not (_same(ops[1], roles["e"]) and _same(ops[3], roles["s"])):
                return False
            want.pop(0)
    return not want


def _rcp_fast_path(program, ins) -> bool:
    """Whether MUFU.RCP r, x at `ins` seeds nvcc's `1.0f / x` (rcp.rn) fast path and nothing else:
    the next three instructions FFMA e, x, r, -1; FADD.FTZ f, -e, -RZ; FFMA q, r, f, r, each FFMA
    rounding to nearest (`__frcp_rz` and its kin round theirs as they name)."""
    r, x = ins.operands[0], ins.operands[1]
    if not (isinstance(r, isa.Reg) and isinstance(x, isa.Reg)):
        return False
    after = [program.by_pc.get(ins.pc + k * isa.INSTRUCTION_BYTES) for k in (1, 2, 3)]
    if any(o is None or o.guard is not None or len(o.operands) < 3 or set(o.mods) & set(_DIRECTED) for o in after):
        return False
    (ffma, e_ops), (fadd, f_ops), (last, q_ops) = ((o.opcode, list(o.operands)) for o in after)
    minus_one = len(e_ops) == 4 and _float_imm(e_ops[3]) == -1.0
    x_r = _same(e_ops[1], x) and _same(e_ops[2], r) or _same(e_ops[1], r) and _same(e_ops[2], x)
    return (ffma == "FFMA" and minus_one and x_r
            and fadd == "FADD" and "FTZ" in after[1].mods and _same(f_ops[1], e_ops[0])
            and last == "FFMA" and len(q_ops) == 4 and _same(q_ops[1], r) and _same(q_ops[2], f_ops[0])
            and _same(q_ops[3], r))


def _float_imm(o) -> float | None:
    """An immediate's value as a float instruction reads it, else None."""
    if isinstance(o, isa.FImm):
        return alu.fimm(o.text)
    return float(o.value) if isinstance(o, isa.Imm) else None


def _rcp_seed(m, x):
    """The reciprocal to seed `1.0f / x`'s fast path with, or None: the correctly rounded one, where
    every live lane the fast path takes (x's exponent field 1 to 252: the range check before it)
    gets the correctly rounded reciprocal from it through the Newton step (r - r (x r - 1), each
    FFMA rounded once), which is what the GPU's rcp.rn gives, whatever its own seed. A lane outside
    the range takes the slow path, the seed unread."""
    x = np.asarray(x, dtype=np.float32)
    biased = (x.view(np.uint32) >> 23) & 0xFF
    fast = (biased >= 1) & (biased <= 252)
    with np.errstate(all="ignore"):
        r = np.float32(1) / x  # IEEE's division: the correctly rounded reciprocal, the answer too
        q = alu.fma32(r, _ftz(-alu.fma32(x, r, np.float32(-1))), r)
    ok = ~fast | (q.view(np.uint32) == r.view(np.uint32))
    return r if np.all(ok | ~_live(m)) else None


def _live(m) -> np.ndarray:
    """The threads on the path now, as a bool array (all of them where the machine has no mask)."""
    return np.asarray(True if m.live is None else m.live)


def _sqrt_seed(m, x):
    """The reciprocal square root to seed sqrtf's fast path with, or None: where every live lane
    takes the fast path (x from 2^-101 up, finite: the range check beside it) and the fast path
    from this seed gives the correctly rounded square root (float64's, rounded to float32: double
    rounding is innocuous for a square root), which is what the GPU's sqrt.rn gives, whatever its
    own seed, or zero. Anywhere else the seed is data."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.int64)
    fast = (((bits - 0x0D000000) & MASK32) <= 0x727FFFFF) & (bits < 0x7F800000)
    with np.errstate(all="ignore"):
        r = (1.0 / np.sqrt(x.astype(np.float64))).astype(np.float32)
    # a lane outside the range check takes the slow path, the seed unread: a zero, a negative, an
    # infinity or a NaN is answered there without one, a denormal by the slow path's own seed
    ok = ~fast | _rounds_root(x, r)
    return r if np.all(ok | ~_live(m)) else None


def _rounds_root(x, r) -> np.ndarray:
    """Whether sqrtf's refinement from the seed r (s = x r, h = r / 2, both .FTZ; s + (x - s s) h,
    each FFMA rounded once) gives x's correctly rounded square root, lane by lane."""
    with np.errstate(all="ignore"):
        s = _ftz(alu.mul32(x, r))
        q = alu.fma32(alu.fma32(-s, s, x), _ftz(alu.mul32(r, np.float32(0.5))), s)
        exact = np.sqrt(x.astype(np.float64)).astype(np.float32)
    return q.view(np.uint32) == exact.view(np.uint32)


#: the seeds the slow paths take, as their code scales them: a normal divisor's significand (1 to
#: 2) for RCP, a normal positive x (a denormal times 2^64) for RSQ
_SEEDED = (2.0**-125, 2.0**125)


def _slow_path_seed(m, fn: str, kind: str, x):
    """MUFU.RCP or MUFU.RSQ inside nvcc's slow path of an IEEE division, reciprocal or square root
    (`Program.ieee`): the correctly rounded reciprocal (square root), within the hardware's
    approximation's error of it, from which the slow path's refinement rounds correctly, as PTX's
    div.rn, rcp.rn and sqrt.rn do whatever the seed; for a square root, each lane's refinement is
    checked to round correctly from it (`_rounds_root`), as the fast path's is. The division's
    MUFU.RSQ of a NaN (its 0/0 and inf/inf) is a NaN. None (data) for a lane of another value."""
    x = np.asarray(x, dtype=np.float32)
    live = _live(m)
    lo, hi = _SEEDED
    with np.errstate(all="ignore"):
        if fn == "RSQ" and np.all(np.isnan(x) | ~live):
            return np.full_like(x, np.nan)
        normal = (np.abs(x) >= lo) & (np.abs(x) <= hi)
        if fn == "RCP" and kind in ("div", "rcp"):  # rcp.approx's own answers for 0, inf and NaN
            r, ok = np.float32(1) / x, normal | (x == 0) | ~np.isfinite(x)
        elif fn == "RSQ" and kind == "sqrt":
            r = (1.0 / np.sqrt(x.astype(np.float64))).astype(np.float32)
            ok = normal & (x > 0) & _rounds_root(x, r)
        else:
            return None
    return r if np.all(ok | ~live) else None


#: how far from MUFU.RCP (in instructions) the division it belongs to is looked for
_GUESS_REACH = 16


def _corrected_guess(program, ins) -> bool:
    """Whether MUFU.RCP at `ins` is nvcc's integer division's first guess (the reciprocal of the
    divisor converted rounding up, I2F.RP, less two ulps by an IADD3/VIADD of 0xffffffe, then
    corrected in integers) or its float division's (an FCHK of the same divisor beside it)."""
    dst, src = ins.operands[0], ins.operands[1]
    for k in range(1, _GUESS_REACH + 1):  # the divisor's conversion, the nearest writer before
        other = program.by_pc.get(ins.pc - k * isa.INSTRUCTION_BYTES)
        if other is None:
            break
        if other.operands and _same(other.operands[0], src):
            if other.opcode in ("I2F", "I2FP") and "RP" in other.mods:
                return True
            break
    for k in range(-_GUESS_REACH, _GUESS_REACH + 1):
        other = program.by_pc.get(ins.pc + k * isa.INSTRUCTION_BYTES)
        if other is None:
            continue
        ops = list(other.operands)
        if k > 0 and other.opcode in ("IADD3", "VIADD") and dst in ops[1:] and \
                any(isinstance(o, isa.Imm) and o.value == 0xFFFFFFE for o in ops):
            return True
        if other.opcode == "FCHK" and len(ops) > 2 and _same(ops[2], src):
            return True
    return False


def _same(a, b) -> bool:
    """The same register or constant, modifiers aside."""
    if isinstance(a, isa.Reg) and isinstance(b, isa.Reg):
        return (a.file, a.index) == (b.file, b.index)
    return a == b


#: FCHK passes a division to its fast path only where a, b and the quotient lie this far inside
#: float32's normal range (2^-126 .. 2^128), well inside any bound the hardware's check may set
_FAST_DIVISION = (2.0**-100, 2.0**100)


def op_fchk(m, ins, path, guard, known):
    """FCHK P, a, b: whether nvcc's float division a / b leaves its fast path (MUFU.RCP, a Newton
    step, a residual correction) for the slow one. Computed on constants of the threads alone as:
    not where a, b and a / b are normal and far from the range's ends and the fast path, computed
    as this engine computes it, gives the correctly rounded quotient (float64's quotient rounded
    to float32: exact, double rounding being innocuous for division at 53 >= 2 x 24 + 2 bits).
    Where it says no in every live lane, the quotient is the correctly rounded one, which is what
    the GPU's division gives whichever path it takes (div.rn is IEEE's), and no lane takes the
    slow path; where a live lane needs the slow path the predicate is data (the slow path's
    MUFU.RCP would be the engine's, not the hardware's, so what it computes is not followed)."""
    p_out = ins.operands[0]
    vals = _floats(m, path, ins.operands[1:3], known)
    if vals is None:
        m.write(path, p_out, Opaque(ins.opcode), guard)
        return
    a, b = vals
    lo, hi = _FAST_DIVISION
    with np.errstate(all="ignore"):
        exact = (np.float64(a) / np.float64(b)).astype(np.float32)
        r = np.float32(1) / b
        r = alu.fma32(r, alu.fma32(r, -b, np.float32(1)), r)
        q = alu.fma32(a, r, np.float32(0))
        q = alu.fma32(r, alu.fma32(q, -b, a), q)

        def inside(x, zero_ok):
            return (np.abs(x) >= lo) & (np.abs(x) <= hi) | (zero_ok & (x == 0))
        fast = inside(b, False) & inside(a, True) & inside(exact, True) & (q.view(np.uint32) == exact.view(np.uint32))
    live = _live(m)
    m.write(path, p_out, F.FALSE if np.all(fast | ~live) else F.Const(np.broadcast_to(~fast & live, np.shape(fast))),
            guard)


def op_fsel(m, ins, path, guard, known):
    """FSEL d, a, b, p: SEL's choice of a float: an |a| or -a is a float's (the sign bit cleared or
    flipped, as atan2f's `FSEL R3, |R7|, |R4|, P2`), computed on constants of the threads alone, and
    an integer immediate is a float's value (powf's `FSEL R0, RZ, -24, P0` chooses -24.0)."""
    dst, a_op, b_op, p_op = ins.operands[:4]
    if not any(isinstance(o, isa.Imm) or isinstance(o, isa.Reg) and (o.abs or o.neg) for o in (a_op, b_op)):
        op_sel(m, ins, path, guard, known)
        return
    if any(isinstance(o, isa.Reg) and (o.abs or o.neg) for o in (a_op, b_op)):
        vals = _floats(m, path, [a_op, b_op], known)
        if vals is None:
            op_opaque(m, ins, path, guard, known, m.float_data)
            return
        a, b = (alu.from_f32(v) for v in vals)
    else:
        a, b = (alu.from_f32(np.float32(o.value)) if isinstance(o, isa.Imm) else m.read(path, o, known)
                for o in (a_op, b_op))
    m.write(path, dst, select(m.read_pred(path, p_op, known), a, b), guard)


def op_fmnmx(m, ins, path, guard, known):
    """FMNMX/DMNMX d, a, b, p: the minimum where p holds, else the maximum; a NaN loses to a
    number (fminf/fmaxf). Computed on constants of the threads alone, as FADD."""
    dst, a_op, b_op, p_op = ins.operands[:4]
    wide = ins.opcode == "DMNMX"
    vals = _floats(m, path, [a_op, b_op], known, wide, "FTZ" in ins.mods)
    want_min = m.read_pred(path, p_op, known)
    if vals is None or not (isinstance(want_min, F.Const) and (want_min.all_true or want_min.all_false)):
        op_opaque(m, ins, path, guard, known, m.float_data)
        return
    _write_float(m, path, dst, (np.fmin if want_min.all_true else np.fmax)(*vals), guard, wide)


def op_frnd(m, ins, path, guard, known):
    """FRND(.F64): a float rounded to an integral float (.FLOOR, .CEIL, .TRUNC, else to nearest
    even: floorf, ceilf, truncf, rintf and their doubles)."""
    dst, a_op = ins.operands[0], ins.operands[-1]
    wide = "F64" in ins.mods
    vals = _floats(m, path, [a_op], known, wide, "FTZ" in ins.mods)
    if vals is None or "F16" in ins.mods:
        op_opaque(m, ins, path, guard, known, m.float_data)
        return
    _write_float(m, path, dst, alu.to_integral(vals[0], alu.integral_rounding(ins.mods)), guard, wide)


def op_i2f(m, ins, path, guard, known):
    """I2F/I2FP: a 32-bit integer to float32 with the opcode's rounding, or to float64 (exact); a
    64-bit one (.S64, .U64 below 2^63: a register pair) to either, rounded to nearest."""
    dst, a_op = ins.operands[0], ins.operands[-1]
    mods = set(ins.mods)
    if mods & {"S64", "U64"}:
        a = m.read_pair(path, a_op, known)
        _note_indexed(m, [a])
        v = np.asarray(a.thread, dtype=np.int64) if isinstance(a, Sym) and not a.coef else None
        if v is None or mods & {"F16", "RZ", "RM", "RP"} or ("U64" in mods and np.any(v < 0)):
            op_opaque(m, ins, path, guard, known, data_in(a))
            return
        _write_float(m, path, dst, v.astype(np.float64 if "F64" in mods else np.float32), guard, "F64" in mods)
        return
    a = m.read_int(path, a_op, known)
    _note_indexed(m, [a])
    if not (isinstance(a, Sym) and not a.coef) or mods & {"F16", "S16", "U16", "S8", "U8"}:
        op_opaque(m, ins, path, guard, known, data_in(a))
        return
    if "F64" in mods:
        _write_float(m, path, dst, (alu.i32(a) if "U32" not in mods else alu.u32(a)).astype(np.float64), guard, True)
        return
    rounding = next((r for r in ("RP", "RM", "RZ") if r in mods), "RN")
    m.write(path, dst, alu.from_f32(alu.i2f(a, "U32" not in mods, rounding)), guard)


def op_f2i(m, ins, path, guard, known):
    """F2I: a float32 or float64 to a 32-bit integer, or a 64-bit one in a register pair (.S64;
    .U64 where it stays below 2^63: `(size_t)(x * s)`), saturating, with the opcode's rounding."""
    dst, a_op = ins.operands[0], ins.operands[-1]
    mods = set(ins.mods)
    vals = _floats(m, path, [a_op], known, "F64" in mods, "FTZ" in mods)
    if vals is None or "F16" in mods:
        op_opaque(m, ins, path, guard, known, m.float_data)
        return
    rounding = alu.integral_rounding(mods)
    if mods & {"S64", "U64"}:
        x = np.asarray(vals[0], dtype=np.float64)
        if "U64" in mods and np.any(np.nan_to_num(alu.to_integral(x, rounding)) >= 2.0**63):
            op_opaque(m, ins, path, guard, known)  # past int64: not followed
            return
        m.write_pair(path, dst, const(alu.f2i(x, "U64" not in mods, 64, rounding)), guard)
        return
    bits = alu.f2i(vals[0], "U32" not in mods, 32, rounding)
    m.write(path, dst, norm(const(bits)), guard)


def op_f2f(m, ins, path, guard, known):
    """F2F.F32.F64 (a double rounded to nearest float) and F2F.F64.F32 (exact); other widths and
    roundings are data."""
    types = [t for t in ins.mods if t in WIDTHS]
    if types not in (["F32", "F64"], ["F64", "F32"]) or _UNMODELLED & set(ins.mods):
        op_opaque(m, ins, path, guard, known)
        return
    to_double = types[0] == "F64"
    vals = _floats(m, path, [ins.operands[-1]], known, not to_double, "FTZ" in ins.mods)
    if vals is None:
        op_opaque(m, ins, path, guard, known, m.float_data)
        return
    with np.errstate(over="ignore"):
        x = np.asarray(vals[0]).astype(np.float64 if to_double else np.float32)
    _write_float(m, path, ins.operands[0], _ftz(x) if "FTZ" in ins.mods and not to_double else x, guard, to_double)


def op_hfma2(m, ins, path, guard, known):
    """HFMA2(.MMA) d, a, b, c_hi, c_lo: with a and b zero (nvcc's way to put a constant in a
    register: `HFMA2.MMA R5, -RZ, RZ, 0, 5.96e-08` is 1), the result is c's two halves exactly."""
    ops = list(ins.operands)
    dst, a_op, b_op = ops[0], ops[1], ops[2]
    rest = ops[3:]
    zero = all(isinstance(o, isa.Reg) and o.zero for o in (a_op, b_op))
    if zero and len(rest) == 2 and all(isinstance(o, (isa.Imm, isa.FImm)) for o in rest):
        halves = [alu.f16_bits(float(o.value) if isinstance(o, isa.Imm) else alu.fimm(o.text)) for o in rest]
        m.write(path, dst, norm(const((halves[0] << 16) | halves[1])), guard)
        return
    m.write(path, dst, Opaque(ins.opcode), guard)


def op_fsetp(m, ins, path, guard, known):
    """FSETP/DSETP P, Q, a, b, c: the comparison (ordered or unordered), combined with c."""
    ops = list(ins.operands)
    p_out, q_out = ops[0], ops[1]
    vals = _floats(m, path, [ops[2], ops[3]], known, ins.opcode == "DSETP", "FTZ" in ins.mods)
    cmp = ins.mods[0]
    logic = next((x for x in ins.mods if x in _BOOL), "AND")
    c_in = m.read_pred(path, ops[4], known) if len(ops) > 4 else F.TRUE
    if vals is None:
        m.write(path, p_out, m.float_data or Opaque(ins.opcode), guard)
        m.write(path, q_out, m.float_data or Opaque(ins.opcode), guard)
        return
    x, y = (np.asarray(v, dtype=np.float64) for v in vals)
    table = {"LT": x < y, "LE": x <= y, "GT": x > y, "GE": x >= y, "EQ": x == y, "NE": (x != y) & ~np.isnan(x + y),
             "NEU": x != y, "LTU": ~(x >= y), "LEU": ~(x > y), "GTU": ~(x <= y), "GEU": ~(x < y), "EQU": ~(x != y),
             "NAN": np.isnan(x + y), "NUM": ~np.isnan(x + y), "T": np.ones_like(x, bool), "F": np.zeros_like(x, bool)}
    c = F.Const(table[cmp])
    m.write(path, p_out, _BOOL[logic](c, c_in), guard)
    m.write(path, q_out, _BOOL[logic](F.f_not(c), c_in), guard)


def op_opaque(m, ins, path, guard, known, data: Opaque | None = None):
    """Data only (floating point, tensor cores, conversions of data): destinations become Opaque
    (the first operand, and the predicates right after it: ISETP's pair, IADD3's carries), `data`
    where the instruction knows what made it so (a load, an approximation), else the opcode."""
    ops = list(ins.operands)
    dests = ops[:1] + [o for o in ops[1:3] if isinstance(o, isa.Pred)][: (2 if isinstance(ops[0], isa.Pred) else 2)]
    value = data or Opaque(ins.opcode)
    for o in dests:
        if isinstance(o, isa.Reg):
            m.write(path, o, value, guard)
            for k in range(1, _dest_regs(ins)):
                m.write(path, isa.Reg(o.file, o.index + k), value, guard)
        elif isinstance(o, isa.Pred):
            m.write(path, o, value, guard)


def _dest_regs(ins) -> int:
    """How many registers an instruction writes from its first destination on."""
    mods = set(ins.mods)
    if ins.opcode in ("HMMA", "IMMA", "DMMA", "HGMMA"):
        return 4
    if ins.opcode in ("I2F", "I2FP", "FRND"):  # a float type names the destination (I2F.F64.S32, I2F.S64: F32)
        return 2 if "F64" in mods else 1
    if ins.opcode in ("F2I", "F2IP"):  # an integer type names it (F2I.S64.F64; F2I.F64.TRUNC writes an S32)
        return 2 if mods & {"S64", "U64"} else 1
    if ins.opcode in ("F2F", "I2I"):  # the first type is the destination's: F2F.F32.F64 writes one register
        types = [m for m in ins.mods if m in WIDTHS]
        return 2 if types and WIDTHS[types[0]] == 64 else 1
    if "F64" in mods or ins.opcode in ("DADD", "DMUL", "DFMA", "DMNMX"):
        return 2
    if "WIDE" in mods or (ins.opcode == "CS2R" and "32" not in mods):
        return 2  # IMAD.WIDE's pair, CS2R's 64 bits
    if ins.opcode in ("LDC", "ULDC") and "64" in mods:
        return 2
    return 1


#: Bits of each type a conversion's modifiers name
WIDTHS = {"F16": 16, "BF16": 16, "F32": 32, "F64": 64, "S8": 8, "U8": 8, "S16": 16, "U16": 16, "S32": 32, "U32": 32,
          "S64": 64, "U64": 64}


# Instructions whose results are data whatever their guard: under a data predicate they make data.
DATA_GUARD_OK = {"FADD", "FMUL", "FFMA", "FMNMX", "FSEL", "FSETP", "MUFU", "I2F", "F2I", "F2F", "F2FP", "FRND",
                 "HFMA2", "HADD2", "HMUL2", "HSET2", "HSETP2", "HMNMX2", "DADD", "DMUL", "DFMA", "DSETP", "DMNMX",
                 "MOV", "SEL", "IMAD", "IADD3", "LOP3", "SHF", "PRMT", "VIADD", "ISETP", "PLOP3", "IMNMX",
                 "VIMNMX", "VIADDMNMX", "LEA", "SHL", "SHR", "IABS", "POPC", "FLO", "BREV", "BMSK", "I2I", "I2FP",
                 "FSET", "FCHK", "BREAK", "BSSY", "BSYNC", "WARPSYNC", "YIELD", "NOP", "CS2R", "MOV32I", "FSWZADD"}
