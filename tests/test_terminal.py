"""Tables never cut a number: at any width the form `terminal.fit` picks shows every figure whole,
no line is wider than the terminal, and nothing is cropped to `…`; scaled figures say so.
(The commands' tables at 80 and 120 columns, piped and in a terminal, are tested with them.)"""

from __future__ import annotations

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
