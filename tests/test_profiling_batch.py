"""Any kernel under ncu, without a GPU: a launch plan resolved here, one ncu session for its
launches (a stand-in ncu that replays what the H200 printed), one trace per launch with its
cubin beside it, and `profile compare` on what was written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from profiling import batch, compare, plan
from profiling.traces import TRACES_DIR, load_trace
from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError

FIXTURES = Path(__file__).resolve().parent / "fixtures"
KERNELS = Path(__file__).resolve().parent.parent / "kernels"
RECORDED = TRACES_DIR / "sass" / "splitk" / "sgemm_splitk__M300_N212_K999_splits5_alpha1_5.json"
SPLITK = {"M": 300, "N": 212, "K": 999, "splits": 5, "alpha": 1.5,
          "A": "float[M*K]", "B": "float[K*N]", "C": "float[M*N]"}


@pytest.fixture
def fake_ncu(monkeypatch):
    """The stand-in ncu on PATH, answering with the H200's own numbers for split-K at 300x212x999."""
    recorded = json.loads(RECORDED.read_text())
    monkeypatch.setenv("FAKE_NCU_METRICS", ",".join(recorded["metrics"]))
    monkeypatch.setenv("FAKE_NCU_VALUES", json.dumps({recorded["meta"]["id"]: recorded["metrics"]}))
    monkeypatch.setenv("FAKE_NCU_SOURCE", (FIXTURES / "ncu_sass" / "splitk__sgemm_splitk__M300_N212_K999_splits5_"
                                           "alpha1_5.source.csv").read_text())
    return str(FIXTURES / "fake_ncu.py")


@needs_nvcc
def test_a_plan_keeps_the_machine_code_and_every_argument(tmp_path):
    entry = plan.build(KERNELS / "splitk.cu", "sgemm_splitk", "cdiv(N,32),cdiv(M,8),splits", "32x8", SPLITK, tmp_path)
    assert entry["id"] == "splitk/sgemm_splitk__M300_N212_K999_splits5_alpha1_5"
    assert entry["grid"] == [7, 38, 5] and entry["block"] == [32, 8, 1]  # ceil(212/32), ceil(300/8), splits
    assert Path(entry["cubin"]).read_bytes()[:4] == b"\x7fELF"
    pointers = {p["name"]: p["count"] for p in entry["params"] if p["kind"] == "pointer"}
    assert pointers == {"A": 300 * 999, "B": 999 * 212, "C": 300 * 212}
    with pytest.raises(UsageError, match="pointer parameter A has no size: declare it"):
        plan.build(KERNELS / "splitk.cu", "sgemm_splitk", "1", "32x8", {k: v for k, v in SPLITK.items() if k != "A"},
                   tmp_path)


@needs_nvcc
def test_one_session_writes_a_trace_per_launch_that_compare_judges(tmp_path, fake_ncu):
    entry = plan.build(KERNELS / "splitk.cu", "sgemm_splitk", "cdiv(N,32),cdiv(M,8),splits", "32x8", SPLITK,
                       tmp_path, per_array=True)
    plan_path = plan.save([entry], tmp_path / "plan.json")
    result = batch.run([entry], batch.BatchOptions(tmp_path, plan_path=plan_path, ncu=fake_ncu))
    assert result.failed == {} and len(result.written) == 1
    trace = load_trace(result.written[0])
    assert trace.is_sass and trace.meta["param_names"] == ["M", "N", "K", "splits", "alpha", "A", "B", "C"]
    assert trace.per_instruction and Path(trace.path).parent == Path(entry["cubin"]).parent  # cubin beside it
    frame = compare.compare([trace], {})
    exact, claimed = compare.summary(frame)
    assert exact == claimed  # the H200's numbers, predicted from the cubin that ran
    per_array = compare.checked(frame)[compare.checked(frame)["metric"].str.contains(r"\(global, 4 B\): ")]
    assert set(per_array["metric"].str.split(" ").str[0]) == {"A", "B"} and (per_array["diff"] == 0).all()
    with pytest.raises(UsageError, match="already exists; pass --force"):
        batch.run([entry], batch.BatchOptions(tmp_path, plan_path=plan_path, ncu=fake_ncu))


@needs_nvcc
def test_a_trace_written_elsewhere_keeps_its_cubin_beside_it(tmp_path, fake_ncu):
    # the plan's cubin lives under one folder, the traces go to another (as the H200 scripts write
    # them, to be moved into traces/ later): the machine code that ran travels with its trace
    entry = plan.build(KERNELS / "splitk.cu", "sgemm_splitk", "cdiv(N,32),cdiv(M,8),splits", "32x8", SPLITK,
                       tmp_path / "home")
    plan_path = plan.save([entry], tmp_path / "plan.json")
    result = batch.run([entry], batch.BatchOptions(tmp_path / "elsewhere", plan_path=plan_path, ncu=fake_ncu))
    trace = load_trace(result.written[0])
    beside = Path(trace.path).parent / Path(entry["cubin"]).name
    assert beside.read_bytes() == Path(entry["cubin"]).read_bytes()
    assert compare.summary(compare.compare([trace], {}))[0] > 0  # predicted from the copy


def test_only_metric_names_ncu_knows_are_asked_for(monkeypatch):
    monkeypatch.setenv("FAKE_NCU_METRICS", "smsp__inst_executed_op_global_ld.sum,dram__bytes_read.sum")
    names = batch.known_metrics(str(FIXTURES / "fake_ncu.py"))
    assert names == ["smsp__inst_executed_op_global_ld.sum", "dram__bytes_read.sum"]


def test_paths_asks_for_the_memory_path_metrics_ncu_knows(monkeypatch):
    # `profile batch --paths` adds PATH_NAMES to the names asked for, filtered like the others
    from profiling.metrics import PATH_NAMES, SASS_NAMES

    known = ["dram__bytes_read.sum", "lrc__lts2lrc_sectors_op_read.sum",
             "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"]
    monkeypatch.setenv("FAKE_NCU_METRICS", ",".join(known))
    fake = str(FIXTURES / "fake_ncu.py")
    assert batch.known_metrics(fake) == ["dram__bytes_read.sum"]
    assert batch.known_metrics(fake, SASS_NAMES + PATH_NAMES) == [
        "dram__bytes_read.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
        "lrc__lts2lrc_sectors_op_read.sum"]


@needs_nvcc
def test_a_plan_keeps_a_launchs_dynamic_shared_memory_for_the_replay_and_the_trace():
    # blind batch 10's 64 KiB launch: the plan entry keeps the expression and its value (the
    # replay's shared_mem, past 48 KiB an opt-in), the trace's metadata both, and compare
    # re-predicts with it: without it the engine refuses the first shared access past 1 KiB
    recorded = load_trace(TRACES_DIR / "holdout" / "blind10" / "dynshared" / "reverse_dyn__n20000003_chunk16384.json")
    assert recorded.meta["dynamic_shared_text"] == "4*chunk" and recorded.meta["dynamic_shared"] == 4 * 16384
    exact, claimed = compare.summary(compare.compare([recorded], {}))
    assert exact == claimed > 0
    entry = json.loads((TRACES_DIR.parent / "scripts" / "h200_plan_blind10.json").read_text())["launches"][2]
    assert entry["id"] == "dynshared/reverse_dyn__n20000003_chunk16384" and entry["dynamic_shared"] == 65536
    bare = {**recorded.meta}
    del bare["dynamic_shared_text"]
    with pytest.raises(UsageError, match="needs --dynamic-shared BYTES"):
        compare.predict_sass(type(recorded)(bare, recorded.metrics, path=recorded.path))
