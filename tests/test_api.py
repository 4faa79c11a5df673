"""The Python API: `warpsim.analyze("naive", M=4096)` is the Analysis, its frame carries the
launch and every counter, and bad arguments raise warpsim's one error type."""

from __future__ import annotations

import subprocess
import sys

import pytest

import warpsim
from warpsim.counts import COUNTERS, Analysis


def test_analyze_with_defaults_is_the_whole_launch():
    a = warpsim.analyze("naive", M=4096)
    assert isinstance(a, Analysis) and (a.M, a.N, a.K) == (4096, 4096, 4096) and a.block == (32, 32)
    A = a.row("global", "A", "load")
    assert A.requests == 4096**3 // 32  # one request per warp per k: M*N/32 warps x K
    assert A.sectors == 32 * A.requests  # 32 rows, K*4 B apart: a sector each
    assert type(A.sectors) is int


def test_frame_carries_the_launch_and_every_counter():
    frame = warpsim.analyze("smem", M=100, N=64, K=40, block="32x32").frame()
    for column in ("kernel", "M", "N", "K", "block", "grid", "space", "array", "op", "width", *COUNTERS, "bytes_moved"):
        assert column in frame.columns, column
    assert set(frame["kernel"]) == {"smem"} and set(frame["block"]) == {"32x32"}
    assert list(frame[["M", "N", "K"]].iloc[0]) == [100, 64, 40]
    shared = frame[frame["space"] == "shared"]
    assert len(shared) == 4 and (shared["wavefronts"] > 0).all()  # A and B, loads and stores


def test_block_as_text_or_pair():
    assert warpsim.analyze("naive_coalesced", M=64, block="16x16").block == (16, 16)
    assert warpsim.analyze("naive_coalesced", M=64, block=(16, 16)).block == (16, 16)


@pytest.mark.parametrize("kwargs, needle", [
    (dict(kernel="naive", M=64, block=(32,)), "block (32,) is not two whole numbers"),
    (dict(kernel="naive", M=64, block=(32, 32, 1)), "is not two whole numbers"),
    (dict(kernel="naive", M=64, block=32), "block 32 is not two whole numbers"),
    (dict(kernel="naive", M=64, block=(32.0, 32)), "is not two whole numbers"),
    (dict(kernel="naive", M=64, block="32"), "is not BXxBY"),
    (dict(kernel="naive", M="64"), "M must be a whole number"),
    (dict(kernel="naive", M=64, N=2.5), "N must be a whole number"),
    (dict(kernel="naive", M=0), "M must be at least 1"),
    (dict(kernel="nope", M=64), "unknown kernel 'nope'"),
    (dict(kernel=["naive"], M=64), "unknown kernel"),
    (dict(kernel="vectorized", M=64, K=63), "needs K to be a multiple of 4"),
])
def test_bad_arguments_raise_the_one_error_type(kwargs, needle):
    with pytest.raises(warpsim.UsageError) as err:
        warpsim.analyze(**kwargs)
    assert needle in str(err.value)
    assert type(err.value) is warpsim.UsageError  # not a ValueError or TypeError from unpacking


def test_kernels_lists_the_registry():
    assert warpsim.kernels()[:3] == ["naive", "naive_coalesced", "coalesced"]


def test_importing_warpsim_loads_neither_numpy_nor_pandas():
    code = "import sys, warpsim; print(sorted(m for m in ('numpy', 'pandas', 'typer', 'rich') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "[]"
