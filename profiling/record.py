"""`profile run`: measure one launch under ncu and keep it as a trace.

Order matters for "nothing half-written": everything that can be refused without a GPU is
refused first (kernel, block, sizes, an existing trace without --force, ncu missing); then the
cubin is built, ncu runs the child (which checks its own result), and only a complete,
correct measurement is written, atomically.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from profiling import compare, ncu, source
from warpsim.toolchain import build_cubin, source_sha256
from profiling.problem import Problem
from profiling.traces import TRACES_DIR, Trace, current_sha256, refuse_overwrite, trace_path, write_trace


@dataclass(frozen=True)
class RecordOptions:
    traces_dir: Path = TRACES_DIR
    force: bool = False  # replace an existing trace
    per_array: bool = False  # also run ncu's source counters and attribute them to A, B, C
    ncu_options: ncu.NcuOptions = ncu.NcuOptions()


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def make_trace(problem: Problem, measurement: ncu.Measurement, versions: dict, sha256: str) -> Trace:
    meta = {
        **versions,
        "kernel": problem.kernel, "entry": problem.spec.entry, "kernel_sha256": sha256,
        "block": list(problem.block), "grid": list(problem.grid),
        "M": problem.M, "N": problem.N, "K": problem.K,
        "date": utc_now(), "command": list(measurement.command),
    }
    return Trace(meta, dict(measurement.metrics), dict(measurement.units))


def record(problem: Problem, options: RecordOptions = RecordOptions()) -> Trace:
    """Profile `problem` under ncu and write its trace; returns the trace (with its path)."""
    refuse_overwrite(trace_path(options.traces_dir, problem.kernel, problem.M, problem.N, problem.K,
                                problem.block), options.force)
    ncu.find_ncu(options.ncu_options.ncu)
    sha256 = source_sha256(problem.spec.cu_path)
    cubin = build_cubin(problem.spec.cu_path)  # built here so a compile error is not reported as a child failure
    measurement = ncu.profile(problem, options.ncu_options)
    per_instruction = []
    if options.per_array:
        text, _ = ncu.profile_source(problem, options.ncu_options)
        per_instruction = instructions_with_lines(text, cubin)
    versions = ncu.probe_versions(options.ncu_options.ncu)
    trace = make_trace(problem, measurement, versions, sha256)
    trace.per_instruction = per_instruction  # attributed to A, B, C when compared (profiling.compare)
    write_trace(trace, options.traces_dir, options.force)
    return trace


def instructions_with_lines(source_csv: str, cubin: Path) -> list[dict]:
    """ncu's per-instruction rows, each with its `.cu` line from the cubin that ran."""
    from warpsim.sass import listing

    frame = source.with_lines(source.read_source_csv(source_csv), listing.memory_instructions(cubin))
    return [{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            for row in frame.to_dict("records")]


def beside_prediction(trace: Trace) -> tuple[pd.DataFrame, str | None]:
    """Every metric of a fresh trace beside warpsim's prediction; if warpsim cannot predict it,
    the measurement alone and the reason (the trace is written either way)."""
    sha = current_sha256([trace.kernel])
    try:
        frame = compare.compare([trace], sha, measured_only=True)
    except ImportError as e:
        return compare.compare([trace], sha, measured_only=True, predict=False), f"no prediction: {e}"
    return frame, "; ".join(frame.attrs["notes"]) or None
