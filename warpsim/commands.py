"""The bodies of the `warpsim` commands that need no typer, shared by the typer app
(warpsim.cli) and the typer-free start of `warpsim analyze` (warpsim.entry): sizes as given,
warnings, the console and the analysis's output. rich is imported only to print a table.
"""

from __future__ import annotations

import os
import sys


def parse_size(name: str, text: str | None) -> int | None:
    from warpsim.errors import UsageError

    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"--{name} must be a whole number, got {text!r}") from None


def sizes(M: str, N: str | None, K: str | None) -> tuple[int, int, int]:
    """--M, --N, --K as given (N and K default to M)."""
    m = parse_size("M", M)
    return m, parse_size("N", N) if N is not None else m, parse_size("K", K) if K is not None else m


def warn(messages: list[str]) -> None:
    for m in messages:
        print(f"warning: {m}", file=sys.stderr)


def console():
    """A rich Console for stdout at the width tables fit (piped: 200 columns unless a table is
    fitted, see warpsim.terminal.show); rich is imported here."""
    from rich.console import Console

    return Console(highlight=False, width=table_width() or 200)


def table_width() -> int | None:
    """The width tables fit: COLUMNS, else the terminal's, else none (piped: the widest form)."""
    from warpsim.terminal import width

    return width(os.environ.get("COLUMNS"), sys.stdout.isatty())


def show_analysis(kernel: str, M: str, N: str | None, K: str | None, block: str | None, fmt: str,
                  by_line: bool) -> None:
    """`warpsim analyze`: count the launch, print the warnings, then JSON, CSV or the tables."""
    from warpsim import report
    from warpsim.engine import analyze
    from warpsim.registry import get_kernel, parse_block

    a = analyze(kernel, *sizes(M, N, K), parse_block(block), by_line=by_line)
    warn(a.warnings)
    if fmt == "json":
        print(report.to_json(a))
        return
    if fmt == "csv":
        print(report.to_csv(a), end="")
        return
    from warpsim.terminal import show

    out, width = console(), table_width()
    if by_line:
        show(out, report.lines_layouts(a, get_kernel(kernel).cu_path.read_text().splitlines()), width)
        return
    show(out, report.global_layouts(a), width)
    shared = report.shared_layouts(a)
    if shared is not None:
        show(out, shared, width)
    out.print(report.worst_access(a))  # wrapped at its spaces: no figure is split
