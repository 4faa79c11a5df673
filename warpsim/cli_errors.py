"""Run a typer app so that bad input is one line on stderr and exit status 2, never a traceback.

Shared by both command lines (`warpsim`, `profile`)."""

from __future__ import annotations

import sys

import typer

from warpsim.errors import UsageError

try:  # typer >= 0.20 carries its own copy of click
    from typer import TyperException as _ParseError
except ImportError:  # older typer depends on click itself
    from click.exceptions import ClickException as _ParseError


def run(app: typer.Typer, name: str) -> None:
    try:
        code = app(standalone_mode=False)
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except _ParseError as e:
        print(f"error: {e.format_message()} (see `{name} --help`)", file=sys.stderr)
        sys.exit(2)
    except (typer.Abort, KeyboardInterrupt):
        print("aborted", file=sys.stderr)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)
