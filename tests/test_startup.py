"""Start-up: `warpsim analyze` with its plain options runs without importing typer, rich or
pandas, and gives exactly what the typer command gives, errors included."""

from __future__ import annotations

import subprocess
import sys

import pytest

from warpsim.entry import quick_analyze

QUICK = [
    ("analyze", "naive", "--M", "4096", "--format", "json"),
    ("analyze", "smem", "--M=100", "--N", "70", "--K", "33", "--format", "csv"),
    ("analyze", "naive_coalesced", "--M", "64", "--block", "16x16", "--by-line"),
    ("analyze", "naive", "--M", "50000", "--N", "32", "--K", "50000", "--format", "json"),  # a warning too
    ("analyze", "naive", "--M", "-4"),  # errors are the same one line
    ("analyze", "naive", "--M", "2.5"),
    ("analyze", "nope", "--M", "8"),
    ("analyze", "naive", "--M", "8", "--block", "16x16"),
]


def run(module, args, columns="100"):
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True,
                          env={"PATH": "", "COLUMNS": columns, "PYTHONPATH": ":".join(sys.path)})


@pytest.mark.parametrize("args", QUICK)
def test_the_quick_path_answers_as_typer_does(args):
    assert quick_analyze(list(args)) is not None  # it is taken
    quick, typer_ = run("warpsim", args), run("warpsim.cli", args)  # warpsim.cli is always typer's
    assert (quick.returncode, quick.stdout, quick.stderr) == (typer_.returncode, typer_.stdout, typer_.stderr)


@pytest.mark.parametrize("args", [
    ("analyze", "naive", "--M"),  # no value: typer says so
    ("analyze", "naive"),  # --M missing
    ("analyze", "naive", "--M", "8", "--M", "9"),  # repeated
    ("analyze", "naive", "--M", "8", "--format", "xml"),  # typer names the choices
    ("analyze", "naive", "--M", "8", "--help"),
    ("analyze", "--M", "8", "naive"),  # options first
    ("analyze", "kernels/naive.cu", "--M", "8"),  # not a kernel name (a path: typer's to judge)
    ("analyze", "naive", "--M", "8", "--entry", "k"),  # an option it does not know
    ("list",), (),
])
def test_anything_else_goes_to_typer(args):
    assert quick_analyze(list(args)) is None


def test_json_imports_neither_typer_nor_rich_nor_pandas():
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "warpsim", "analyze", "naive", "--M", "4096",
                        "--format", "json"], capture_output=True, text=True)
    assert p.returncode == 0
    imported = {line.split("|")[-1].strip().split(".")[0] for line in p.stderr.splitlines() if "|" in line}
    assert "numpy" in imported  # the analysis itself
    assert not imported & {"typer", "rich", "pandas", "pydantic", "click"}, imported & {"typer", "rich", "pandas"}
