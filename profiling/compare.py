"""Measured beside predicted: a pure join of traces with warpsim's analysis of the same launch.

`compare(traces, current_sha256)` gives one row per (trace, metric):

    kernel, M, N, K, block, metric, predicted, measured, diff, exact_claimed, stale, trace

`diff = measured - predicted`. A trace whose `kernel_sha256` differs from the current source
(`current_sha256[kernel]`, absent for a kernel no longer registered) is stale: its rows keep the
measured value but are not predicted or compared. Predictions come from
`warpsim.engine.analyze(kernel, M, N, K, block)`, or from the `analyze` passed in (tests).

Counts are float64 in the frame; every count here is far below 2**53, so equality is exact.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

import pandas as pd

from profiling.metrics import DERIVED, METRICS, PREDICTED, SOURCE_METRICS
from profiling.traces import Trace

COLUMNS = ["kernel", "M", "N", "K", "block", "metric", "predicted", "measured", "diff",
           "exact_claimed", "stale", "trace"]


def _default_analyze():
    from warpsim.engine import analyze  # imported late: profiling must import without the engine

    return analyze


def compare(traces: Iterable[Trace], current_sha256: Mapping[str, str],
            analyze: Callable | None = None, measured_only: bool = False, predict: bool = True) -> pd.DataFrame:
    """Rows of predicted vs measured; `measured_only` adds the metrics warpsim does not predict;
    `predict=False` leaves every prediction empty (the measurement alone)."""
    metrics = METRICS if measured_only else PREDICTED
    rows = []
    for trace in traces:
        if trace.is_sass:
            rows += _sass_rows(trace, predict)
            continue
        M, N, K = trace.sizes
        stale = current_sha256.get(trace.kernel) != trace.meta["kernel_sha256"]
        analysis = None
        if predict and not stale:
            analyze = analyze or _default_analyze()
            analysis = analyze(trace.kernel, M, N, K, block=trace.block)
        for metric in metrics:
            measured = trace.metrics.get(metric.name)
            predicted = None
            if analysis is not None and metric.predicts is not None:
                predicted = analysis.total(*metric.predicts)
            diff = measured - predicted if measured is not None and predicted is not None else None
            rows.append({
                "kernel": trace.kernel, "M": M, "N": N, "K": K,
                "block": f"{trace.block[0]}x{trace.block[1]}", "metric": metric.name,
                "predicted": predicted, "measured": measured, "diff": diff,
                "exact_claimed": metric.exact, "stale": stale,
                "trace": str(trace.path) if trace.path else "",
            })
        for d in DERIVED:
            a, b = trace.metrics.get(d.minuend), trace.metrics.get(d.subtrahend)
            measured = a - b if a is not None and b is not None else None
            predicted = analysis.total(*d.predicts) if analysis is not None else None
            rows.append({
                "kernel": trace.kernel, "M": M, "N": N, "K": K,
                "block": f"{trace.block[0]}x{trace.block[1]}", "metric": d.name,
                "predicted": predicted, "measured": measured,
                "diff": measured - predicted if measured is not None and predicted is not None else None,
                "exact_claimed": d.exact, "stale": stale, "trace": str(trace.path) if trace.path else "",
            })
        if trace.per_instruction and not stale:
            rows += _per_array_rows(trace, analysis)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    for column in ("predicted", "measured", "diff"):
        frame[column] = frame[column].astype("float64")
    return frame


def _per_array_rows(trace: Trace, analysis) -> list[dict]:
    """Rows `A load: <source-page column>`: ncu's per-instruction counters summed per array
    (attributed by the current model) beside the analysis's per-array counts."""
    from profiling.record import attribute

    M, N, K = trace.sizes
    rows = []
    for measured_row in attribute(trace):
        key = (measured_row["space"], measured_row["array"], measured_row["op"])
        predicted_row = None
        if analysis is not None:
            predicted_row = next((r for r in analysis.rows if r.key == key), None)
        for column in SOURCE_METRICS:
            if column.space not in (None, key[0]):
                continue
            measured = measured_row[column.name]
            predicted = getattr(predicted_row, column.counter) if predicted_row is not None else None
            rows.append({
                "kernel": trace.kernel, "M": M, "N": N, "K": K,
                "block": f"{trace.block[0]}x{trace.block[1]}",
                "metric": f"{key[1]} {key[2]} ({key[0]}): {column.name}",
                "predicted": predicted, "measured": measured,
                "diff": measured - predicted if predicted is not None else None,
                "exact_claimed": column.exact, "stale": False,
                "trace": str(trace.path) if trace.path else "",
            })
    return rows


def checked(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows `--strict` judges: claimed exact and not stale."""
    return frame[frame["exact_claimed"] & ~frame["stale"]]


def failures(frame: pd.DataFrame) -> pd.DataFrame:
    """Claimed-exact rows that differ, or whose measurement is missing."""
    rows = checked(frame)
    return rows[~(rows["diff"] == 0)]


def summary(frame: pd.DataFrame) -> tuple[int, int]:
    """(exact, claimed): how many claimed-exact values match, out of how many were compared."""
    rows = checked(frame)
    return int((rows["diff"] == 0).sum()), len(rows)


def stale_traces(frame: pd.DataFrame) -> list[str]:
    return sorted(frame.loc[frame["stale"], "trace"].unique())


# -- traces of any kernel (profiling.batch): predicted from the machine code that ran ------------

def predict_sass(trace: Trace, by_pc: bool = False):
    """warpsim's analysis of a sass trace's launch, from the cubin kept beside it."""
    from profiling.plan import REPO
    from warpsim.sass.analyze import analyze_launch, prepare

    meta = trace.meta
    source = REPO / meta["source"]
    kernel = prepare(REPO / meta["cubin"], meta["entry"], meta["grid_text"], meta["block_text"], meta["args"],
                     source=source if source.is_file() else None)
    return analyze_launch(kernel, by_pc=by_pc)


def _sass_rows(trace: Trace, predict: bool) -> list[dict]:
    from profiling.metrics import SASS_METRICS

    analysis = predict_sass(trace) if predict else None
    label = {"kernel": trace.kernel, "M": None, "N": None, "K": None,
             "block": "x".join(str(b) for b in trace.meta["block"]), "stale": False,
             "trace": str(trace.path) if trace.path else ""}
    rows = []
    unclaimed = _unclaimed(analysis)
    for metric in SASS_METRICS:
        if metric.name not in trace.metrics:
            continue
        measured = trace.metrics[metric.name]
        predicted = None
        if analysis is not None and metric.predicts is not None:
            predicted = analysis.total(*metric.predicts, kinds=metric.kinds)
        rows.append({**label, "metric": metric.name, "predicted": predicted, "measured": measured,
                     "diff": measured - predicted if measured is not None and predicted is not None else None,
                     "exact_claimed": metric.exact and metric.name not in unclaimed})
    for d in DERIVED:
        a, b = trace.metrics.get(d.minuend), trace.metrics.get(d.subtrahend)
        measured = a - b if a is not None and b is not None else None
        predicted = analysis.total(*d.predicts, kinds=d.kinds) if analysis is not None else None
        rows.append({**label, "metric": d.name, "predicted": predicted, "measured": measured,
                     "diff": measured - predicted if measured is not None and predicted is not None else None,
                     "exact_claimed": d.exact})
    if trace.per_instruction and predict:
        rows += _sass_per_array(trace, label)
    return rows


#: Global-load sectors of cp.async of 8 or 16 bytes per thread: ncu's aggregate
#: `l1tex__t_sectors_..._op_ld` and its per-instruction `L2 Theoretical Sectors Global` are not the
#: distinct sectors the threads touch (seen: 46,429 and 60,952 where the threads touch 45,970,
#: traces/sass/gemm_cp_async/sgemm_cp_async_vec4__M301_*): reported, not claimed.
WIDE_LDGSTS_UNCLAIMED = ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",)


def _unclaimed(analysis) -> set:
    if analysis is None:
        return set()
    wide = any(r.kind == "LDGSTS" and r.space == "global" and r.width > 4 for r in analysis.rows)
    return set(WIDE_LDGSTS_UNCLAIMED) if wide else set()


#: per SASS instruction: (source-page column, how warpsim's rows at that pc combine into it)
_PER_PC = {"instructions": max, "active_lanes": max, "lines": sum, "sectors": sum, "ideal_sectors": sum,
           "wavefronts": sum, "bank_conflicts": sum}


def _sass_per_array(trace: Trace, label: dict) -> list[dict]:
    """ncu's per-instruction counters beside warpsim's rows at the same pc, summed per array."""
    analysis = predict_sass(trace, by_pc=True)
    by_pc: dict[int, list] = {}
    for r in analysis.rows:
        by_pc.setdefault(r.pc, []).append(r)
    sums: dict[tuple, dict] = {}
    for measured_row in trace.per_instruction:
        if str(measured_row["space"]).strip() in ("", "-"):
            continue  # not a memory instruction
        pc = int(measured_row["pc"])
        ours = by_pc.get(pc, [])
        array = "/".join(sorted({r.array for r in ours})) or "(not predicted)"
        key = (array, measured_row["space"], measured_row["op"], int(measured_row.get("width", 0)))
        acc = sums.setdefault(key, {})
        for column in SOURCE_METRICS:
            space_rows = [r for r in ours if column.space in (None, r.space)]
            combine = _PER_PC[column.counter]
            predicted = combine([getattr(r, column.counter) for r in space_rows]) if space_rows else 0
            m, p = acc.get(column.name, (0, 0))
            acc[column.name] = (m + int(measured_row[column.name]), p + int(predicted))
    rows = []
    for (array, space, op, width), columns in sorted(sums.items()):
        for column in SOURCE_METRICS:
            both = "+" in space  # cp.async: one instruction, a global load and a shared store
            if column.space not in (None, space) and not both and space != "generic":
                continue
            measured, predicted = columns[column.name]
            claimed = column.exact and not (both and (column.space == "shared" or (column.space == "global" and width > 4)))
            rows.append({**label, "metric": f"{array} {op} ({space}, {width} B): {column.name}",
                         "predicted": predicted, "measured": measured, "diff": measured - predicted,
                         "exact_claimed": claimed})
    return rows
