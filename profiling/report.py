"""Presenting comparison and bench frames: tables for people (fitted to the terminal by
warpsim.terminal, so that no number or status is cut), CSV and JSON for programs (integer
counts, a status per row)."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pandas as pd

from profiling.compare import records, summary, tolerance_summary
from warpsim.terminal import Column, Count, grid, listing


def _cell(value):
    """A Count for an integral value (exact, or scaled where space is short), else its text."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return Count(int(value)) if float(value).is_integer() else f"{value:.4g}"


# The status may wrap, but only at its spaces: its first word (exact, DIFFERS, differs, ...) stays
# on the line of the row's figures, where grep finds it.
FIGURES = [Column("predicted"), Column("measured"), Column("diff"),
           Column("status", numeric=False, fold=True, fold_min=13)]


def _sizes(row) -> str:
    """M x N x K for a GEMM's row; for a kernel of other scalars, those its trace is named by
    (stencil7__X200_Y150_Z100.json: X200_Y150_Z100)."""
    if not pd.isna(row["M"]):
        return "x".join(str(int(row[n])) for n in "MNK")
    stem = Path(str(row.get("trace") or "")).stem
    return stem.partition("__")[2] or "(no sizes)"


def comparison_layouts(frame: pd.DataFrame, title: str, one_launch: bool = False) -> list:
    """Predicted, measured, diff and the status per metric, in the forms `warpsim.terminal.fit`
    picks from: a launch column (left out with `one_launch`: the title names it), or, where that
    is too wide, each launch on a row of its own above its metrics; exact figures, then scaled;
    last, a listing (a status and metric line per row, then its figures)."""
    exact, claimed = summary(frame)
    caption = f"{exact}/{claimed} claimed-exact values exact"
    within, tolerated = tolerance_summary(frame)
    if tolerated:
        caption += f"; {within}/{tolerated} cache figures within their tolerance"
    sections, beside, above, above_sections, listed = [], [], [], [], []
    previous = None
    for _, row in frame.iterrows():
        launch = f"{row['kernel']} {_sizes(row)} block {row['block']}"
        figures = [_cell(row["predicted"]), _cell(row["measured"]), _cell(row["diff"]), row["status"]]
        if launch != previous:
            if previous is not None:
                sections.append(len(beside))
                above_sections.append(len(above))
            if not one_launch:
                above.append([launch, "", "", "", ""])
                listed.append(["", launch, "", "", ""])
        beside.append([launch if launch != previous else "", row["metric"], *figures])
        above.append([row["metric"], *figures])
        listed.append([row["status"], row["metric"], *figures[:3]])
        previous = launch
    metric = Column("metric", numeric=False, fold=True, fold_min=20)
    wide_cols = ([] if one_launch else [Column("launch", numeric=False, fold=True, fold_min=24)])
    wide_cols += [Column("metric", numeric=False, fold=True, fold_min=28), *FIGURES]
    wide = beside if not one_launch else [r[1:] for r in beside]
    forms = [grid(title, wide_cols, wide, False, tuple(sections), caption=caption)]
    if not one_launch:
        forms.append(grid(title, [metric, *FIGURES], above, False, tuple(above_sections), caption=caption))
    forms.append(grid(title, wide_cols, wide, True, tuple(sections), caption=caption))
    if not one_launch:
        forms.append(grid(title, [metric, *FIGURES], above, True, tuple(above_sections), caption=caption))
    list_cols = [Column("status", numeric=False), metric, *FIGURES[:3]]
    forms.append(listing(title, list_cols, listed, caption))
    return forms


def comparison_text(frame: pd.DataFrame, fmt: str) -> str:
    """The frame as CSV or JSON (a list of objects, one per row): integer counts, a status per row."""
    rows = records(frame)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(frame.columns), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue()
    return json.dumps(rows, indent=1, allow_nan=False) + "\n"


def bench_layouts(table: pd.DataFrame, title: str) -> list:
    """The bench table (time, GFLOP/s, % of cuBLAS per kernel), or a listing where it is too wide."""
    columns = [Column("kernel", numeric=False), Column("block", numeric=False), Column("time (ms)"),
               Column("GFLOP/s"), Column("% of cuBLAS"), Column("input sets")]
    rows = [[row["kernel"], row["block"], f"{row['time_ms']:.4f}", f"{row['gflops']:,.0f}",
             f"{row['pct_of_cublas']:.1f}", str(row["input_sets"])] for _, row in table.iterrows()]
    return [grid(title, columns, rows, False), listing(title, columns, rows)]
