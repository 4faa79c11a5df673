"""A `switch` nvcc compiles to a jump table: `LDC R6, c[0x2][R0+0xc]` reads a function-relative pc
from constant bank 2 (the cubin's `.nv.constant2.<kernel>`), `BRX R6, -0x160` jumps there. nvcc
emits one for a switch on a parameter (an activation's mode), on the warp index, on a flat index
divided by a parameter, and on data; a switch on the lane or the block index it compiles to
branches. The kernels of blind batch 16 (kernels/switch.cu), and one written here, compiled with
the pinned nvcc."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A
from warpsim.sass import program as P

SWITCH = Path(__file__).resolve().parent.parent / "kernels" / "switch.cu"  # blind batch 16's, as measured
DATA = '''extern "C" __global__ void by_data(int n, const int *k, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (k[i]) {                      // line 4: which store runs, data decides
    case 0: y[i] = 1.f; break;
    case 1: y[2 * i] = 1.f; break;
    case 2: y[i + 5] = 3.f; break;
    case 3: y[4 * i] = 1.f; break;
    case 4: y[i] = 2.f; break;
    case 5: y[n - 1 - i] = 5.f; break;
  }
}
'''


@pytest.fixture(scope="module")
def source():
    return SWITCH


@pytest.fixture(scope="module")
def data_source(tmp_path_factory):
    path = tmp_path_factory.mktemp("switch") / "by_data.cu"
    path.write_text(DATA)
    return path


def both(source, name: str, args: dict):
    """The fast engine's rows and the brute force's (every thread run), as records."""
    prepared = A.prepare(source, name, "cdiv(n,256)", "256", args)
    fast, brute = A.analyze_launch(prepared), A.brute_force(prepared)
    assert [r.record() for r in fast.rows] == [r.record() for r in brute.rows]
    return {r.array: r for r in fast.rows}


@needs_nvcc
def test_each_jump_goes_where_nvcc_s_branch_targets_say(source):
    # nvdisasm's text names each BRX's targets (`BRANCH_TARGETS .L_x_15,.L_x_16,.L_x_17,.L_x_10`;
    # its JSON does not): act's two tables hold 3 and 4 cases, the fall-through pc included as
    # nvdisasm lists it (case 0 lies right after the first BRX). The successors come from the
    # table each BRX's LDC reads, not from every word of the bank.
    program = P.load(A.prepare(source, "act", "cdiv(n,256)", "256", {"n": 1000, "mode": 0}).cubin_path, "act")
    brx = [i for i in program.instructions if i.opcode == "BRX"]
    assert len(brx) == 2 and len(program.function.constant2) == 7
    assert sorted(len(program.successors[i.pc]) for i in brx) == [3, 4]
    assert all(program.by_pc[t] for i in brx for t in program.successors[i.pc])


@needs_nvcc
@pytest.mark.parametrize("mode,y", [
    (0, (94, 375)),   # y[i]: 93 full warps of 4 sectors; the last warp's 24 lanes, bytes 11904-11999: 3
    (2, (94, 750)),   # y[2 i]: 256 B a full warp, 8 sectors; the last warp's 192 B from byte 23808: 6
    (4, (94, 375)),   # y[n - 1 - i]: the same bytes backwards, n = 3000 a multiple of 8
    (6, (94, 469)),   # y[i + 1]: bytes 128 w + 4 .. 128 w + 131, 5 sectors; the last warp 372-375: 4
    (9, None),        # the default case stores nothing
])
def test_a_switch_on_a_parameter_takes_its_case(source, mode, y):
    rows = both(source, "act", {"n": 3000, "mode": mode})
    assert (rows["x"].requests, rows["x"].sectors) == (94, 375)  # every case loads x[i] first
    assert ((rows["y"].requests, rows["y"].sectors) if "y" in rows else None) == y


@needs_nvcc
@pytest.mark.parametrize("mode,x", [
    (0, (160, 625)),    # x[j n + i], n = 1000: per j 31 warps of 4 sectors and 8 lanes in 1, 5 times
    (1, (160, 3125)),   # x[5 i + j]: lanes 20 B apart, 640 B a warp: 20 sectors (+1 as j shifts it)
    (2, (160, 160)),    # x[j]: one word, broadcast, per warp and iteration
    (4, None),          # no load
])
def test_a_switch_taken_out_of_a_loop_runs_that_case_s_loop(source, mode, x):
    rows = both(source, "in_loop", {"n": 1000, "k": 5, "mode": mode})
    assert ((rows["x"].requests, rows["x"].sectors) if "x" in rows else None) == x
    assert (rows["y"].requests, rows["y"].sectors) == (32, 125)


@needs_nvcc
@pytest.mark.parametrize("n,x", [
    (3000, 11 * 5 + 4),     # 11 full blocks; the last's 184 threads are warps 0-5, of which 0, 1, 2, 5 load
    (100_000, 390 * 5 + 3),  # 390 full blocks; the last's 160 threads are warps 0-4: 0, 1, 2 load
])
def test_a_switch_on_the_warp_index_sends_each_warp_to_its_case(source, n, x):
    # warp w of a block takes case w: cases 0, 1, 2, 5 and 6 load x, case 3 (y[4 i]), case 4 (a
    # constant) and the default (warp 7) do not; every warp stores to y once.
    rows = both(source, "by_warp", {"n": n})
    assert (rows["x"].requests, rows["y"].requests) == (x, -(-n // 32))


@needs_nvcc
@pytest.mark.parametrize("step", [1, 64, 256])
def test_a_switch_on_a_divided_flat_index_is_counted_block_by_block(source, step):
    both(source, "by_step", {"n": 3000, "step": step})


@needs_nvcc
def test_a_switch_on_data_is_refused_in_one_line(data_source):
    with pytest.raises(UsageError, match=r"by_data: a condition computed from data steers control flow .*line 4") as e:
        A.analyze_launch(A.prepare(data_source, "by_data", "cdiv(n,256)", "256", {"n": 1000}))
    assert "\n" not in str(e.value)
