"""`profile plot` on the committed H200 traces and bench table: one two-panel PNG, not blank;
the roofline points are the measured figures; bad input is one line and exit 2."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from profiling import plot as plot_mod
from profiling.bench import CUBLAS
from profiling.traces import TRACES_DIR, load_trace
from test_profiling_cli import invoke, one_error_line
from warpsim.errors import UsageError

pytest.importorskip("matplotlib", reason="pictures need matplotlib (pip install 'warpsim[plot]')")

from matplotlib.image import imread  # noqa: E402

BENCH = TRACES_DIR / "bench" / "bench_M4096_N4096_K4096.json"
NAIVE_4096 = TRACES_DIR / "naive" / "naive_M4096_N4096_K4096_b32x32.json"
SMALL = TRACES_DIR / "naive" / "naive_M257_N130_K65_b32x32.json"
FLOPS_4096 = 2 * 4096**3  # one multiply and one add per (m, n, k)


@pytest.fixture(scope="module")
def plotted(tmp_path_factory):
    """Run `profile plot` once on every committed trace; (result, out path)."""
    out = tmp_path_factory.mktemp("plot") / "pics" / "profile.png"
    out.parent.mkdir()  # `profile plot` creates no folder
    return invoke("plot", "--out", out), out


def test_plot_writes_one_two_panel_png(plotted):
    result, out = plotted
    assert result.exit_code == 0, (result.stdout, result.stderr)
    img = imread(out)
    h, w = img.shape[:2]
    assert w >= 1600 and h >= 700, (w, h)  # two panels side by side: ~825 + 1000 px wide, 770 px high
    assert float(img[..., :3].std()) > 0.01  # not blank
    assert float(img[:, : w // 2, :3].std()) > 0.01 and float(img[:, w // 2 :, :3].std()) > 0.01  # neither panel
    assert sorted(p.name for p in out.parent.iterdir()) == ["profile.png"]  # no temp file left behind


def test_plot_reports_what_it_drew(plotted):
    result, _ = plotted
    kernels = [r for r in json.loads(BENCH.read_text())["rows"] if r["kernel"] != CUBLAS]
    n_traces = len([p for p in TRACES_DIR.rglob("*.json") if p.parent.name not in ("bench", "schedule")])
    assert f"over {n_traces} traces" in result.stdout
    assert f"{len(kernels)} kernels on the NVIDIA H200 SXM roofline" in result.stdout  # every benched kernel has a trace
    assert "left off" not in result.stderr


def test_naive_point_is_measured_gflops_over_measured_dram_bytes():
    bench = plot_mod.load_bench(BENCH)
    trace = load_trace(NAIVE_4096)
    points, skipped = plot_mod.roofline_points(
        bench, lambda kernel, block: trace if (kernel, block) == ("naive", (32, 32)) else None)
    (naive,) = points
    assert naive.label == "naive"
    # DRAM traffic varies from run to run, so the figures are read off the committed files
    dram = trace.metrics["dram__bytes_read.sum"] + trace.metrics["dram__bytes_write.sum"]  # ~8.6 GB at 4096^3
    assert naive.dram_bytes == dram
    assert naive.flop_per_byte == FLOPS_4096 / dram  # ~16 FLOP/B, right of the H200's 13.96 ridge
    row = next(r for r in json.loads(BENCH.read_text())["rows"] if r["kernel"] == "naive")
    assert naive.gflops == row["gflops"]  # ~498 GFLOP/s: 2*4096^3 FLOP / ~276 ms
    assert naive.pct_of_cublas == row["pct_of_cublas"]
    assert len(skipped) == len(bench.rows) - 1  # the others had no trace here
    assert all("no trace at 4096x4096x4096" in s for s in skipped)


def test_a_kernel_benched_at_two_blocks_is_labelled_with_its_block():
    bench = plot_mod.load_bench(BENCH)
    trace = load_trace(NAIVE_4096)
    points, _ = plot_mod.roofline_points(bench, lambda kernel, block: trace)  # any trace will do for labels
    labels = [p.label for p in points]
    assert "naive_coalesced 32x32" in labels and "naive_coalesced 16x16" in labels
    assert "naive" in labels and "warptile_db" in labels


@pytest.mark.parametrize("gaps", [[0.0, 0.0, 0.0], [5.0, 1.0, 3.0, 30.0], [100.0, 0.0, 99.0]])
def test_stacked_labels_keep_order_and_spacing(gaps):
    y = np.cumsum(gaps)[np.random.default_rng(0).permutation(len(gaps))]
    placed = plot_mod._stacked(y, 10.0)
    assert (placed >= y).all()  # a label never sits below its point
    assert (np.diff(np.sort(placed)) >= 10.0 - 1e-9).all()  # at least one line apart
    assert (np.argsort(placed, kind="stable") == np.argsort(y, kind="stable")).all()  # in the points' order


def test_bench_errors_name_the_file(tmp_path):
    with pytest.raises(UsageError, match="no bench table at .*run `profile bench`"):
        plot_mod.load_bench(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(UsageError, match="bad.json is not a bench table: not JSON"):
        plot_mod.load_bench(bad)
    bad.write_text(json.dumps({"meta": {"M": 64}, "rows": []}))
    with pytest.raises(UsageError, match="needs meta.M/N/K"):
        plot_mod.load_bench(bad)


def test_no_traces_is_one_line(tmp_path):
    one_error_line(invoke("plot", "--out", tmp_path / "p.png", "--traces-dir", tmp_path / "empty"), "not found")
    (tmp_path / "empty").mkdir()
    one_error_line(invoke("plot", "--out", tmp_path / "p.png", "--traces-dir", tmp_path / "empty"),
                   "no traces under")
    assert not (tmp_path / "p.png").exists()


def test_missing_bench_is_one_line(tmp_path):
    shutil.copy(SMALL, tmp_path / SMALL.name)
    one_error_line(invoke("plot", "--out", tmp_path / "p.png", "--traces-dir", tmp_path), "no bench table at")
    one_error_line(invoke("plot", "--out", tmp_path / "p.png", "--traces-dir", tmp_path, "--bench", tmp_path / "b.json"),
                   "give --bench FILE")


def test_bench_kernel_without_trace_is_left_off_with_a_warning(tmp_path):
    shutil.copy(SMALL, tmp_path / SMALL.name)  # compared on the left; no 4096^3 trace for the right
    result = invoke("plot", "--out", tmp_path / "p.png", "--traces-dir", tmp_path, "--bench", BENCH)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    assert "0 kernels on the" in result.stdout and "over 1 traces" in result.stdout
    assert "warning: left off the roofline: naive: no trace at 4096x4096x4096" in result.stderr
    assert float(imread(tmp_path / "p.png")[..., :3].std()) > 0.01


def test_missing_matplotlib_is_one_line(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # makes `import` raise ImportError
    shutil.copy(SMALL, tmp_path / SMALL.name)
    result = invoke("plot", "--out", tmp_path / "p.png", "--traces-dir", tmp_path, "--bench", BENCH)
    one_error_line(result, "pictures need matplotlib: pip install 'warpsim[plot]'")
