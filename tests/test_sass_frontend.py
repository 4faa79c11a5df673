"""The machine-code front-end: nvdisasm's JSON -> instruction records, the cubin's ELF -> entry
points and parameters, the control-flow graph -> loops; and the launch contract (signatures,
grid expressions, arguments) with its one-line refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from warpsim import toolchain
from warpsim.errors import UsageError
from warpsim.sass import isa
from warpsim.sass import launch as L
from warpsim.sass import analyze as A
from warpsim.sass.analyze import prepare
from warpsim.sass.cubin import read_cubin
from warpsim.sass.program import load

KERNELS = Path(__file__).resolve().parent.parent / "kernels"


# --- operands and instructions: pure ------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("R26.64", isa.Reg("R", 26, sel=".64")),
    ("-R5", isa.Reg("R", 5, neg=True)),
    ("~R5", isa.Reg("R", 5, inv=True)),
    ("|R5|", isa.Reg("R", 5, abs=True)),
    ("R6.reuse", isa.Reg("R", 6)),  # a register-cache hint, not an operand property
    ("RZ", isa.Reg("R", isa.RZ)),
    ("URZ", isa.Reg("UR", isa.URZ)),
    ("!P0", isa.Pred("P", 0, negated=True)),
    ("PT", isa.Pred("P", isa.PT)),
    ("!UPT", isa.Pred("UP", isa.PT, negated=True)),
    ("0x1f", isa.Imm(31)),
    ("-0x1", isa.Imm(-1)),
    ("5.9604644775390625e-08", isa.FImm("5.9604644775390625e-08")),
    ("c[0x0][0x210]", isa.Const(0, 0x210)),
    ("c[0x3][R2+0x10]", isa.Const(3, 0x10, isa.Reg("R", 2))),
    ("desc[UR6][R12.64+0x4]", isa.Mem((isa.Reg("R", 12, sel=".64"),), 4, isa.Reg("UR", 6))),
    ("[R3+-0x400]", isa.Mem((isa.Reg("R", 3),), -0x400)),
    ("[R5+UR4+0x100]", isa.Mem((isa.Reg("R", 5), isa.Reg("UR", 4)), 0x100)),
    ("SR_TID.X", isa.SReg("SR_TID.X")),
])
def test_operands(text, expected):
    assert isa.parse_operand(text) == expected


def test_branch_targets_guards_and_the_json_quirk_of_pr():
    bra = isa.parse_instruction(0xf0, {"predicate": "@!P0", "opcode": "BRA", "operands": "0xc30"}, 12, "k.cu")
    assert bra.guard == isa.Pred("P", 0, negated=True) and bra.operands == (isa.Target(0xc30),)
    # nvdisasm's JSON files P2R's `PR` (all predicates) under "predicate": it is an operand
    p2r = isa.parse_instruction(0, {"predicate": "PR", "opcode": "P2R", "operands": "R22,RZ,0x40"}, None, "")
    assert p2r.guard is None and p2r.operands[0] == isa.Reg("R", 22) and p2r.operands[3] == isa.Imm(0x40)
    wide = isa.parse_instruction(0, {"opcode": "IMAD.WIDE.U32", "operands": "R2,R6,0x4,R2"}, 3, "")
    assert (wide.opcode, wide.mods) == ("IMAD", ("WIDE", "U32")) and wide.name == "IMAD.WIDE.U32"


def test_a_run_of_instructions_without_a_line_belongs_to_the_line_named_last():
    fn = {"sass-instructions": [{"opcode": "S2R", "operands": "R0,SR_TID.X", "source-file-id": 0, "source-line": 7},
                                {"opcode": "S2R", "operands": "R1,SR_TID.Y"},
                                {"opcode": "EXIT", "source-file-id": 0, "source-line": 9}]}
    ins = isa.parse_function(fn, ["/x/k.cu"])
    assert [(i.pc, i.line) for i in ins] == [(0, 7), (16, 7), (32, 9)]  # 16 bytes an instruction


# --- a real cubin: needs the pinned nvcc ----------------------------------------------------------

def _have_toolchain() -> bool:
    try:
        toolchain.find_nvcc()
        toolchain.find_tool("nvdisasm")
    except UsageError:
        return False
    return True


needs_nvcc = pytest.mark.skipif(not _have_toolchain(), reason=f"no nvcc {toolchain.NVCC_RELEASE} / nvdisasm: "
                                f"{toolchain.INSTALL}")


@needs_nvcc
def test_parameters_and_shared_variables_from_the_cubin():
    f = read_cubin(toolchain.build_cubin(KERNELS / "smem.cu")).entry("sgemm_smem")
    # (int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
    assert [(p.offset, p.size) for p in f.params] == [(0, 4), (4, 4), (8, 4), (12, 4), (16, 8), (24, 8), (32, 4), (40, 8)]
    assert f.param_base == 0x210  # constant bank 0, after the launch fields, on sm_90
    # two 32x32 float tiles, after the 1 KiB the driver reserves
    assert [(v.name, v.offset, v.size) for v in f.shared_vars] == [("As", 0x400, 4096), ("Bs", 0x1400, 4096)]
    assert f.shared_bytes == 0x400 + 2 * 4096


@needs_nvcc
@pytest.mark.parametrize("name", ["smem.cu", "transpose.cu", "gemm_cp_async.cu", "wmma.cu"])
def test_the_cached_cubin_facts_are_the_elf_s(name, tmp_path, monkeypatch):
    # a cached run reads the facts from the cache, not the ELF: they must be the same facts
    from warpsim.sass import cubin as C

    path = toolchain.build_cubin(KERNELS / name)
    monkeypatch.setenv("WARPSIM_CACHE", str(tmp_path))
    first = read_cubin(path)  # reads the ELF and fills the cache
    assert list((tmp_path / C.CACHE_KIND).glob("*.json"))
    assert read_cubin(path) == first == C._read_elf(path)  # from the cache, and from the ELF again


@needs_nvcc
def test_entries_by_the_name_in_the_source_or_mangled():
    cubin = read_cubin(toolchain.build_cubin(KERNELS / "transpose.cu"))
    tiled = cubin.entry("transpose_tiled<1>")
    assert tiled.name == "_Z15transpose_tiledILi1EEviiPKfPf" and cubin.entry(tiled.name) is tiled
    assert tiled.demangled == "void transpose_tiled<1>(int, int, float const*, float*)"
    with pytest.raises(UsageError, match=r"no kernel 'transpose_tiled<2>' in transpose-\w+\.cubin; its entry "
                                         r"points: transpose_naive, transpose_tiled<0>, transpose_tiled<1>"):
        cubin.entry("transpose_tiled<2>")


@needs_nvcc
def test_a_template_over_unsigned_is_named_as_written(tmp_path):
    # the demangler writes `reduce<256u>`; the source and the command line say `reduce<256>`
    src = tmp_path / "t.cu"
    src.write_text("template <unsigned B> __global__ void reduce(float *y) { y[threadIdx.x % B] = 0; }\n"
                   "template __global__ void reduce<256>(float *);\n"
                   "template <long S> __global__ void shift(float *y) { y[threadIdx.x + S] = 0; }\n"
                   "template __global__ void shift<8>(float *);\n")
    cubin = read_cubin(toolchain.build_cubin(src))
    assert cubin.entry("reduce<256>").source_name == "reduce<256u>"
    assert cubin.entry("shift<8>").source_name == "shift<8l>"
    assert cubin.entry("reduce<256u>") is cubin.entry("reduce<256>")
    with pytest.raises(UsageError, match=r"no kernel 'reduce<25>'"):
        cubin.entry("reduce<25>")


@needs_nvcc
def test_loops_are_the_back_edges_of_reachable_code():
    p = load(toolchain.build_cubin(KERNELS / "naive.cu"), "sgemm_naive")
    # nvcc unrolls naive's K loop 16, 8 (straight), 4 and 1 times: three loops with a back edge each
    assert len(p.loops) == 3
    for header, loop in p.loops.items():
        assert all(p.by_pc[latch].opcode == "BRA" and latch >= header for latch in loop.latches)
        assert header in loop.body and set(loop.latches) <= loop.body
    last = p.instructions[-1]
    assert last.pc not in p.successors or p.by_pc  # the final `BRA` to itself is never reached
    assert all(i.opcode != "BRA" or i.pc in p.successors or i.pc >= max(p.successors) for i in p.instructions)


# --- the launch contract --------------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [("cdiv(N,32),cdiv(M,32)", (33, 32, 1)), ("N // 32 + 1", (33, 1, 1)),
                                           ("(M*N)%7, 2, 3", (6, 2, 3)),  # 1,030,000 = 7 * 147,142 + 6
                                           # C's integer operators: 1 << 10, 1030 >> 5, 1000 & 0xF0 = 992 & 240
                                           ("(1<<10)//M, N>>5, (M & 240) | 1", (1, 32, 225)),
                                           ("min(N, 64, M) ^ 3, max(1, N - 1029), 5", (67, 1, 5))])
def test_grid_expressions(text, expected):
    assert L.parse_dim3(text, {"M": 1000, "N": 1030}, "--grid") == expected  # 1030/32 -> 33, 1000/32 -> 32


@pytest.mark.parametrize("text,message", [
    ("cdiv(N,32", "does not parse"),
    ("cdiv(X,32)", "names 'X', which is not a scalar argument (the scalar arguments: M, N)"),
    ("N**2", "Pow is not allowed"),
    ("abs(N)", "the functions are cdiv(a, b), min(a, b, ...) and max(a, b, ...), not abs(N)"),
    ("cdiv(N)", "not cdiv(N)"),
    ("max(N)", "not max(N)"),
    ("min, 2", "min is a function, e.g. min(a, b)"),
    ("1 << M", "a shift by M (0 to 63 bits)"),
    ("N >> -1", "a shift by -1 (0 to 63 bits)"),
    ("N - 2000", "every side must be at least 1"),
])
def test_grid_refusals(text, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        L.parse_dim3(text, {"M": 1000, "N": 1030}, "--grid")


def test_signatures_from_the_source():
    src = "template <int P> __global__ void k(int M, const float *__restrict__ in, float out[], double a = 0) {}"
    assert L.source_signature(src, "k<1>") == [("int", "M"), ("const float *__restrict__", "in"),
                                              ("float *", "out"), ("double", "a")]
    assert L.demangled_types("void k<1>(int, float const*, float*, double)") == ["int", "float const*", "float*", "double"]


@needs_nvcc
@pytest.mark.parametrize("args,message", [
    ({"M": 97}, r"--arg N=VALUE is missing; transpose_naive's signature: \(int M, int N, const float \* in, float \* out\)"),
    ({"M": 97, "N": "x"}, r"--arg N=x: N is `int`, so its value must be an integer"),
    ({"M": 97, "N": 61, "Q": 1}, r"--arg Q: transpose_naive has no parameter of that name"),
    ({"M": 97, "N": 61, "in": "float[M*"}, r"--arg in=float\[M\*: in is a pointer; give TYPE\[COUNT\]"),
    ({"M": 97, "N": 61, "in": "blob[4]"},
     r"unknown element type 'blob'.*declared in bytes, e.g. in='uint8_t\[12\*\(4\)\]'"),
])
def test_argument_refusals(args, message):
    with pytest.raises(UsageError, match=message):
        prepare(KERNELS / "transpose.cu", "transpose_naive", "cdiv(N,32),cdiv(M,32)", "32x8", args)


@needs_nvcc
@pytest.mark.parametrize("kind,nbytes,dtype,values", [
    # CUDA's vector types are buffers of their size (half2: two halves, 4 bytes), and the GPU run
    # allocates them as that many scalars of numpy's matching type (bfloat16 has none: uint16)
    ("half2", 4, "float16", 2), ("__nv_bfloat162", 4, "uint16", 2), ("double2", 16, "float64", 2),
    ("uint4", 16, "uint32", 4), ("uchar4", 4, "uint8", 4), ("uint16_t", 2, "uint16", 1),
])
def test_vector_element_types_are_their_size(kind, nbytes, dtype, values, tmp_path):
    from profiling import plan

    args = {"M": 97, "N": 61, "in": f"{kind}[M*N]", "out": "float[M*N]"}
    k = prepare(KERNELS / "transpose.cu", "transpose_naive", "cdiv(N,32),cdiv(M,32)", "32x8", args)
    buffers = {b.name: b for b in k.launch.launch(k.program.function.shared_vars).buffers}
    assert buffers["in"].nbytes == nbytes * 97 * 61
    entry = plan.build(KERNELS / "transpose.cu", "transpose_naive", "cdiv(N,32),cdiv(M,32)", "32x8", args, tmp_path)
    param = next(p for p in entry["params"] if p["name"] == "in")
    assert (param["dtype"], param["count"]) == (dtype, values * 97 * 61)


@needs_nvcc
def test_block_refusals_and_compile_errors(tmp_path):
    with pytest.raises(UsageError, match="has 2048 threads; CUDA allows at most 1024 per block"):
        prepare(KERNELS / "transpose.cu", "transpose_naive", "1", "64x32", {"M": 8, "N": 8})
    broken = tmp_path / "broken.cu"
    broken.write_text('extern "C" __global__ void k(int *p) { p[0] = undefined_thing; }\n')
    with pytest.raises(UsageError, match=r"nvcc failed on broken.cu \(exit \d+\): .*undefined_thing") as err:
        prepare(broken, None, "1", "32", {})
    assert "\n" not in str(err.value)
    with pytest.raises(UsageError, match="has 3 kernels; pick one with --entry"):
        prepare(KERNELS / "transpose.cu", None, "1", "32x8", {"M": 8, "N": 8})


@needs_nvcc
def test_the_command_line_for_any_kernel(tmp_path):
    import json
    import shutil
    import subprocess
    import sys

    def warpsim(*args):
        return subprocess.run([sys.executable, "-m", "warpsim", *args], capture_output=True, text=True)

    launch = ["--entry", "transpose_tiled<1>", "--block", "32x8", "--grid", "cdiv(N,32),cdiv(M,32)",
              "--arg", "M=300", "--arg", "N=212", "--format", "json"]
    from_source = warpsim("analyze", str(KERNELS / "transpose.cu"), *launch)
    assert from_source.returncode == 0, from_source.stderr
    doc = json.loads(from_source.stdout)
    # rows are named after the pointer parameters and the __shared__ variable; padding (+1) makes
    # the tile's column reads conflict-free: 30 requests' worth of wavefronts, none excessive
    assert {(r["space"], r["array"], r["op"]) for r in doc["rows"]} == {
        ("global", "in", "load"), ("global", "out", "store"), ("shared", "tile", "load"), ("shared", "tile", "store")}
    tile_load = next(r for r in doc["rows"] if r["array"] == "tile" and r["op"] == "load")
    assert tile_load["bank_conflicts"] == 0 and tile_load["wavefronts"] == tile_load["requests"]
    cubin = tmp_path / "transpose.cubin"  # built elsewhere: the cubin alone, its source named by its line table
    shutil.copyfile(toolchain.build_cubin(KERNELS / "transpose.cu"), cubin)
    from_cubin = warpsim("analyze", str(cubin), *launch)
    assert json.loads(from_cubin.stdout)["rows"] == doc["rows"]
    several = warpsim("analyze", str(KERNELS / "transpose.cu"), "--block", "32x8", "--grid", "1", "--arg", "M=8",
                      "--arg", "N=8")
    assert several.returncode == 2 and several.stderr.count("\n") == 1 and "pick one with --entry" in several.stderr


@needs_nvcc
def test_cuda_vector_types_size_their_buffers(tmp_path):
    # uchar3 pixels, 3 bytes each: the 3 byte loads of a warp's 32 pixels span its 96 bytes, 96 w to
    # 96 w + 95, 3 sectors each (96 w is a multiple of 32): 3 x 32 = 96 sectors for 32 full warps
    path = tmp_path / "gray.cu"
    path.write_text('extern "C" __global__ void gray(const uchar3 *in, unsigned char *out, int n) {\n'
                    '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
                    '  if (i < n) { uchar3 p = in[i]; out[i] = (p.x + p.y + p.z) / 3; }\n}\n')
    k = prepare(path, "gray", "cdiv(n,256)", "256", {"n": 1024, "in": "uchar3[n]", "out": "uint8_t[n]"})
    assert k.launch.buffers["in"] == ("uchar3", 1024) and L.ELEMENT_BYTES["uchar3"] == 3
    rows = {r.array: r for r in A.analyze_launch(k).rows}
    assert (rows["in"].requests, rows["in"].sectors) == (3 * 32, 3 * 32 * 3)
    assert {t: L.ELEMENT_BYTES[t] for t in ("char1", "short3", "ushort4", "int3", "longlong2", "double4")} == {
        "char1": 1, "short3": 6, "ushort4": 8, "int3": 12, "longlong2": 16, "double4": 32}
