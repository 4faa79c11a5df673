"""Index arrays whose contents the launch gives (`--arg NAME=TYPE[COUNT]=EXPR`): the addresses a
kernel computes from them counted exactly, block by block; bad contents refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A
from warpsim.sass.launch import contents

SPARSE = "kernels/sparse.cu"
WRITES = '''extern "C" __global__ void bump(int n, int *idx, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { x[idx[i]] = 1.0f; idx[i] = 0; }   // line 3: writes the buffer it indexes with
}
'''


def gather(n: int, perm: str):
    return A.prepare(SPARSE, "gather", "cdiv(n,256)", "256",
                     {"n": n, "perm": f"int[n]={perm}", "x": "float[n]", "y": "float[n]"})


@needs_nvcc
def test_a_permutation_scatters_the_gather_a_lane_a_sector():
    # n = 1,000: 31 full warps and one of 8 lanes. The identity reads x as y is written, 4 sectors
    # a full warp and 1 the last: 125; (i * 7919) % n puts lanes 31,676 bytes apart, a sector each
    # lane: 1,000. perm itself and y are read and written in order either way: 125 each
    for perm, x_sectors in (("i", 31 * 4 + 1), ("(i*7919)%n", 1000)):
        a = A.analyze_launch(gather(1000, perm))
        assert a.row("global", "x", "load").sectors == x_sectors
        assert a.row("global", "perm", "load").sectors == a.row("global", "y", "store").sectors == 125
        assert any("counted by running each of its 4 blocks" in w for w in a.warnings)


@needs_nvcc
def test_a_csr_row_loop_follows_the_row_bounds_it_is_given():
    # row r runs from r (r + 1) / 2 to (r + 1) (r + 2) / 2: r + 1 entries, so thread r loads val
    # and col r + 1 times, whatever the unrolling of its loop; over one block of 64 rows val's
    # loads have 1 + 2 + ... + 64 = 2,080 live lanes, and row_ptr's two loads a thread 128
    rows = 64
    k = A.prepare(SPARSE, "spmv_csr", "cdiv(rows,256)", "256",
                  {"rows": rows, "row_ptr": "int[rows+1]=(i*(i+1))//2", "col": "int[rows*(rows+1)//2]=i%rows",
                   "val": "float[rows*(rows+1)//2]", "x": "float[rows]", "y": "float[rows]"})
    a = A.analyze_launch(k)
    assert a.row("global", "val", "load").active_lanes == rows * (rows + 1) // 2
    assert a.row("global", "row_ptr", "load").active_lanes == 2 * rows  # row_ptr[r] and row_ptr[r + 1]


def test_contents_are_the_expression_at_every_element_index():
    assert contents("perm", "int", 7, "(i*3)%7", {}).tolist() == [0, 3, 6, 2, 5, 1, 4]
    assert contents("rows", "int64_t", 4, "i*n", {"n": 5}).dtype == np.int64
    assert contents("keys", "uint8_t", 3, "250+i", {}).tolist() == [250, 251, 252]


@pytest.mark.parametrize("kind, text, message", [
    ("float", "i", r"contents are given for integer buffers only"),
    ("uint8_t", "i*100", r"element 3 is 300, outside uint8_t's range \[0, 255\]"),
    ("int", "i//0", r"division by zero"),
    ("int", "j", r"names 'j', which is not a scalar argument"),
])
def test_bad_contents_are_refused_in_one_line(kind, text, message):
    with pytest.raises(UsageError, match=message) as err:
        contents("a", kind, 8, text, {"n": 8})
    assert "\n" not in str(err.value)


def test_the_element_index_must_not_shadow_a_scalar():
    with pytest.raises(UsageError, match=r"the element index 'i' is also a scalar argument's name"):
        contents("a", "int", 8, "i", {"i": 3})


@needs_nvcc
def test_a_kernel_that_writes_the_buffer_it_was_given_is_refused(tmp_path):
    path = tmp_path / "bump.cu"
    path.write_text(WRITES)
    k = A.prepare(path, "bump", "cdiv(n,256)", "256", {"n": 100, "idx": "int[n]=i", "x": "float[n]"})
    with pytest.raises(UsageError, match=r"idx's contents are given .* and the kernel writes it: .*leave out '=EXPR'"):
        A.analyze_launch(k)


@needs_nvcc
def test_an_index_past_the_buffer_is_refused_not_counted():
    # perm given 99 elements for 100 threads: the last thread reads perm[99], bytes 396..399, past
    # the contents; what it would read is not known, so the launch is refused, not counted
    k = A.prepare(SPARSE, "gather", "cdiv(n,256)", "256", {"n": 100, "perm": "int[n-1]=i", "x": "float[n]",
                                                          "y": "float[n]"})
    with pytest.raises(UsageError, match=r"a load of perm at byte 396, outside its 396 bytes of given contents"):
        A.analyze_launch(k)


@needs_nvcc
def test_the_cli_takes_contents_and_refuses_bad_ones_with_status_2():
    def warpsim(*args):
        return subprocess.run([sys.executable, "-m", "warpsim.cli", "analyze", SPARSE, "--entry", "histogram",
                               "--grid", "cdiv(n,256)", "--block", "256", "--arg", "n=1000", "--arg", "counts=int[1024]",
                               *args, "--format", "json"], capture_output=True, text=True)

    ok = warpsim("--arg", "keys=int[n]=i%7")
    assert ok.returncode == 0, ok.stderr
    # 7 bins: each warp's atomics land in 7 words of one sector, 32 warps (n = 1,000)
    rows = {(r["array"], r["op"]): r for r in json.loads(ok.stdout)["rows"]}
    assert rows[("counts", "atomic")]["sectors"] == 32
    bad = warpsim("--arg", "keys=float[n]=i")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "integer buffers only" in bad.stderr
