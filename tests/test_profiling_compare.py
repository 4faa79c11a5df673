"""compare: the join of traces with predictions (a stubbed analyze), staleness, the exact summary."""

from __future__ import annotations

import math

import pytest

from profiling import compare, parse
from profiling.metrics import DERIVED, METRICS, NAMES, PREDICTED

CLAIMED = sum(m.exact for m in PREDICTED) + sum(d.exact for d in DERIVED)
from test_profiling_parse import SYNTHETIC
from test_profiling_traces import make_trace

SHA = "a" * 64


class FakeAnalysis:
    """Stand-in for warpsim.counts.Analysis: total(space, op, counter) from a dict."""

    def __init__(self, totals):
        self.totals = totals

    def total(self, space, op, counter):
        return self.totals.get((space, op, counter), 0)


def fake_analyze(totals, calls=None):
    def analyze(kernel, M, N, K, block=None, by_line=False):
        if calls is not None:
            calls.append((kernel, M, N, K, block))
        return FakeAnalysis(totals)

    return analyze


def _row(frame, name):
    return frame[frame["metric"] == name].iloc[0]


def test_every_predicted_metric_is_joined():
    trace = make_trace(value=100, sha=SHA)
    calls = []
    frame = compare.compare([trace], {"naive_coalesced": SHA}, fake_analyze({("global", "load", "sectors"): 100}, calls))
    assert calls == [("naive_coalesced", 64, 48, 33, (32, 32))]
    assert list(frame["metric"]) == [m.name for m in PREDICTED] + [d.name for d in DERIVED]
    sectors = _row(frame, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
    assert (sectors["predicted"], sectors["measured"], sectors["diff"]) == (100, 100, 0)
    requests = _row(frame, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")
    assert (requests["predicted"], requests["diff"]) == (0, 100)  # measured - predicted
    assert frame["block"].iloc[0] == "32x32" and not frame["stale"].any()


def test_summary_and_failures_count_claimed_metrics_only():
    trace = make_trace(value=0, sha=SHA)
    # Every prediction 0 and every measurement 0, except the shared-load totals, which carry the
    # same surplus in wavefronts and bank conflicts as on the H200 (both predicted, not claimed);
    # their difference, the ideal wavefronts, stays exact.
    trace.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = 5
    trace.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 5
    frame = compare.compare([trace], {"naive_coalesced": SHA}, fake_analyze({}))
    claimed = CLAIMED
    assert compare.summary(frame) == (claimed, claimed)
    assert compare.failures(frame).empty
    trace.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] = 385
    frame = compare.compare([trace], {"naive_coalesced": SHA}, fake_analyze({}))
    assert compare.summary(frame) == (claimed - 1, claimed)
    assert list(compare.failures(frame)["metric"]) == ["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]


def test_missing_measurement_fails_strict():
    trace = make_trace(value=0, sha=SHA)
    trace.metrics["smsp__inst_executed_op_global_ld.sum"] = None  # ncu said n/a
    frame = compare.compare([trace], {"naive_coalesced": SHA}, fake_analyze({}))
    assert list(compare.failures(frame)["metric"]) == ["smsp__inst_executed_op_global_ld.sum"]


def test_stale_trace_is_predicted_and_flagged_but_not_judged():
    trace = make_trace(value=7, sha=SHA)
    trace.path = "traces/naive_coalesced/x.json"
    calls = []
    frame = compare.compare([trace], {"naive_coalesced": "b" * 64}, fake_analyze({}, calls))  # source changed
    assert calls == [("naive_coalesced", 64, 48, 33, (32, 32))]  # predicted anyway, to show what changed
    assert frame["stale"].all() and (frame["predicted"] == 0).all()
    assert (frame[frame["metric"].isin(NAMES)]["measured"] == 7).all()
    # 7 measured, 0 predicted; the derived ideal wavefronts are 7 - 7 = 0 measured: exact
    assert set(frame["status"]) == {"DIFFERS (stale)", "differs (not claimed) (stale)", "exact (stale)"}
    assert compare.summary(frame) == (0, 0) and compare.failures(frame).empty  # stale: not judged
    assert compare.stale_summary(frame) == (len(DERIVED), CLAIMED)
    assert compare.stale_traces(frame) == ["traces/naive_coalesced/x.json"]


def test_unregistered_kernel_is_not_predicted_and_says_why():
    trace = make_trace(value=7, sha=SHA)
    trace.path = "traces/gone/x.json"
    calls = []
    frame = compare.compare([trace], {}, fake_analyze({}, calls))  # kernel no longer registered
    assert calls == [] and frame["predicted"].isna().all() and frame["stale"].all()
    assert set(frame["status"]) == {"no prediction (stale)"}
    assert frame.attrs["notes"] == ["traces/gone/x.json: not predicted: kernel 'naive_coalesced' is not registered"]


def test_a_launch_the_model_refuses_is_a_note_not_a_crash():
    trace = make_trace(value=7, sha=SHA)

    def refusing(*args, **kwargs):
        raise compare.UsageError("kernel naive_coalesced needs K to be a multiple of 4")

    frame = compare.compare([trace], {"naive_coalesced": SHA}, refusing)
    assert frame["predicted"].isna().all()
    assert frame.attrs["notes"] == ["naive_coalesced 64x48x33: not predicted: kernel naive_coalesced needs K "
                                    "to be a multiple of 4"]
    assert len(compare.failures(frame)) == CLAIMED  # current and claimed, but not predicted: strict fails


def test_records_are_plain_integers_with_a_status():
    trace = make_trace(value=7, sha=SHA)
    rows = compare.records(compare.compare([trace], {"naive_coalesced": SHA}, fake_analyze({})))
    first = rows[0]
    assert type(first["measured"]) is int and type(first["predicted"]) is int and first["diff"] == 7
    assert first["status"] == "DIFFERS" and first["block"] == "32x32"


def test_measured_only_and_no_prediction():
    trace = make_trace(value=3, sha=SHA)
    frame = compare.compare([trace], {"naive_coalesced": SHA}, measured_only=True, predict=False)
    assert list(frame["metric"]) == [m.name for m in METRICS] + [d.name for d in DERIVED]
    assert frame["predicted"].isna().all() and (frame[frame["metric"].isin(NAMES)]["measured"] == 3).all()


def test_empty():
    frame = compare.compare([], {})
    assert list(frame.columns) == compare.COLUMNS and compare.summary(frame) == (0, 0)


def test_synthetic_fixture_against_the_real_engine():
    """Plumbing only: the synthetic CSV's counts were copied from warpsim's own prediction for
    naive_coalesced M=64 N=48 K=33 block 32x32, so this shows the join, not the hardware."""
    pytest.importorskip("warpsim.engine")
    measured = parse.read_csv(SYNTHETIC).iloc[0]
    trace = make_trace(sha=SHA)
    trace.metrics = {name: int(measured[name]) for name in NAMES}
    frame = compare.compare([trace], {"naive_coalesced": SHA})
    exact, claimed = compare.summary(frame)
    assert (exact, claimed) == (claimed, CLAIMED)
    sectors = _row(frame, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
    assert sectors["predicted"] == 16896 and not math.isnan(sectors["diff"])


def test_processes_give_the_serial_frame_row_for_row():
    """--jobs: recorded traces of both front-ends, a launch measured twice among them (repeats),
    predicted in two processes, give the frame one process gives, rows in trace order, notes too."""
    from profiling.traces import TRACES_DIR, current_sha256, load_trace

    paths = [TRACES_DIR / "naive" / "naive_M257_N130_K65_b32x32.json",
             *sorted((TRACES_DIR / "sass" / "transpose").glob("*M97_N61.json")),
             *(TRACES_DIR / "repeats" / run / "smem" / "smem_M1000_N1030_K999_b32x32.json" for run in ("run1", "run2"))]
    traces = [load_trace(p) for p in paths]
    sha = current_sha256({t.kernel for t in traces})
    serial = compare.compare(traces, sha, analyze=compare.analyzer("sass"), caches=True)
    parallel = compare.compare(traces, sha, analyze=compare.analyzer("sass"), caches=True, jobs=2)
    assert list(parallel["trace"].unique()) == [str(p) for p in paths]  # in the order given
    assert parallel.equals(serial) and parallel.attrs["notes"] == serial.attrs["notes"]
    assert compare.summary(parallel)[0] > 0
