"""Addresses computed in floating point from the block and loop indices (kernels/images.cu: an
image resized by `(int)(x * sx)`, bilinear taps from `floorf`, a byte image by `__float2int_rn`,
a box filter's taps at `x + k * step` in a loop). The float arithmetic is exact once the indices
are numbers, so such a launch is counted block by block, not refused. Checked against each
thread's address worked out in numpy from the .cu (float32 as IEEE rounds it: FFMA's product and
sum rounded once, which float64 holds exactly at these sizes), warp by warp. Doubles, a float
division's fast path, and `__sad`'s absolute difference of indices likewise."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import alu
from warpsim.sass import analyze as A

SOURCE = Path(__file__).resolve().parent.parent / "kernels" / "images.cu"
f32 = np.float32


def launch(entry: str, grid: str, block: str, args: dict) -> dict:
    k = A.prepare(SOURCE, entry, grid, block, args)
    a = A.analyze_launch(k)
    # block by block, not refused, saying why: "counted by running each of its N blocks (exact, not
    # symbolic): an address computed in floating point from the block or loop indices (I2FP), at pc ..."
    assert any("counted by running each of its" in w and "computed in floating point from the block or loop "
               "indices (I2F" in w for w in a.warnings), a.warnings
    return {(r.array, r.op): (r.requests, r.sectors) for r in a.rows}


def warp_counts(address: np.ndarray, active: np.ndarray, width: int) -> tuple[int, int]:
    """Requests and sectors of one instruction: `address` and `active` are (warps, 32), each lane
    `width` bytes at its address (aligned, so within one sector). A warp with a lane on makes a
    request; its sectors are the distinct 32-byte sectors its active lanes touch."""
    assert width <= 32
    sector = np.where(active, address // 32, -1)
    sector.sort(axis=1)
    distinct = (sector >= 0) & np.concatenate([np.ones((len(sector), 1), bool), np.diff(sector, axis=1) != 0], axis=1)
    return int(active.any(axis=1).sum()), int(distinct.sum())


def threads_2d(grid: tuple[int, int], block: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """x and y of every thread, (warps, 32): warps of 32 consecutive threads of a block, x fastest."""
    bx, by = block
    assert (bx * by) % 32 == 0
    gy, gx, ty, tx = np.meshgrid(np.arange(grid[1]), np.arange(grid[0]), np.arange(by), np.arange(bx), indexing="ij")
    return (gx * bx + tx).reshape(-1, 32), (gy * by + ty).reshape(-1, 32)


def summed(counts: list[tuple[int, int]]) -> tuple[int, int]:
    return sum(c[0] for c in counts), sum(c[1] for c in counts)


@needs_nvcc
@pytest.mark.parametrize("sw,sh,dw,dh,sx,sy", [(61, 37, 90, 33, 0.677, 1.12), (1000, 700, 333, 250, 3.003, 2.8),
                                               (128, 64, 256, 128, 0.5, 0.5)])
def test_a_nearest_neighbour_resize_counts_as_each_thread_truncates_x_times_sx(sw, sh, dw, dh, sx, sy):
    block, grid = (32, 8), (-(-dw // 32), -(-dh // 8))
    x, y = threads_2d(grid, block)
    on = (x < dw) & (y < dh)
    # FMUL then F2I.TRUNC: the float32 product of x and sx, truncated; clamped to the last column
    u = np.minimum((x.astype(f32) * f32(sx)).astype(np.int64), sw - 1)
    v = np.minimum((y.astype(f32) * f32(sy)).astype(np.int64), sh - 1)
    got = launch("resize_nearest", "cdiv(dw,32),cdiv(dh,8)", "32x8",
                 {"sw": sw, "sh": sh, "dw": dw, "dh": dh, "sx": sx, "sy": sy})
    assert got[("src", "load")] == warp_counts(4 * (v * sw + u), on, 4)
    assert got[("dst", "store")] == warp_counts(4 * (y * dw + x), on, 4)


@needs_nvcc
def test_a_bilinear_resize_counts_its_four_taps_from_floorf():
    sw, sh, dw, dh, sx, sy = 61, 37, 90, 47, 0.677, 0.79
    block, grid = (32, 8), (3, 6)
    x, y = threads_2d(grid, block)
    on = (x < dw) & (y < dh)

    def taps(i, s, n):
        # (i + 0.5f) * s - 0.5f is an FADD and an FFMA: rounded once after the exact product and sum
        t = (i.astype(f32) + f32(0.5)).astype(np.float64)
        g = np.floor((t * np.float64(f32(s)) - 0.5).astype(f32)).astype(np.int64)
        return np.clip(g, 0, n - 1), np.clip(g + 1, 0, n - 1)

    x0, x1 = taps(x, sx, sw)
    y0, y1 = taps(y, sy, sh)
    want = summed([warp_counts(4 * (r * sw + c), on, 4) for r in (y0, y1) for c in (x0, x1)])
    got = launch("resize_bilinear", "3,6", "32x8", {"sw": sw, "sh": sh, "dw": dw, "dh": dh, "sx": sx, "sy": sy})
    assert got[("src", "load")] == want


@needs_nvcc
def test_a_byte_image_resized_with_round_to_nearest_counts_byte_sectors():
    sw, sh, dw, dh, sx, sy = 300, 37, 200, 33, 1.5, 1.12
    x, y = threads_2d((4, 5), (64, 8))
    on = (x < dw) & (y < dh)
    # __float2int_rn: F2I to nearest even (1.5 x 3 = 4.5 rounds to 4, x 5 = 7.5 to 8)
    u = np.minimum(np.rint(x.astype(f32) * f32(sx)).astype(np.int64), sw - 1)
    v = np.minimum(np.rint(y.astype(f32) * f32(sy)).astype(np.int64), sh - 1)
    got = launch("resize_u8", "4,5", "64x8", {"sw": sw, "sh": sh, "dw": dw, "dh": dh, "sx": sx, "sy": sy})
    assert got[("src", "load")] == warp_counts(v * sw + u, on, 1)
    assert got[("dst", "store")] == warp_counts(y * dw + x, on, 1)


@needs_nvcc
@pytest.mark.parametrize("taps,step,scale", [(3, 0.33, 4.0), (8, 0.125, 2.7), (5, 0.2, 1.0)])
def test_taps_at_float_offsets_in_a_loop_count_iteration_by_iteration(taps, step, scale):
    sw, dw, rows = 1000, 250, 7
    x, y = threads_2d((2, rows), (128, 1))
    on = x < dw
    counts = []
    for k in range(taps):
        # x + k * step is one FFMA (exact in float64 here, rounded once), then an FMUL
        t = (np.float64(k) * np.float64(f32(step)) + x).astype(f32)
        u = np.minimum((t * f32(scale)).astype(np.int64), sw - 1)
        counts.append(warp_counts(4 * (y * sw + u), on, 4))
    got = launch("downsample", "2,h", "128",
                 {"sw": sw, "dw": dw, "h": rows, "scale": scale, "step": step, "taps": taps})
    assert got[("src", "load")] == summed(counts)


@needs_nvcc
def test_a_float_address_from_loaded_data_is_still_refused(tmp_path):
    path = tmp_path / "gather.cu"
    path.write_text('extern "C" __global__ void g(const float *x, const float *t, float *y, int n, float s) {\n'
                    '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
                    '  if (i < n) y[i] = t[(int)(x[i] * s + i * 0.5f)];\n}\n')
    k = A.prepare(path, "g", "cdiv(n,128)", "128", {"n": 1000, "s": 2.0, "t": "float[4000]"})
    with pytest.raises(UsageError, match=r"an address computed from data \(.*LDG.*\).*line 3"):
        A.analyze_launch(k)


@needs_nvcc
def test_fminf_and_rintf_on_indices_are_computed(tmp_path):
    path = tmp_path / "clamp.cu"
    path.write_text('extern "C" __global__ void c(const float *x, float *y, int n, float s, float hi) {\n'
                    '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
                    '  if (i < n) y[i] = x[(int)rintf(fminf(i * s, hi))];\n}\n')
    n, s, hi = 500, 1.7, 600.0
    k = A.prepare(path, "c", "cdiv(n,64)", "64", {"n": n, "s": s, "hi": hi, "x": "float[601]"})
    got = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    i = np.arange(-(-n // 64) * 64).reshape(-1, 32)
    # FMUL, FMNMX (fminf), FRND (rintf: to nearest even), F2I: lanes 1.7 apart up to 600
    j = np.rint(np.fmin(i.astype(f32) * f32(s), f32(hi))).astype(np.int64)
    assert got[("x", "load")] == warp_counts(4 * j, i < n, 4)


def _exact_fma32(a: float, b: float, c: float) -> np.float32:
    """a * b + c rounded once to float32 (nearest even), by exact rational arithmetic."""
    from fractions import Fraction
    x = Fraction(a) * Fraction(b) + Fraction(c)
    if x == 0:  # a zero's sign as IEEE gives it (float64 holds these exactly)
        return f32(np.float64(a) * np.float64(b) + np.float64(c))
    near = f32(float(x))
    candidates = [near, np.nextafter(near, f32(np.inf)), np.nextafter(near, f32(-np.inf))]
    return min(candidates, key=lambda y: (abs(Fraction(float(y)) - x), int(y.view(np.uint32)) & 1))


finite32 = st.floats(width=32, allow_nan=False, allow_infinity=False, min_value=-(2.0**60), max_value=2.0**60)


@settings(max_examples=300)
@given(finite32, finite32, finite32)
def test_ffma_rounds_once(a, b, c):
    # against exact rationals on any float32 inputs whose result stays finite
    assert alu.fma32(a, b, c).view(np.uint32) == _exact_fma32(a, b, c).view(np.uint32)


def test_ffma_breaks_a_tie_that_two_roundings_get_wrong():
    # (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 lies halfway between two float32s; a tiny c decides which
    # way it rounds, where float64 then float32 sees the tie alone and rounds to even
    a, tiny = f32(1 + 2**-12), 2.0**-80
    even, odd = f32(1 + 2**-11), f32(1 + 2**-11 + 2**-23)
    assert alu.fma32(a, a, f32(tiny)) == odd and alu.fma32(a, a, f32(-tiny)) == even
    assert f32(np.float64(a) * np.float64(a) + np.float64(f32(tiny))) == even  # two roundings: wrong


DIVIDE = ('extern "C" __global__ void d(const float *x, float *y, int n, float s) {\n'
          '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
          '  if (i < n) y[i] = x[(int)((i + 0.5f) / s)];\n}\n')


@needs_nvcc
@pytest.mark.parametrize("s", [1.7, 0.3, 3.0, 7.77])
def test_a_float_division_takes_its_fast_path_and_gives_the_correctly_rounded_quotient(tmp_path, s):
    # (i + 0.5f) / s: MUFU.RCP, a Newton step, a residual correction, FCHK deciding the slow path.
    # Whichever path the GPU takes, div.rn's quotient is the correctly rounded one: float64's
    # quotient of the two float32s rounded to float32 (innocuous double rounding for division)
    path = tmp_path / "divide.cu"
    path.write_text(DIVIDE)
    n = 1000
    k = A.prepare(path, "d", "cdiv(n,128)", "128", {"n": n, "s": s, "x": f"float[{int(n / s) + 2}]"})
    got = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    i = np.arange(-(-n // 128) * 128).reshape(-1, 32)
    t = (i.astype(f32) + f32(0.5)).astype(np.float64)
    j = (t / np.float64(f32(s))).astype(f32).astype(np.int64)
    assert got[("x", "load")] == warp_counts(4 * j, i < n, 4)


DOUBLES = '''extern "C" __global__ void mul(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(int)(i * 1.5)];   // a double literal: I2F.F64, DMUL, F2I.F64.TRUNC
}
extern "C" __global__ void fmad(const float *x, float *y, int n, double s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(int)(i * s + 0.5)];   // DFMA with an immediate 0.5
}
extern "C" __global__ void back(const float *x, float *y, int n, double s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float f = (float)(i * s);   // DMUL, F2F.F32.F64, then F2I.FLOOR
  if (i < n) y[i] = x[(int)floorf(f)];
}
'''


@needs_nvcc
@pytest.mark.parametrize("entry,s", [("mul", None), ("fmad", 0.7), ("fmad", 2.3), ("back", 0.7), ("back", 1.1)])
def test_double_arithmetic_on_indices_is_computed_as_ieee_doubles(tmp_path, entry, s):
    from fractions import Fraction
    path = tmp_path / "doubles.cu"
    path.write_text(DOUBLES)
    n = 1000
    args = {"n": n, "x": "float[2600]", **({"s": s} if s is not None else {})}
    k = A.prepare(path, entry, "cdiv(n,128)", "128", args)
    got = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    i = np.arange(-(-n // 128) * 128).reshape(-1, 32)
    if entry == "mul":
        j = (i * 1.5).astype(np.int64)  # exact in float64
    elif entry == "fmad":  # i * s + 0.5 rounded once: exact rationals, then to the nearest double
        j = np.vectorize(lambda v: int(float(Fraction(int(v)) * Fraction(s) + Fraction(1, 2))))(i)
    else:  # the double product rounded to float32 (nearest even), floored
        j = np.floor((i * np.float64(s)).astype(f32)).astype(np.int64)
    assert got[("x", "load")] == warp_counts(4 * j, i < n, 4)


finite64 = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=300)
@given(finite64, finite64, finite64)
def test_dfma_rounds_once(a, b, c):
    # against exact rationals on any finite doubles (those past 2^400 through the rational path)
    from fractions import Fraction
    x = Fraction(a) * Fraction(b) + Fraction(c)
    try:
        want = float(x) if x != 0 else a * b + c
    except OverflowError:
        want = float("inf") if x > 0 else float("-inf")
    got = float(alu.fma64(a, b, c))
    assert got == want and np.signbit(got) == np.signbit(want)


def test_dfma_breaks_a_tie_that_two_roundings_get_wrong():
    # (1 + 2^-26)(1 + 2^-27) = 1 + 2^-26 + 2^-27 + 2^-53: halfway between two doubles
    a, b, tiny = 1 + 2.0**-26, 1 + 2.0**-27, 2.0**-200
    even = 1 + 2.0**-26 + 2.0**-27
    assert alu.fma64(a, b, tiny) == even + 2.0**-52 and alu.fma64(a, b, -tiny) == even
    assert a * b + tiny == even  # the product rounded first: the tie goes to even, wrongly


COORDS = Path(__file__).resolve().parent.parent / "kernels" / "coords.cu"


@needs_nvcc
@pytest.mark.parametrize("taps,width", [(3, 0.75), (8, 2.9997), (5, 1.2503)])
def test_a_float_division_inside_a_loop_counts_each_tap(taps, width):
    sw, dw, rows = 1000, 250, 5
    x, y = threads_2d((2, rows), (128, 1))
    counts = []
    for k in range(taps):  # (x taps + k) / width: exact integer, correctly rounded float32 quotient
        q = ((x * taps + k).astype(f32).astype(np.float64) / np.float64(f32(width))).astype(f32)
        counts.append(warp_counts(4 * (y * sw + np.minimum(q.astype(np.int64), sw - 1)), x < dw, 4))
    k = A.prepare(COORDS, "taps_div", "cdiv(dw,128),h", "128",
                  {"sw": sw, "dw": dw, "h": rows, "width": width, "taps": taps})
    got = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    assert got[("src", "load")] == summed(counts)


SAD = '''extern "C" __global__ void sad(const float *x, float *y, int n, int c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[__sad(i, c, 0)];   // VABSDIFF: |i - c|, signed
}
extern "C" __global__ void usad(const float *x, float *y, unsigned n, unsigned c, unsigned z) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[__usad(i, c, z)];   // VABSDIFF.U32: |i - c| + z, unsigned
}
'''


@needs_nvcc
@pytest.mark.parametrize("entry,c,z", [("sad", 500, 0), ("sad", -7, 0), ("sad", 2000, 0), ("usad", 333, 5)])
def test_an_absolute_difference_of_indices_is_counted_either_side_of_its_turn(tmp_path, entry, c, z):
    # an integer intrinsic, not a float one, but the same need: |i - c| turns where i passes c, so
    # the block index runs value by value (8 blocks) and each lane's address is |i - c| + z
    path = tmp_path / "sad.cu"
    path.write_text(SAD)
    n = 1000
    args = {"n": n, "c": c, "x": "float[3000]", **({"z": z} if entry == "usad" else {})}
    k = A.prepare(path, entry, "cdiv(n,128)", "128", args)
    got = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    i = np.arange(-(-n // 128) * 128).reshape(-1, 32)
    assert got[("x", "load")] == warp_counts(4 * (np.abs(i - c) + z), i < n, 4)


WIDE = '''extern "C" __global__ void f2u64(const float *x, float *y, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(size_t)(i * s)];   // F2I.U64.TRUNC into a register pair
}
extern "C" __global__ void f2s64(const float *x, float *y, int n, double s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(long long)(i * s)];   // F2I.S64.F64.TRUNC
}
extern "C" __global__ void i642f(const float *x, float *y, long long n, float s) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(int)((float)i * s)];   // I2F.S64 from a register pair
}
extern "C" __global__ void rnd(const float *x, float *y, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(int)roundf(i * s)];   // copysign(0.49999997, x) added by FADD.RZ, truncated
}
'''


@needs_nvcc
@pytest.mark.parametrize("entry,s", [("f2u64", 2.3), ("f2s64", 2.3), ("i642f", 1.7), ("rnd", 2.5), ("rnd", 0.7)])
def test_64_bit_conversions_and_roundf_of_indices_are_computed(tmp_path, entry, s):
    path = tmp_path / "wide.cu"
    path.write_text(WIDE)
    n = 1000
    k = A.prepare(path, entry, "cdiv(n,128)", "128", {"n": n, "s": s, "x": "float[3000]"})
    got = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    i = np.arange(-(-n // 128) * 128).reshape(-1, 32)
    if entry == "f2s64":
        j = np.trunc(i * np.float64(s)).astype(np.int64)  # an exact double product, truncated
    else:
        x = i.astype(f32) * f32(s)
        # roundf: half away from zero (x >= 0 here); the others truncate
        j = (np.floor(x.astype(np.float64) + 0.5) if entry == "rnd" else np.trunc(x)).astype(np.int64)
    assert got[("x", "load")] == warp_counts(4 * j, i < n, 4)


def _exact_round32(x, mode: str) -> np.float32:
    """A rational rounded to float32 in `mode`, by comparing with its two float32 neighbours."""
    from fractions import Fraction
    near = f32(float(x))  # within an ulp of x: x lies between it and one of its neighbours
    value = lambda y: Fraction(float(y))  # noqa: E731
    lo = max((y for y in (near, np.nextafter(near, f32(-np.inf))) if value(y) <= x), key=value)
    hi = min((y for y in (near, np.nextafter(near, f32(np.inf))) if value(y) >= x), key=value)
    if mode == "RM":
        return lo
    if mode == "RP":
        return hi
    return lo if x >= 0 else hi  # RZ


@settings(max_examples=300)
@given(st.floats(width=32, allow_nan=False, allow_infinity=False, min_value=-(2.0**60), max_value=2.0**60),
       st.floats(width=32, allow_nan=False, allow_infinity=False, min_value=-(2.0**60), max_value=2.0**60),
       st.sampled_from(["RZ", "RM", "RP"]))
def test_fadd_and_fmul_round_in_the_direction_asked(a, b, mode):
    # against exact rationals: the float32 below (RM), above (RP) or toward zero (RZ)
    from fractions import Fraction
    for got, exact in ((alu.add32(a, b, mode), Fraction(a) + Fraction(b)),
                       (alu.mul32(a, b, mode), Fraction(a) * Fraction(b))):
        if exact == 0:
            continue  # the sign of an exact zero is the rounding mode's, not a magnitude
        assert Fraction(float(got)) == Fraction(float(_exact_round32(exact, mode)))


FAST = '''extern "C" __global__ void fastdiv(const float *x, float *y, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(int)__fdividef((float)i, s)];   // MUFU.RCP then FMUL: no correction
}
'''


@needs_nvcc
def test_an_approximate_reciprocal_reaching_an_address_is_refused_naming_it(tmp_path):
    # __fdividef's MUFU.RCP is the hardware's approximation (within an ulp of the correctly rounded
    # reciprocal the engine computes), used as it is: a count from it could be off, so it is refused
    path = tmp_path / "fast.cu"
    path.write_text(FAST)
    k = A.prepare(path, "fastdiv", "cdiv(n,128)", "128", {"n": 1000, "s": 2.3, "x": "float[1000]"})
    with pytest.raises(UsageError, match=r"an address computed from data \(MUFU.RCP outside a division: the "
                                         r"hardware's approximation, not the engine's\).*line 3"):
        A.analyze_launch(k)


ROOTS = '''extern "C" __global__ void tri(const float *x, float *y, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;   // the row of packed triangle entry k
  if (k < n) { int r = (int)((sqrtf(8.0f * k + 1.0f) - 1.0f) * 0.5f); y[k] = x[r]; }
}
extern "C" __global__ void dist(const float *x, float *y, int n, int w, int one) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int a = k % w, b = k / w;
  if (k < n) y[k] = x[(int)sqrtf((float)(a * a + b * b + one))];
}
extern "C" __global__ void rs(const float *x, float *y, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) y[k] = x[(int)(1000.0f * rsqrtf(k + 1.0f))];   // MUFU.RSQ used as it is
}
'''


def _roots(tmp_path, entry, args):
    path = tmp_path / "roots.cu"
    path.write_text(ROOTS)
    return A.prepare(path, entry, "cdiv(n,128)", "128", {"n": 1000, "x": "float[3000]", **args})


@needs_nvcc
@pytest.mark.parametrize("entry,w,one", [("tri", None, 0), ("dist", 37, 1), ("dist", 5, 1), ("dist", 37, 0)])
def test_a_square_root_of_indices_is_the_correctly_rounded_one(tmp_path, entry, w, one):
    # sqrtf: MUFU.RSQ seeds a fast path (two FMUL.FTZ, two FFMA) for x from 2^-101 up; the GPU's
    # sqrt.rn is correctly rounded, and so is float64's square root rounded to float32. sqrtf(0)
    # (dist at k = 0 with one = 0) takes the slow path's call, which returns 0 at once; the warp
    # reconverges at the BSYNC after it, one request
    k = _roots(tmp_path, entry, {} if w is None else {"w": w, "one": one})
    got = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    i = np.arange(1024).reshape(-1, 32)
    if entry == "tri":
        v = (i.astype(f32) * f32(8) + f32(1))  # one FFMA, exact here
        j = ((np.sqrt(v.astype(np.float64)).astype(f32) - f32(1)) * f32(0.5)).astype(np.int64)
    else:
        v = ((i % w) ** 2 + (i // w) ** 2 + one).astype(f32)
        j = np.sqrt(v.astype(np.float64)).astype(f32).astype(np.int64)
    assert got[("x", "load")] == warp_counts(4 * j, i < 1000, 4)


@needs_nvcc
def test_rsqrtf_is_refused(tmp_path):
    # rsqrtf's MUFU.RSQ is the hardware's approximation, used as it is (sqrtf's slow paths:
    # tests/test_sass_slowpaths.py)
    with pytest.raises(UsageError, match=r"MUFU.RSQ outside sqrtf's fast path: the hardware's approximation"):
        A.analyze_launch(_roots(tmp_path, "rs", {}))


PICK = '''extern "C" __global__ void pick(const float *x, float *y, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i % 3 == 0) ? -24.0f : 40.0f;   // FSEL R0, -R2, 40, !P0: a float's -x and a float immediate
  if (i < n) y[i] = x[(int)(i * s + v) + 24];
}
extern "C" __global__ void pick2(const float *x, float *y, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i % 3 == 0) ? s : 40.0f;   // FSEL R0, R2, 40, P0: a float immediate beside a plain register
  if (i < n) y[i] = x[(int)(i + v)];
}
'''


@needs_nvcc
@pytest.mark.parametrize("s", [0.7, 1.5])
def test_fsel_chooses_floats_with_their_signs_and_immediates(tmp_path, s):
    # FSEL's -R2 flips a float's sign bit (not an integer's negation) and its 40 is 40.0f (not the
    # bits 0x28): both were read as integers until stop 30. i * s + v is one FFMA, exact in float64
    # here and rounded once
    path = tmp_path / "pick.cu"
    path.write_text(PICK)
    n = 1000
    k = A.prepare(path, "pick", "cdiv(n,128)", "128", {"n": n, "s": s, "x": "float[1100]"})
    got = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    i = np.arange(1024).reshape(-1, 32)
    v = np.where(i % 3 == 0, -24.0, 40.0)
    j = (i * np.float64(f32(s)) + v).astype(f32).astype(np.int64) + 24
    assert got[("x", "load")] == warp_counts(4 * j, i < n, 4)
    k = A.prepare(path, "pick2", "cdiv(n,128)", "128", {"n": n, "s": s, "x": "float[1100]"})
    got = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    j = (i + np.where(i % 3 == 0, np.float64(f32(s)), 40.0)).astype(f32).astype(np.int64)
    assert got[("x", "load")] == warp_counts(4 * j, i < n, 4)
