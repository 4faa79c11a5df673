"""How both command lines (`warpsim`, `profile`) end: bad input is one line on stderr and exit
status 2, never a traceback; a closed pipe (`... | head`) ends the command quietly with status 1
(as Python's documentation advises, and as rich and typer do themselves); Ctrl-C is 130.

`guard` needs no typer, so the typer-free fast path of `warpsim analyze` (warpsim.entry) ends
the same way as the typer app that `run` drives."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager

from warpsim.errors import UsageError

BROKEN_PIPE = 1  # the status rich and typer give a closed pipe too


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


@contextmanager
def guard():
    """Turn a UsageError, a broken pipe and Ctrl-C into their exit statuses (see the module)."""
    try:
        try:
            yield
        finally:
            sys.stdout.flush()  # a broken pipe may surface only here
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:
        _quiet_stdout()
        sys.exit(BROKEN_PIPE)
    except KeyboardInterrupt:
        print("aborted", file=sys.stderr)
        sys.exit(130)


def add_version(app, text: str) -> None:
    """Give a typer app `--version`: print `text` and exit 0 (before any command is looked at)."""
    import typer

    def show(value: bool) -> None:
        if value:
            print(text)
            raise typer.Exit()

    @app.callback()
    def root(version: bool = typer.Option(False, "--version", callback=show, is_eager=True,
                                          help="print the version and exit")) -> None:
        pass


def run(app, name: str) -> None:
    """Run a typer app: argument errors too become `error: ... (see `NAME --help`)`, exit 2; a
    bare command prints its help (exit 0)."""
    import typer

    try:  # typer >= 0.20 carries its own copy of click
        from typer import TyperException as parse_error
    except ImportError:  # older typer depends on click itself
        from click.exceptions import ClickException as parse_error

    with guard():
        try:
            code = app(standalone_mode=False)
        except parse_error as e:
            if type(e).__name__ == "NoArgsIsHelpError":  # a bare command: the help, not an error
                text = e.format_message()  # typer's rich help is printed already; click's is returned
                if text.strip():
                    print(text)
                sys.exit(0)
            print(f"error: {e.format_message()} (see `{name} --help`)", file=sys.stderr)
            sys.exit(2)
        except typer.Abort:
            raise KeyboardInterrupt from None
    sys.exit(code if isinstance(code, int) else 0)
