"""Invariants of the pieces the SASS engine is built from (hypothesis): lane formulas, the class
counter on formulas, and the affine integer rules. Each rule is checked the same way: a
symbolic result evaluated at concrete block/loop indices equals the operation applied to the
concrete operands."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warpsim import formula as F
from warpsim.fast import count_site
from warpsim.sass import alu
from warpsim.sass.values import (MASK32, EngineError, Env, NotAffine, const, floor_div_pow2, signed, thread_windows,
                                  unsigned)
from warpsim.symbolic import Sym
from warpsim.tally import tally
from warpsim.trace import Site

T = 64  # threads per block in these tests: two warps
DIMS = ("d0", "d1")
SMALL = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def atoms(draw):
    coef = {d: draw(st.integers(-40, 40)) for d in DIMS if draw(st.booleans())}
    thread = np.asarray(draw(st.lists(st.integers(-60, 60), min_size=T, max_size=T)), dtype=np.int64)
    return (F.lt if draw(st.booleans()) else F.eq)(coef, thread)


@st.composite
def formulas(draw, depth=3):
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(atoms())
    kind = draw(st.sampled_from(["and", "or", "not"]))
    if kind == "not":
        return F.f_not(draw(formulas(depth - 1)))
    parts = [draw(formulas(depth - 1)) for _ in range(draw(st.integers(2, 3)))]
    return (F.f_and if kind == "and" else F.f_or)(*parts)


def at(f: F.Formula, values: dict) -> np.ndarray:
    """A formula's bool per thread at concrete dimension values (by direct arithmetic)."""
    if isinstance(f, F.Const):
        return np.broadcast_to(np.asarray(f.mask, dtype=bool), (T,))
    if isinstance(f, (F.Lt, F.Eq)):
        v = sum(c * values[d] for d, c in f.coef) + np.broadcast_to(f.thread, (T,))
        return v < 0 if isinstance(f, F.Lt) else v == 0
    if isinstance(f, F.Not):
        return ~at(f.child, values)
    parts = [at(c, values) for c in f.children]
    return np.logical_and.reduce(parts) if isinstance(f, F.And) else np.logical_or.reduce(parts)


def evaluate(f, values):
    holds = {a.key: a.holds(np.asarray([sum(c * values[d] for d, c in a.coef)])) for a in F.atoms(f)}
    return F.evaluate(f, holds, (1, T))[0]


@SMALL
@given(f=formulas(), d0=st.integers(0, 9), d1=st.integers(0, 9))
def test_formulas_mean_what_their_atoms_say(f, d0, d1):
    values = {"d0": d0, "d1": d1}
    assert np.array_equal(evaluate(f, values), at(f, values))
    assert np.array_equal(evaluate(F.f_not(f), values), ~at(f, values))  # negation is pushed to the atoms
    # and is an involution in meaning; not in form: the folding may factor the result, e.g.
    # (X or a or e) and (b or e) comes back as e or ((X or a) and b)
    assert np.array_equal(evaluate(F.f_not(F.f_not(f)), values), at(f, values))


@SMALL
@given(a=atoms())
def test_negating_an_atom_twice_gives_the_atom(a):
    assert F.f_not(F.f_not(a)).key == a.key


@SMALL
@given(f=formulas(), g=formulas(), d0=st.integers(0, 9), d1=st.integers(0, 9))
def test_factoring_keeps_the_meaning(f, g, d0, d1):
    # (X and a) or (X and b) -> X and (a or b); a or not a -> true
    values = {"d0": d0, "d1": d1}
    assert np.array_equal(evaluate(F.f_or(F.f_and(f, g), F.f_and(f, F.f_not(g))), values), at(f, values))
    assert np.array_equal(evaluate(F.f_or(f, g), values), at(f, values) | at(g, values))


@SMALL
@given(f=formulas(), c=st.integers(-5, 5), t=st.integers(-5, 5), d0=st.integers(0, 9), d1=st.integers(0, 9))
def test_substitution(f, c, t, d0, d1):
    # d0 := c*d1 + t, evaluated, equals f at d0 = c*d1 + t
    g = F.substitute(f, "d0", {"d1": c}, t)
    assert np.array_equal(evaluate(g, {"d0": 0, "d1": d1}), at(f, {"d0": c * d1 + t, "d1": d1}))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(region=formulas(2), pred=formulas(2), c0=st.integers(-300, 300), c1=st.integers(-300, 300),
       e0=st.integers(1, 40), e1=st.integers(1, 300), width=st.sampled_from([4, 8, 16]),
       stride=st.integers(0, 20), space=st.sampled_from(["global", "shared"]))
def test_class_counting_on_formulas_equals_enumeration(region, pred, c0, c1, e0, e1, width, stride, space):
    # any formula over < and == atoms: the classes along each dimension (interval ends, equality
    # points, residues mod 128 B) give exactly the sum over every value of the dimensions
    lanes = (1 << 20) + np.arange(T, dtype=np.int64) * stride * (width // 4 or 1)  # addresses stay positive
    site = Site(space, "X", "load", width, 1, Sym({"d0": c0 * 4, "d1": c1 * 4}, lanes), region, pred,
                (("d0", e0), ("d1", e1)))
    fast = count_site(site, T)
    brute: dict = {}
    for v0 in range(e0):
        for v1 in range(e1):
            values = {"d0": v0, "d1": v1}
            reach, live = at(region, values), at(region, values) & at(pred, values)
            addr = (c0 * 4 * v0 + c1 * 4 * v1 + lanes).reshape(-1, 32)
            for k, v in tally(space, width, addr, live.reshape(-1, 32), reach.reshape(-1, 32).any(axis=1),
                              np.ones(T // 32, dtype=np.int64)).items():
                brute[k] = brute.get(k, 0) + v
    assert {k: v for k, v in fast.items() if v} == {k: v for k, v in brute.items() if v}


# --- the affine integer rules ----------------------------------------------------------------------

ENV = Env({"d": 50}, T)
dvals = st.integers(0, 49)
threads = st.lists(st.integers(0, 1 << 20), min_size=T, max_size=T).map(lambda v: np.asarray(v, dtype=np.int64))


def concrete(v: Sym, d: int) -> np.ndarray:
    return (v.coef.get("d", 0) * d + np.broadcast_to(v.thread, (T,))) & MASK32


@SMALL
@given(k=st.integers(0, 8), t=threads, mask=st.integers(0, MASK32), lut=st.sampled_from([0xC0, 0xFC, 0x3C, 0xE2, 0x33, 0x0F]),
       d=dvals)
def test_lop3_when_affine_is_exact(k, t, mask, lut, d):
    a = Sym({"d": 1 << k}, t)  # a block index times 2^k plus a per-thread part
    try:
        out = alu.lop3(a, const(mask), const(np.arange(T) & 0xF), lut)
    except NotAffine:
        return  # refused, never guessed
    want = alu._lut(concrete(a, d), np.int64(mask), np.arange(T, dtype=np.int64) & 0xF, lut) & MASK32
    assert np.array_equal(concrete(out, d), want)


BLOCKS = Env({"blockIdx.x": 64}, T)


def at_block(v: Sym, b: int) -> np.ndarray:
    return (v.coef.get("blockIdx.x", 0) * b + np.broadcast_to(v.thread, (T,))) & MASK32


@SMALL
@given(k=st.integers(0, 6), j=st.integers(0, 6), t=threads, u=threads, b=st.integers(0, 63),
       mask=st.sampled_from([0x3, 0xF, 0xFF, 0xF0, MASK32]), lut=st.sampled_from([0xF8, 0xEA, 0xC0, 0x6A, 0x78, 0xE2]))
def test_lop3_of_two_dependent_values_is_exact_or_refused(k, j, t, u, b, mask, lut):
    # two block-dependent operands: exact where f reads one of them below bit m only and its
    # coefficient is a multiple of 2**m (those bits one number per thread), else refused
    x, y = Sym({"blockIdx.x": 1 << k}, t), Sym({"blockIdx.x": 1 << j}, u)
    try:
        out = alu.lop3(x, const(mask), y, lut, BLOCKS)
    except NotAffine:
        return
    want = alu._lut(at_block(x, b), np.int64(mask), at_block(y, b), lut) & MASK32
    assert np.array_equal(at_block(out, b), want)


#: a block index taken as quotient and remainder (values.QUOTIENT): b = 16 q + r, r < 16
QR = Env({"blockIdx.quotient.x": 9, "blockIdx.x": 16}, T)
small_threads = st.lists(st.integers(0, 40), min_size=T, max_size=T).map(lambda v: np.asarray(v, dtype=np.int64))


def at_qr(v: Sym, q: int, r: int) -> np.ndarray:
    return v.coef.get("blockIdx.quotient.x", 0) * q + v.coef.get("blockIdx.x", 0) * r + np.broadcast_to(v.thread, (T,))


@SMALL
@given(k=st.integers(1, 6), cq=st.integers(1, 64), cr=st.integers(1, 4), t=small_threads,
       mask=st.sampled_from([0xF, ~0xF & MASK32, 0x7FFFFF0, 0x3F, 0xF0, MASK32]),
       lut=st.sampled_from([0xC0, 0xFC, 0x3C, 0x30, 0xF3, 0x0F]))
def test_lop3_of_a_quotient_and_remainder_is_exact_or_refused(k, cq, cr, t, mask, lut):
    # 2**k cq q + cr r + t: where each thread's cr r + t stays between two multiples of 2**k' for
    # some k' (alu._windowed), the bits below and above k' are each affine; else refused
    x = Sym({"blockIdx.quotient.x": cq << k, "blockIdx.x": cr}, t)
    try:
        out = alu.lop3(x, const(mask), const(0), lut, QR)
    except NotAffine:
        return
    for q in range(9):
        for r in range(16):
            want = alu._lut(at_qr(x, q, r) & MASK32, np.int64(mask), np.int64(0), lut) & MASK32
            assert np.array_equal(at_qr(out, q, r) & MASK32, want)


@SMALL
@given(s=st.integers(1, 8), cq=st.integers(-64, 64), cr=st.integers(-4, 4), t=small_threads)
def test_a_shift_of_a_quotient_and_remainder_is_exact_or_refused(s, cq, cr, t):
    # floor((16 cq q + cr r + t) / 2**s): affine where each thread's part below 2**s stays in one window
    x = Sym({d: c for d, c in (("blockIdx.quotient.x", 16 * cq), ("blockIdx.x", cr)) if c}, t + 4096)
    try:
        out = floor_div_pow2(x, s, QR)
    except (NotAffine, EngineError):  # refused, or asks for residue classes (StrideRequest)
        return
    for q in range(9):
        for r in range(16):
            assert np.array_equal(at_qr(out, q, r), at_qr(x, q, r) >> s)


def test_a_remainder_by_16_ored_into_a_multiple_of_16():
    # nvcc's `t * 16 + blockIdx.x % 16` (kernels/quotients.cu split_heads): (t << 4) | (b & 15),
    # LOP3 lut 0xF8 = a | (b & c). In a residue class b = r + 16 q the index's low bits are r, one
    # number: the result is t * 16 + r. Over the whole index they are not: split it into its 16
    # classes (the refusal's stride)
    t = np.arange(T, dtype=np.int64) << 4
    in_class = Sym({"blockIdx.x": 16}, np.full(T, 5))  # b = 5 + 16 q
    out = alu.lop3(Sym({"blockIdx.x": 64}, t), const(0xF), in_class, 0xF8, BLOCKS)
    assert out.coef == {"blockIdx.x": 64} and np.array_equal(np.broadcast_to(out.thread, (T,)), t + 5)
    with pytest.raises(NotAffine) as refused:
        alu.lop3(Sym({"blockIdx.x": 64}, t), const(0xF), Sym({"blockIdx.x": 1}, np.zeros(T)), 0xF8, BLOCKS)
    assert refused.value.stride == ("blockIdx.x", 16)


@SMALL
@given(c=st.integers(-(1 << 40), 1 << 40), t=st.lists(st.integers(-(1 << 36), 1 << 36), min_size=T, max_size=T),
       live=st.lists(st.booleans(), min_size=T, max_size=T))
def test_a_window_per_thread_where_each_stays_in_one(c, t, live):
    # values.thread_windows: floor(v / 2**32) per thread where it is one number over every value
    # of d for each thread that matters (env.live; none: every thread), else None
    v = Sym({"d": c}, np.asarray(t, dtype=np.int64))
    mask = np.asarray(live)
    env = Env({"d": 50}, T, live=mask)
    windows = thread_windows(v, env)
    every = (c * np.arange(50)[:, None] + np.asarray(t)[None, :]) >> 32  # (d, thread)
    matters = mask if mask.any() else np.ones(T, dtype=bool)
    one = (every == every[0]).all(axis=0)
    if windows is None:
        assert not one[matters].all()
    else:
        assert not windows.coef and np.array_equal(np.broadcast_to(windows.thread, (T,))[matters], every[0][matters])
        assert one[matters].all()


@SMALL
@given(k=st.integers(0, 12), s=st.integers(0, 12), t=threads, d=dvals)
def test_shifts_and_windows(k, s, t, d):
    a = Sym({"d": 1 << k}, t)
    try:
        q = floor_div_pow2(a, s, ENV)
    except NotAffine:
        assert k < s  # refused only where the coefficient is not a multiple of 2^s
        return
    assert np.array_equal(concrete(q, d), (concrete(a, d) >> s) & MASK32)
    neg = Sym({"d": -(1 << k)}, -t - 1)  # negative values: signed and unsigned views differ by 2^32
    assert np.array_equal(concrete(signed(neg, ENV), d), concrete(neg, d))
    assert np.array_equal(concrete(unsigned(neg, ENV), d), concrete(neg, d))


@SMALL
@given(a=st.integers(0, MASK32), b=st.integers(0, MASK32), c=st.integers(0, (1 << 64) - 1))
def test_imad_hi_adds_a_64_bit_pair(a, b, c):
    # IMAD.HI d, a, b, c: the high half of a*b + (c+1:c), modulo 2^64 (nvcc's division sequence)
    got = alu.mul_hi_add(const(a), const(b), const(np.int64(np.uint64(c).view(np.int64))), False)
    assert int(got.thread) & MASK32 == ((a * b + c) % (1 << 64)) >> 32
