"""Branches whose condition is data, and calls: the slow paths nvcc emits for float division,
reciprocal and square root, and loops whose trip count is data (an escape-time loop). Where the
code they decide touches no memory, the counts stand exact; where it does (a store on one side,
a load in the loop), the launch is refused. Kernels written here, compiled with the pinned nvcc."""

from __future__ import annotations

import numpy as np
import pytest

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A
from warpsim.sass import program as P

KERNELS = '''extern "C" __global__ void ratio(int n, const float *x, const float *d, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] / d[i];   // line 3: the division's slow path: a data branch and a call
}
extern "C" __global__ void halvings(int n, const float *x, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  int k = 0;
  while (v > 1.0f) { v *= 0.5f; ++k; }   // line 10: a trip count computed from data
  y[i] = k;
}
extern "C" __global__ void weighed(int n, const float *x, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  int k = 0;
  while (v > 1.0f) { v = 0.5f * v - x[k]; ++k; }   // line 18: a load in a loop of data-decided length
  y[i] = k;
}
extern "C" __global__ void spread(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  if (v > 0.0f) {   // line 25: stores on one side of a data branch
    float s = sqrtf(v) / v;
    y[i] = s;
    y[i + n] = s * s;
  }
  y[i + 2 * n] = 1.0f;
}
'''
ARGS = {"n": 1000, "x": "float[n]", "d": "float[n]", "y": "float[3*n]"}


def kernel(tmp_path, name: str, n: int = 1000):
    path = tmp_path / "k.cu"
    path.write_text(KERNELS)
    params = ("n", "x", "d", "y") if name == "ratio" else ("n", "x", "y")
    return A.prepare(path, name, "cdiv(n,256)", "256", {k: v for k, v in {**ARGS, "n": n}.items() if k in params})


@needs_nvcc
def test_a_division_is_counted_through_its_slow_path(tmp_path):
    k = kernel(tmp_path, "ratio")
    prog = P.load(k.cubin_path, "ratio")
    # the call to the reciprocal's or division's slow path, placed after the kernel's code
    assert prog.callees and all(pc > call for call, pc in prog.callees.items())
    region = next(prog.data_region(i.pc) for i in prog.instructions
                  if i.opcode == "BRA" and i.guard is not None and i.pc < min(prog.callees))
    assert not isinstance(region, str)
    # 1000 threads in 4 blocks of 256: 31 whole warps and one of 8 lanes, 32 requests per
    # instruction; each array 1000 floats = 4000 B = 125 sectors, read or written once
    a = A.analyze_launch(k)
    assert {(r.array, r.op): (r.requests, r.sectors) for r in a.rows} == \
        {("x", "load"): (32, 125), ("d", "load"): (32, 125), ("y", "store"): (32, 125)}
    brute = A.brute_force(k)
    assert [(r.array, r.requests, r.sectors) for r in brute.rows] == [(r.array, r.requests, r.sectors) for r in a.rows]


@needs_nvcc
def test_a_trip_count_computed_from_data_is_run_to_a_fixed_point(tmp_path):
    # the loop touches no memory: whatever its trip count, each thread loads x[i] once and
    # stores y[i] once (k, which the loop counts, becomes data): 32 requests and 125 sectors each
    k = kernel(tmp_path, "halvings")
    a = A.analyze_launch(k)
    assert {(r.array, r.op): (r.requests, r.sectors) for r in a.rows} == {("x", "load"): (32, 125),
                                                                          ("y", "store"): (32, 125)}
    assert [(r.requests, r.sectors) for r in A.brute_force(k).rows] == [(r.requests, r.sectors) for r in a.rows]


MANDELBROT = '''extern "C" __global__ void mandel(int W, int H, int maxit, float x0, float y0, float dx, int *out) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= W || py >= H) return;
  float cr = x0 + px * dx, ci = y0 + py * dx, zr = 0.0f, zi = 0.0f;
  int k = 0;
  while (k < maxit && zr * zr + zi * zi < 4.0f) {   // escape time: data decides the trip count
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++k;
  }
  out[py * W + px] = k;
}
'''


@needs_nvcc
def test_an_escape_time_loop_is_counted(tmp_path):
    # Mandelbrot, 1000 x 600 pixels in blocks of 32 x 8: a row is 31 whole warps and one of 8
    # lanes, 32 store requests, 600 rows: 19,200 requests; a row is 4,000 B = 125 sectors, at a
    # multiple of 32 B (4,000 = 125 x 32): 75,000 sectors. The brute force, which runs each
    # thread's iterations with their float values, agrees at 100 x 60
    path = tmp_path / "m.cu"
    path.write_text(MANDELBROT)
    args = {"W": "1000", "H": "600", "maxit": "256", "x0": "-2.0", "y0": "-1.0", "dx": "0.003", "out": "int[W*H]"}
    (row,) = A.analyze_launch(A.prepare(path, "mandel", "cdiv(W,32),cdiv(H,8)", "32x8", args)).rows
    assert (row.array, row.op, row.requests, row.sectors) == ("out", "store", 19_200, 75_000)
    small = A.prepare(path, "mandel", "cdiv(W,32),cdiv(H,8)", "32x8", {**args, "W": "100", "H": "60", "dx": "0.03"})
    fast, brute = A.analyze_launch(small).rows, A.brute_force(small).rows
    assert [(r.requests, r.sectors, r.lines) for r in fast] == [(r.requests, r.sectors, r.lines) for r in brute]


SCAN = '''extern "C" __global__ void scan(int n, const float *x, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = 0;
  float v;
  do { v = x[i + k]; ++k; } while (v > 0.0f && i + k < n);   // line 6: it loads until data says stop
  y[i] = k;
}
'''


@needs_nvcc
def test_a_loop_that_loads_until_data_says_stop_is_refused(tmp_path):
    # the loop's own back edge is the data branch: its sides go round the loop, which loads
    path = tmp_path / "scan.cu"
    path.write_text(SCAN)
    k = A.prepare(path, "scan", "cdiv(n,256)", "256", {"n": "1000", "x": "float[n]", "y": "int[n]"})
    with pytest.raises(UsageError, match=r"scan: a condition computed from data steers control flow .* line 6: it "
                                         r"decides whether a loop that holds it goes round again \(a trip count "
                                         r"computed from data\), and the loop runs LDG"):
        A.analyze_launch(k)


@needs_nvcc
def test_a_load_in_a_loop_of_data_decided_length_is_refused(tmp_path):
    # nvcc tests v > 1 once before the loop (which it enters at the bottom): that branch's sides
    # meet after the loop, and the loop between them loads
    with pytest.raises(UsageError, match=r"weighed: a condition computed from data steers control flow .* line 18: "
                                         r"a side of it runs LDG"):
        A.analyze_launch(kernel(tmp_path, "weighed"))


@needs_nvcc
def test_a_store_on_a_side_of_a_data_branch_is_refused(tmp_path):
    with pytest.raises(UsageError, match=r"spread: a condition computed from data steers control flow or predicates "
                                         r"an access, at pc 0x[0-9a-f]+ \(.*BRA.*\), line 25: a side of it runs STG"):
        A.analyze_launch(kernel(tmp_path, "spread"))


LIBRARY = '''#include <cuda_fp16.h>
extern "C" __global__ void ddiv(int n, const double *a, const double *b, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a[i] / b[i] + sqrt(a[i]);   // double division's slow path: integer tests under data
}
extern "C" __global__ void trig(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = sinf(x[i]);   // line 8: past 105615 sinf reads a table in global memory
}
extern "C" __global__ void half_add(int n, __half *h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&h[i % 4], __float2half(1.f));
}
'''


def library(tmp_path, name: str):
    path = tmp_path / "lib.cu"
    path.write_text(LIBRARY)
    return A.prepare(path, name, "cdiv(n,256)", "256", {"n": 1000})


@needs_nvcc
def test_double_division_is_counted_through_its_slow_path(tmp_path):
    # the slow path's integer compares, moves and selects run under a predicate computed from data:
    # their results are data, and no access depends on them (refused as 'data steers' until this stop)
    k = library(tmp_path, "ddiv")
    fast = A.analyze_launch(k)
    assert [r.record() for r in fast.rows] == [r.record() for r in A.brute_force(k).rows]
    # 8-byte elements: 31 full warps of 8 sectors and a last warp of 8 lanes (64 bytes, 2 sectors)
    assert {r.array: r.sectors for r in fast.rows} == {"a": 250, "b": 250, "y": 250}


@needs_nvcc
@pytest.mark.parametrize("name,message", [
    # past 105615 sinf reads a table in global memory: named, with the ways round it
    ("trig", r"trig: .* line 8: a side of it runs LDG\.E\.CONSTANT at pc 0x[0-9a-f]+ \(a table of the math "
             r"library: sinf, cosf, tanf and sincosf .*-use_fast_math"),
    # a __half atomicAdd: a compare-and-swap loop on the 32-bit word around it (its trip count is
    # data); the line is the header's, and says so. (On __half2 the hardware has the atomic: counted,
    # tests/test_caches_recorded.py's atoms5.)
    ("half_add", r"half_add: a condition computed from data .*, line \d+ of cuda_fp16\.hpp:"),
])
def test_refusals_inside_the_libraries_say_where(tmp_path, name, message):
    with pytest.raises(UsageError, match=message):
        A.analyze_launch(library(tmp_path, name))


DIVERGENT = '''__device__ __noinline__ int f(int i) { return i * 3 + 1; }
extern "C" __global__ void dc(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i;
  if ((threadIdx.x & 1) == 0) j = f(i);   // even lanes call, odd ones wait at the BSYNC
  if (i < n) y[i] = x[j];
}
'''


@needs_nvcc
def test_a_divergent_call_reconverges_before_the_next_access(tmp_path):
    # the callee lies after the kernel's code: run lowest pc first, the lanes that did not call
    # passed the BSYNC and loaded on their own, two requests a warp (64); the warp reconverges
    # there, so 32, and j is 3i + 1 on even lanes, i on odd ones: the union of their sectors
    path = tmp_path / "divergent.cu"
    path.write_text(DIVERGENT)
    k = A.prepare(path, "dc", "cdiv(n,128)", "128", {"n": 1000, "x": "float[4000]"})
    rows = {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}
    i = np.arange(1024).reshape(-1, 32)
    j = np.where(i % 2 == 0, 3 * i + 1, i)
    sectors = sum(len({int(a) // 32 for a in 4 * j[w][i[w] < 1000]}) for w in range(len(i)))
    assert rows[("x", "load")] == (32, sectors) and sectors == 496
    assert rows[("y", "store")] == (32, 125)
