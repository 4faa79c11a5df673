"""The numpy references of kernels/idioms.cu, flat.cu and gridstride.cu (profiling.reference) against the
kernels' own loops, written out per thread as the .cu reads, at small odd sizes: what a GPU run
is checked by."""

from __future__ import annotations

import numpy as np
import pytest

from profiling.reference import REFERENCES

RNG = np.random.default_rng(7)


def _f(n: int) -> np.ndarray:
    return RNG.uniform(-1, 1, n).astype(np.float32)


def _per_thread(entry: str, a: dict, s: dict) -> dict:
    """Each thread of the kernel, one at a time (float64 sums)."""
    if entry == "stencil2d":
        W, H, u, out = s["W"], s["H"], a["in"].astype(np.float64), a["out"].astype(np.float64).copy()
        for y in range(1, H - 1):
            for x in range(1, W - 1):
                i = y * W + x
                out[i] = 0.25 * (u[i - W] + u[i + W] + u[i - 1] + u[i + 1])
        return {"out": out}
    if entry == "saxpy_gs":
        return {"y": [s["a"] * float(a["x"][i]) + float(a["y"][i]) for i in range(s["n"])]}
    if entry == "transpose_pad":
        M, N = s["M"], s["N"]
        out = np.zeros(M * N)
        for r in range(M):
            for c in range(N):
                out[c * M + r] = a["in"][r * N + c]
        return {"out": out}
    if entry == "batched_gemv":
        B, M, N = s["B"], s["M"], s["N"]
        return {"y": [sum(float(a["A"][b * M * N + r * N + j]) * float(a["x"][b * N + j]) for j in range(N))
                      for b in range(B) for r in range(M)]}
    if entry == "bias_add":
        return {"y": [float(a["x"][i]) + float(a["b"][i % s["N"]]) for i in range(s["M"] * s["N"])]}
    if entry == "row_scale":
        return {"y": [float(a["x"][i]) * float(a["s"][i // s["N"]]) for i in range(s["M"] * s["N"])]}
    if entry == "outer_flat":
        return {"y": [float(a["a"][i // s["N"]]) * float(a["b"][i % s["N"]]) for i in range(s["M"] * s["N"])]}
    if entry == "transpose_flat":
        M, N = s["M"], s["N"]
        out = np.zeros(M * N)
        for i in range(M * N):
            out[(i % N) * M + i // N] = a["in"][i]
        return {"out": out}
    if entry == "roll":
        return {"y": [float(a["x"][(i + s["shift"]) % s["n"]]) for i in range(s["n"])]}
    M, N = s.get("M"), s.get("N")
    if entry == "scale_gs":
        return {"y": [float(a["x"][i]) * float(a["s"][i % N]) for i in range(M * N)]}
    if entry == "gather_gs":
        return {"y": [float(a["x"][(i // N) * s["ld"] + i % N]) for i in range(M * N)]}
    if entry == "roll2d_gs":
        return {"y": [float(a["x"][((i // N + s["dy"]) % M) * N + (i % N + s["dx"]) % N]) for i in range(M * N)]}
    raise AssertionError(entry)


CASES = {
    "stencil2d": ({"W": 7, "H": 5}, lambda s: {"in": _f(35), "out": _f(35)}),
    "saxpy_gs": ({"n": 9, "a": 1.5}, lambda s: {"x": _f(9), "y": _f(9)}),
    "transpose_pad": ({"M": 3, "N": 5}, lambda s: {"in": _f(15), "out": _f(15)}),
    "batched_gemv": ({"B": 2, "M": 3, "N": 4}, lambda s: {"A": _f(24), "x": _f(8), "y": _f(6)}),
    "bias_add": ({"M": 3, "N": 5}, lambda s: {"x": _f(15), "b": _f(5), "y": _f(15)}),
    "row_scale": ({"M": 3, "N": 5}, lambda s: {"x": _f(15), "s": _f(3), "y": _f(15)}),
    "outer_flat": ({"M": 3, "N": 5}, lambda s: {"a": _f(3), "b": _f(5), "y": _f(15)}),
    "transpose_flat": ({"M": 3, "N": 5}, lambda s: {"in": _f(15), "out": _f(15)}),
    "roll": ({"n": 7, "shift": 3}, lambda s: {"x": _f(7), "y": _f(7)}),
    "scale_gs": ({"M": 3, "N": 5}, lambda s: {"x": _f(15), "s": _f(5), "y": _f(15)}),
    "gather_gs": ({"M": 3, "N": 4, "ld": 6}, lambda s: {"x": _f(18), "y": _f(12)}),
    "roll2d_gs": ({"M": 3, "N": 5, "dy": 4, "dx": 7}, lambda s: {"x": _f(15), "y": _f(15)}),
}
FILE = {**dict.fromkeys(("row_scale", "outer_flat", "transpose_flat", "roll"), "flat.cu"),
        **dict.fromkeys(("scale_gs", "gather_gs", "roll2d_gs"), "gridstride.cu")}


@pytest.mark.parametrize("entry", sorted(CASES))
def test_an_idiom_reference_is_what_each_thread_computes(entry):
    scalars, arrays = CASES[entry]
    a = arrays(scalars)
    got = REFERENCES[f"{FILE.get(entry, 'idioms.cu')}:{entry}"](a, scalars)
    want = _per_thread(entry, a, scalars)
    assert got.keys() == want.keys()
    for name in got:
        assert np.allclose(got[name], np.asarray(want[name], dtype=np.float64).astype(np.float32), rtol=1e-6, atol=1e-6)
