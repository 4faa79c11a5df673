"""Files are never lost: an existing --out is refused without --force, the extension names the
format (or is refused), a bad target is one line and exit 2, and no folder is created unasked."""

from __future__ import annotations

import subprocess
import sys

import pytest

from profiling.traces import TRACES_DIR
from test_profiling_cli import invoke, one_error_line as one_line_of
from warpsim import files
from warpsim.errors import UsageError

MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".svg": b"<?xml", ".pdf": b"%PDF"}


def warpsim(*args, cwd):
    return subprocess.run([sys.executable, "-m", "warpsim", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def one_error_line(p, needle):
    assert p.returncode == 2, (p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], p.stderr
    assert "Traceback" not in p.stderr


DRAW = ("draw", "naive", "--M", 64, "--array", "A")


# --- the checks, in process ---------------------------------------------------------------------


def test_check_out_names_the_format_of_the_extension(tmp_path):
    for ext, fmt in (("png", "png"), ("SVG", "svg"), ("pdf", "pdf")):
        assert files.check_out(tmp_path / f"x.{ext}", formats=files.FIGURE_FORMATS) == fmt
    for name in ("x.cu", "x.json", "x.jpg", "x"):
        with pytest.raises(UsageError, match="names no format written here; end the name with .png, .svg, .pdf"):
            files.check_out(tmp_path / name, formats=files.FIGURE_FORMATS)


def test_check_out_refuses_what_would_lose_or_misplace_a_file(tmp_path, monkeypatch):
    (tmp_path / "old.png").write_bytes(b"old")
    with pytest.raises(UsageError, match="old.png already exists; pass --force to replace it"):
        files.check_out(tmp_path / "old.png")
    assert files.check_out(tmp_path / "old.png", force=True) is None
    with pytest.raises(UsageError, match="is a folder; name a file in it"):
        files.check_out(tmp_path, force=True)
    with pytest.raises(UsageError, match="the folder .*missing does not exist; create it first"):
        files.check_out(tmp_path / "missing" / "x.png")
    assert not (tmp_path / "missing").exists()
    monkeypatch.setattr(files.os, "access", lambda path, mode: False)  # as a user who may not write there
    with pytest.raises(UsageError, match="is not writable"):
        files.check_out(tmp_path / "new.png")


def test_replacing_keeps_the_old_file_when_writing_fails(tmp_path):
    target = tmp_path / "keep.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with files.replacing(target, force=True) as tmp:
            tmp.write_text("half")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["keep.json"]
    with files.replacing(tmp_path / "new.json") as tmp:
        tmp.write_text("new")
    assert (tmp_path / "new.json").read_text() == "new"
    assert (tmp_path / "new.json").stat().st_mode & 0o044  # readable by others, as open() makes it (umask 022)


def test_without_force_the_last_step_refuses_a_file_that_appeared_meanwhile(tmp_path):
    target = tmp_path / "raced.png"
    with pytest.raises(UsageError, match="already exists"):
        with files.replacing(target) as tmp:
            tmp.write_text("mine")
            target.write_text("someone else's")  # created between the check and the rename
    assert target.read_text() == "someone else's"


# --- warpsim draw, as a user runs it -------------------------------------------------------------


def test_draw_refuses_to_replace_a_source_file(tmp_path):
    pytest.importorskip("matplotlib")
    victim = tmp_path / "victim.cu"
    victim.write_text("__global__ void k() {}\n")
    for extra in ((), ("--force",)):  # not even with --force: .cu names no picture format
        one_error_line(warpsim(*DRAW, "--out", victim, *extra, cwd=tmp_path), ".cu names no format written here")
    assert victim.read_text() == "__global__ void k() {}\n"


@pytest.mark.parametrize("ext", [".png", ".svg", ".pdf"])
def test_draw_writes_the_format_its_extension_names(tmp_path, ext):
    pytest.importorskip("matplotlib")
    out = tmp_path / f"warp{ext}"
    p = warpsim(*DRAW, "--out", out, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes()[:len(MAGIC[ext])] == MAGIC[ext]


def test_draw_needs_force_to_replace_a_picture(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "warp.png"
    out.write_bytes(b"mine")
    one_error_line(warpsim(*DRAW, "--out", out, cwd=tmp_path), "already exists; pass --force to replace it")
    assert out.read_bytes() == b"mine"
    assert warpsim(*DRAW, "--out", out, "--force", cwd=tmp_path).returncode == 0
    assert out.read_bytes()[:8] == MAGIC[".png"]


@pytest.mark.parametrize("target, needle", [
    ("missing/x.png", "the folder missing does not exist; create it first"),
    (".", "is a folder; name a file in it"),
    ("/proc/warpsim-test.png", "cannot write /proc/warpsim-test.png"),  # a folder nothing may be written in
])
def test_draw_bad_targets_are_one_line(tmp_path, target, needle):
    pytest.importorskip("matplotlib")
    one_error_line(warpsim(*DRAW, "--out", target, cwd=tmp_path), needle)
    assert sorted(tmp_path.iterdir()) == []  # no folder made, nothing left behind


# --- profile plot --------------------------------------------------------------------------------


def test_plot_refuses_to_replace_a_trace(tmp_path):
    trace = tmp_path / "naive_M64.json"
    trace.write_text('{"schema": 1}')
    for extra in ((), ("--force",)):
        one_line_of(invoke("plot", "--out", trace, "--traces-dir", TRACES_DIR, *extra), ".json names no format")
    assert trace.read_text() == '{"schema": 1}'


def test_plot_refuses_an_existing_picture_before_comparing_anything(tmp_path):
    out = tmp_path / "plot.svg"
    out.write_text("mine")
    one_line_of(invoke("plot", "--out", out, "--traces-dir", tmp_path / "none"), "already exists; pass --force")
    assert out.read_text() == "mine"
    one_line_of(invoke("plot", "--out", tmp_path / "no" / "plot.png"), "does not exist; create it first")
    assert not (tmp_path / "no").exists()
