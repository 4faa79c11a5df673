"""Measured beside predicted: a pure join of traces with warpsim's analysis of the same launch.

`compare(traces, current_sha256)` gives one row per (trace, metric):

    kernel, M, N, K, block, metric, predicted, measured, diff, exact_claimed, stale, status, trace

`diff = measured - predicted`; `status` is the row's verdict (`exact`, `DIFFERS`, `differs (not
claimed)`, `measured only`, `no prediction`, `not measured`), with ` (stale)` added for a stale
trace: one whose `kernel_sha256` differs from the current source (`current_sha256[kernel]`). A
stale trace is still predicted, so that its differences show, but `checked`, `summary` and
`failures` judge only current ones. A kernel no longer registered (absent from
`current_sha256`) is not predicted. Each launch is analysed once (`warpsim.engine.analyze`,
line by line when the trace has per-instruction counters, which are attributed to A, B and C by
the same analysis), or by the `analyze` passed in (tests).

Why a trace could not be predicted, or its per-instruction counters not attributed, is kept in
`frame.attrs["notes"]` (one line each).

With `caches=True` each trace also gets the rows of CACHE_METRICS (L1 hits, L2 sectors, DRAM
bytes) predicted by warpsim.caches: predictions within tolerances, not counts, a class of their
own. Their `rel_error` is (predicted - measured) / reference (the global load sectors for L1
hits, the measured value otherwise), `tolerance` the claimed bound (NaN: reported, not claimed),
`status` `within 10%: -2.2%`, `OUTSIDE 15%: +15.6%` or `predicted (not claimed): ...`;
`tolerance_failures` and `tolerance_summary` judge them as `failures` and `summary` judge the
exact rows. Other rows leave `rel_error` and `tolerance` empty.

Counts are float64 in the frame; every count here is far below 2**53, so equality is exact.
`records` gives them back as integers.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path
from typing import Callable, Iterable, Mapping

import pandas as pd

from profiling.metrics import BY_NAME, CACHE_BY_NAME, CACHE_METRICS, DERIVED, METRICS, PREDICTED, SOURCE_METRICS
from profiling.source import line_map, per_array
from profiling.traces import Trace
from warpsim.errors import UsageError

COLUMNS = ["kernel", "M", "N", "K", "block", "metric", "predicted", "measured", "diff", "rel_error", "tolerance",
           "exact_claimed", "stale", "status", "trace"]


def _default_analyze():
    """The registered kernels' machine code (warpsim.engine.analyze_sass); imported late:
    profiling must import without the engine."""
    from warpsim.engine import analyze_sass

    return analyze_sass


def analyzer(engine: str) -> Callable:
    """`--engine sass` (the machine code, the default) or `model` (the hand models, the oracle)."""
    from warpsim import engine as engines

    if engine not in engines.ENGINES:
        raise UsageError(f"--engine {engine!r}: use sass (the machine code) or model (the hand model)")
    return engines.analyze_sass if engine == "sass" else engines.analyze


def status(metric: str, predicted, measured, exact_claimed: bool, stale: bool) -> str:
    """The verdict of one row (see the module docstring)."""
    known = BY_NAME.get(metric)  # per-array rows are named after source-page columns
    if known is not None and known.predicts is None:
        verdict = "measured only"
    elif predicted is None or (isinstance(predicted, float) and math.isnan(predicted)):
        verdict = "no prediction"
    elif measured is None or (isinstance(measured, float) and math.isnan(measured)):
        verdict = "not measured"
    elif measured == predicted:
        verdict = "exact"
    else:
        verdict = "DIFFERS" if exact_claimed else "differs (not claimed)"
    return verdict + " (stale)" if stale else verdict


def compare(traces: Iterable[Trace], current_sha256: Mapping[str, str],
            analyze: Callable | None = None, measured_only: bool = False, predict: bool = True,
            caches: bool = False, predict_caches: Callable | None = None, jobs: int = 1) -> pd.DataFrame:
    """Rows of predicted vs measured; `measured_only` adds the metrics warpsim does not predict;
    `predict=False` leaves every prediction empty (the measurement alone); `caches` adds the
    cache rows (CACHE_METRICS: predicted by warpsim.caches, or `predict_caches(trace)`, within
    tolerances), each with its relative error and tolerance. `jobs` > 1 predicts in that many
    processes (`analyze` and `predict_caches` must then be picklable: module-level functions),
    each launch's traces in one of them; the frame is the same, row for row."""
    traces = list(traces)
    options = dict(analyze=analyze, measured_only=measured_only, predict=predict, caches=caches,
                   predict_caches=predict_caches)
    if jobs > 1 and predict and len(traces) > 1:
        return _compare_in_processes(traces, current_sha256, options, jobs)
    return _frame(*_rows(traces, current_sha256, **options))


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def _identity(trace: Trace) -> tuple:
    """Traces of one launch (measured again: traces/repeats/, traces/paths/) share a prediction."""
    if trace.is_sass:
        return ("sass", *_launch_key(trace))
    return ("model", trace.kernel, *trace.sizes, *trace.block)


def _compare_group(traces: list[Trace], current_sha256: Mapping[str, str], options: dict) -> list[tuple]:
    """(rows, notes) per trace of a launch, in one worker (whose memo predicts the launch once)."""
    return [_rows([t], current_sha256, **options) for t in traces]


def _compare_in_processes(traces: list[Trace], current_sha256: Mapping[str, str], options: dict,
                          jobs: int) -> pd.DataFrame:
    import multiprocessing
    import sys
    from concurrent.futures import ProcessPoolExecutor

    groups: dict[tuple, list[int]] = {}
    for i, t in enumerate(traces):
        groups.setdefault(_identity(t), []).append(i)
    order = list(groups.values())
    per_trace: list[tuple] = [([], [])] * len(traces)
    # fork where it is safe (Linux): workers start at once, with the registry this process has
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    with ProcessPoolExecutor(max_workers=min(jobs, len(order)), mp_context=context) as pool:
        done = pool.map(_compare_group, [[traces[i] for i in g] for g in order],
                        [dict(current_sha256)] * len(order), [options] * len(order))
        for indices, group in zip(order, done):
            for i, rows_notes in zip(indices, group):
                per_trace[i] = rows_notes
    return _frame([r for rows, _ in per_trace for r in rows], [n for _, notes in per_trace for n in notes])


def _frame(rows: list[dict], notes: list[str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=COLUMNS)
    for column in ("predicted", "measured", "diff", "rel_error", "tolerance"):
        frame[column] = frame[column].astype("float64")
    frame.attrs["notes"] = notes
    return frame


def _rows(traces: list[Trace], current_sha256: Mapping[str, str], analyze: Callable | None,
          measured_only: bool, predict: bool, caches: bool, predict_caches: Callable | None) -> tuple[list, list]:
    """The rows of `traces` and the notes on them (see `compare`)."""
    metrics = METRICS if measured_only else PREDICTED
    if caches:
        metrics = tuple(m for m in metrics if m.name not in CACHE_BY_NAME)
    rows, notes = [], []
    for trace in traces:
        if caches and (trace.is_sass or trace.kernel in current_sha256):
            rows += _cache_rows(trace, current_sha256, predict_caches or _default_caches, predict, notes)
        if trace.is_sass:
            skip = CACHE_BY_NAME if caches else ()
            try:
                rows += _sass_rows(trace, predict, skip=skip)
            except UsageError as e:  # refused: its rows unpredicted (not exact), not the whole compare lost
                notes.append(f"{trace.path or trace.kernel}: not predicted: {e}")
                rows += _sass_rows(trace, False, skip=skip)
            continue
        M, N, K = trace.sizes
        stale = current_sha256.get(trace.kernel) != trace.meta["kernel_sha256"]
        where = str(trace.path) if trace.path else f"{trace.kernel} {M}x{N}x{K}"

        def row(metric: str, predicted, measured, exact: bool) -> dict:
            diff = measured - predicted if measured is not None and predicted is not None else None
            return {"kernel": trace.kernel, "M": M, "N": N, "K": K,
                    "block": f"{trace.block[0]}x{trace.block[1]}", "metric": metric,
                    "predicted": predicted, "measured": measured, "diff": diff, "rel_error": None, "tolerance": None,
                    "exact_claimed": exact, "stale": stale, "status": status(metric, predicted, measured, exact, stale),
                    "trace": str(trace.path) if trace.path else ""}

        analysis = None
        if predict and trace.kernel not in current_sha256:
            notes.append(f"{where}: not predicted: kernel {trace.kernel!r} is not registered")
        elif predict:
            analyze = analyze or _default_analyze()
            try:
                if trace.per_instruction:
                    analysis = analyze(trace.kernel, M, N, K, block=trace.block, by_line=True)
                else:
                    analysis = analyze(trace.kernel, M, N, K, block=trace.block)
            except UsageError as e:
                notes.append(f"{where}: not predicted: {e}")
        for metric in metrics:
            predicted = None
            if analysis is not None and metric.predicts is not None:
                predicted = analysis.total(*metric.predicts)
            rows.append(row(metric.name, predicted, trace.metrics.get(metric.name), metric.exact))
        for d in DERIVED:
            a, b = trace.metrics.get(d.minuend), trace.metrics.get(d.subtrahend)
            measured = a - b if a is not None and b is not None else None
            predicted = analysis.total(*d.predicts) if analysis is not None else None
            rows.append(row(d.name, predicted, measured, d.exact))
        if trace.per_instruction:
            try:
                rows += [row(*r) for r in _per_array_rows(trace, analysis)]
            except UsageError as e:
                why = ("its kernel source changed since it was measured, so the lines its instructions "
                       "were measured at are not the source's any more" if stale else str(e))
                notes.append(f"{where}: per-array rows left out: {why}")
    return rows, notes


def _per_array_rows(trace: Trace, analysis) -> list[tuple]:
    """(metric, predicted, measured, exact) of the rows `A load (global): <source-page column>`:
    ncu's per-instruction counters summed per array, attributed by the analysis's source lines,
    beside the analysis's per-array counts. Without an analysis there is nothing to attribute
    the instructions by (the lines' arrays come from the model): no rows."""
    if analysis is None:
        return []
    measured_rows = per_array(pd.DataFrame(trace.per_instruction), line_map(analysis.rows))
    predicted_rows = {(r.space, r.array, r.op): r for r in analysis.per_access().rows}
    out = []
    for measured_row in measured_rows.to_dict("records"):
        key = (measured_row["space"], measured_row["array"], measured_row["op"])
        predicted_row = predicted_rows.get(key)
        for column in SOURCE_METRICS:
            if column.space not in (None, key[0]):
                continue
            predicted = getattr(predicted_row, column.counter) if predicted_row is not None else None
            out.append((f"{key[1]} {key[2]} ({key[0]}): {column.name}", predicted,
                        int(measured_row[column.name]), column.exact))
    return out


def checked(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows `--strict` judges: claimed exact and not stale."""
    return frame[frame["exact_claimed"] & ~frame["stale"]]


def failures(frame: pd.DataFrame) -> pd.DataFrame:
    """Claimed-exact rows of current traces that differ, or whose measurement or prediction is missing."""
    rows = checked(frame)
    return rows[~(rows["diff"] == 0)]


def summary(frame: pd.DataFrame) -> tuple[int, int]:
    """(exact, claimed): how many claimed-exact values of current traces match, out of how many."""
    rows = checked(frame)
    return int((rows["diff"] == 0).sum()), len(rows)


def stale_summary(frame: pd.DataFrame) -> tuple[int, int]:
    """(exact, claimed) over the claimed-exact values of stale traces (re-predicted, not judged)."""
    rows = frame[frame["exact_claimed"] & frame["stale"]]
    return int((rows["diff"] == 0).sum()), len(rows)


def stale_traces(frame: pd.DataFrame) -> list[str]:
    return sorted(frame.loc[frame["stale"], "trace"].unique())


def _plain(value):
    """A frame value as JSON/CSV wants it: integral floats as int, NaN as None, numpy scalars as Python's."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if value.is_integer():
            return int(value)
    return value


def records(frame: pd.DataFrame) -> list[dict]:
    """The frame's rows as plain dicts: counts as integers, missing values as None."""
    return [{k: _plain(v) for k, v in r.items()} for r in frame.to_dict("records")]


# -- traces of any kernel (profiling.batch): predicted from the machine code that ran ------------

#: Predictions of launches already predicted, by the launch's identity (`_launch_key`): a launch
#: measured again (traces/repeats/, traces/paths/: every launch twice more) is predicted once.
_PREDICTED: dict[tuple, object] = {}


def _memo(kind: str, trace: Trace, predict: Callable):
    key = (kind, *_launch_key(trace))
    if key not in _PREDICTED:
        _PREDICTED[key] = predict()
    return _PREDICTED[key]


#: How long a committed trace's launch may run block by block (its first blocks' projection):
#: ten times `warpsim analyze`'s limit, so that a launch that runs in time alone is not refused on
#: a loaded machine (prescan's 4,096 blocks, about 60 s, were projected at 130 s beside another
#: compare, and CI's `compare --strict` failed on it). ENUMERATE_BLOCKS still bounds the run.
VERIFY_SECONDS = 1200.0


def predict_sass(trace: Trace, by_pc: bool = False):
    """warpsim's analysis of a sass trace's launch, from the cubin kept beside it."""
    from warpsim.sass.analyze import analyze_launch

    return _memo(f"counts by_pc={by_pc}", trace, lambda: analyze_launch(sass_launch(trace), by_pc=by_pc,
                                                                         enumerate_seconds=VERIFY_SECONDS))


def _sources(trace: Trace) -> tuple[Path, Path]:
    """The kernel source and the cubin a sass trace's launch ran (the cubin beside the trace, else
    the plan's under traces/; the source from the checkout, else the installed package's)."""
    from profiling.plan import REPO
    from warpsim.registry import KERNEL_DIR

    meta = trace.meta
    source = REPO / meta["source"]
    if not source.is_file():  # an installed warpsim: the kernel sources are its package data
        source = KERNEL_DIR / Path(meta["source"]).name
    cubin = Path(trace.path).parent / Path(meta["cubin"]).name if trace.path else REPO / meta["cubin"]
    if not cubin.is_file():
        cubin = REPO / meta["cubin"]
    return source, cubin


def _launch_key(trace: Trace) -> tuple:
    """What decides a sass trace's prediction: its machine code's bytes, the source's identity,
    the entry, the launch's grid, block and arguments."""
    source, cubin = _sources(trace)
    meta = trace.meta
    code = hashlib.sha256(cubin.read_bytes()).hexdigest() if cubin.is_file() else str(cubin)
    return (code, str(source), meta["entry"], meta["grid_text"], meta["block_text"],
            json.dumps(meta["args"], sort_keys=True), json.dumps(meta.get("param_names")),
            meta.get("dynamic_shared_text"))


def _data_files(trace: Trace) -> dict:
    """A sass trace's arguments, each buffer contents file it pinned (`TYPE[COUNT]=@PATH#DIGEST`,
    PATH from the checkout, profiling.plan) found beside the trace, else under the first folder
    above the trace that holds PATH (the checkout the trace lies in, wherever warpsim is installed),
    else under this checkout; the digest is still checked when it is read."""
    from profiling.plan import REPO
    from warpsim.sass.launch import file_reference, with_file

    args = dict(trace.meta["args"])
    here = Path(trace.path).resolve().parent if trace.path else None
    for name, text in args.items():
        ref = file_reference(text)
        if ref and not ref[0].is_absolute():
            path, digest = ref
            places = [here / path.name, *(a / path for a in here.parents)] if here is not None else []
            args[name] = with_file(text, next((p for p in places if p.is_file()), REPO / path), digest)
    return args


def sass_launch(trace: Trace):
    """A sass trace's launch (`warpsim.sass.analyze.Kernel`), from the cubin kept beside it."""
    from warpsim.sass.analyze import prepare

    meta = trace.meta
    source, cubin = _sources(trace)
    names = meta.get("param_names")  # (traces of call 4 predate it: their source names them)
    return prepare(cubin, meta["entry"], meta["grid_text"], meta["block_text"], _data_files(trace),
                   source=source if source.is_file() else None, param_names=names,
                   dynamic_shared=meta.get("dynamic_shared_text"))


def _sass_rows(trace: Trace, predict: bool, skip=()) -> list[dict]:
    from profiling.metrics import SASS_METRICS

    analysis = predict_sass(trace) if predict else None
    label = _label(trace, False)

    def row(metric: str, predicted, measured, exact: bool) -> dict:
        diff = measured - predicted if measured is not None and predicted is not None else None
        return {**label, "metric": metric, "predicted": predicted, "measured": measured, "diff": diff,
                "rel_error": None, "tolerance": None, "exact_claimed": exact,
                "status": status(metric, predicted, measured, exact, False)}

    rows = []
    unclaimed = _unclaimed(analysis)
    for metric in SASS_METRICS:
        if metric.name not in trace.metrics or metric.name in skip:
            continue
        measured = trace.metrics[metric.name]
        predicted = None
        if analysis is not None and metric.predicts is not None:
            predicted = analysis.total(*metric.predicts, kinds=metric.kinds)
        rows.append(row(metric.name, predicted, measured, metric.exact and metric.name not in unclaimed))
    for d in DERIVED:
        a, b = trace.metrics.get(d.minuend), trace.metrics.get(d.subtrahend)
        measured = a - b if a is not None and b is not None else None
        predicted = analysis.total(*d.predicts, kinds=d.kinds) if analysis is not None else None
        rows.append(row(d.name, predicted, measured, d.exact))
    if trace.per_instruction and predict:
        rows += [row(*r) for r in _sass_per_array(trace)]
    return rows


#: Global-load sectors of cp.async of 8 or 16 bytes per thread: ncu's aggregate
#: `l1tex__t_sectors_..._op_ld` and its per-instruction `L2 Theoretical Sectors Global` are not the
#: distinct sectors the threads touch (seen: 46,429 and 60,952 where the threads touch 45,970,
#: traces/sass/gemm_cp_async/sgemm_cp_async_vec4__M301_*): reported, not claimed.
WIDE_LDGSTS_UNCLAIMED = ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",)


#: Sector passes of global atomics (warpsim.coalescer.atomic_passes) where warpsim knows them only as
#: a lower bound (`passes_bound` requests: coalescer.atomic_passes_bound): blind batch 25's histogram
#: of Zipf keys measured 124,575 where the rule gives 123,966 (+0.49%, both runs), its excess a
#: property of single warps (traces/h100/atomics). Reported, not claimed, for such a launch.
BOUND_PASSES_UNCLAIMED = ("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum")


def _unclaimed(analysis) -> set:
    if analysis is None:
        return set()
    wide = any(r.kind == "LDGSTS" and r.space == "global" and r.width > 4 for r in analysis.rows)
    bound = any(r.space == "global" and r.op == "atomic" and r.passes_bound for r in analysis.rows)
    return set(WIDE_LDGSTS_UNCLAIMED if wide else ()) | set(BOUND_PASSES_UNCLAIMED if bound else ())


#: per SASS instruction: (source-page column, how warpsim's rows at that pc combine into it)
_PER_PC = {"instructions": max, "active_lanes": max, "lines": sum, "sectors": sum, "ideal_sectors": sum,
           "wavefronts": sum, "bank_conflicts": sum}


def _sass_per_array(trace: Trace) -> list[tuple]:
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
            rows.append((f"{array} {op} ({space}, {width} B): {column.name}", predicted, measured, claimed))
    return rows


# -- cache figures (warpsim.caches): predicted within tolerances, a class of rows of their own ----

def _gemm_sizes(args: Mapping) -> tuple:
    """A machine-code launch's M, N and K where its scalars are named so (the sgemm kernels), else
    three Nones."""
    try:
        return tuple(int(args[name]) for name in "MNK")
    except (KeyError, TypeError, ValueError):
        return None, None, None


def _block_text(block) -> str:
    """A block's shape as x by y, with z where it is not 1 (stencil7's 32x4x2)."""
    dims = list(block[:3])
    return "x".join(str(b) for b in (dims if len(dims) > 2 and dims[2] != 1 else dims[:2]))


def _label(trace: Trace, stale: bool) -> dict:
    M, N, K = _gemm_sizes(trace.meta.get("args", {})) if trace.is_sass else trace.sizes
    return {"kernel": trace.kernel, "M": M, "N": N, "K": K, "block": _block_text(trace.meta["block"])
            if trace.is_sass else f"{trace.block[0]}x{trace.block[1]}", "stale": stale,
            "trace": str(trace.path) if trace.path else ""}


def _default_caches(trace: Trace):
    """warpsim.caches' prediction of a trace's launch, through the machine code (the hand model
    where the machine code refuses the launch)."""
    from warpsim.caches import caches_for

    hw = trace_hierarchy(trace)
    if trace.is_sass:  # one launch measured on two GPUs is predicted once for each
        return _memo(f"caches {hw.name if hw else None}", trace, lambda: _caches_and_counts(trace))
    M, N, K = trace.sizes
    try:
        return caches_for(trace.kernel, M, N, K, block=trace.block, engine="sass", hw=hw)
    except UsageError:
        return caches_for(trace.kernel, M, N, K, block=trace.block, engine="model", hw=hw)


def trace_hierarchy(trace: Trace):
    """The cache hierarchy of the GPU a trace was measured on (warpsim.caches.hardware; a trace
    without the GPU in its meta is the H200's, where the first traces were measured), or None."""
    from warpsim.caches.hardware import for_device

    return for_device(trace.meta.get("gpu", CACHE_GPU))


def _caches_and_counts(trace: Trace):
    """A sass trace's cache prediction, its exact counts (`predict_sass`'s) memoized on the way: a
    launch counted block by block runs its blocks once for both (`ConcreteRun`, as `warpsim
    analyze --caches` does), not once for each."""
    from warpsim.caches import caches_for_launch
    from warpsim.caches.program import ConcreteRun
    from warpsim.sass.analyze import analyze_launch

    kernel = sass_launch(trace)
    run = ConcreteRun(kernel)
    try:
        _memo("counts by_pc=False", trace, lambda: analyze_launch(kernel, concrete=run,
                                                                  enumerate_seconds=VERIFY_SECONDS))
    except UsageError:  # the counts are refused: so are they again in their rows; the caches say why
        run = None
    return caches_for_launch(kernel, concrete=run, hw=trace_hierarchy(trace))


def _relative_error(predicted, measured, reference) -> float | None:
    """(predicted - measured) / reference; 0 where both are 0 against a reference of 0 (a launch
    that loads nothing hits nothing in L1, and warpsim says so), None where nothing can be said."""
    if predicted is None or reference is None:
        return None
    if reference == 0:
        return 0.0 if predicted == measured == 0 else None
    return (predicted - measured) / reference


def cache_status(predicted, measured, rel_error, tolerance) -> str:
    """`within 10%: -3.2%`, `OUTSIDE 10%: +14.0%`, `predicted (not claimed): +1.0%`; or why there
    is no error: `no prediction`, `not measured`, `no reference: ...` (see `_relative_error`)."""
    if predicted is None or measured is None:
        return "no prediction" if predicted is None else "not measured"
    if rel_error is None:
        return "no reference: its reference count measured 0"
    error = f"{rel_error:+.1%}"
    if tolerance is None:
        return f"predicted (not claimed): {error}"
    bound = f"{tolerance:.0%}"
    return f"within {bound}: {error}" if abs(rel_error) <= tolerance else f"OUTSIDE {bound}: {error}"


#: The figures the model may leave traffic out of (warpsim.caches.model.CachePrediction.left_out:
#: local memory's lines, which take L1 space from the global ones and whose loads' L1 hits are the
#: warps' timing; an L1 invalidation's lost hits; sectors written in part, which the L2 reads back):
#: where what is left out could move the figure by more than its tolerance, it is given as a range
#: and not claimed.
RANGES = {"l1_hit_sectors": lambda p: p.l1_hit_range, "l2_read_sectors": lambda p: p.l2_read_range,
          "dram_read_bytes": lambda p: p.dram_read_range}
#: The predicted figure a tolerance is a share of, where it is not the figure itself (CACHE_METRICS' `of`).
RANGE_REFERENCE = {"l1_hit_sectors": "load_sectors"}
RANGE_STATUS = "not claimed ("


def ranged(prediction, field: str, tolerance: float | None) -> str | None:
    """What the prediction leaves out of `field` (`local memory`, ...) where it could move the figure
    by more than `tolerance` of its reference, else None (the figure stays claimed)."""
    what, most = prediction.left_out.get(field, ("", 0))
    reference = getattr(prediction.total, RANGE_REFERENCE.get(field, field))
    return what if field in RANGES and most and tolerance is not None and most > tolerance * reference else None


def range_status(measured, bounds: tuple[int, int], tolerance: float, what: str) -> str:
    """`not claimed (local memory): within 770,650-1,520,674`, or OUTSIDE: whether `measured` lies
    between the range's ends, the low end (the prediction, traffic left out) less its `tolerance`."""
    low, high = bounds
    inside = low * (1 - tolerance) <= measured <= high
    return f"{RANGE_STATUS}{what}): {'within' if inside else 'OUTSIDE'} {low:,}-{high:,}"


CACHE_GPU = "NVIDIA H200"  # the GPU of a trace whose meta names none (the first traces')


def _cache_rows(trace: Trace, current_sha256: Mapping[str, str], predictor: Callable, predict: bool,
                notes: list) -> list[dict]:
    stale = not trace.is_sass and current_sha256.get(trace.kernel) != trace.meta["kernel_sha256"]
    label = _label(trace, stale)
    prediction = None
    if trace_hierarchy(trace) is None:  # the counts hold on any GH100; the caches are modelled for two
        gpu = trace.meta.get("gpu", CACHE_GPU)
        return [{**label, "metric": metric.name, "predicted": None, "measured": trace.metrics[metric.name],
                 "diff": None, "rel_error": None, "tolerance": None, "exact_claimed": False,
                 "status": f"measured on the {gpu}: its caches are not modelled"}
                for metric in CACHE_METRICS if trace.metrics.get(metric.name) is not None]
    if predict:
        try:
            prediction = predictor(trace)
        except UsageError as e:
            notes.append(f"{label['trace'] or trace.kernel}: caches not predicted: {e}")
    rows = []
    for metric in CACHE_METRICS:
        measured = trace.metrics.get(metric.name)
        if measured is None:
            continue
        predicted = getattr(prediction.total, metric.field) if prediction is not None else None
        reference = trace.metrics.get(metric.of) if metric.of else measured
        rel = _relative_error(predicted, measured, reference)
        tolerance = metric.tolerance
        if metric.fits_tolerance is not None and prediction is not None and prediction.fits:
            tolerance = metric.fits_tolerance
        diff = measured - predicted if predicted is not None else None
        verdict = cache_status(predicted, measured, rel, tolerance)
        what = ranged(prediction, metric.field, tolerance) if prediction is not None else None
        if what:
            verdict = range_status(measured, RANGES[metric.field](prediction), tolerance, what)
            tolerance = None
        rows.append({**label, "metric": metric.name, "predicted": predicted, "measured": measured, "diff": diff,
                     "rel_error": rel, "tolerance": tolerance, "exact_claimed": False,
                     "status": verdict + " (stale)" if stale else verdict})
    return rows


def tolerance_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """The cache rows `--strict` judges: claimed within a tolerance, of current traces."""
    return frame[frame["tolerance"].notna() & ~frame["stale"]]


def tolerance_failures(frame: pd.DataFrame) -> pd.DataFrame:
    """Claimed cache rows outside their tolerance, or without a prediction or a measurement."""
    rows = tolerance_rows(frame)
    return rows[~(rows["rel_error"].abs() <= rows["tolerance"])]


def tolerance_summary(frame: pd.DataFrame) -> tuple[int, int]:
    """(within, claimed) over the claimed cache rows of current traces."""
    rows = tolerance_rows(frame)
    return int((rows["rel_error"].abs() <= rows["tolerance"]).sum()), len(rows)


def error_distribution(frame: pd.DataFrame) -> list[tuple[str, int, int, float, float, str]]:
    """Per cache metric over current traces: (metric, within, rows, median |relative error|,
    worst |relative error|, the worst row's trace)."""
    out = []
    rows = frame[frame["rel_error"].notna() & ~frame["stale"]]
    for metric in CACHE_METRICS:
        mine = rows[rows["metric"] == metric.name]
        if metric.tolerance is not None:  # the claimed rows, not those given as a range (`ranged`)
            mine = mine[mine["tolerance"].notna()]
        if mine.empty:
            continue
        errors = mine["rel_error"].abs()
        worst = errors.idxmax()
        within = int((errors <= mine["tolerance"]).sum()) if metric.tolerance is not None else 0
        out.append((metric.name, within, len(mine), float(errors.median()), float(errors[worst]),
                    str(mine.loc[worst, "trace"]) or str(mine.loc[worst, "kernel"])))
    return out


def range_distribution(frame: pd.DataFrame) -> list[tuple[str, int, int]]:
    """Per cache metric over current traces, the figures given as a range, not claimed (`ranged`):
    (metric, measured within the range, rows)."""
    rows = frame[frame["status"].str.startswith(RANGE_STATUS) & ~frame["stale"]]
    return [(metric.name, int(mine["status"].str.contains("): within ", regex=False).sum()), len(mine))
            for metric in CACHE_METRICS if not (mine := rows[rows["metric"] == metric.name]).empty]
