"""SASS as compiled, as a table: the memory instructions of a cubin with their source lines.

warpsim models each `.cu` access as the compiler emitted it (width, unrolling, predication), and
this module reads those facts off the machine code without a GPU: nvcc compiles for sm_90 on a
CPU machine, and nvdisasm (PyPI wheel `nvidia-cuda-nvdisasm`) disassembles the cubin with the
source line of every instruction. One build path (`warpsim.toolchain`) serves the SASS checks,
the SASS engine and the GPU runs, so what is read here is what ran.

Limitations: widths come from the opcode suffix only (`.U8`/`.S8` 1 B, `.U16`/`.S16` 2 B,
`.64` 8 B, `.128` 16 B, else 4 B); `LDSM` (ldmatrix) is listed with 16 B, the row each lane
addresses. Lines come from `-lineinfo`; code inlined from a `__device__`
function carries the helper's own line, and nvdisasm does not say which call site it was inlined
at (tell the sites apart by `pc`). Whether a guard compiled to a predicate, a branch or an EXIT
is not recorded beyond the `predicated` column: read the listing (`disassemble`) for that.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from warpsim import toolchain

#: SASS opcode (its first dot-separated token) -> the (space, op) pairs one instruction counts
#: as. LDGSTS (cp.async) is both a global load and a shared store, so it yields two rows.
MEMORY_OPCODES: dict[str, tuple[tuple[str, str], ...]] = {
    "LDG": (("global", "load"),),
    "STG": (("global", "store"),),
    "LDS": (("shared", "load"),),
    "LDSM": (("shared", "load"),),
    "STS": (("shared", "store"),),
    "LDGSTS": (("global", "load"), ("shared", "store")),
    "LDL": (("local", "load"),),  # register spills
    "STL": (("local", "store"),),
    "LD": (("generic", "load"),),
    "ST": (("generic", "store"),),
    "ATOMG": (("global", "atomic"),),
    "RED": (("global", "atomic"),),
    "ATOMS": (("shared", "atomic"),),
    "ATOM": (("generic", "atomic"),),
}

#: Opcode suffix -> bytes per lane.
_WIDTH_SUFFIX = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "32": 4, "64": 8, "128": 16}

COLUMNS = ("kernel", "pc", "opcode", "space", "op", "width", "predicated", "predicate", "line",
           "file", "operands")

# nvdisasm --print-line-info writes, before each run of instructions from one source line:
#   //## File "/path/kernels/smem.cu", line 21
# and each instruction as:
#   /*02b0*/              @!P1 LDG.E R27, desc[UR8][R8.64] ;
_LINE_RE = re.compile(r'//## File "(?P<file>[^"]+)", line (?P<line>\d+)')
_SECTION_RE = re.compile(r"^//-+ \.text\.(?P<kernel>\S+)")
_INSTR_RE = re.compile(
    r"/\*(?P<pc>[0-9a-f]+)\*/\s+(?:(?P<pred>@!?U?P(?:T|\d+))\s+)?(?P<opcode>[A-Z][A-Z0-9_.]*)"
    r"(?P<operands>[^;]*);"
)


def access_width(opcode: str) -> int:
    """Bytes per lane of a memory opcode, from its suffixes: `LDG.E.128` -> 16, `STS` -> 4."""
    parts = opcode.split(".")
    if parts[0] == "LDSM":
        return 16  # ldmatrix: each lane addresses one 16-byte row
    widths = [_WIDTH_SUFFIX[p] for p in parts[1:] if p in _WIDTH_SUFFIX]
    return widths[-1] if widths else 4


def parse_memory_instructions(listing: str) -> pd.DataFrame:
    """One row per (memory instruction, space/op) of an nvdisasm listing; pure.

    Columns: kernel, pc (byte offset in the function), opcode (e.g. `LDG.E.128`), space
    (global/shared/local/generic), op (load/store/atomic), width (bytes per lane), predicated,
    predicate (e.g. `@!P0`, "" when none), line and file (the source line), operands.
    """
    rows = []
    kernel, file, line = "", "", -1
    for text in listing.splitlines():
        if m := _SECTION_RE.match(text):
            kernel, file, line = m["kernel"], "", -1
            continue
        if m := _LINE_RE.search(text):
            file, line = m["file"], int(m["line"])
            continue
        m = _INSTR_RE.search(text)
        if not m:
            continue
        opcode = m["opcode"]
        for space, op in MEMORY_OPCODES.get(opcode.split(".")[0], ()):
            rows.append({
                "kernel": kernel, "pc": int(m["pc"], 16), "opcode": opcode, "space": space, "op": op,
                "width": access_width(opcode), "predicated": m["pred"] is not None,
                "predicate": m["pred"] or "", "line": line, "file": file,
                "operands": m["operands"].strip(),
            })
    return pd.DataFrame(rows, columns=list(COLUMNS))


def memory_instructions(cubin: str | Path) -> pd.DataFrame:
    """The memory instructions of a cubin (see `parse_memory_instructions`)."""
    return parse_memory_instructions(toolchain.disassemble(cubin))


def resource_usage(cubin: str | Path) -> pd.DataFrame:
    """Per kernel of a cubin: registers, stack, shared and local bytes (`cuobjdump -res-usage`).

    Shared bytes include the 1 KiB the sm_90 driver reserves per block (ptxas's -v figure + 1024).
    Local or stack bytes above 0 mean register spills.
    """
    rows, kernel = [], None
    for text in toolchain.resource_usage_text(cubin).splitlines():
        if m := re.match(r"\s*Function (\S+):", text):
            kernel = m[1]
        elif kernel and "REG:" in text:
            fields = dict(re.findall(r"(\w+):(\d+)", text))
            rows.append({"kernel": kernel, "registers": int(fields["REG"]), "stack": int(fields["STACK"]),
                         "shared": int(fields["SHARED"]), "local": int(fields["LOCAL"])})
            kernel = None
    return pd.DataFrame(rows, columns=["kernel", "registers", "stack", "shared", "local"])
