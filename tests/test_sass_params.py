"""Parameters as users write them: a double scale (its conversions to and from float), a
structure passed by value (its fields laid out as C does, each given as `--arg a.FIELD=VALUE`), an
enum. Kernels written here, compiled with the pinned nvcc."""

from __future__ import annotations

import pytest

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A

DOUBLE = '''extern "C" __global__ void scaled(const float *x, float *y, int n, short stride, double scale, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i * (m == 1 ? 2 : 1)] = scale * x[i * stride];   // F2F.F64.F32, DMUL, F2F.F32.F64 R5: one register
}
'''


def kernel(tmp_path, source: str, name: str, grid: str, args: dict):
    path = tmp_path / f"{name}.cu"
    path.write_text(source)
    return A.prepare(path, name, grid, "256", {k: str(v) for k, v in args.items()})


def rows(k) -> dict:
    return {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}


@needs_nvcc
def test_a_double_converted_back_to_float_writes_one_register(tmp_path):
    # F2F.F32.F64 R5, R4 wrote R5 and R6 (its F64 taken for the destination's), making data of the
    # y pointer in R6: the store was refused. x[3 i]: 32 lanes 12 bytes apart, 384 bytes from
    # 384 w: 12 sectors a warp, the last 8 lanes 84 + 4 bytes: 3; y[2 i]: 8 a warp, the last 2
    k = kernel(tmp_path, DOUBLE, "scaled", "cdiv(n,256)", {"n": 1000, "stride": 3, "scale": 2.5, "m": 1})
    assert rows(k) == {("x", "load"): (32, 31 * 12 + 3), ("y", "store"): (32, 31 * 8 + 2)}
