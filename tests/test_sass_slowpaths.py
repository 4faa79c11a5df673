"""Lanes that take nvcc's slow paths of division, reciprocal and square root (kernels/slowpaths.cu):
a zero, an infinity, a negative root, a denormal. PTX's div.rn, rcp.rn and sqrt.rn are IEEE's on
either path, so each thread's address is worked out here in numpy's float32 arithmetic (IEEE's,
gradual underflow included), and a NaN converted to int is 0 (cvt.rzi). The engine runs the slow
path's subroutine itself, its MUFU seeded with the correctly rounded value (`Program.ieee`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_sass_floats import threads_2d, warp_counts
from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A
from warpsim.sass import program as P

SOURCE = Path(__file__).resolve().parent.parent / "kernels" / "slowpaths.cu"
f32 = np.float32


def counts(entry: str, grid: str, block: str, args: dict) -> dict:
    a = A.analyze_launch(A.prepare(SOURCE, entry, grid, block, args))
    return {(r.array, r.op): (r.requests, r.sectors) for r in a.rows}


def to_int(v: np.ndarray) -> np.ndarray:
    """F2I.TRUNC: toward zero, a NaN to 0 (the values here lie well inside int's range)."""
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(v), 0, np.trunc(np.nan_to_num(v))).astype(np.int64)


def pixels(w: int, h: int):
    grid = (-(-w // 32), -(-h // 8))
    x, y = threads_2d(grid, (32, 8))
    return f"{grid[0]},{grid[1]}", x, y, (x < w) & (y < h)


@needs_nvcc
@pytest.mark.parametrize("w,h,cx,cy,n", [(97, 61, 40, 30, 1001), (64, 16, 0, 0, 257), (200, 150, 199, 3, 64)])
def test_an_octant_ratio_counts_its_centre_s_nan_as_zero(w, h, cx, cy, n):
    # FSEL of |dx| and |dy| (a float's absolute value: the sign bit cleared), a division whose
    # centre lane is 0 / 0 (the slow path's NaN), times n - 1 (FMUL), truncated
    grid, x, y, on = pixels(w, h)
    dx, dy = (x - cx).astype(f32), (y - cy).astype(f32)
    steep = np.abs(dy) > np.abs(dx)
    hi, lo = np.where(steep, np.abs(dy), np.abs(dx)), np.where(steep, np.abs(dx), np.abs(dy))
    with np.errstate(invalid="ignore"):
        t = to_int(lo / hi * f32(n - 1))
    got = counts("octant", grid, "32x8", {"w": w, "h": h, "cx": cx, "cy": cy, "n": n})
    assert got[("table", "load")] == warp_counts(4 * t, on, 4)


@needs_nvcc
@pytest.mark.parametrize("cx,cy,lim,bins", [(40, 30, 8.0, 128), (0, 60, 3.5, 35), (96, 0, 100.0, 50)])
def test_a_slope_divided_by_zero_is_infinite_and_clamped(cx, cy, lim, bins):
    # dy / dx: +-inf on the centre's column and NaN at the centre (the slow path's answers), which
    # fmaxf drops (FMNMX: a NaN loses to a number); then (s + lim) * (bins / lim), an FADD and an FMUL
    w, h = 97, 61
    grid, x, y, on = pixels(w, h)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (y - cy).astype(f32) / (x - cx).astype(f32)
    t = to_int((np.fmin(np.fmax(s, f32(-lim)), f32(lim)) + f32(lim)) * (f32(bins) / f32(lim)))
    got = counts("slope", grid, "32x8", {"w": w, "h": h, "cx": cx, "cy": cy, "lim": lim, "bins": bins,
                                         "table": f"float[{2 * bins + 2}]"})
    assert got[("table", "load")] == warp_counts(4 * t, on, 4)


@needs_nvcc
@pytest.mark.parametrize("w,h,cx,cy,r", [(97, 61, 48, 30, 25), (64, 64, 10, 50, 40), (33, 17, 16, 8, 0)])
def test_a_root_of_a_negative_is_a_nan_and_reads_the_first_element(w, h, cx, cy, r):
    # sqrtf(r^2 - dx^2 - dy^2): the slow path returns a NaN for a negative, sqrtf(0) returns 0,
    # each at once; the rest take the fast path (the correctly rounded root)
    grid, x, y, on = pixels(w, h)
    v = (r * r - (x - cx) ** 2 - (y - cy) ** 2).astype(f32)
    with np.errstate(invalid="ignore"):
        t = to_int(np.sqrt(v.astype(np.float64)).astype(f32))
    got = counts("hemisphere", grid, "32x8", {"w": w, "h": h, "cx": cx, "cy": cy, "r": r})
    assert got[("height", "load")] == warp_counts(4 * t, on, 4)


@needs_nvcc
@pytest.mark.parametrize("a,b,m", [(1e-40, 3e-41, 37), (1e-38, 1e-44, 5), (2e-39, 2e-39, 64), (1e-36, 7e-41, 3)])
def test_a_ratio_of_denormals_is_divided_on_the_slow_path(a, b, m):
    # p and q below float's normal range (FMUL's gradual underflow): FCHK sends the lanes to the
    # slow path, which scales them by 2^64, seeds with MUFU.RCP and rounds with FFMA.RZ/.RM/.RP
    n = 1000
    i = np.arange(-(-n // 256) * 256).reshape(-1, 32)
    p, q = (i % m + 1).astype(f32) * f32(a), (i // m + 1).astype(f32) * f32(b)
    cap = 5000
    t = np.minimum(to_int(p / q), cap - 1)
    got = counts("tiny_ratio", "cdiv(n,256)", "256", {"n": n, "a": a, "b": b, "m": m, "cap": cap,
                                                      "table": f"float[{cap}]"})
    assert got[("table", "load")] == warp_counts(4 * t, i < n, 4)


@needs_nvcc
@pytest.mark.parametrize("scale", [0.7, 3.0, 1.3333, 0.1])
def test_a_resize_by_the_reciprocal_of_its_scale_is_counted(scale):
    # 1.0f / scale: MUFU.RCP and one Newton step (rcp.rn's fast path), correctly rounded; x * inv
    sw, dw, rows = 20000, 1000, 3
    x, y = threads_2d((-(-dw // 256), rows), (256, 1))
    u = np.minimum((x.astype(f32) * (f32(1) / f32(scale))).astype(np.int64), sw - 1)
    got = counts("resize_inv", "cdiv(dw,256),h", "256", {"sw": sw, "dw": dw, "h": rows, "scale": scale})
    assert got[("src", "load")] == warp_counts(4 * (y * sw + u), x < dw, 4)


@needs_nvcc
@pytest.mark.parametrize("c,k", [(500, 100), (0, 3), (999, 1000), (-20, 50)])
def test_a_reciprocal_of_zero_is_infinite_and_clamped(c, k):
    # 1 / (i - c): +inf at i = c from rcp.rn's slow path (MUFU.RCP of 0), clamped to k
    n = 1000
    i = np.arange(1024).reshape(-1, 32)
    with np.errstate(divide="ignore"):
        r = f32(1) / (i - c).astype(f32)
    t = to_int(np.fmin(np.fmax(r * f32(k), f32(-k)), f32(k)) + f32(k))
    got = counts("inverse", "cdiv(n,256)", "256", {"n": n, "c": c, "k": k, "table": f"float[{2 * k + 1}]"})
    assert got[("table", "load")] == warp_counts(4 * t, i < n, 4)


BITS = '''// a NaN's payload is the hardware's: every NaN reads word 0
__device__ int word(float r) { return r != r ? 0 : __float_as_int(r) & 0xfff; }
extern "C" __global__ void q(const float *t, const float *u, const float *v, float *y, int n, int m, float a, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float p = __int_as_float(i % m * 0x01234567 + __float_as_int(a));
  float d = __int_as_float(i / m * 0x00765433 + __float_as_int(b));
  if (i < n) y[i] = t[word(p / d)] + u[word(1.0f / d)] + v[word(sqrtf(p))];
}
'''


@needs_nvcc
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=st.floats(width=32, allow_nan=False), b=st.floats(width=32, allow_nan=False))
def test_every_bit_of_a_quotient_reciprocal_and_root_on_either_path_is_ieee_s(tmp_path, a, b):
    # operands spread over float's bit patterns from a and b (zeros, denormals, huge, infinite and
    # NaN where the bits land there); each address is the result's low 12 bits, so one wrong bit
    # moves a lane to another word. 256 lanes: 16 dividends by 16 divisors
    path = tmp_path / "q.cu"
    path.write_text(BITS)
    n, m = 256, 16
    i = np.arange(n).reshape(-1, 32)
    bits = lambda v: np.array([v], f32).view(np.int32)[0].astype(np.int64)  # noqa: E731
    p = ((i % m * 0x01234567 + bits(a)) & 0xFFFFFFFF).astype(np.uint32).view(f32)
    d = ((i // m * 0x00765433 + bits(b)) & 0xFFFFFFFF).astype(np.uint32).view(f32)
    with np.errstate(all="ignore"):
        results = {"t": p / d, "u": f32(1) / d, "v": np.sqrt(p)}
    k = A.prepare(path, "q", "1", "256", {"n": n, "m": m, "a": float(a), "b": float(b),
                                          **dict.fromkeys(results, "float[4096]")})
    got = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    for name, r in results.items():
        word = np.where(np.isnan(r), 0, r.view(np.uint32).astype(np.int64) & 0xFFF)
        assert got[(name, "load")] == warp_counts(4 * word, np.ones_like(i, bool), 4), name


def test_the_ieee_slow_paths_are_known_by_their_subroutine_s_name():
    assert P.IEEE_SLOW_PATH.search("$__internal_2_$__cuda_sm3x_div_rn_noftz_f32_slowpath").group(1) == "div"
    assert P.IEEE_SLOW_PATH.search("$__internal_1_$__cuda_sm20_sqrt_rn_f32_slowpath").group(1) == "sqrt"
    assert P.IEEE_SLOW_PATH.search("$__internal_0_$__cuda_sm20_rcp_rn_f32_slowpath").group(1) == "rcp"
    assert P.IEEE_SLOW_PATH.search("$__internal_0_$__cuda_sm20_div_rn_f64_full") is None
    assert P.IEEE_SLOW_PATH.search("my_div_rn_f32_slowpath_helper") is None


FAST = '''extern "C" __global__ void fast(const float *x, float *y, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(int)(1000.0f * __frcp_rz(i + s))];   // MUFU.RCP, then FFMA.RZ
}
'''


@needs_nvcc
def test_a_reciprocal_rounded_toward_zero_is_still_refused(tmp_path):
    # __frcp_rz: rcp.rn's sequence with its FFMAs rounding toward zero, which the seed's check
    # (to nearest) does not cover
    path = tmp_path / "fast.cu"
    path.write_text(FAST)
    k = A.prepare(path, "fast", "cdiv(n,128)", "128", {"n": 100, "s": 1.5, "x": "float[1000]"})
    with pytest.raises(UsageError, match=r"MUFU.RCP"):
        A.analyze_launch(k)
