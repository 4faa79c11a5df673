"""Traces: what one ncu run measured, kept as JSON under traces/ and committed.

    traces/<kernel>/<kernel>_M{M}_N{N}_K{K}_b{bx}x{by}.json
    {"schema": 1,
     "meta": {gpu, driver, ncu_version, cuda_version, kernel, entry, kernel_sha256,
              block, grid, M, N, K, date (UTC, ISO 8601), command (the ncu argument list)},
     "metrics": {ncu metric name: int | float | null},
     "units": {ncu metric name: unit string},
     "per_instruction": [ncu's source-page row per SASS memory instruction, with its .cu line]}

`units` and `per_instruction` are optional when loading. Files written before the per-array
split was computed on reading also hold `per_array`; it is ignored (`profile compare` attributes
`per_instruction` with the current model). Writing is atomic (warpsim.files) and never replaces
an existing file unless asked to (`--force`).

Where traces are: `--traces-dir`, else the WARPSIM_TRACES environment variable (both read by the
CLI), else `TRACES_DIR`, the checkout's traces/ (a plain `pip install` ships no traces).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from warpsim.errors import UsageError
from warpsim.files import check_out, replacing
from warpsim.toolchain import source_sha256

SCHEMA = 1
TRACES_DIR = Path(__file__).resolve().parent.parent / "traces"
BENCH_DIR_NAME = "bench"  # traces/bench/ holds timing tables, not traces
SCHEDULE_DIR_NAME = "schedule"  # traces/schedule/ holds block-schedule probes (profiling.schedule)
NOT_TRACES = (BENCH_DIR_NAME, SCHEDULE_DIR_NAME)

#: Traces of any kernel (`"kind": "sass"`, written by profiling.batch) name their launch instead
#: of M, N, K: the source, the cubin that ran (kept beside the trace), grid, block, arguments.
SASS_META_TYPES = {
    "gpu": str, "driver": str, "ncu_version": str, "cuda_version": str, "kind": str,
    "kernel": str, "entry": str, "kernel_sha256": str, "source": str, "cubin": str, "cubin_sha256": str,
    "grid": list, "block": list, "args": dict, "id": str, "date": str, "command": list,
}

META_TYPES = {
    "gpu": str, "driver": str, "ncu_version": str, "cuda_version": str,
    "kernel": str, "entry": str, "kernel_sha256": str,
    "block": list, "grid": list, "M": int, "N": int, "K": int,
    "date": str, "command": list,
}


@dataclass
class Trace:
    meta: dict
    metrics: dict  # ncu metric name -> measured value
    units: dict = field(default_factory=dict)
    per_instruction: list = field(default_factory=list)
    path: Path | None = None  # where it was loaded from or written to

    @property
    def kernel(self) -> str:
        return self.meta["kernel"]

    @property
    def is_sass(self) -> bool:
        """A trace of any kernel, predicted from its machine code (profiling.batch)."""
        return self.meta.get("kind") == "sass"

    @property
    def block(self) -> tuple[int, int]:
        return (int(self.meta["block"][0]), int(self.meta["block"][1]))

    @property
    def sizes(self) -> tuple[int, int, int]:
        return (self.meta["M"], self.meta["N"], self.meta["K"])

    def as_json(self) -> dict:
        return {"schema": SCHEMA, "meta": self.meta, "metrics": self.metrics,
                "units": self.units, "per_instruction": self.per_instruction}


def trace_path(root: Path, kernel: str, M: int, N: int, K: int, block: tuple[int, int]) -> Path:
    return Path(root) / kernel / f"{kernel}_M{M}_N{N}_K{K}_b{block[0]}x{block[1]}.json"


def path_of(trace: Trace, root: Path = TRACES_DIR) -> Path:
    return trace_path(root, trace.kernel, *trace.sizes, trace.block)


def refuse_overwrite(path: Path, force: bool) -> None:
    """Refuse an existing `path` without `force`, before anything is measured."""
    if Path(path).exists():
        check_out(path, force, option="output")


def write_json_atomic(path: Path, payload: dict, force: bool = False) -> Path:
    """Write strict JSON (no NaN) to `path` whole or not at all; an existing file is kept unless force.
    The folders of the layout (traces/<kernel>/) are created."""
    path = Path(path)
    with replacing(path, force, make_parents=True) as tmp:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(payload, f, indent=2, sort_keys=False, allow_nan=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
    return path


def write_trace(trace: Trace, root: Path = TRACES_DIR, force: bool = False) -> Path:
    path = write_json_atomic(path_of(trace, root), trace.as_json(), force)
    trace.path = path
    return path


def _malformed(path: Path, why: str) -> UsageError:
    return UsageError(f"{path} is not a warpsim trace: {why}")


def _is_number(value) -> bool:
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)
                             and (not isinstance(value, float) or math.isfinite(value)))


def load_trace(path: Path | str) -> Trace:
    """Read and validate one trace file; a UsageError names what is wrong with it."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise _malformed(path, f"not JSON ({e})") from e
    if not isinstance(data, dict):
        raise _malformed(path, "top level is not an object")
    if data.get("schema") != SCHEMA:
        raise _malformed(path, f"schema is {data.get('schema')!r}, expected {SCHEMA}")
    meta, metrics = data.get("meta"), data.get("metrics")
    if not isinstance(meta, dict) or not isinstance(metrics, dict):
        raise _malformed(path, '"meta" and "metrics" must be objects')
    sass = meta.get("kind") == "sass"
    for key, kind in (SASS_META_TYPES if sass else META_TYPES).items():
        if not isinstance(meta.get(key), kind) or isinstance(meta.get(key), bool):
            raise _malformed(path, f"meta.{key} is missing or not a {kind.__name__}")
    if not sass and (len(meta["block"]) != 2 or not all(isinstance(v, int) for v in meta["block"])):
        raise _malformed(path, "meta.block must be [bx, by]")
    if sass and (len(meta["block"]) != 3 or len(meta["grid"]) != 3):
        raise _malformed(path, "meta.block and meta.grid must be [x, y, z]")
    bad = [name for name, value in metrics.items() if not _is_number(value)]
    if bad:
        raise _malformed(path, f"metric {bad[0]} is not a number")
    units, per_instruction = data.get("units", {}), data.get("per_instruction", [])
    if not isinstance(units, dict) or not isinstance(per_instruction, list):
        raise _malformed(path, '"units" must be an object and "per_instruction" a list')
    return Trace(meta, metrics, units, per_instruction, path)


def find_trace_files(paths: list[Path] | None = None, root: Path = TRACES_DIR) -> list[Path]:
    """Trace files under the given files/folders (default: all of `root`), bench tables left out;
    a file reached twice (given twice, or also inside a given folder) is listed once."""
    found: dict[Path, Path] = {}
    for p in [Path(p) for p in (paths or [root])]:
        if p.is_dir():
            files = sorted(f for f in p.rglob("*.json") if not set(NOT_TRACES) & set(f.relative_to(p).parts[:-1]))
        elif p.is_file():
            files = [p]
        else:
            raise UsageError(f"{p} not found: give trace files or folders (default: {root})")
        for f in files:
            found.setdefault(f.resolve(), f)
    return list(found.values())


def current_sha256(kernel_names) -> dict[str, str]:
    """kernel name -> sha256 of its source now, for the registered kernels among `kernel_names`:
    a trace whose `kernel_sha256` differs is stale."""
    from warpsim import registry

    known = registry.kernels()
    return {name: source_sha256(known[name].cu_path)
            for name in sorted(set(kernel_names)) if name in known and Path(known[name].cu_path).is_file()}
