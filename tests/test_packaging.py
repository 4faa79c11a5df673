"""A plain install works: the wheel's layout (kernel sources inside the package, no checkout
around it) analyses line by line and finds traces through --traces-dir or WARPSIM_TRACES.
(.ci/run builds the real wheel, installs it in a fresh environment and runs the same commands.)"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from setuptools import find_packages

from profiling.traces import TRACES_DIR
from test_profiling_cli import _trace_on_disk, invoke
from warpsim import registry

ROOT = Path(__file__).resolve().parents[1]


def test_the_listed_packages_are_all_there_are():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = find_packages(str(ROOT), include=["warpsim*", "profiling*"])
    assert sorted(setuptools["packages"]) == sorted(found + ["warpsim.kernels"])
    assert setuptools["package-dir"] == {"warpsim.kernels": "kernels"}  # the top-level folder, shipped


def test_every_registered_kernel_has_its_source():
    for spec in registry.kernels().values():
        assert spec.cu_path.is_file() and spec.cu_path.parent == registry.KERNEL_DIR


def installed_copy(tmp_path) -> Path:
    """site/warpsim, site/warpsim/kernels/*.cu and site/profiling, as the wheel lays them out."""
    site = tmp_path / "site"
    for package in ("warpsim", "profiling"):
        shutil.copytree(ROOT / package, site / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "kernels", site / "warpsim" / "kernels")
    return site


def test_the_installed_layout_runs_outside_the_checkout(tmp_path):
    site, elsewhere = installed_copy(tmp_path), tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(site), "HOME": str(tmp_path)}  # gcc: nvcc's host compiler

    def run(*args, **extra):
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=elsewhere,
                              env={**env, **extra}, timeout=300)

    where = run("-c", "from warpsim import registry, toolchain; "
                      "print(registry.KERNEL_DIR); print(toolchain.BuildOptions().cubin_dir)").stdout.split()
    assert where[0] == str(site / "warpsim" / "kernels")
    assert where[1] == str(tmp_path / ".cache" / "warpsim" / "cubin")  # not inside site-packages
    lines = run("-m", "warpsim", "analyze", "smem", "--M", "100", "--by-line", COLUMNS="200")
    assert lines.returncode == 0, lines.stderr
    assert "As[ty * BLOCKSIZE + tx]" in lines.stdout  # read from the packaged smem.cu
    lost = run("-m", "profiling.cli", "compare", "--strict")
    assert lost.returncode == 2 and "does not exist: give trace files or folders, --traces-dir, or set " \
        "WARPSIM_TRACES (a plain install ships no traces)" in lost.stderr  # says where to look
    # A folder laid out as traces/ is, small enough to replay in seconds on CI's two cores (all
    # 741 traces take about five minutes; .ci/run's wheel step compares every one of them):
    # hand-model traces, machine-code traces with their cubins, and the timing and schedule
    # folders that are not traces and must be passed over.
    mine = tmp_path / "my-traces"
    for part in ("naive", "sass/transpose", "bench", "schedule"):
        shutil.copytree(TRACES_DIR / part, mine / part)
    found = run("-m", "profiling.cli", "compare", "--strict", "--format", "csv", WARPSIM_TRACES=str(mine))
    assert found.returncode == 0, found.stderr[-500:]
    n_traces = len([p for p in mine.rglob("*.json") if p.parent.name not in ("bench", "schedule")])
    assert n_traces == 4 + 9  # naive's four sizes; three transpose kernels at three sizes each
    summary = re.search(r"(\d+)/(\d+) exact \((\d+) traces\)", found.stderr)
    assert summary and summary[1] == summary[2] and int(summary[3]) == n_traces  # every trace, all exact
    given = run("-m", "profiling.cli", "compare", "--strict", "--traces-dir", str(TRACES_DIR / "naive"))
    assert given.returncode == 0 and "72/72 exact (4 traces)" in given.stdout


def test_warpsim_traces_names_the_default_folder(tmp_path):
    _trace_on_disk(tmp_path)
    result = invoke("compare", env={"WARPSIM_TRACES": str(tmp_path)})
    assert result.exit_code == 0 and "10/10 exact (1 traces)" in result.stdout
