"""Presenting an Analysis: seed 000's warp view as a table, one JSON object, or CSV."""

from __future__ import annotations

import json

from rich.table import Table
from rich.text import Text

from warpsim.coalescer import SECTOR
from warpsim.counts import Analysis, Row

JSON_KEYS = ("space", "array", "op", "width", "instructions", "requests", "sectors", "ideal_sectors",
             "lines", "broadcast_requests", "active_lanes", "bytes_requested")
SHARED_KEYS = ("space", "array", "op", "width", "instructions", "requests", "wavefronts",
               "bank_conflicts", "broadcast_requests", "active_lanes", "bytes_requested")


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def row_dict(r: Row) -> dict:
    keys = JSON_KEYS if r.space == "global" else SHARED_KEYS
    d = {k: getattr(r, k) for k in keys}
    if r.line is not None:
        d["line"] = r.line
    if r.space == "global":
        d["bytes_moved"] = r.sectors * SECTOR
    return d


def to_json(a: Analysis) -> str:
    return json.dumps({
        "kernel": a.kernel, "M": a.M, "N": a.N, "K": a.K,
        "block": list(a.block), "grid": list(a.grid),
        "rows": [row_dict(r) for r in a.rows],
        "warnings": a.warnings,
    })


def to_csv(a: Analysis) -> str:
    frame = a.frame()
    frame.insert(0, "kernel", a.kernel)
    for i, (k, v) in enumerate((("M", a.M), ("N", a.N), ("K", a.K))):
        frame.insert(1 + i, k, v)
    return frame.to_csv(index=False)


def worst_access(a: Analysis) -> str:
    """One sentence naming the global access that wastes the most bytes."""
    rows = [r for r in a.rows if r.space == "global" and r.requests]
    if not rows:
        return "No global memory access is made at this size."
    worst = max(rows, key=lambda r: (r.sectors - r.ideal_sectors, r.sectors))
    spr = _ratio(worst.sectors, worst.requests)
    ideal = _ratio(worst.ideal_sectors, worst.requests)
    if worst.sectors == worst.ideal_sectors:
        return "Every global access is fully coalesced: no sector carries bytes the warp did not ask for."
    return (f"{worst.array} {worst.op}: {spr:.4g} sectors per request where {ideal:.4g} would do: "
            f"{_ratio(worst.sectors, worst.ideal_sectors):.3g}x the bytes.")


def _n(x: int) -> str:
    return f"{x:,}"


def global_table(a: Analysis) -> Table:
    t = Table(title=f"{a.kernel}  M={a.M} N={a.N} K={a.K}  block {a.block[0]}x{a.block[1]}  "
                    f"grid {a.grid[0]}x{a.grid[1]}: global memory, whole launch")
    for col in ("array", "op", "requests", "sectors", "sectors/req", "ideal/req", "efficiency",
                "broadcast req", "bytes requested", "bytes moved"):
        t.add_column(col, justify="left" if col in ("array", "op") else "right")
    rows = [r for r in a.rows if r.space == "global"]
    for r in rows:
        t.add_row(r.array, r.op, _n(r.requests), _n(r.sectors), f"{_ratio(r.sectors, r.requests):.2f}",
                  f"{_ratio(r.ideal_sectors, r.requests):.2f}", f"{_ratio(r.ideal_sectors, r.sectors):.1%}",
                  _n(r.broadcast_requests), _n(r.bytes_requested), _n(r.sectors * SECTOR))
    req = sum(r.requests for r in rows)
    sec = sum(r.sectors for r in rows)
    ideal = sum(r.ideal_sectors for r in rows)
    t.add_row("total", "", _n(req), _n(sec), f"{_ratio(sec, req):.2f}", f"{_ratio(ideal, req):.2f}",
              f"{_ratio(ideal, sec):.1%}", _n(sum(r.broadcast_requests for r in rows)),
              _n(sum(r.bytes_requested for r in rows)), _n(sec * SECTOR), style="bold")
    return t


def shared_table(a: Analysis) -> Table | None:
    rows = [r for r in a.rows if r.space == "shared"]
    if not rows:
        return None
    t = Table(title="shared memory, whole launch")
    for col in ("array", "op", "width B", "instructions", "wavefronts", "wavefronts/req", "bank conflicts"):
        t.add_column(col, justify="left" if col in ("array", "op") else "right")
    for r in rows:
        t.add_row(r.array, r.op, str(r.width), _n(r.instructions), _n(r.wavefronts),
                  f"{_ratio(r.wavefronts, r.requests):.2f}", _n(r.bank_conflicts))
    return t


def lines_table(a: Analysis, source: list[str]) -> Table:
    """Per .cu line: what each memory instruction there costs over the whole launch."""
    t = Table(title=f"{a.kernel}  M={a.M} N={a.N} K={a.K}: memory instructions by source line "
                    f"(kernels/{a.kernel}.cu)")
    for col in ("line", "source", "space", "array", "op", "B", "instructions", "requests",
                "sectors/req", "ideal/req", "wavefronts/req", "conflicts"):
        t.add_column(col, justify="left" if col in ("source", "space", "array", "op") else "right",
                     overflow="fold" if col == "source" else "ellipsis")
    for r in a.rows:
        text = source[r.line - 1].strip() if 0 < r.line <= len(source) else ""
        glob = r.space == "global"
        t.add_row(str(r.line), Text(text), r.space, r.array, r.op, str(r.width), _n(r.instructions), _n(r.requests),
                  f"{_ratio(r.sectors, r.requests):.2f}" if glob else "",
                  f"{_ratio(r.ideal_sectors, r.requests):.2f}" if glob else "",
                  "" if glob else f"{_ratio(r.wavefronts, r.requests):.2f}",
                  "" if glob else _n(r.bank_conflicts))
    return t
