"""Presenting an Analysis: seed 000's warp view as a table, one JSON object, or CSV.

JSON and CSV carry the same names: the launch's keys (kernel, M, N, K, block, grid) and each
row's (`warpsim.counts.Row.record`); JSON nests the rows under the launch, CSV repeats the
launch on every row. Both are exact integers; the tables may round (`warpsim.terminal`).
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

from warpsim.counts import Analysis, Row, block_text
from warpsim.terminal import Column, Count, layouts

#: Version of analyze's JSON: bumped when a key changes meaning or goes away.
SCHEMA = 1


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def to_json(a: Analysis) -> str:
    """One strict JSON object (no NaN or Infinity): schema, the launch, rows, warnings."""
    return json.dumps({"schema": SCHEMA, **a.launch(), "rows": [r.record() for r in a.rows],
                       "warnings": a.warnings}, allow_nan=False)


def to_csv(a: Analysis) -> str:
    """One header line, then one line per row: the columns of `Analysis.records`."""
    records = a.records()
    out = io.StringIO()
    if records:
        writer = csv.DictWriter(out, fieldnames=list(records[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
    return out.getvalue()


def _waste(r: Row) -> Fraction | None:
    """How many times the ideal an access costs: sectors over ideal sectors (global), wavefronts
    over conflict-free wavefronts (shared); None when it makes no request."""
    if r.space in ("global", "local"):
        return Fraction(r.sectors, r.ideal_sectors) if r.ideal_sectors else None
    return Fraction(r.wavefronts, r.ideal_wavefronts) if r.ideal_wavefronts else None


def _names(rows: list[Row]) -> str:
    names = [f"{'shared ' if r.space == 'shared' else ''}{r.array} {r.op}" for r in rows]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _clause(rows: list[Row], times: Fraction) -> str:
    r = rows[0]
    if r.space in ("global", "local"):
        return (f"{_names(rows)}: {_ratio(r.sectors, r.requests):.4g} sectors per request where "
                f"{_ratio(r.ideal_sectors, r.requests):.4g} would do: {float(times):.3g}x the bytes")
    return (f"{_names(rows)}: {_ratio(r.wavefronts, r.requests):.4g} wavefronts per request where "
            f"{_ratio(r.ideal_wavefronts, r.requests):.4g} would do (bank conflicts): {float(times):.3g}x the cycles")


def worst_access(a: Analysis) -> str:
    """One sentence naming the access that costs the most times its ideal (global sectors, or
    shared wavefronts when bank conflicts are worse), and every access that is equally bad."""
    rows = [r for r in a.rows if r.requests]
    if not any(r.space == "global" for r in rows):
        return "No global memory access is made at this size."
    waste = {id(r): _waste(r) for r in rows}
    worst = max((w for w in waste.values() if w is not None), default=Fraction(1))
    if worst == 1:
        shared = " and no shared access has a bank conflict" if any(r.space == "shared" for r in rows) else ""
        return (f"Every global access is fully coalesced{shared}: no sector carries bytes the warp did "
                "not ask for.")
    groups: dict[tuple, list[Row]] = {}  # equally worst accesses with the same per-request figures
    for r in rows:
        if waste[id(r)] == worst:
            per_request = (r.space, Fraction(r.sectors, r.requests), Fraction(r.ideal_sectors, r.requests),
                           Fraction(r.wavefronts, r.requests), Fraction(r.ideal_wavefronts, r.requests))
            groups.setdefault(per_request, []).append(r)
    return "; ".join(_clause(g, worst) for g in groups.values()) + "."


def atomic_passes_note(a: Analysis) -> str | None:
    """For global atomics whose lanes share a word: their sector passes beside their sectors (lanes
    on one word are applied one a pass; ncu's `l1tex__t_sectors` of `_op_red`/`_op_atom` counts
    the passes, warpsim.coalescer.atomic_passes). None where every atomic's lanes name distinct words."""
    rows = [r for r in a.rows if r.space == "global" and r.op == "atomic" and r.wavefronts > r.sectors]
    if not rows:
        return None
    each = "; ".join(f"{r.array} {op_label(r)}: {'at least ' if r.passes_bound else ''}{r.wavefronts:,} sector passes "
                     f"for {r.sectors:,} sectors" + (f" (a lower bound in {r.passes_bound:,} of its {r.requests:,} "
                                                    "requests)" if r.passes_bound else "") for r in rows)
    bound = any(r.passes_bound for r in rows)
    return (f"{each} (lanes that update one word are applied one a pass, as ncu's "
            "l1tex__t_sectors counts them" + ("; where lanes of two lines name one word offset beside a sector of "
                                             "single-lane words, ncu may count more" if bound else "") + ").")


#: Opcode families the tables name beside the op (the plain LDG/STG/LDS/STS go unnamed).
FAMILY_NAMES = {"LD": "generic", "ST": "generic", "LDGSTS": "cp.async", "LDSM": "ldmatrix", "REDG": "red",
                "RED": "red", "ATOMG": "atom", "ATOM": "atom", "ATOMS": "atom", "LDL": "local", "STL": "local"}


def op_label(r: Row) -> str:
    """`load`, or `load (cp.async)` for a machine-code row of another instruction family."""
    family = FAMILY_NAMES.get(r.kind or "")
    return f"{r.op} ({family})" if family else r.op


def _fixed(x: float, digits: int) -> str:
    return f"{x:.{digits}f}"


GLOBAL_COLUMNS = [Column("array", numeric=False), Column("op", numeric=False), Column("requests"),
                  Column("sectors"), Column("sectors/req"), Column("ideal/req"), Column("efficiency"),
                  Column("broadcast req"), Column("bytes requested"), Column("bytes moved")]


def _global_cells(array: str, op: str, requests: int, sectors: int, ideal: int, broadcast: int,
                  requested: int) -> list:
    return [array, op, Count(requests), Count(sectors), _fixed(_ratio(sectors, requests), 2),
            _fixed(_ratio(ideal, requests), 2), f"{_ratio(ideal, sectors):.1%}", Count(broadcast),
            Count(requested), Count(sectors * 32)]


def global_layouts(a: Analysis) -> list:
    """The global-memory table (one row per access and a total), in the forms `terminal.fit` picks from."""
    rows = [r for r in a.rows if r.space == "global"]
    cells = [_global_cells(r.array, op_label(r), r.requests, r.sectors, r.ideal_sectors, r.broadcast_requests,
                           r.bytes_requested) for r in rows]
    cells.append(_global_cells("total", "", *(sum(getattr(r, c) for r in rows) for c in (
        "requests", "sectors", "ideal_sectors", "broadcast_requests", "bytes_requested"))))
    title = (f"{a.kernel}  {a.launch_text()}  block {block_text(a.block)}  grid {block_text(a.grid)}: "
             "global memory, whole launch")
    return layouts(title, GLOBAL_COLUMNS, cells, bold_last=True)


def local_layouts(a: Analysis) -> list | None:
    """The local-memory table (per-thread arrays and spills), in sectors like the global one: the
    hardware interleaves a warp's local memory a 4-byte word per lane (warpsim.coalescer.local)."""
    rows = [r for r in a.rows if r.space == "local"]
    if not rows:
        return None
    cells = [_global_cells(r.array, op_label(r), r.requests, r.sectors, r.ideal_sectors, r.broadcast_requests,
                           r.bytes_requested) for r in rows]
    return layouts("local memory (a 4-byte word per lane in turn), whole launch", GLOBAL_COLUMNS, cells)


SHARED_COLUMNS = [Column("array", numeric=False), Column("op", numeric=False), Column("width B"),
                  Column("instructions"), Column("wavefronts"), Column("wavefronts/req"), Column("bank conflicts")]


def shared_layouts(a: Analysis) -> list | None:
    """The shared-memory table (wavefronts per request: per instruction with an active lane)."""
    rows = [r for r in a.rows if r.space == "shared"]
    if not rows:
        return None
    cells = [[r.array, op_label(r), str(r.width), Count(r.instructions), Count(r.wavefronts),
              _fixed(_ratio(r.wavefronts, r.requests), 2), Count(r.bank_conflicts)] for r in rows]
    return layouts("shared memory, whole launch", SHARED_COLUMNS, cells)


LINE_COLUMNS = [Column("line", numeric=False), Column("source", numeric=False, fold=True, fold_min=32), Column("space", numeric=False),
                Column("array", numeric=False), Column("op", numeric=False), Column("B"),
                Column("instructions"), Column("requests"), Column("sectors/req"), Column("ideal/req"),
                Column("wavefronts/req"), Column("conflicts")]


def lines_layouts(a: Analysis, source: list[str]) -> list:
    """Per .cu line: what each memory instruction there costs over the whole launch."""
    cells = []
    for r in a.rows:
        text = source[r.line - 1].strip() if 0 < r.line <= len(source) else ""
        glob = r.space in ("global", "local")  # both in sectors
        cells.append([str(r.line), text, r.space, r.array, op_label(r), str(r.width), Count(r.instructions),
                      Count(r.requests),
                      _fixed(_ratio(r.sectors, r.requests), 2) if glob else "",
                      _fixed(_ratio(r.ideal_sectors, r.requests), 2) if glob else "",
                      "" if glob else _fixed(_ratio(r.wavefronts, r.requests), 2),
                      "" if glob else Count(r.bank_conflicts)])
    where = a.source or f"kernels/{a.kernel}.cu"
    title = f"{a.kernel}  {a.launch_text()}: memory instructions by source line ({where})"
    return layouts(title, LINE_COLUMNS, cells, turn=False)
