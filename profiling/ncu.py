"""The one place that runs Nsight Compute (and the version probes that go into trace metadata).

`profile(problem)` runs `python -m profiling.launch KERNEL M N K BX BY` as a child under

    ncu --clock-control none --cache-control all -k regex:^<entry>$ -c 1
        --metrics <every name of profiling.metrics> --export <tmp>/report --force-overwrite ...

(an argument list, never a shell string), then reads the `.ncu-rep` with NVIDIA's ncu_report,
or, where that module is missing, the CSV of `ncu -i <report> --csv --page raw --print-units base`.
The kernel-name filter keeps CuPy's own kernels (the reference check) out of the measurement.

Every failure is a one-line UsageError: ncu missing, counters not permitted (ERR_NVGPUCTRPERM),
a timeout, the child's correctness check failing, no launch matching the filter.

Limitations: one launch per run (`-c 1`); runs on the first visible GPU.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from profiling import parse
from profiling.launch import MARK_FAIL, MARK_OK
from profiling.metrics import NAMES
from profiling.problem import Problem
from warpsim.errors import UsageError

REPO = Path(__file__).resolve().parent.parent  # the child runs from here, with it on PYTHONPATH
ERR_PERM = "ERR_NVGPUCTRPERM"
NEED_NCU = (
    "ncu (Nsight Compute) not found on PATH: install Nsight Compute (it ships with the CUDA toolkit) "
    "and put its folder on PATH, e.g. export PATH=/opt/nvidia/nsight-compute/2025.3.1:$PATH"
)
NEED_PERM = (
    "ncu may not read the GPU performance counters (ERR_NVGPUCTRPERM): run as root, or load the "
    "driver with NVreg_RestrictProfilingToAdminUsers=0 (modprobe nvidia NVreg_RestrictProfilingToAdminUsers=0)"
)


@dataclass(frozen=True)
class NcuOptions:
    timeout_s: float = 300.0  # whole ncu run, child start-up and all replay passes included
    ncu: str = "ncu"  # executable name or path
    keep_dir: Path | None = None  # also save the .ncu-rep and its raw-page CSV here (parser fixtures)


@dataclass(frozen=True)
class Measurement:
    metrics: dict  # ncu metric name -> int | float | None (n/a)
    units: dict  # ncu metric name -> unit string
    command: list  # the ncu argument list that measured it
    kernel: str  # function name ncu saw


def find_ncu(name: str = "ncu") -> str:
    path = shutil.which(name)
    if path is None:
        raise UsageError(NEED_NCU)
    return path


def ncu_command(ncu: str, problem: Problem, export_base: Path) -> list[str]:
    bx, by = problem.block
    child = [sys.executable, "-m", "profiling.launch", problem.kernel,
             str(problem.M), str(problem.N), str(problem.K), str(bx), str(by)]
    return [
        ncu, "--clock-control", "none", "--cache-control", "all",
        "-k", f"regex:^{problem.spec.entry}$", "-c", "1",
        "--metrics", ",".join(NAMES),
        "--export", str(export_base), "--force-overwrite",
        *child,
    ]


def _child_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return env


def _run(cmd: list[str], timeout_s: float, what: str) -> tuple[int, str]:
    """Run cmd in its own process group; on timeout kill that group (ncu and its child)."""
    try:
        proc = subprocess.Popen(cmd, cwd=REPO, env=_child_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
    except OSError as e:
        raise UsageError(f"cannot start {cmd[0]}: {e.strerror}") from e
    try:
        out, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise UsageError(f"ncu did not finish in {timeout_s:g} s ({what}); raise --timeout or pick smaller sizes")
    return proc.returncode, out


def _last_error(out: str) -> str:
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("==ERROR==")]
    return (errors or lines or ["(no output)"])[-1]


def check_output(problem: Problem, returncode: int, out: str) -> None:
    """Turn what ncu and the child printed into a one-line UsageError, or return if all went well."""
    if ERR_PERM in out:
        raise UsageError(NEED_PERM)
    for line in out.splitlines():
        if MARK_FAIL in line:
            why = line.split(MARK_FAIL, 1)[1].strip()
            raise UsageError(f"{problem} failed its correctness check under ncu, no trace written: {why}")
    if MARK_OK not in out:
        raise UsageError(f"{problem}: the profiled program did not finish (ncu exit {returncode}): {_last_error(out)}")
    if returncode != 0:
        raise UsageError(f"ncu failed on {problem} (exit {returncode}): {_last_error(out)}")


def _export(ncu: str, report: Path, page: list[str], what: str, timeout_s: float) -> str:
    """`ncu -i REPORT <page options>`: one page of a saved report as CSV text."""
    try:
        done = subprocess.run([ncu, "-i", str(report), *page], capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as e:
        raise UsageError(f"ncu did not finish in {timeout_s:g} s (reading {report.name}'s {what})") from e
    if done.returncode != 0:
        raise UsageError(f"ncu could not read {report.name}'s {what} (exit {done.returncode}): "
                         f"{_last_error(done.stdout + done.stderr)}")
    return done.stdout


def export_csv(ncu: str, report: Path, timeout_s: float = 120) -> str:
    """The raw page of a saved report as CSV text, one row per launch."""
    return _export(ncu, report, ["--csv", "--page", "raw", "--print-units", "base"], "raw page", timeout_s)


def _read(ncu: str, report: Path, workdir: Path) -> pd.DataFrame:
    """NVIDIA's ncu_report first (in a child interpreter: see parse.read_ncu_rep), else ncu's own
    CSV export of the raw page; both gave the same numbers for the H200 fixture."""
    if parse.ncu_report_module() is not None:
        try:
            return parse.read_ncu_rep(report)
        except UsageError:
            pass  # the CSV below says what is wrong with the report, if anything
    csv_path = workdir / "report.csv"
    csv_path.write_text(export_csv(ncu, report))
    return parse.read_csv(csv_path)


def profile(problem: Problem, options: NcuOptions = NcuOptions()) -> Measurement:
    """Measure one launch of `problem` under ncu; the child checks its result after the launch."""
    ncu = find_ncu(options.ncu)
    with tempfile.TemporaryDirectory(prefix="warpsim-ncu-") as tmp:
        workdir = Path(tmp)
        cmd = ncu_command(ncu, problem, workdir / "report")
        returncode, out = _run(cmd, options.timeout_s, str(problem))
        check_output(problem, returncode, out)
        report = workdir / "report.ncu-rep"
        if not report.is_file():
            raise UsageError(
                f"ncu wrote no report for {problem}: no launch matched regex:^{problem.spec.entry}$ ({_last_error(out)})"
            )
        frame = _read(ncu, report, workdir)
        if options.keep_dir is not None:
            keep(ncu, report, options.keep_dir, f"{problem.kernel}_M{problem.M}_N{problem.N}_K{problem.K}_b{problem.block_text}")
    if len(frame) != 1 or frame["kernel"].iloc[0] != problem.spec.entry:
        seen = ", ".join(frame["kernel"]) or "none"
        raise UsageError(f"expected one launch of {problem.spec.entry} in the ncu report, found: {seen}")
    metrics = {name: _plain(frame[name].iloc[0]) for name in NAMES}
    return Measurement(metrics, dict(frame.attrs.get("units", {})), cmd, str(frame["kernel"].iloc[0]))


def source_command(ncu: str, problem: Problem, export_base: Path) -> list[str]:
    """The per-instruction run: ncu's SourceCounters section instead of the metric list."""
    cmd = ncu_command(ncu, problem, export_base)
    i = cmd.index("--metrics")
    return cmd[:i] + ["--section", "SourceCounters", "--import-source", "yes"] + cmd[i + 2:]


def export_source_csv(ncu: str, report: Path, timeout_s: float = 120) -> str:
    """The source page of a saved report, one row per SASS instruction."""
    return _export(ncu, report, ["--page", "source", "--csv", "--print-source", "sass"], "source page", timeout_s)


def profile_source(problem: Problem, options: NcuOptions = NcuOptions()) -> tuple[str, list]:
    """Run `problem` once under ncu's SourceCounters section; return (source-page CSV, command)."""
    ncu = find_ncu(options.ncu)
    with tempfile.TemporaryDirectory(prefix="warpsim-ncu-src-") as tmp:
        base = Path(tmp) / "source"
        cmd = source_command(ncu, problem, base)
        returncode, out = _run(cmd, options.timeout_s, f"{problem}, source counters")
        check_output(problem, returncode, out)
        report = base.with_suffix(".ncu-rep")
        if not report.is_file():
            raise UsageError(f"ncu wrote no source-counter report for {problem} ({_last_error(out)})")
        text = export_source_csv(ncu, report)
        if options.keep_dir is not None:
            folder = Path(options.keep_dir)
            folder.mkdir(parents=True, exist_ok=True)
            stem = f"{problem.kernel}_M{problem.M}_N{problem.N}_K{problem.K}_b{problem.block_text}"
            (folder / f"{stem}.source.csv").write_text(text)
    return text, cmd


def _plain(value):
    """numpy scalar -> int | float, NaN -> None (what JSON holds)."""
    return None if pd.isna(value) else value.item() if hasattr(value, "item") else value


def keep(ncu: str, report: Path, folder: Path, stem: str) -> None:
    """Save a report and its raw-page CSV side by side (what tests/fixtures/ncu/ holds)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(report, folder / f"{stem}.ncu-rep")
    (folder / f"{stem}.raw.csv").write_text(export_csv(ncu, report))


def _probe(cmd: list[str]) -> str:
    """First useful output line of a version command, or 'unknown (why)'."""
    if shutil.which(cmd[0]) is None:
        return f"unknown ({cmd[0]} not on PATH)"
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"unknown ({e})"
    return done.stdout.strip() if done.returncode == 0 else f"unknown (exit {done.returncode})"


def probe_versions(ncu: str = "ncu", nvcc: str = "nvcc") -> dict[str, str]:
    """gpu, driver, ncu_version and cuda_version (nvcc's release) of this machine, as strings."""
    smi = _probe(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"])
    gpu, driver = (smi.splitlines()[0].split(",", 1) + ["unknown"])[:2] if not smi.startswith("unknown") else (smi, smi)
    ncu_out = _probe([ncu, "--version"])
    ncu_version = next((line.split("Version", 1)[1].strip() for line in ncu_out.splitlines()
                        if line.startswith("Version")), ncu_out)
    nvcc_out = _probe([nvcc, "--version"])
    cuda_version = next((line.rsplit("release", 1)[1].strip() for line in nvcc_out.splitlines()
                         if "release" in line), nvcc_out)
    return {"gpu": gpu.strip(), "driver": driver.strip(), "ncu_version": ncu_version, "cuda_version": cuda_version}
