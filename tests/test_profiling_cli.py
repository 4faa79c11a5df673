"""The `profile` CLI through typer's CliRunner: bad input is one line and exit 2, --strict is exit 1,
and `run` end to end with ncu replaced by a stand-in measurement (no GPU)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pandas as pd
import pytest
from typer.testing import CliRunner

from profiling import launch, ncu, parse, record
from warpsim.toolchain import source_sha256
from profiling.cli import app
from profiling.metrics import DERIVED, NAMES
from profiling.traces import load_trace, write_trace
from test_profiling_parse import SYNTHETIC
from test_profiling_traces import make_trace
from warpsim import registry


def invoke(*args, env=None):
    try:
        runner = CliRunner(mix_stderr=False)  # click-based typer: keep stderr apart
    except TypeError:
        runner = CliRunner()  # newer typer keeps stderr apart already
    return runner.invoke(app, [str(a) for a in args], env=env)


def one_error_line(result, needle: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args, needle",
    [
        (["run", "nosuch", "--M", 64], "unknown kernel 'nosuch'"),
        (["run", "naive", "--M", 64, "--block", "16x16"], "compiled for block 32x32 only"),
        (["run", "naive_coalesced", "--M", 64, "--block", "32"], "is not BXxBY"),
        (["run", "naive_coalesced", "--M", 0], "M must be at least 1, got 0"),
        (["bench", "naive", "--M", 64, "--reps", 5], "take at least 10 timed launches"),
        (["bench", "nosuch", "--M", 64], "unknown kernel 'nosuch'"),
        (["compare", "--format", "xml"], "--format 'xml': use one of table, csv, json"),
        (["compare", "--jobs", -1], "--jobs -1: give a number of processes, or 0 for one per core"),
        (["compare", "/no/such/trace.json"], "not found"),
    ],
)
def test_bad_input_is_one_line(tmp_path, args, needle):
    one_error_line(invoke(*args, "--traces-dir", tmp_path), needle)


def test_missing_ncu(tmp_path, monkeypatch):
    monkeypatch.setattr("shutil.which", lambda name: None)
    result = invoke("run", "naive_coalesced", "--M", 64, "--traces-dir", tmp_path)
    one_error_line(result, "ncu (Nsight Compute) not found on PATH")
    assert not any(tmp_path.rglob("*.json"))


def test_existing_trace_needs_force(tmp_path):
    write_trace(make_trace(M=64, N=64, K=64), tmp_path)
    result = invoke("run", "naive_coalesced", "--M", 64, "--block", "32x32", "--traces-dir", tmp_path)
    one_error_line(result, "already exists; pass --force to replace it")


def test_bench_refuses_tf32_and_missing_cupy(tmp_path, monkeypatch):
    monkeypatch.setenv("CUPY_TF32", "1")
    one_error_line(invoke("bench", "naive", "--M", 64, "--traces-dir", tmp_path), "CUPY_TF32=1 lets cuBLAS use TF32")
    monkeypatch.delenv("CUPY_TF32")
    monkeypatch.setattr(launch, "cp", None)
    one_error_line(invoke("bench", "naive", "--M", 64, "--traces-dir", tmp_path), "CuPy with a CUDA GPU is needed")


@pytest.fixture
def stand_in_ncu(monkeypatch):
    """Replace the GPU half of `run` (nvcc, ncu, the versions) with the synthetic measurement."""
    frame = parse.read_csv(SYNTHETIC)
    measurement = ncu.Measurement({n: int(frame[n].iloc[0]) for n in NAMES}, dict(frame.attrs["units"]),
                                  ["ncu", "(stand-in)"], "matmul_naive")
    monkeypatch.setattr(ncu, "find_ncu", lambda name="ncu": "/stand-in/ncu")
    monkeypatch.setattr(ncu, "profile", lambda problem, options: measurement)
    monkeypatch.setattr(ncu, "probe_versions", lambda name="ncu": {
        "gpu": "stand-in", "driver": "0", "ncu_version": "0", "cuda_version": "0"})
    monkeypatch.setattr(record, "build_cubin", lambda path: path)


def test_run_writes_trace_and_prints_comparison(tmp_path, stand_in_ncu):
    result = invoke("run", "naive_coalesced", "--M", 64, "--N", 48, "--K", 33, "--traces-dir", tmp_path)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    path = tmp_path / "naive_coalesced" / "naive_coalesced_M64_N48_K33_b32x32.json"
    trace = load_trace(path)
    assert trace.meta["entry"] == "matmul_naive" and trace.meta["grid"] == [2, 2]
    assert trace.meta["kernel_sha256"] == source_sha256(registry.get_kernel("naive_coalesced").cu_path)
    assert trace.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 16896
    assert "wrote" in result.stdout and "measured only" in result.stdout
    # A second run without --force keeps the first trace.
    again = invoke("run", "naive_coalesced", "--M", 64, "--N", 48, "--K", 33, "--traces-dir", tmp_path)
    one_error_line(again, "pass --force")
    assert invoke("run", "naive_coalesced", "--M", 64, "--N", 48, "--K", 33, "--force",
                  "--traces-dir", tmp_path).exit_code == 0


def _trace_on_disk(tmp_path, sectors_ld=16896):
    """A trace of naive_coalesced 64x48x33 with the synthetic counts and the current source hash."""
    frame = parse.read_csv(SYNTHETIC)
    trace = make_trace(sha=source_sha256(registry.get_kernel("naive_coalesced").cu_path))
    trace.metrics = {n: int(frame[n].iloc[0]) for n in NAMES}
    trace.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = sectors_ld
    return write_trace(trace, tmp_path, force=True)


def test_compare_strict(tmp_path):
    _trace_on_disk(tmp_path)
    ok = invoke("compare", "--strict", "--traces-dir", tmp_path)
    assert ok.exit_code == 0, (ok.stdout, ok.stderr)
    assert "10/10 exact (1 traces)" in ok.stdout  # 8 claimed-exact aggregate metrics (12 predicted, less 2 bank-conflict and 2 shared-wavefront totals) + 2 ideal-wavefront differences, x 1 trace
    _trace_on_disk(tmp_path, sectors_ld=16897)
    loose = invoke("compare", "--traces-dir", tmp_path)
    assert loose.exit_code == 0 and "9/10 exact" in loose.stdout and "DIFFERS" in loose.stdout
    strict = invoke("compare", "--strict", "--traces-dir", tmp_path)
    assert strict.exit_code == 1 and "strict: 1 claimed-exact value differs" in strict.stderr


def test_compare_csv_and_json(tmp_path):
    path = _trace_on_disk(tmp_path)
    as_csv = invoke("compare", path, "--format", "csv")
    assert as_csv.exit_code == 0
    frame = pd.read_csv(io.StringIO(as_csv.stdout))
    assert set(frame["metric"]) <= set(NAMES) | {d.name for d in DERIVED} and (frame["diff"] == 0).all()
    assert "10/10 exact" in as_csv.stderr  # stdout stays machine-readable
    as_json = invoke("compare", path, "--format", "json")
    rows = json.loads(as_json.stdout)
    assert rows[0]["kernel"] == "naive_coalesced" and rows[0]["stale"] is False


def test_compare_reports_a_bad_file_and_compares_the_rest(tmp_path):
    _trace_on_disk(tmp_path)
    bad = tmp_path / "naive_coalesced" / "broken.json"
    bad.write_text('{"schema": 1}')
    result = invoke("compare", "--traces-dir", tmp_path)
    assert result.exit_code == 2  # bad input, said at the end
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "broken.json is not a warpsim trace" in errors[0]
    assert "10/10 exact (1 traces)" in result.stdout  # the good trace was still compared
    assert "Traceback" not in result.stderr


def test_entry_point_turns_argument_errors_into_one_line():
    done = subprocess.run([sys.executable, "-m", "profiling.cli", "run"], capture_output=True, text=True,
                          cwd=str(SYNTHETIC.parents[3]), env={"PYTHONPATH": str(SYNTHETIC.parents[3]), "PATH": ""})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].lower() == "error: missing argument 'kernel'. (see `profile --help`)"
