"""SASS as compiled: build a kernel's cubin with nvcc and list its memory instructions.

warpsim models each `.cu` access as the compiler emitted it (width, unrolling, predication), and
this module reads those facts off the machine code without a GPU: nvcc compiles for sm_90 on a
CPU machine, and nvdisasm (PyPI wheel `nvidia-cuda-nvdisasm`) disassembles the cubin with the
source line of every instruction. One build path (`NVCC_FLAGS`) serves the SASS checks and the
GPU runs, so what is read here is what ran.

Limitations: widths come from the opcode suffix only (`.U8`/`.S8` 1 B, `.U16`/`.S16` 2 B,
`.64` 8 B, `.128` 16 B, else 4 B); `LDSM` (ldmatrix) is listed with 16 B, the row each lane
addresses. The cache key is the `.cu` file's bytes and the flags: a header it `#include`s is not
hashed, nor is the nvcc version. Lines come from `-lineinfo`; code inlined from a `__device__`
function carries the helper's own line, and nvdisasm does not say which call site it was inlined
at (tell the sites apart by `pc`). Whether a guard compiled to a predicate, a branch or an EXIT
is not recorded beyond the `predicated` column: read the listing (`disassemble`) for that.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd

from warpsim.errors import UsageError

#: The one nvcc command line for the ladder: the same as `profiling.build`'s default build, so the
#: SASS read here is the machine code that ran (a test keeps the two in step).
ARCH = "sm_90"
FLAGS = ("-O3", "-lineinfo")
NVCC_FLAGS = (f"-arch={ARCH}", *FLAGS, "-cubin")

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


def find_nvcc() -> Path:
    """nvcc on PATH, else the default toolkit install; a UsageError when there is none."""
    found = shutil.which("nvcc")
    if found:
        return Path(found)
    default = Path("/usr/local/cuda/bin/nvcc")
    if default.exists():
        return default
    raise UsageError("nvcc not found: install the CUDA toolkit (13.0) and put its bin/ on PATH to compile kernels")


def find_tool(name: str) -> Path:
    """`cuobjdump` or `nvdisasm`: on PATH, else in the `nvidia/cu13/bin` folder of its PyPI wheel."""
    found = shutil.which(name)
    if found:
        return Path(found)
    try:
        import nvidia  # namespace package of the nvidia-cuda-* wheels
    except ImportError:
        nvidia = None
    for root in getattr(nvidia, "__path__", []):
        for candidate in sorted(Path(root).glob(f"cu*/bin/{name}")):
            return candidate
    raise UsageError(f"{name} not found: pip install nvidia-cuda-{name} (or put the CUDA toolkit's bin/ on PATH)")


def cubin_name(cu_path: str | Path) -> str:
    """`<stem>-<16 hex digits>.cubin`: sha256 of the source bytes and the flags, as `profiling.build` names it."""
    key = hashlib.sha256(Path(cu_path).read_bytes())
    key.update("\0".join([ARCH, *FLAGS]).encode())
    return f"{Path(cu_path).stem}-{key.hexdigest()[:16]}.cubin"


def compile_cubin(cu_path: str | Path, out_dir: str | Path) -> Path:
    """Compile `cu_path` with `NVCC_FLAGS` into `out_dir`, unless its cubin is already there.

    Returns the cubin's path, `out_dir/cubin_name(cu_path)`; with out_dir = build/cubin it shares
    `profiling.build`'s cache.
    """
    cu_path = Path(cu_path)
    if not cu_path.is_file():
        raise UsageError(f"no CUDA source at {cu_path}")
    out_dir = Path(out_dir)
    cubin = out_dir / cubin_name(cu_path)
    if cubin.exists():
        return cubin
    nvcc = find_nvcc()
    out_dir.mkdir(parents=True, exist_ok=True)
    partial = cubin.with_suffix(".partial")
    result = subprocess.run(
        [str(nvcc), *NVCC_FLAGS, "-o", str(partial), str(cu_path)], capture_output=True, text=True
    )
    if result.returncode != 0:
        errors = [ln for ln in result.stderr.splitlines() if "error" in ln] or result.stderr.splitlines() or ["?"]
        raise UsageError(f"nvcc failed on {cu_path.name}: {errors[0].strip()}")
    partial.replace(cubin)  # atomic: a concurrent reader never sees half a cubin
    return cubin


def disassemble(cubin: str | Path) -> str:
    """nvdisasm's listing of the cubin's code sections, each instruction under its source line."""
    result = subprocess.run(
        [str(find_tool("nvdisasm")), "--print-line-info", "--print-code", str(cubin)],
        capture_output=True, text=True,
    )
    if result.returncode != 0:
        raise UsageError(f"nvdisasm failed on {Path(cubin).name}: {result.stderr.strip().splitlines()[:1]}")
    return result.stdout


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
    return parse_memory_instructions(disassemble(cubin))


def resource_usage(cubin: str | Path) -> pd.DataFrame:
    """Per kernel of a cubin: registers, stack, shared and local bytes (`cuobjdump -res-usage`).

    Shared bytes include the 1 KiB the sm_90 driver reserves per block (ptxas's -v figure + 1024).
    Local or stack bytes above 0 mean register spills.
    """
    result = subprocess.run(
        [str(find_tool("cuobjdump")), "--dump-resource-usage", str(cubin)], capture_output=True, text=True
    )
    if result.returncode != 0:
        raise UsageError(f"cuobjdump failed on {Path(cubin).name}: {result.stderr.strip().splitlines()[:1]}")
    rows, kernel = [], None
    for text in result.stdout.splitlines():
        if m := re.match(r"\s*Function (\S+):", text):
            kernel = m[1]
        elif kernel and "REG:" in text:
            fields = dict(re.findall(r"(\w+):(\d+)", text))
            rows.append({"kernel": kernel, "registers": int(fields["REG"]), "stack": int(fields["STACK"]),
                         "shared": int(fields["SHARED"]), "local": int(fields["LOCAL"])})
            kernel = None
    return pd.DataFrame(rows, columns=["kernel", "registers", "stack", "shared", "local"])
