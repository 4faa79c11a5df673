"""On a GPU: every kernel runs and is correct, bench times it beside cuBLAS, and under ncu the
global counts equal warpsim's. Skipped with a reason where there is no GPU (see conftest.py)."""

from __future__ import annotations

import pytest

from conftest import skip_if_no_ncu
from profiling import bench, compare, launch, record
from profiling.traces import current_sha256
from profiling.problem import Problem

pytestmark = pytest.mark.gpu

LAUNCHES = [
    ("naive", 64, 64, 64, None),
    ("naive", 37, 29, 33, None),  # none a multiple of 32, K odd
    ("coalesced", 37, 29, 33, None),
    ("naive_coalesced", 37, 29, 33, (32, 32)),
    ("naive_coalesced", 37, 29, 33, (16, 16)),
    ("naive_coalesced", 256, 128, 65, (32, 8)),
]


@pytest.mark.parametrize("kernel, M, N, K, block", LAUNCHES)
def test_kernel_is_correct(kernel, M, N, K, block):
    assert launch.run_checked(Problem.resolve(kernel, M, N, K, block)) < launch.TOLERANCE


def test_bench_beside_cublas(tmp_path):
    options = bench.BenchOptions(reps=10, traces_dir=tmp_path)
    table, payload = bench.bench(["naive_coalesced:16x16", "coalesced"], 128, 128, 128, options)
    assert list(table["kernel"]) == [bench.CUBLAS, "naive_coalesced", "coalesced"]
    assert (table["time_ms"] > 0).all() and table["pct_of_cublas"].iloc[0] == pytest.approx(100)
    assert (table["input_sets"] * 4 * 3 * 128 * 128 > 3 * payload["meta"]["l2_bytes"]).all()
    assert bench.write(payload, options).is_file()


@skip_if_no_ncu
def test_ncu_counts_equal_warpsim(tmp_path):
    trace = record.record(Problem.resolve("naive_coalesced", 37, 29, 33, (16, 16)),
                          record.RecordOptions(traces_dir=tmp_path))
    frame = compare.compare([trace], current_sha256([trace.kernel]))
    global_rows = frame[frame["metric"].str.contains("global")]
    assert (global_rows["diff"] == 0).all(), global_rows.to_string()
