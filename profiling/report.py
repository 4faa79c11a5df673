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
    if BY_NAME[row["metric"]].predicts is None:
        return "measured only"
    if math.isnan(row["predicted"]):
        return "no prediction"
    if math.isnan(row["measured"]):
        return "not measured"
    if row["diff"] == 0:
        return "exact"
    return "DIFFERS" if row["exact_claimed"] else "differs (not claimed)"


def comparison_table(frame: pd.DataFrame, title: str = "measured (H200, ncu) vs predicted (warpsim)") -> Table:
    exact, claimed = summary(frame)
    table = Table(title=title, caption=f"{exact}/{claimed} claimed-exact values exact")
    for name, justify in (("kernel", "left"), ("M x N x K", "left"), ("block", "left"), ("metric", "left"),
                          ("predicted", "right"), ("measured", "right"), ("diff", "right"), ("", "left")):
        table.add_column(name, justify=justify)
    for _, row in frame.iterrows():
        table.add_row(row["kernel"], f"{row['M']}x{row['N']}x{row['K']}", row["block"], row["metric"],
                      number(row["predicted"]), number(row["measured"]), number(row["diff"]), _verdict(row))
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
