"""Tables that fit the terminal without cutting a number.

A table is given once, as columns and rows whose count cells are `Count`s; `layouts` offers it
in up to four forms, widest first: every column with exact figures; every column with figures
scaled to three significant digits (68.7 G); one row per quantity (the table turned on its
side, for tables of a few rows); and a listing, a few short lines per row, that needs no width.
`fit` keeps the first form whose columns all get their full width at the width there is.
(Given less, rich squeezes every column and crops numbers to `2,14…`.) Only text columns marked
`fold` (source lines, metric names) may wrap onto more lines, down to their `fold_min` columns.

A scaled form says so in one line under it, with how to get the exact figures.

The width is the caller's to find (`width`: COLUMNS when set, else the terminal's, else none
when the output is piped or redirected: then the widest form is printed at its own width).

Limitations: widths are counted in characters, right for the ASCII this project prints; a
folded text cell with wide (East Asian) characters may take more columns than counted.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

SI = ((10**12, "T"), (10**9, "G"), (10**6, "M"), (10**3, "k"))
SCALED_NOTE = ("figures rounded to 3 digits (k = 10^3, M = 10^6, G = 10^9, T = 10^12); "
               "exact counts: --format json or csv, or a wider terminal")


class Count(int):
    """An integer cell: exact with thousands separators, or scaled where space is short."""


def exact(n: int) -> str:
    return f"{n:,}"


def si(n: int) -> str:
    """A count to three significant digits with a decimal SI prefix: 68,719,476,736 -> '68.7 G'.
    Below 10,000 the count is exact (it is short enough)."""
    if abs(n) < 10_000:
        return exact(n)
    for scale, prefix in SI:
        if abs(n) >= scale:
            v = n / scale
            return f"{v:,.0f} {prefix}" if abs(v) >= 1000 else f"{v:.3g} {prefix}"
    return exact(n)  # not reached: 10,000 is past the smallest scale


@dataclass(frozen=True)
class Column:
    name: str
    numeric: bool = True  # right-justified, never wrapped
    fold: bool = False  # text that may wrap onto more lines (source lines, long metric names)
    fold_min: int = 10  # columns the folding columns of a form need, each, for the form to be chosen


@dataclass(frozen=True)
class Layout:
    renderable: object  # what rich prints
    need: int  # columns it takes with every figure whole (folding columns at their fold_min); 0: any width
    natural: int  # columns it takes with nothing folded
    note: str | None = None  # one line printed under it
    soft: bool = False  # printed without rich's wrapping (the listing: the terminal wraps it)


def _text(cell, scaled: bool) -> str:
    if isinstance(cell, Count):
        return si(cell) if scaled else exact(cell)
    return "" if cell is None else str(cell)


def _table_width(widths: list[int]) -> int:
    """A rich Table's width for these column widths: one space of padding each side, and a
    border line before every column and after the last."""
    return sum(w + 2 for w in widths) + len(widths) + 1


def _any_scaled(rows) -> bool:
    return any(isinstance(c, Count) and si(c) != exact(c) for row in rows for c in row)


def grid(title: str, columns: list[Column], rows: list[list], scaled: bool, sections: tuple[int, ...] = (),
         bold_last: bool = False, caption: str | None = None) -> Layout:
    """The table with every column: figures exact, or `scaled` to three digits. A header longer
    than its column's cells is split at its spaces and slashes ("bytes\\nmoved")."""
    from rich.table import Table
    from rich.text import Text

    texts = [[_text(c, scaled) for c in row] for row in rows]
    t = Table(title=title, caption=caption)
    need, natural = [], []
    for j, c in enumerate(columns):
        widest = max((len(r[j]) for r in texts), default=0)
        header = _split(c.name) if len(c.name) > widest and not c.fold else c.name
        full = max(widest, *(len(part) for part in header.split("\n")))
        natural.append(full)
        need.append(min(full, c.fold_min) if c.fold else full)
        # No min_width for rich: it squeezes the widest folding columns first and then raises
        # any below its min_width again, past the console's width. `need` keeps the room.
        t.add_column(header, justify="right" if c.numeric else "left", no_wrap=not c.fold, overflow="fold")
    for i, cells in enumerate(texts):
        if i in sections:
            t.add_section()
        t.add_row(*[Text(s) for s in cells], style="bold" if bold_last and i == len(rows) - 1 else None)
    return Layout(t, _table_width(need), _table_width(natural), SCALED_NOTE if scaled and _any_scaled(rows) else None)


def _split(name: str) -> str:
    """A header on several lines, broken at spaces and before slashes: 'sectors/req' -> 'sectors\n/req'."""
    return name.replace(" ", "\n").replace("/", "\n/")


def _label(columns, row) -> str:
    return " ".join(_text(c, False) for c, col in zip(row, columns) if not col.numeric and _text(c, False))


def sideways(title: str, columns: list[Column], rows: list[list], caption: str | None = None) -> Layout:
    """One row per numeric column, one column per row (headed by the row's text cells), scaled."""
    from rich.table import Table

    numeric = [j for j, c in enumerate(columns) if c.numeric]
    heads = [_label(columns, row) or "-" for row in rows]
    body = [[columns[j].name] + [_text(row[j], True) for row in rows] for j in numeric]
    t = Table(title=title, caption=caption)
    t.add_column("")
    for head in heads:
        t.add_column(head, justify="right", no_wrap=True)
    for line in body:
        t.add_row(*line)
    widths = [max([len(h)] + [len(line[k]) for line in body]) for k, h in enumerate([""] + heads)]
    width = _table_width(widths)
    return Layout(t, width, width, SCALED_NOTE if _any_scaled(rows) else None)


def listing(title: str, columns: list[Column], rows: list[list], caption: str | None = None,
            heads: int | None = None) -> Layout:
    """Per row: a line of its text cells (or of its first `heads` cells), then one indented
    `name  value` line per other cell that is not empty."""
    from rich.text import Text

    def is_head(j: int, c: Column) -> bool:
        return j < heads if heads is not None else not c.numeric

    names = [c.name for j, c in enumerate(columns) if not is_head(j, c)]
    pad = max((len(n) for n in names), default=0)
    lines = [title] if title else []
    for row in rows:
        lines.append(" ".join(t for j, c in enumerate(columns) if is_head(j, c) and (t := _text(row[j], False))))
        for j, c in enumerate(columns):
            if not is_head(j, c) and _text(row[j], False):
                lines.append(f"  {c.name:<{pad}}  {_text(row[j], False)}")
    if caption:
        lines.append(caption)
    return Layout(Text("\n".join(lines)), 0, max((len(s) for s in lines), default=0), soft=True)


def layouts(title: str, columns: list[Column], rows: list[list], *, sections: tuple[int, ...] = (),
            bold_last: bool = False, caption: str | None = None, turn: bool = True) -> list[Layout]:
    """The table's forms, widest first (see the module docstring). `sections`: row indices that
    start a new section; `turn=False` leaves out the turned form (for long tables)."""
    forms = [grid(title, columns, rows, False, sections, bold_last, caption),
             grid(title, columns, rows, True, sections, bold_last, caption)]
    if turn and len(rows) <= 8:
        forms.append(sideways(title, columns, rows, caption))
    forms.append(listing(title, columns, rows, caption))
    return forms


def render(form: Layout, width: int) -> str:
    """The plain text `form` prints as at `width` columns (for tests and for checking a form)."""
    import io

    from rich.console import Console

    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False,
                      legacy_windows=False, highlight=False)
    console.print(form.renderable, soft_wrap=form.soft)
    return console.file.getvalue()


def fit(forms: list[Layout], width: int | None) -> tuple[Layout, int]:
    """The first form that fits `width` (None: no limit, the first form at its natural width),
    and the width to print it at. The last form (the listing) always fits."""
    if width is None:
        return forms[0], forms[0].natural
    for form in forms:
        if form.need <= width:
            return form, width
    return forms[-1], width


def width(columns_env: str | None, isatty: bool) -> int | None:
    """The width to fit: COLUMNS when it is a number, else the terminal's when stdout is one,
    else None (piped or redirected: no limit)."""
    if columns_env and columns_env.strip().isdigit() and int(columns_env) > 0:
        return int(columns_env)
    if isatty:
        try:
            return os.get_terminal_size().columns
        except OSError:
            return 80
    return None


def show(console, forms: list[Layout], width: int | None) -> None:
    """Print the form that fits on `console` (a rich Console), with its note under it."""
    form, at = fit(forms, width)
    console.width = at
    console.print(form.renderable, soft_wrap=form.soft)
    if form.note:
        console.print(form.note)  # wrapped at its spaces
