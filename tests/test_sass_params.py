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


PARAMS = __import__("pathlib").Path(__file__).resolve().parent.parent / "kernels" / "params.cu"
AXPY = {"p.n": 1000, "p.stride": 2, "p.flag": 0, "p.a": 1.5}


@needs_nvcc
def test_a_structure_by_value_is_laid_out_as_c_does_and_given_field_by_field():
    k = A.prepare(PARAMS, "axpy_struct", "cdiv(p.n,256)", "256", {k: str(v) for k, v in AXPY.items()})
    # const float *x, float *y at 0 and 8; int n at 16; short stride at 20; char flag at 22; double a
    # at 24 (aligned to 8): 32 bytes, the cubin's parameter size
    assert [(p.name, p.offset - k.launch.params[0].offset, p.size) for p in k.launch.params] == [
        ("p.x", 0, 8), ("p.y", 8, 8), ("p.n", 16, 4), ("p.stride", 20, 2), ("p.flag", 22, 1), ("p.a", 24, 8)]
    # x[2 i]: 32 lanes 8 bytes apart, 8 sectors a warp, the last 8 lanes 2; y[i] read and written: 125
    assert rows(k) == {("p.x", "load"): (32, 31 * 8 + 2), ("p.y", "load"): (32, 125), ("p.y", "store"): (32, 125)}
    # the short and the char share a word of the constant bank: each reads its own bytes
    words = k.launch.launch().cbank
    base = k.program.function.param_base + k.launch.params[0].offset
    assert words[base + 20] == 2 and words[base + 16] == 1000
    assert words[base + 24] | words[base + 28] << 32 == 0x3FF8000000000000  # 1.5 as a double


@needs_nvcc
def test_fields_declared_together_and_an_enum_are_parameters_too():
    args = {"s.rows": "100", "s.cols": "70", "s.ld": "80"}
    grid = "cdiv(s.rows*s.cols,256)"
    by_rows = rows(A.prepare(PARAMS, "copy_layout", grid, "256", {**args, "layout": "0"}))
    by_cols = rows(A.prepare(PARAMS, "copy_layout", grid, "256", {**args, "layout": "1"}))
    # 7,000 elements, 219 warps; out[i]: 875 sectors. in[c * 80 + r] (COLS): every lane its own
    # sector (320 bytes apart, and a warp spans at most two rows, so no c repeats): 7,000
    assert by_cols == {("in", "load"): (219, 7000), ("out", "store"): (219, 875)}
    # in[r * 80 + c] (ROWS): a warp's lanes run along a row of 70, breaking where r changes
    want = sum(len({(4 * ((i // 70) * 80 + i % 70)) // 32 for i in range(w, min(w + 32, 7000))})
               for w in range(0, 7000, 32))
    assert by_rows == {("in", "load"): (219, want), ("out", "store"): (219, 875)}


@needs_nvcc
@pytest.mark.parametrize("struct, why", [
    ("struct S { float *x; int dims[3]; };", r"struct S's field dims is an array"),
    ("struct S { float *x; float2 v; };", r"struct S's field v is `float2`, a type warpsim does not lay out"),
    ("typedef float real; struct S { float *x; real r; };", r"struct S's field r is `real`"),
    ("struct S { float *x; int n; int f() const { return n; } };", r"struct S has a member that is not a plain field"),
])
def test_a_structure_warpsim_cannot_lay_out_is_refused_saying_why(tmp_path, struct, why):
    source = struct + '\nextern "C" __global__ void k(S s) { if (threadIdx.x == 0) s.x[0] = 1.f; }\n'
    with pytest.raises(UsageError, match=r"parameter s is `S` \(\d+ bytes\), a structure by value, and " + why):
        kernel(tmp_path, source, "k", "1", {})


@needs_nvcc
def test_a_structures_own_alignment_pads_it(tmp_path):
    # __align__(16): 8 + 4 bytes of fields, 16 with the padding its alignment asks (the cubin's size)
    source = ('struct __align__(16) S { float *x; int n; };\n'
              'extern "C" __global__ void k(S s) { int i = threadIdx.x; if (i < s.n) s.x[i] = 1.f; }\n')
    k = kernel(tmp_path, source, "k", "1", {"s.n": 40})
    assert [p.name for p in k.launch.params] == ["s.x", "s.n"]
    assert rows(k) == {("s.x", "store"): (2, 5)}  # 40 floats from byte 0: 160 bytes, 5 sectors


@needs_nvcc
def test_the_gpu_run_packs_the_structure_as_warpsim_laid_it_out(tmp_path):
    import numpy as np

    from profiling import plan
    from profiling.launch import _pack_structs

    entry = plan.build(PARAMS, "axpy_struct", "cdiv(p.n,256)", "256",
                       {**AXPY, "p.x": "float[2*p.n]", "p.y": "float[p.n]"}, tmp_path)
    assert entry["id"] == "params/axpy_struct__p_n1000_p_stride2_p_flag0_p_a1_5"

    class Device:  # a device array: only its address is packed
        def __init__(self, ptr):
            self.data = type("M", (), {"ptr": ptr})()

    from profiling.launch import _scalar
    args = [Device(0x7000_0000_0100) if p["kind"] == "pointer" else _scalar(p) for p in entry["params"]]
    args[1] = Device(0x7000_0000_0200)
    (record,) = _pack_structs(entry["params"], args)
    raw = bytes(np.array(record).tobytes())
    assert len(raw) == 32  # the cubin's size of the parameter
    k = A.prepare(PARAMS, "axpy_struct", "cdiv(p.n,256)", "256", {k: str(v) for k, v in AXPY.items()})
    words = k.launch.launch().cbank
    base = k.program.function.param_base + k.launch.params[0].offset
    warpsim = b"".join(words[base + at].to_bytes(4, "little") for at in range(0, 32, 4))
    # the same bytes where warpsim's buffer addresses are not the device's: n, stride, flag, a
    assert raw[16:23] == warpsim[16:23] and raw[24:] == warpsim[24:]
    assert int.from_bytes(raw[0:8], "little") == 0x7000_0000_0100
    assert int.from_bytes(raw[8:16], "little") == 0x7000_0000_0200
