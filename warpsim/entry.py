"""The `warpsim` console script.

`warpsim analyze KERNEL` with its plain options (--M, --N, --K, --block, --format, --by-line, --caches)
runs straight from here. Every other command line (help, the other commands, an option this
parser does not know, a repeated or malformed one) goes to the typer app in `warpsim.cli`,
which owns the options, their help and their messages.

Why: typer (which builds a pydantic adapter for every option) and rich take longer to import
than the analysis of a whole 4096^3 launch takes to run, so `warpsim analyze naive --M 4096
--format json` spent half its time importing them. The parser below accepts only what typer
accepts alike and calls the same `warpsim.commands.show_analysis` the typer command calls, so
the output is the same either way (tests run both).
"""

from __future__ import annotations

import sys

FORMATS = ("table", "json", "csv")
#: analyze's options this parser knows, and the parameter each sets (the same names as warpsim.cli's).
VALUE_OPTIONS = {"--M": "M", "--N": "N", "--K": "K", "--block": "block", "--format": "fmt", "--engine": "engine"}
FLAG_OPTIONS = {"--by-line": "by_line", "--caches": "caches"}


def quick_analyze(argv: list[str]) -> dict | None:
    """The arguments of `analyze KERNEL [plain options]`, or None for anything typer should see."""
    if len(argv) < 2 or argv[0] != "analyze" or not argv[1].isidentifier():
        return None
    got: dict = {}
    rest = iter(argv[2:])
    for word in rest:
        name, eq, value = word.partition("=")
        if name in FLAG_OPTIONS and not eq:
            key, value = FLAG_OPTIONS[name], True
        elif name in VALUE_OPTIONS:
            key = VALUE_OPTIONS[name]
            if not eq:
                value = next(rest, None)
                if value is None or value.startswith("--"):
                    return None
        else:
            return None
        if key in got:
            return None
        got[key] = value
    if "M" not in got or got.setdefault("fmt", "table") not in FORMATS:
        return None
    return {"kernel": argv[1], "N": None, "K": None, "block": None, "by_line": False, "caches": False, **got}


def main() -> None:
    args = quick_analyze(sys.argv[1:])
    if args is None:
        from warpsim.cli import main as typer_main

        typer_main()
        return
    from warpsim.cli_errors import guard
    from warpsim.commands import show_analysis

    with guard():
        show_analysis(**args)
    sys.exit(0)


if __name__ == "__main__":
    main()
