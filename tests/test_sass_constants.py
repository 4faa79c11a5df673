"""`__constant__` variables that decide addresses and loop bounds (kernels/constants.cu): given with
`--arg NAME=V[,V...]` as cudaMemcpyToSymbol would set them, refused by name without, and carried
into the launch plan the GPU run replays."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A
from warpsim.sass.cubin import Constant
from warpsim.sass.launch import GivenConstant, KernelLaunch

KERNELS = Path(__file__).resolve().parent.parent / "kernels"
SOURCE = KERNELS / "constants.cu"


def brute(n: int, index, ks, active=lambda i: True) -> int:
    """Sectors of the float loads x[index(i, k)], each k a load, counted warp by warp by hand:
    the distinct 32-byte sectors of a warp's active lanes."""
    return sum(len({4 * index(i, k) // 32 for i in range(w, min(w + 32, n)) if active(i)})
               for w in range(0, n, 32) for k in ks if any(active(i) for i in range(w, min(w + 32, n))))


def counts(entry: str, **args) -> dict:
    k = A.prepare(SOURCE, entry, "cdiv(n,256)", "256", {k.replace("__", "::"): str(v) for k, v in args.items()})
    return {(r.array, r.op): (r.requests, r.sectors) for r in A.analyze_launch(k).rows}


@needs_nvcc
def test_a_stencils_offsets_given_as_constants_count_as_written_in_the_code():
    # x[i + OFF[k]] for 2 <= i < 998, OFF = -2..2: 32 warps, 5 loads each = 160 requests. A full
    # warp (30 of them) reads 128 bytes 4 d off a sector's start: 4 sectors for d = 0, 5 otherwise,
    # 24 a warp; warp 0 (i = 2..31) 4 + 4 + 4 + 5 + 5 = 22; warp 31 (i = 992..997) 2 + 2 + 1 + 1 + 1
    # = 7: 720 + 22 + 7 = 749 sectors
    got = counts("offsets", n=1000, OFF="-2,-1,0,1,2")
    assert got[("x", "load")] == (160, 749)
    assert got[("y", "store")] == (32, 125)  # 996 floats from byte 8: sectors 0..124
    assert brute(1000, lambda i, k: i + k - 2, range(5), lambda i: 2 <= i < 998) == 749
    shifted = counts("offsets", n=1000, OFF="0,3,7,8,40")
    assert shifted[("x", "load")] == (160, brute(1000, lambda i, k: i + (0, 3, 7, 8, 40)[k], range(5),
                                                 lambda i: 2 <= i < 998))


@needs_nvcc
def test_a_namespaced_int_and_a_long_long_decide_a_stride():
    # x[5 + 3 i]: a warp's 32 lanes 12 bytes apart from 20 + 384 w span bytes 20 + 384 w to
    # 395 + 384 w: sectors 12 w + 0 .. 12 w + 12, 13 a warp (31 full); the last 8 lanes 20 + 11,904 to
    # 11,927 + 84: sectors 372 .. 375, 4
    assert counts("strided", n=1000, cfg__STRIDE=3, BASE=5)[("x", "load")] == (32, 31 * 13 + 4)
    assert brute(1000, lambda i, k: 5 + 3 * i, [0]) == 31 * 13 + 4
    assert counts("strided", n=1000, cfg__STRIDE=-2, BASE=3000)[("x", "load")] == (
        32, brute(1000, lambda i, k: 3000 - 2 * i, [0]))


@needs_nvcc
def test_shorts_two_to_a_bank_word_are_read_at_their_own_bytes():
    # TAPS = 0, 8, 16, 24 (LDC.U16 c[0x3][0xa] reads the word at 0x8 from its third byte):
    # x[4 i + 8 k]: a warp's 32 lanes 16 bytes apart: 16 sectors a load, the last warp's 8 lanes 4
    got = counts("taps", n=1000, TAPS="0,8,16,24")
    assert got[("x", "load")] == (128, 4 * (31 * 16 + 4))
    assert brute(1000, lambda i, k: 4 * i + 8 * k, range(4)) == 4 * (31 * 16 + 4)
    assert counts("taps", n=1000, TAPS="1,-3,5,-32768")[("x", "load")] == (
        128, brute(1000, lambda i, k: 4 * i + (1, -3, 5, -32768)[k], range(4)))


@needs_nvcc
def test_a_loop_bound_from_a_constant_is_the_given_value():
    # x[i * NCOLS + j], j < NCOLS: NCOLS loads a warp of 32 lanes NCOLS * 4 bytes apart (one sector
    # each for NCOLS >= 8), 8 lanes in the last warp
    assert counts("rows", n=1000, NCOLS=8)[("x", "load")] == (256, 8 * (31 * 32 + 8))
    for ncols in (3, 13):
        assert counts("rows", n=1000, NCOLS=ncols)[("x", "load")] == (
            32 * ncols, brute(1000, lambda i, j: ncols * i + j, range(ncols)))


@needs_nvcc
def test_without_its_value_a_constant_is_refused_by_name_with_its_initial_value():
    k = A.prepare(SOURCE, "offsets", "cdiv(n,256)", "256", {"n": "1000"})
    with pytest.raises(UsageError, match=r"\(the value of __constant__ OFF, which the program may set with "
                                         r"cudaMemcpyToSymbol before the launch; give it with --arg "
                                         r"OFF=-2,-1,0,1,2\).*line 23") as err:
        A.analyze_launch(k)
    assert "\n" not in str(err.value)
    # a loop bound: the branch's refusal names it too; an uninitialised one offers 0
    k = A.prepare(SOURCE, "rows", "cdiv(n,256)", "256", {"n": "1000"})
    with pytest.raises(UsageError, match=r"a condition computed from data \(the value of __constant__ NCOLS.*"
                                         r"--arg NCOLS=8\) steers control flow"):
        A.analyze_launch(k)
    k = A.prepare(SOURCE, "strided", "cdiv(n,256)", "256", {"n": "1000", "BASE": "0"})
    with pytest.raises(UsageError, match=r"__constant__ cfg::STRIDE.*--arg cfg::STRIDE=0\)"):
        A.analyze_launch(k)


@needs_nvcc
@pytest.mark.parametrize("args, message", [
    ({"OFF": "1,2"}, r"--arg OFF=1,2: __constant__ OFF takes 20 bytes; it holds 5 elements of 4 bytes, so give 5 "
                     r"values, not 2 \(its initial value: --arg OFF=-2,-1,0,1,2\)"),
    ({"OFF": "1,2,3,4,x"}, r"--arg OFF 'x'"),
    ({"TAPS": "0,1,2,70000"}, r"--arg TAPS=0,1,2,70000: .*70000 does not fit in 2 bytes"),
    ({"OFX": "1"}, r"--arg OFX: offsets has no parameter of that name; its signature: \(int n, const float \* x, "
                   r"float \* y\); its __constant__ variables: OFF, BASE, TAPS, NCOLS, cfg::STRIDE"),
])
def test_a_constant_given_wrong_is_one_line_saying_what_fits(args, message):
    with pytest.raises(UsageError, match=message):
        A.prepare(SOURCE, "offsets", "cdiv(n,256)", "256", {"n": "1000", **args})


@needs_nvcc
def test_the_launch_plan_carries_the_constants_for_the_gpu_run(tmp_path):
    from profiling import plan

    entry = plan.build(SOURCE, "strided", "cdiv(n,256)", "256",
                       {"n": 1000, "cfg::STRIDE": 3, "BASE": 5, "x": "float[3*n+5]", "y": "float[n]"}, tmp_path)
    assert entry["id"] == "constants/strided__n1000_cfg_STRIDE3_BASE5"
    by_name = {c["name"]: c for c in entry["constants"]}
    assert by_name["cfg::STRIDE"]["symbol"] == "_ZN3cfg6STRIDEE"  # what cudaMemcpyToSymbol (get_global) takes
    assert by_name["cfg::STRIDE"]["bytes"] == "03000000" and by_name["cfg::STRIDE"]["values"] == [3]
    assert by_name["BASE"]["bytes"] == "0500000000000000"  # a long long: 8 bytes


@given(st.sampled_from([1, 2, 4, 8]), st.integers(1, 6), st.data())
def test_packed_values_read_back_as_the_bank_words_the_engine_sees(width, count, data):
    values = data.draw(st.lists(st.integers(-(1 << (8 * width - 1)), (1 << (8 * width)) - 1),
                                min_size=count, max_size=count))
    var = Constant(offset=8, name="V", size=width * count, element=width)
    raw = var.pack(values)
    assert [int.from_bytes(raw[i:i + width], "little") for i in range(0, len(raw), width)] == \
        [v % (1 << (8 * width)) for v in values]
    launch = KernelLaunch.__new__(KernelLaunch)
    launch.constants = {"V": GivenConstant(var, tuple(values), "")}
    words = launch.bank3()
    # every whole word the variable covers is held, and its bytes are the packed ones
    for at, word in words.items():
        assert at % 4 == 0 and 8 <= at and at + 4 <= 8 + len(raw)
        assert word.to_bytes(4, "little") == raw[at - 8:at - 4]
    assert len(words) == len(raw) // 4


class _FakeCupy:
    """What profiling.launch.replay asks of CuPy, on the CPU: the module's globals take the bytes
    copied to them, the kernel "runs" as constants.cu's strided would with those bytes."""

    def __init__(self):
        self.globals: dict[str, bytearray] = {}
        outer = self

        class Pointer:
            def __init__(self, name):
                self.name = name

            def copy_from_host(self, address, nbytes):
                import ctypes

                outer.globals[self.name] = bytearray(ctypes.string_at(address, nbytes))

        class Module:
            def __init__(self, path):
                pass

            def get_global(self, name):
                return Pointer(name)

            def get_function(self, name):
                def strided(grid, block, args, shared_mem=0):  # the kernel, from the bytes it was given
                    n, x, y = int(args[0]), args[1], args[2]
                    stride = int.from_bytes(outer.globals["_ZN3cfg6STRIDEE"], "little", signed=True)
                    base = int.from_bytes(outer.globals["BASE"], "little", signed=True)
                    y[:n] = x[base + np.arange(n) * stride]
                return strided

        self.RawModule = Module
        self.asarray = lambda a: np.array(a)
        self.asnumpy = lambda a: a
        self.cuda = type("cuda", (), {"Device": lambda: type("D", (), {"synchronize": lambda self: None})()})


@needs_nvcc
def test_the_gpu_run_sets_the_constants_and_checks_against_them(tmp_path, monkeypatch):
    from profiling import launch as L
    from profiling import plan

    entry = plan.build(SOURCE, "strided", "cdiv(n,256)", "256",
                       {"n": 1000, "cfg::STRIDE": -2, "BASE": 2000, "x": "float[3*n+8]", "y": "float[n]"},
                       tmp_path, reference="constants.cu:strided")
    fake = _FakeCupy()
    monkeypatch.setattr(L, "require_cupy", lambda: fake)
    assert L.replay(entry, {}) is None  # y checked against the numpy reference, given the same constants
    assert fake.globals == {"_ZN3cfg6STRIDEE": bytearray((-2).to_bytes(4, "little", signed=True)),
                            "BASE": bytearray((2000).to_bytes(8, "little"))}
