"""What nvcc really emits for the ladder kernels, read from the SASS (no GPU needed).

The kernel models declare instruction widths; these tests pin the compiler's side of that
contract: each fact below was read off `nvdisasm --print-line-info` of an sm_90 build with nvcc
13.0 (`-O3 -lineinfo`). Source lines are found by their text, so editing a comment elsewhere in
a kernel does not break them. The parser tests run everywhere; the compile tests need nvcc.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from warpsim import toolchain
from warpsim.errors import UsageError
from warpsim.sass import listing as sass

KERNELS = Path(__file__).resolve().parent.parent / "kernels"
LADDER = ("smem", "blocktile1d", "blocktile2d", "vectorized", "warptile", "warptile_db")


def _have_tools() -> bool:
    try:
        toolchain.find_nvcc()
        toolchain.find_tool("nvdisasm")
        toolchain.find_tool("cuobjdump")
    except UsageError:
        return False
    return True


needs_nvcc = pytest.mark.skipif(
    not _have_tools(), reason="needs nvcc (CUDA 13.0) and nvdisasm/cuobjdump (pip nvidia-cuda-nvdisasm, nvidia-cuda-cuobjdump)"
)


# --- parsing: pure, always runs ---------------------------------------------------------------

LISTING = """\
//--------------------- .text.k                   --------------------------
k:
	//## File "/x/k.cu", line 21
        /*02b0*/              @!P1 LDG.E R27, desc[UR8][R8.64] ;
        /*02e0*/                   STS [R6], R27 ;
	//## File "/x/k.cu", line 26
        /*0320*/                   LDS.128 R12, [R4+0x10] ;
        /*0330*/                   FFMA R12, R26, R12, R23 ;
	//## File "/x/k.cu", line 30
        /*0400*/                   LDGSTS.E.BYPASS.LTC128B.128 [R3], desc[UR4][R4.64] ;
        /*0410*/               @P0 STG.E.64 desc[UR8][R2.64], R4 ;
        /*0420*/                   LDC R1, c[0x0][0x28] ;
        /*0430*/                   LDG.E.U8 R0, desc[UR8][R2.64] ;
"""


def test_parse_memory_instructions():
    df = sass.parse_memory_instructions(LISTING)
    # 6 memory instructions; LDGSTS counts twice (global load + shared store); FFMA, LDC are not memory
    assert len(df) == 7
    assert list(df.opcode) == ["LDG.E", "STS", "LDS.128", "LDGSTS.E.BYPASS.LTC128B.128",
                               "LDGSTS.E.BYPASS.LTC128B.128", "STG.E.64", "LDG.E.U8"]
    assert list(df.width) == [4, 4, 16, 16, 16, 8, 1]
    assert list(df.line) == [21, 21, 26, 30, 30, 30, 30]
    assert list(df.predicate) == ["@!P1", "", "", "", "", "@P0", ""]
    assert list(df.predicated) == [True, False, False, False, False, True, False]
    ldgsts = df[df.pc == 0x400]
    assert set(zip(ldgsts.space, ldgsts.op)) == {("global", "load"), ("shared", "store")}
    assert set(df.kernel) == {"k"}


def test_access_width():
    assert sass.access_width("LDG.E.128") == 16  # float4
    assert sass.access_width("LDG.E.64") == 8
    assert sass.access_width("STS") == 4  # no suffix: 32-bit
    assert sass.access_width("LDG.E.S16") == 2
    assert sass.access_width("LDG.E.128.CONSTANT") == 16


# --- compiled kernels: need nvcc -----------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("cubins")
    options = toolchain.BuildOptions(cache_dir=out)
    return {name: toolchain.build_cubin(KERNELS / f"{name}.cu", options) for name in LADDER}


@pytest.fixture(scope="module")
def sass_of(built):
    return {name: sass.memory_instructions(cubin) for name, cubin in built.items()}


def line_of(name: str, text: str) -> int:
    """The 1-based number of the one line of kernels/<name>.cu containing `text`."""
    lines = (KERNELS / f"{name}.cu").read_text().splitlines()
    hits = [i + 1 for i, line in enumerate(lines) if text in line]
    assert len(hits) == 1, f"{text!r} found on lines {hits} of {name}.cu"
    return hits[0]


def mix(df, name: str, text: str) -> dict[tuple[str, bool], int]:
    """{(opcode, predicated): count} of the SASS memory instructions on the line holding `text`."""
    rows = df[df.line == line_of(name, text)]
    return rows.groupby(["opcode", "predicated"]).size().to_dict()


@needs_nvcc
def test_compile_is_cached(built, tmp_path_factory):
    again = toolchain.build_cubin(KERNELS / "smem.cu", toolchain.BuildOptions(cache_dir=built["smem"].parent))
    assert again == built["smem"]


@needs_nvcc
@pytest.mark.parametrize("name", LADDER)
def test_no_spills(built, name):
    usage = sass.resource_usage(built[name]).iloc[0]
    assert usage.kernel == f"sgemm_{name}"
    assert usage.local == 0 and usage.stack == 0  # no register spills to local memory


@needs_nvcc
@pytest.mark.parametrize("name", LADDER)
def test_every_instruction_has_a_source_line(sass_of, name):
    df = sass_of[name]
    assert (df.line > 0).all()
    assert not (df.space == "local").any()


@needs_nvcc
def test_smem(sass_of):
    df = sass_of["smem"]
    # tile loads: one predicated 4-byte LDG per array (guard -> predicate, zero fill), plain STS
    assert mix(df, "smem", "As[ty * BLOCKSIZE + tx] =") == {("LDG.E", True): 1, ("STS", False): 1}
    assert mix(df, "smem", "Bs[ty * BLOCKSIZE + tx] =") == {("LDG.E", True): 1, ("STS", False): 1}
    # the unrolled dot product: As[ty*32 + i] (same address in all lanes) becomes 8 LDS.128 (i in
    # steps of 4); Bs[i*32 + tx] stays 32 scalar LDS
    assert mix(df, "smem", "acc += As[") == {("LDS.128", False): 8, ("LDS", False): 32}
    # epilogue: the guard becomes an EXIT, so the C load and store are not predicated
    assert mix(df, "smem", "C[row * N + col] = alpha") == {("LDG.E", False): 1, ("STG.E", False): 1}


@needs_nvcc
def test_blocktile1d(sass_of):
    df = sass_of["blocktile1d"]
    # a statement over 3 lines: STS on the `As[...] =` line, the predicated LDG on the `? A[...]` line
    assert mix(df, "blocktile1d", "As[innerRowA * BK + innerColA] =") == {("STS", False): 1}
    assert mix(df, "blocktile1d", "? A[(bRow + innerRowA) * K") == {("LDG.E", True): 1}
    assert mix(df, "blocktile1d", "Bs[innerRowB * BN + innerColB] =") == {("STS", False): 1}
    assert mix(df, "blocktile1d", "? B[(k0 + innerRowB) * N") == {("LDG.E", True): 1}
    # 8 dotIdx: tmpB = Bs[dotIdx*BN + threadCol] is one scalar LDS each
    assert mix(df, "blocktile1d", "const float tmpB = Bs[") == {("LDS", False): 8}
    # As[(threadRow*TM + resIdx)*BK + dotIdx]: 8 rows x 8 dotIdx floats = 8 x 2 LDS.128
    assert mix(df, "blocktile1d", "threadResults[resIdx] += As[") == {("LDS.128", False): 16}
    # epilogue: 7 predicated LDG/STG pairs, the 8th after an EXIT
    assert mix(df, "blocktile1d", "C[row * N + col] = alpha") == {
        ("LDG.E", True): 7, ("LDG.E", False): 1, ("STG.E", True): 7, ("STG.E", False): 1}


@needs_nvcc
def test_blocktile2d(sass_of):
    df = sass_of["blocktile2d"]
    # 4 loads of A and 4 of B per thread per tile, scalar and predicated
    assert mix(df, "blocktile2d", "As[r * BK + innerColA] =") == {("STS", False): 4}
    assert mix(df, "blocktile2d", "? A[(bRow + r) * K") == {("LDG.E", True): 4}
    assert mix(df, "blocktile2d", "Bs[r * BN + innerColB] =") == {("STS", False): 4}
    assert mix(df, "blocktile2d", "? B[(k0 + r) * N") == {("LDG.E", True): 4}
    # unrolled: regM[i] = As[(threadRow*TM + i)*BK + dotIdx] -> 8 rows x 2 LDS.128 (dotIdx 0-3, 4-7)
    assert mix(df, "blocktile2d", "regM[i] = As[") == {("LDS.128", False): 16}
    # regN[i] = Bs[dotIdx*BN + threadCol*TN + i] -> 8 dotIdx x 2 LDS.128
    assert mix(df, "blocktile2d", "regN[i] = Bs[") == {("LDS.128", False): 16}
    # epilogue: 64 scalar C loads and stores; all but 2 of each predicated (1 behind a branch, 1 after EXIT)
    assert mix(df, "blocktile2d", "C[row * N + col] = alpha") == {
        ("LDG.E", True): 62, ("LDG.E", False): 2, ("STG.E", True): 62, ("STG.E", False): 2}


@needs_nvcc
def test_vectorized(sass_of):
    df = sass_of["vectorized"]
    # one predicated float4 load of A and of B per thread per tile
    assert mix(df, "vectorized", "a = *reinterpret_cast<const float4 *>(&A[") == {("LDG.E.128", True): 1}
    assert mix(df, "vectorized", "b = *reinterpret_cast<const float4 *>(&B[") == {("LDG.E.128", True): 1}
    # A transposed into shared: 4 scalar STS, one per component; B stored as one STS.128
    for comp in "xyzw":
        assert mix(df, "vectorized", f"+ innerRowA] = a.{comp};") == {("STS", False): 1}
    assert mix(df, "vectorized", "*reinterpret_cast<float4 *>(&Bs[") == {("STS.128", False): 1}
    # compute: 8 dotIdx x 2 LDS.128 for each of As and Bs
    assert mix(df, "vectorized", "regM[i] = As[") == {("LDS.128", False): 16}
    assert mix(df, "vectorized", "regN[i] = Bs[") == {("LDS.128", False): 16}
    # epilogue: 8 rows x 2 float4s of C
    assert mix(df, "vectorized", "float4 c = *reinterpret_cast") == {("LDG.E.128", True): 15, ("LDG.E.128", False): 1}
    assert mix(df, "vectorized", "*reinterpret_cast<float4 *>(&C[") == {("STG.E.128", True): 15, ("STG.E.128", False): 1}


@needs_nvcc
def test_warptile(sass_of):
    df = sass_of["warptile"]
    # 4 float4s of A (rows r, r+32, r+64, r+96) and 4 of B (rows r, r+4, r+8, r+12) per tile
    assert mix(df, "warptile", "a = *reinterpret_cast<const float4 *>(&A[") == {("LDG.E.128", True): 4}
    assert mix(df, "warptile", "b = *reinterpret_cast<const float4 *>(&B[") == {("LDG.E.128", True): 4}
    for comp in "xyzw":
        assert mix(df, "warptile", f"* BM + r] = a.{comp};") == {("STS", False): 4}
    assert mix(df, "warptile", "*reinterpret_cast<float4 *>(&Bs[") == {("STS.128", False): 4}
    # compute, BK=16 unrolled: As 8 floats = 2 LDS.128, Bs 4 sub-tiles x 4 floats = 4 LDS.128 per dotIdx
    assert mix(df, "warptile", "As[dotIdx * BM + warpRow * WM") == {("LDS.128", False): 32}
    assert mix(df, "warptile", "Bs[dotIdx * BN + warpCol * WN") == {("LDS.128", False): 64}
    # epilogue: 4 sub-tiles x 8 rows, one float4 of C each
    assert mix(df, "warptile", "float4 c = *reinterpret_cast") == {("LDG.E.128", True): 31, ("LDG.E.128", False): 1}
    assert mix(df, "warptile", "*reinterpret_cast<float4 *>(&C[") == {("STG.E.128", True): 31, ("STG.E.128", False): 1}


@needs_nvcc
def test_warptile_db(sass_of):
    df = sass_of["warptile_db"]
    # the load/store helpers are inlined twice (prologue: tile 0; loop: tile k0 + BK), so each of
    # their lines holds two copies: A 1 float4 per tile, B 2 float4s per tile
    assert mix(df, "warptile_db", "aReg[i] = *reinterpret_cast") == {("LDG.E.128", True): 2}
    assert mix(df, "warptile_db", "bReg[i] = *reinterpret_cast") == {("LDG.E.128", True): 4}
    for comp in "xyzw":
        assert mix(df, "warptile_db", f"* BM + r] = aReg[i].{comp};") == {("STS", False): 2}
    assert mix(df, "warptile_db", "*reinterpret_cast<float4 *>(&Bs[") == {("STS.128", False): 4}
    # compute, BK=8 unrolled: As 2 LDS.128 and Bs 4 LDS.128 per dotIdx
    assert mix(df, "warptile_db", "As[stage][dotIdx * BM") == {("LDS.128", False): 16}
    assert mix(df, "warptile_db", "Bs[stage][dotIdx * BN") == {("LDS.128", False): 32}
    assert mix(df, "warptile_db", "float4 c = *reinterpret_cast") == {("LDG.E.128", True): 31, ("LDG.E.128", False): 1}
    assert mix(df, "warptile_db", "*reinterpret_cast<float4 *>(&C[") == {("STG.E.128", True): 31, ("STG.E.128", False): 1}
