"""Modifiers that change what an integer instruction computes are computed or refused, never
ignored (an ignored .RELU counted a clamped index unclamped until stop 30: test_sass_clamps.py).
BMSK's clamp and wrap modes (.W) agree below 32 and differ past it; PRMT's modes other than the
default (.F4E, .B4E, .RC8, .ECL, .ECR, .RC16) choose other bytes."""

from __future__ import annotations

import numpy as np
import pytest

from test_sass_floats import warp_counts
from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A

MODES = '''extern "C" __global__ void masks(const float *x, float *y, int n, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned c, r;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(c) : "r"(i & 7), "r"(w));   // BMSK
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(i & 7), "r"(w));    // BMSK.W
  if (i < n) y[i] = x[__popc(c) + __popc(r)];
}
extern "C" __global__ void perm(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned p;
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(p) : "r"(i), "r"(0x01020304), "r"(i & 3));   // PRMT.F4E
  if (i < n) y[i] = x[p & 255];
}
'''


def kernel(tmp_path, entry: str, args: dict):
    path = tmp_path / "modes.cu"
    path.write_text(MODES)
    return A.prepare(path, entry, "cdiv(n,128)", "128", {"n": 300, "x": "float[300]", **args})


@needs_nvcc
@pytest.mark.parametrize("w", [0, 5, 24, 31])
def test_bit_masks_below_32_are_counted(tmp_path, w):
    # w ones from bit i & 7 in both modes, those past bit 31 dropped: popc min(w, 32 - (i & 7)) each
    analysis = A.analyze_launch(kernel(tmp_path, "masks", {"w": w}))
    rows = {(r.array, r.op): (r.requests, r.sectors) for r in analysis.rows}
    i = np.arange(384).reshape(-1, 32)
    assert rows[("x", "load")] == warp_counts(4 * 2 * np.minimum(w, 32 - (i & 7)), i < 300, 4)


@needs_nvcc
def test_a_bit_mask_32_wide_is_refused_where_its_modes_differ(tmp_path):
    with pytest.raises(UsageError, match=r"BMSK.* of a position or width past 31"):
        A.analyze_launch(kernel(tmp_path, "masks", {"w": 32}))


@needs_nvcc
def test_a_byte_permute_mode_is_refused(tmp_path):
    with pytest.raises(UsageError, match=r"PRMT.F4E: a byte-permute mode the engine does not compute"):
        A.analyze_launch(kernel(tmp_path, "perm", {}))
