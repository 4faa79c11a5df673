"""The conventions of the field, for both command lines: --version, -h, a bare command's help,
a quiet broken pipe, help for every option, strict JSON with a schema, one block form, CSV
columns that are the JSON's names, and bad numbers refused in one line."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import pytest
import typer

from profiling.cli import app as profile_app
from profiling.traces import TRACES_DIR
from warpsim import __version__
from warpsim.cli import app as warpsim_app

CLIS = {"warpsim": ["-m", "warpsim"], "profile": ["-m", "profiling.cli"]}
NAIVE = TRACES_DIR / "naive"  # four traces: what the output conventions need (all 585 take minutes)


def run(cli, *args, stdout=subprocess.PIPE):
    return subprocess.run([sys.executable, *CLIS[cli], *map(str, args)], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=120)


def strict_json(text: str):
    """json.loads that refuses NaN and Infinity, as a strict parser does."""
    def refuse(name):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("cli", CLIS)
def test_version(cli):
    p = run(cli, "--version")
    assert p.returncode == 0 and p.stdout.strip().endswith(__version__) and p.stderr == ""


@pytest.mark.parametrize("cli, args", [("warpsim", ()), ("warpsim", ("analyze",)), ("warpsim", ("draw",)),
                                       ("profile", ()), ("profile", ("compare",)), ("profile", ("run",))])
def test_dash_h_is_help(cli, args):
    p = run(cli, *args, "-h")
    assert p.returncode == 0 and "Usage:" in p.stdout and p.stderr == ""


@pytest.mark.parametrize("cli", CLIS)
def test_a_bare_command_prints_its_help_and_no_error(cli):
    p = run(cli)
    assert p.returncode == 0 and "Usage:" in p.stdout and "Commands" in p.stdout
    assert "error" not in p.stderr


@pytest.mark.parametrize("cli, args", [
    ("warpsim", ("analyze", "naive", "--M", "64")),  # the typer-free path (warpsim.entry), rich's table
    ("warpsim", ("analyze", "naive", "--M", "64", "--format", "json")),  # print(), no rich
    ("warpsim", ("list",)),  # through typer
    ("profile", ("compare", "--traces-dir", str(NAIVE))),
])
def test_a_broken_pipe_ends_quietly(cli, args):
    """The reader is gone before the first write (`... | head -0`): no traceback, no message,
    exit status 1 (what Python's documentation advises, and rich and typer do)."""
    read, write = os.pipe()
    os.close(read)
    p = run(cli, *args, stdout=write)
    os.close(write)
    assert p.stderr == "" and p.returncode == 1


def every_option(app):
    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        for param in command.params:
            yield name, param


@pytest.mark.parametrize("app", [warpsim_app, profile_app], ids=["warpsim", "profile"])
def test_every_option_and_argument_has_help(app):
    missing = [f"{name} {p.opts or p.name}" for name, p in every_option(app) if not (getattr(p, "help", None) or "").strip()]
    assert missing == []


def test_roofline_csv_is_the_json_as_one_row():
    as_json = strict_json(run("warpsim", "roofline", "naive", "--M", 4096, "--format", "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run("warpsim", "roofline", "naive", "--M", 4096, "--format", "csv").stdout)))
    assert len(rows) == 1 and list(rows[0]) == list(as_json)
    assert rows[0]["flops"] == str(2 * 4096**3) and rows[0]["kernel"] == "naive"


def test_analyze_json_is_strict_has_a_schema_and_csv_has_its_names():
    doc = strict_json(run("warpsim", "analyze", "smem", "--M", 100, "--format", "json").stdout)
    assert doc["schema"] == 1
    assert doc["block"] == "32x32" and doc["grid"] == "4x4"  # BXxBY, as --block takes it
    text = run("warpsim", "analyze", "smem", "--M", 100, "--format", "csv").stdout
    header = text.splitlines()[0].split(",")
    launch = [k for k in doc if k not in ("schema", "rows", "warnings")]
    assert header == launch + list(doc["rows"][0])  # the launch's names, then the rows'
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(doc["rows"]) and rows[0]["block"] == "32x32"
    for row, jrow in zip(rows, doc["rows"]):
        assert all(row[k] == str(v) for k, v in jrow.items())


def test_every_json_output_is_strict():
    for cli, args in [("warpsim", ("analyze", "naive", "--M", 50000, "--N", 32, "--K", 50000, "--format", "json",
                                   "--engine", "model")),
                      ("warpsim", ("roofline", "naive", "--M", 64, "--format", "json", "--peak-tflops", 1e-9)),
                      ("profile", ("compare", "--format", "json", "--traces-dir", str(NAIVE)))]:
        p = run(cli, *args)
        assert p.returncode == 0, p.stderr
        strict_json(p.stdout)


@pytest.mark.parametrize("cli, args, needle", [
    ("warpsim", ("roofline", "naive", "--M", 64, "--bandwidth-gbs", "inf"),
     "--bandwidth-gbs must be a positive, finite number, got inf"),
    ("warpsim", ("roofline", "naive", "--M", 64, "--peak-tflops", "nan"), "--peak-tflops must be a positive, finite"),
    ("profile", ("run", "naive", "--M", 64, "--timeout", -1), "--timeout must be a positive number of seconds, got -1"),
    ("profile", ("run", "naive", "--M", 64, "--timeout", "inf"), "--timeout must be a positive number of seconds"),
    ("profile", ("bench", "naive", "--N", 0), "N must be at least 1, got 0"),
    ("profile", ("bench", "naive", "--M", 64, "--K", -5), "K must be at least 1, got -5"),
    ("profile", ("bench", "naive", "--M", 64, "--warmup", -1), "--warmup -1"),
    ("profile", ("run", "naive", "--M", 64, "--dynamic-shared", 1024), "--dynamic-shared is for a .cu/.cubin launch"),
])
def test_bad_numbers_are_refused_in_one_line(cli, args, needle):
    p = run(cli, *args)
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], p.stderr


def test_the_worst_access_names_every_equal_one_and_bank_conflicts():
    naive = run("warpsim", "analyze", "naive", "--M", 4096).stdout
    # A walks 32 rows K*4 B apart, C 32 rows N*4 B apart: both 32 sectors where 4 would do
    assert "A load, C load and C store: 32 sectors per request where 4 would do: 8x the bytes." in " ".join(naive.split())
    warptile = " ".join(run("warpsim", "analyze", "warptile", "--M", 4096).stdout.split())
    # warptile's global accesses are all coalesced; its A transpose store conflicts 4 ways
    assert "shared A store: 4 wavefronts per request where 1 would do (bank conflicts): 4x the cycles." in warptile


def test_a_scalar_argument_named_as_an_output_key_keeps_its_value_beside_it():
    # spmv_csr(int rows, ...) at 97 rows: its argument `rows` would hide the JSON's row list (or the
    # list the argument), and --caches' CSV has a column `array` beside each row's: the argument is
    # written arg.rows, the rows stay a list, and CSV and JSON carry the same names
    from warpsim.counts import RESERVED
    from warpsim.caches.model import FIELDS

    assert set(FIELDS) <= RESERVED and {"rows", "width", "block", "grid", "kernel"} <= RESERVED
    source = TRACES_DIR.parent / "kernels" / "sparse.cu"
    args = ["analyze", source, "--entry", "spmv_csr", "--grid", "cdiv(rows,256)", "--block", 256, "--arg", "rows=97",
            "--arg", "row_ptr=int[rows+1]=(13*i)//2", "--arg", "col=int[(13*rows)//2]=(i//7+(i%7)*5)%rows",
            "--arg", "val=float[(13*rows)//2]", "--arg", "x=float[rows]", "--arg", "y=float[rows]"]
    doc = strict_json(run("warpsim", *args, "--format", "json").stdout)
    assert doc["arg.rows"] == 97 and isinstance(doc["rows"], list) and doc["rows"][0]["space"] == "global"
    header = run("warpsim", *args, "--format", "csv").stdout.splitlines()[0].split(",")
    assert header[:4] == ["kernel", "arg.rows", "block", "grid"] and header.count("array") == 1
