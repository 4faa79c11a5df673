"""Presenting comparison and bench frames: rich tables for people, CSV and JSON for programs."""

from __future__ import annotations

import math

import pandas as pd
from rich.table import Table

from profiling.compare import summary
from profiling.metrics import BY_NAME


def number(value) -> str:
    """Counts with thousands separators, other values with 4 significant digits, missing as ''."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:.4g}"


def _verdict(row) -> str:
    if row["stale"]:
        return "stale"
    metric = BY_NAME.get(row["metric"])  # per-array rows are named after source-page columns
    if metric is not None and metric.predicts is None:
        return "measured only"
    if math.isnan(row["predicted"]):
        return "no prediction"
    if math.isnan(row["measured"]):
        return "not measured"
    if row["diff"] == 0:
        return "exact"
    return "DIFFERS" if row["exact_claimed"] else "differs (not claimed)"


def comparison_table(frame: pd.DataFrame, title: str, one_launch: bool = False) -> Table:
    """Predicted, measured, diff and a verdict per metric, launches separated by a rule;
    `one_launch` leaves the launch column out (the title names it). On a narrow terminal the
    launch and metric names fold; the numbers never do."""
    exact, claimed = summary(frame)
    rows = []
    for _, row in frame.iterrows():
        launch = f"{row['kernel']} {row['M']}x{row['N']}x{row['K']} b{row['block']}"
        rows.append((launch, row["metric"], number(row["predicted"]), number(row["measured"]),
                     number(row["diff"]), _verdict(row)))
    table = Table(title=title, caption=f"{exact}/{claimed} claimed-exact values exact")
    if not one_launch:
        table.add_column("launch", overflow="fold", min_width=8)
    table.add_column("metric", overflow="fold", min_width=12)
    for i, name in enumerate(("predicted", "measured", "diff", ""), start=2):
        width = max([len(name)] + [len(r[i]) for r in rows])
        table.add_column(name, justify="left" if i == 5 else "right", no_wrap=True, min_width=width)
    previous = None
    for launch, *cells in rows:
        if not one_launch:
            if previous is not None and launch != previous:
                table.add_section()
            cells.insert(0, launch if launch != previous else "")
        previous = launch
        table.add_row(*cells)
    return table


def comparison_text(frame: pd.DataFrame, fmt: str) -> str:
    """The frame as CSV or JSON (one object per row)."""
    if fmt == "csv":
        return frame.to_csv(index=False)
    return frame.to_json(orient="records", indent=1) + "\n"


def bench_table(table: pd.DataFrame, title: str) -> Table:
    out = Table(title=title)
    for name in ("kernel", "block", "time (ms)", "GFLOP/s", "% of cuBLAS", "input sets"):
        out.add_column(name, justify="left" if name in ("kernel", "block") else "right")
    for _, row in table.iterrows():
        out.add_row(row["kernel"], row["block"], f"{row['time_ms']:.4f}", f"{row['gflops']:,.0f}",
                    f"{row['pct_of_cublas']:.1f}", str(row["input_sets"]))
    return out
