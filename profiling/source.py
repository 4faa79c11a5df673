"""Per-array measurement: ncu's per-instruction source counters, attributed to A, B and C.

ncu's aggregate counters mix A, B and C. Its source page (`--section SourceCounters`, then
`ncu -i REPORT --page source --csv --print-source sass`) has one row per SASS instruction with
its executed count, active threads, sectors and shared wavefronts. Each instruction is tied to
its `.cu` line through the cubin's line table (`warpsim.sass`, the same cubin that ran: offsets
from the function's first instruction), and each line to an array through warpsim's model,
whose every access names its line:

    source CSV --read_source_csv--> instructions (pc offset, counters)
    cubin      --warpsim.sass-----> (pc offset -> line, width)
    analysis   --line_map---------> ((line, space, op, width) -> array), by-line rows of the model
    join       --per_array--------> rows (space, array, op, counters)

All of it is pure except reading the files. The key (line, space, op, width) must name one
array; `line_map` refuses a model where it does not (tests check every kernel).

Limitations: counters are ncu's `Instructions Executed`, `Predicated-On Thread Instructions
Executed`, `L1 Tag Requests Global`, `L2 Theoretical Sectors Global (Ideal)`, `L1 Wavefronts
Shared (Ideal)`; ncu gives no per-instruction count of requests (instructions with an active
lane), so per-array rows compare instructions, active lanes, lines, sectors and wavefronts.
"""

from __future__ import annotations

import csv
import io

import pandas as pd

from profiling.metrics import SOURCE_COLUMNS, SOURCE_KEYS
from warpsim.errors import UsageError

_SPACE = {"Global": "global", "Shared": "shared", "Local": "local", "Generic": "generic"}
_OP = {"Load": "load", "Store": "store"}


def read_source_csv(text: str, origin: str = "source CSV", every_space: bool = False) -> pd.DataFrame:
    """One row per memory instruction of one kernel: pc (offset from the kernel's first
    instruction), sass, space, op, width (bytes) and the counters named in SOURCE_COLUMNS.
    `every_space` keeps every row that names an address space (atomics, reductions and spaces
    this module does not map are kept under ncu's own words, lowercased)."""
    lines = [line for line in text.splitlines() if line and not line.startswith("==")]
    if lines and lines[0].startswith('"Kernel Name"'):
        kernels = [line for line in lines if line.startswith('"Kernel Name"')]
        if len(kernels) != 1:
            raise UsageError(f"{origin} holds {len(kernels)} kernels; profile one launch (-c 1)")
        lines = lines[1:]
    if not lines or not lines[0].startswith('"Address"'):
        raise UsageError(f"{origin} is not ncu's source page (`--page source --csv --print-source sass`)")
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header, body = rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]
    if "Access Operation" not in header and "Address Space" in header:
        # a kernel whose only memory instructions are reductions (REDG): ncu leaves the column out,
        # where it writes "-" for a reduction beside loads and stores (votes.cu's count_from)
        header, body = [*header, "Access Operation"], [[*r, "-"] for r in body]
    need = [*SOURCE_KEYS, SOURCE_COLUMNS[0]]  # the executed count is there for every kernel
    missing = [c for c in need if c not in header]
    if missing:
        raise UsageError(f"{origin} lacks the column {missing[0]!r}: was it collected with --section SourceCounters?")
    frame = pd.DataFrame(body, columns=header)
    for column in SOURCE_COLUMNS:  # ncu leaves out the shared columns of a kernel without shared memory
        if column not in frame:
            frame[column] = "0"
    frame = frame[need + [c for c in SOURCE_COLUMNS if c not in need]]
    frame["pc"] = frame["Address"].map(lambda a: int(a, 16))
    frame["pc"] -= frame["pc"].min()
    if every_space:
        named = frame["Address Space"].str.strip().isin(["", "-"]) | frame["Access Operation"].str.strip().isin(["", "-"])
        frame = frame[~named].copy()
        frame["space"] = frame["Address Space"].map(lambda v: _SPACE.get(v, v.strip().lower().replace(",", "+")))
        frame["op"] = frame["Access Operation"].map(lambda v: _OP.get(v, v.strip().lower().replace(",", "+")))
    else:
        frame = frame[frame["Address Space"].isin(_SPACE) & frame["Access Operation"].isin(_OP)].copy()
        frame["space"] = frame["Address Space"].map(_SPACE)
        frame["op"] = frame["Access Operation"].map(_OP)
    frame["width"] = pd.to_numeric(frame["Access Size"], errors="coerce").fillna(0).astype(int) // 8  # ncu: bits
    for column in SOURCE_COLUMNS:
        frame[column] = pd.to_numeric(frame[column].str.replace(",", ""), errors="raise").astype("int64")
    frame = frame.rename(columns={"Source": "sass"})
    return frame[["pc", "sass", "space", "op", "width", *SOURCE_COLUMNS]].reset_index(drop=True)


def with_lines(instructions: pd.DataFrame, sass_table: pd.DataFrame) -> pd.DataFrame:
    """Add each instruction's `.cu` line from warpsim.sass.memory_instructions of the same cubin."""
    table = sass_table.drop_duplicates("pc")[["pc", "line", "opcode"]]
    joined = instructions.merge(table, on="pc", how="left")
    unmatched = joined[joined["line"].isna()]
    if len(unmatched):
        raise UsageError(f"instruction at offset {int(unmatched['pc'].iloc[0]):#x} ({unmatched['sass'].iloc[0].strip()}) "
                         "is not in the cubin's line table: the report is of another build of this kernel")
    joined["line"] = joined["line"].astype(int)
    return joined


def line_map(accesses) -> dict[tuple[int, str, str, int], str]:
    """(line, space, op, width) -> array, from a traced model's sites or the rows of a by-line
    analysis (anything with line, space, op, width and array); refuses ambiguity."""
    out: dict[tuple[int, str, str, int], str] = {}
    for s in accesses:
        key = (s.line, s.space, s.op, s.width)
        if out.setdefault(key, s.array) != s.array:
            raise UsageError(f"line {s.line} has {s.space} {s.op}s of width {s.width} to both {out[key]} and "
                             f"{s.array}: the model cannot attribute them; put them on separate lines")
    return out


def per_array(instructions: pd.DataFrame, mapping: dict[tuple[int, str, str, int], str]) -> pd.DataFrame:
    """Sum the counters by (space, array, op); an instruction the model does not know is an error."""
    keys = list(zip(instructions["line"], instructions["space"], instructions["op"], instructions["width"]))
    unknown = [k for k in keys if k not in mapping]
    if unknown:
        line, space, op, width = unknown[0]
        raise UsageError(f"the SASS has a {width}-byte {space} {op} at line {line} that the prediction does not "
                         "have there; the model no longer mirrors the kernel")
    frame = instructions.assign(array=[mapping[k] for k in keys])
    return frame.groupby(["space", "array", "op"], as_index=False)[list(SOURCE_COLUMNS)].sum()
