"""Tables never cut a number: at any width the form `terminal.fit` picks shows every figure whole,
no line is wider than the terminal, and nothing is cropped to `…`; scaled figures say so."""

from __future__ import annotations

import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import fcntl

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warpsim.terminal import Column, Count, exact, fit, layouts, render, si, width

WORDS = st.text(alphabet="abcdefghij_.", min_size=1, max_size=14)


def figures(form, columns, rows) -> list[str]:
    """The texts the chosen form must show whole: its figures, exact or scaled."""
    scaled = form.note is not None
    return [(si(c) if scaled else exact(c)) if isinstance(c, Count) else str(c)
            for row in rows for c, col in zip(row, columns) if not col.fold and str(c)]


@st.composite
def tables(draw):
    n_text = draw(st.integers(1, 3))
    n_num = draw(st.integers(1, 7))
    fold = draw(st.booleans())
    columns = [Column(f"text {i}", numeric=False) for i in range(n_text)]
    if fold:
        columns.append(Column("source line", numeric=False, fold=True, fold_min=draw(st.integers(5, 30))))
    columns += [Column(f"count {i}") for i in range(n_num)]
    rows = []
    for _ in range(draw(st.integers(1, 10))):
        row = [draw(WORDS) for _ in range(n_text)]
        if fold:
            row.append(" ".join(draw(st.lists(WORDS, min_size=1, max_size=12))))
        row += [Count(draw(st.integers(0, 10**16))) for _ in range(n_num)]
        rows.append(row)
    return columns, rows


@settings(max_examples=150, deadline=None)
@given(tables(), st.integers(20, 260))
def test_the_chosen_form_shows_every_figure_whole(table, columns_wide):
    columns, rows = table
    form, at = fit(layouts("a title", columns, rows), columns_wide)
    text = render(form, at)
    lines = text.splitlines()
    assert "…" not in text
    if form.soft:  # the listing: exact figures, one per line, left to the terminal to wrap
        assert all(f"  {exact(c)}" in text for row in rows for c in row if isinstance(c, Count))
        return
    assert max(len(line) for line in lines) <= columns_wide
    for figure in figures(form, columns, rows):
        assert any(figure in line for line in lines), (figure, text)


def test_si_keeps_three_digits_and_small_counts_exact():
    assert si(68_719_476_736) == "68.7 G"  # the naive kernel's A sectors at 4096^3
    assert si(2_199_023_255_552) == "2.2 T"
    assert si(524_288) == "524 k"
    assert si(9_999) == "9,999"  # short enough to be exact
    assert si(10**16) == "10,000 T"  # past the largest prefix: still no exponent


def test_width_follows_columns_then_the_terminal_then_none():
    assert width("80", isatty=False) == 80  # piped, but COLUMNS says how wide
    assert width(None, isatty=False) is None  # piped: no limit, the widest form
    assert width("abc", isatty=False) is None


def warpsim(*args, columns=None):
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return subprocess.run([sys.executable, "-m", "warpsim", *args], capture_output=True, text=True, env=env)


def exact_counts(kernel, *size):
    doc = json.loads(warpsim("analyze", kernel, *size, "--format", "json").stdout)
    return [(r, k) for r in doc["rows"] for k in ("requests", "sectors", "bytes_requested", "bytes_moved")]


def shows(text: str, value: int) -> bool:
    """The table shows `value` exactly (68,719,476,736) or scaled to three digits (68.7 G)."""
    return exact(value) in text or si(value) in text


@pytest.mark.parametrize("columns", [80, 120, None])  # None: piped without COLUMNS
@pytest.mark.parametrize("kernel", ["naive", "smem"])
def test_analyze_table_fits_without_cutting_a_number(kernel, columns):
    p = warpsim("analyze", kernel, "--M", "4096", columns=columns)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "…" not in p.stdout
    if columns is not None:
        assert max(len(line) for line in lines) <= columns
    for row, key in exact_counts(kernel, "--M", "4096"):
        if row["space"] == "global":
            assert shows(p.stdout, row[key]), (row["array"], row["op"], key)
    if columns is None:  # piped: the exact figures, as before
        assert "68,719,476,736" in p.stdout or kernel != "naive"
    else:  # 80 and 120 columns are too narrow for the 146 the exact table takes
        assert "exact counts: --format json or csv" in " ".join(p.stdout.split())  # the one line, wrapped


def test_by_line_table_fits_at_80_and_120():
    for columns in (80, 120):
        p = warpsim("analyze", "smem", "--M", "1000", "--N", "1030", "--K", "999", "--by-line", columns=columns)
        assert p.returncode == 0 and "…" not in p.stdout
        assert "1,081,344" in p.stdout or "1.08 M" in p.stdout  # instructions of line 21, 33 K-tiles x 32 x 32 warps...
        assert "As[ty * BLOCKSIZE + tx]" in p.stdout  # the source text, wrapped or whole


def test_a_real_terminal_of_80_columns():
    """stdout a terminal (a pty of 80 columns, no COLUMNS): the terminal's width is used."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))
    p = subprocess.Popen([sys.executable, "-m", "warpsim", "analyze", "naive", "--M", "4096"], stdout=follower,
                         stderr=subprocess.PIPE, env=env)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    p.wait(timeout=60)
    os.close(leader)
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.decode())  # rich colours a terminal
    assert p.returncode == 0
    assert max(len(line) for line in text.replace("\r", "").splitlines()) <= 80
    assert "68.7 G" in text and "…" not in text
