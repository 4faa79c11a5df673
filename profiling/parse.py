"""Nsight Compute output -> pandas DataFrame: one row per profiled launch.

Columns: `kernel` (the launch's function name), then every metric of `profiling.metrics.NAMES`
as int64 (counters) or float64 (a metric ncu reported as n/a becomes NaN). `frame.attrs["units"]`
maps each metric to ncu's unit string ("byte", "nsecond", ...; "" for plain counts).

Two readers, both pure `path -> DataFrame`:
- `read_csv`: the text of `ncu --csv --page raw --print-units base` (also `ncu -i R --csv ...`):
  a header row ("ID", "Process ID", ..., "Kernel Name", ..., then one column per metric), a row
  of units (empty under the launch columns), then one row per launch; values are quoted and
  carry thousands separators ("1,024"). Lines ncu or the program print before the header
  (`==PROF== ...`) are skipped.
- `read_ncu_rep`: an `.ncu-rep` through NVIDIA's `ncu_report` module, found in the Nsight Compute
  install's `extras/python` folder (it is proprietary: we depend on it, never copy it).

Limitations: values are taken as ncu prints or stores them (base units); no unit conversion.
"""

from __future__ import annotations

import csv
import glob
import importlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from profiling.metrics import NAMES
from warpsim.errors import UsageError

KERNEL_COLUMN = "Kernel Name"  # ncu's raw-page column holding the function name


def _foreign(path: Path, why: str) -> UsageError:
    return UsageError(f"{path} is not an ncu report/CSV of this project: {why}")


def _numeric(raw: pd.Series) -> pd.Series | None:
    """Numbers of a column ("1,024" -> 1024, "n/a" -> NaN), or None if some value is not a number."""
    if pd.api.types.is_numeric_dtype(raw):
        return raw
    text = raw.astype("string").str.replace(",", "", regex=False).str.strip()
    absent = raw.isna() | text.str.lower().isin(["n/a", ""])
    numbers = pd.to_numeric(text.where(~absent), errors="coerce")  # may be a nullable dtype
    column = pd.Series(numbers.to_numpy(dtype="float64", na_value=np.nan), index=raw.index)
    return None if (column.isna() & ~absent).any() else column


def _first_non_numeric(raw: pd.Series) -> str:
    for value in raw.astype(str):
        if pd.isna(pd.to_numeric(value.replace(",", ""), errors="coerce")) and value.strip().lower() not in ("n/a", ""):
            return value
    return ""


def _finish(path: Path, rows: pd.DataFrame, units: dict[str, str], names=NAMES) -> pd.DataFrame:
    """Keep kernel + the table's metrics, counters as int64 where every value is integral."""
    missing = [name for name in names if name not in rows.columns]
    if missing:
        raise _foreign(path, f"{len(missing)} of {len(names)} metrics missing, e.g. {missing[0]}")
    if rows.empty:
        raise _foreign(path, "it holds no profiled launch")
    frame = pd.DataFrame({"kernel": rows["kernel"].astype(str).to_numpy()})
    for name in names:
        column = _numeric(rows[name])
        if column is None:
            raise _foreign(path, f"{name} has non-numeric values such as {_first_non_numeric(rows[name])!r}")
        if column.notna().all() and (column == column.round()).all():
            column = column.astype("int64")
        frame[name] = column.to_numpy()
    frame.attrs["units"] = {name: units.get(name, "") for name in names}
    return frame


def read_csv(path: Path | str, names=NAMES) -> pd.DataFrame:
    """Parse `ncu --csv --page raw --print-units base` output (see the module docstring)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from e
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID",')), None)
    if start is None:
        raise _foreign(path, 'no raw-page header row starting with "ID"')
    body = "\n".join(lines[start:]) + "\n"
    try:
        head = list(csv.reader(io.StringIO(body)))[:2]
    except csv.Error as e:
        raise _foreign(path, f"bad CSV ({e})") from e
    header = head[0]
    if KERNEL_COLUMN not in header:
        raise _foreign(path, f'no "{KERNEL_COLUMN}" column (is this --page details instead of --page raw?)')
    has_units = len(head) > 1 and head[1][:1] == [""]  # the units row is empty under "ID"
    units = dict(zip(header, head[1])) if has_units else {}
    try:
        rows = pd.read_csv(io.StringIO(body), thousands=",", skiprows=[1] if has_units else None,
                           dtype={KERNEL_COLUMN: str})
    except (pd.errors.ParserError, ValueError) as e:
        raise _foreign(path, f"bad CSV ({str(e).splitlines()[0]})") from e
    rows = rows.rename(columns={KERNEL_COLUMN: "kernel"})
    return _finish(path, rows, units, names)


def ncu_report_dirs() -> list[Path]:
    """Folders that may hold ncu_report.py: beside the ncu on PATH first, then known installs."""
    found: list[Path] = []
    exe = shutil.which("ncu")
    if exe:
        for base in (Path(exe), Path(exe).resolve()):
            found += [parent / "extras" / "python" for parent in base.parents[:3]]
    patterns = ("/opt/nvidia/nsight-compute/*/extras/python", "/usr/local/cuda*/nsight-compute*/extras/python")
    for pattern in patterns:
        found += [Path(p) for p in sorted(glob.glob(pattern), reverse=True)]  # newest version first
    return [d for d in dict.fromkeys(found) if (d / "ncu_report.py").is_file()]


def ncu_report_module():
    """NVIDIA's ncu_report module, or None when no Nsight Compute install provides it."""
    try:
        return importlib.import_module("ncu_report")
    except ImportError:
        pass
    for folder in ncu_report_dirs():
        sys.path.insert(0, str(folder))  # ncu_report.py imports its _ncu_report binary from beside it
        try:
            return importlib.import_module("ncu_report")
        except ImportError:
            sys.path.remove(str(folder))
    return None


def _metric_value(metric):
    """An IMetric's value: int for integer kinds, float for floating kinds."""
    kinds = type(metric)
    if metric.kind() in (getattr(kinds, "ValueKind_UINT64", None), getattr(kinds, "ValueKind_UINT32", None)):
        return int(metric.as_uint64())
    if metric.kind() in (getattr(kinds, "ValueKind_DOUBLE", None), getattr(kinds, "ValueKind_FLOAT", None)):
        return float(metric.as_double())
    return metric.value()


def read_ncu_rep(path: Path | str, module=None) -> pd.DataFrame:
    """Read an `.ncu-rep` with NVIDIA's ncu_report (`module` is for tests; None finds the real one).

    The real module is run in a child interpreter: on the H200 machine (Python 3.12, ncu 2025.3.1)
    its IMetric.unit() crashed the interpreter with a segmentation fault (no longer called), and a
    native crash must not take the caller (or a half-written trace) down with it."""
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"{path} not found")
    if module is not None:
        return _read_ncu_rep_here(path, module)
    if ncu_report_module() is None:
        raise UsageError(
            f"cannot read {path.name}: NVIDIA's ncu_report module was not found; install Nsight Compute "
            "(its extras/python folder holds it) or read the CSV from `ncu -i REPORT --csv --page raw`"
        )
    code = ("import json, sys; from profiling.parse import _read_ncu_rep_here; "
            "f = _read_ncu_rep_here(sys.argv[1]); "
            "print(json.dumps({'rows': f.to_dict('records'), 'units': f.attrs.get('units', {})}))")
    try:
        done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parent.parent),
                                                                               os.environ.get("PYTHONPATH", "")])})
    except subprocess.TimeoutExpired as e:
        raise _foreign(path, "ncu_report did not finish reading it in 300 s") from e
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        if last.startswith("warpsim.errors.UsageError: "):
            raise UsageError(last.split(": ", 1)[1])
        raise UsageError(f"NVIDIA's ncu_report could not read {path.name} ({'signal ' + str(-done.returncode) if done.returncode < 0 else last}); "
                         "read the CSV of `ncu -i REPORT --csv --page raw --print-units base` instead")
    doc = json.loads(done.stdout.strip().splitlines()[-1])
    rows = pd.DataFrame(doc["rows"], columns=["kernel", *NAMES])
    return _finish(path, rows, doc["units"])


def _read_ncu_rep_here(path: Path | str, module=None) -> pd.DataFrame:
    """read_ncu_rep in this interpreter."""
    path = Path(path)
    module = module or ncu_report_module()
    if module is None:
        raise UsageError(
            f"cannot read {path.name}: NVIDIA's ncu_report module was not found; install Nsight Compute "
            "(its extras/python folder holds it) or read the CSV from `ncu -i REPORT --csv --page raw`"
        )
    try:
        context = module.load_report(str(path))
        actions = [context.range_by_idx(r).action_by_idx(a)
                   for r in range(context.num_ranges())
                   for a in range(context.range_by_idx(r).num_actions())]
    except Exception as e:  # ncu_report raises plain exceptions on files it cannot read
        raise _foreign(path, f"ncu_report cannot load it ({e})") from e
    records, units = [], {}
    for action in actions:
        record = {"kernel": action.name()}
        for name in NAMES:
            metric = action.metric_by_name(name)
            record[name] = None if metric is None else _metric_value(metric)
            # IMetric.unit() is not called: in ncu 2025.3.1 on the H200 it crashed Python with a
            # segmentation fault (ncu_report.py line 2206, seen with -X faulthandler); the raw-page
            # CSV carries the units.
        records.append(record)
    rows = pd.DataFrame(records, columns=["kernel", *NAMES])
    if not rows.empty and rows[list(NAMES)].isna().all().all():
        raise _foreign(path, "none of the project's metrics were collected")
    return _finish(path, rows, units)
