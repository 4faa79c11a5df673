"""A clamped index, `x[max(min(i - c, m - 1), 0)]`, as nvcc 13.0 compiles it for sm_90: one
VIADDMNMX.RELU or VIMNMX.RELU, the minimum (or maximum) clamped at 0 from below. Until stop 30 the
engine read the instruction without its .RELU, and a negative index went through unclamped: 107
sectors where the launch touches 94 (tests below), no refusal. Each count is checked against numpy's
clamp of every thread's index, warp by warp."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_sass_floats import warp_counts
from test_sass_frontend import needs_nvcc
from warpsim.sass import analyze as A

CLAMPS = '''extern "C" __global__ void clamp(const float *x, float *y, int n, int c, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[max(min(i - c, m - 1), 0)];      // VIADDMNMX.RELU or VIMNMX.RELU
}
extern "C" __global__ void square(const float *x, float *y, int n, int c, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[max(min(i * i - c, m - 1), 0)];  // not affine in i: counted block by block
}
extern "C" __global__ void upper(const float *x, float *y, int n, int c, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[min(max(i - c, 0), m - 1)];      // the maximum first
}
'''
INDEX = {"clamp": lambda i, c, m: np.clip(i - c, 0, m - 1), "square": lambda i, c, m: np.clip(i * i - c, 0, m - 1),
         "upper": lambda i, c, m: np.minimum(np.maximum(i - c, 0), m - 1)}


def counted(tmp_path, entry: str, n: int, c: int, m: int) -> tuple[int, int]:
    path = tmp_path / "clamps.cu"
    path.write_text(CLAMPS)
    k = A.prepare(path, entry, "cdiv(n,128)", "128", {"n": n, "c": c, "m": m, "x": f"float[{max(m, 1)}]"})
    return {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}[("x", "load")]


@needs_nvcc
def test_the_relu_clamp_of_a_known_launch(tmp_path):
    # n = 1000, c = 100, m = 500: threads 0-100 read x[0], 101-599 x[i - 100], 600-999 x[499].
    # Warps 0-2 read x[0] (1 sector each: 3); warp 3 x[0..27] (4); warps 4-17 x[28 + 32k ..], 4
    # floats past a sector's start (5 each: 70); warp 18 x[476..499] (4); warps 19-31 x[499]
    # (1 each: 13): 94 sectors, no unclamped negative index among them
    i = np.arange(1024).reshape(-1, 32)
    assert counted(tmp_path, "clamp", 1000, 100, 500) == warp_counts(4 * np.clip(i - 100, 0, 499), i < 1000, 4)
    assert counted(tmp_path, "clamp", 1000, 100, 500) == (32, 94)


@needs_nvcc
@pytest.mark.parametrize("n,c,m", [(1000003, -7777, 900001), (120001, 30017, 60001)])
def test_a_large_clamped_shift_is_counted_symbolically(tmp_path, n, c, m):
    i = np.arange(-(-n // 128) * 128).reshape(-1, 32)
    assert counted(tmp_path, "clamp", n, c, m) == warp_counts(4 * np.clip(i - c, 0, m - 1), i < n, 4)


@needs_nvcc
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=st.sampled_from(sorted(INDEX)), n=st.integers(1, 700), c=st.integers(-300, 900),
       m=st.integers(1, 900))
def test_a_clamped_index_counts_as_numpy_clamps_it(tmp_path, entry, n, c, m):
    if entry == "square" and c < 0:
        c = -c  # i * i - c: a negative c only moves the clamp's corner
    i = np.arange(-(-n // 128) * 128).reshape(-1, 32)
    assert counted(tmp_path, entry, n, c, m) == warp_counts(4 * INDEX[entry](i, c, m), i < n, 4)


@needs_nvcc
@pytest.mark.parametrize("w,h", [(97, 61), (32, 8), (33, 9), (2000, 1500)])
def test_a_blur_clamped_to_the_image_edge_counts_each_tap(w, h):
    # kernels/clamps.cu's blur3: nine taps, each row and column clamped (VIMNMX.RELU and
    # VIADDMNMX.RELU), one load instruction a tap; at 2000 x 1500 counted symbolically, where
    # VIADDMNMX's y + 0xffffffff must be read as y - 1 before its clamp (it wrapped past 2^32 once)
    from pathlib import Path

    from test_sass_floats import summed, threads_2d
    grid = (-(-w // 32), -(-h // 8))
    x, y = threads_2d(grid, (32, 8))
    on = (x < w) & (y < h)
    want = summed([warp_counts(4 * (np.clip(y + dy, 0, h - 1) * w + np.clip(x + dx, 0, w - 1)), on, 4)
                   for dy in (-1, 0, 1) for dx in (-1, 0, 1)])
    k = A.prepare(Path(__file__).resolve().parent.parent / "kernels" / "clamps.cu", "blur3",
                  f"{grid[0]},{grid[1]}", "32x8", {"w": w, "h": h})
    rows = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    assert rows[("src", "load")] == want
