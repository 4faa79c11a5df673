"""The bodies of the `warpsim` commands that need no typer, shared by the typer app
(warpsim.cli) and the typer-free start of `warpsim analyze` (warpsim.entry): sizes as given,
warnings, the console and the analysis's output. rich is imported only to print a table.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager


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


@contextmanager
def block_progress():
    """A progress bar on stderr for a launch counted block by block (a terminal only: piped
    output and logs get none); yields the `progress(done, total)` callback or None."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("running each block"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("blocks", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def is_path(kernel: str) -> bool:
    """`warpsim analyze my_kernel.cu ...`: a kernel given by its file, not a registered name."""
    return kernel.endswith((".cu", ".cubin", ".cuh"))


def file_launch(kernel: str, M: str | None, N: str | None, K: str | None, block: str | None,
                entry: str | None, grid: str | None, args: list[str] | tuple, dynamic_shared: str | None = None):
    """The launch (`warpsim.sass.analyze.Kernel`) of a kernel given by its file."""
    from warpsim.errors import UsageError
    from warpsim.sass.analyze import prepare

    if grid is None or block is None:
        raise UsageError(f"{kernel}: give --grid GX[,GY[,GZ]] and --block BX[xBY[xBZ]] "
                         "(and --arg NAME=VALUE for each scalar parameter)")
    if M is not None or N is not None or K is not None:
        raise UsageError("--M/--N/--K name a registered kernel's sizes; give a file's sizes as --arg M=...")
    return prepare(kernel, entry, grid, block, list(args), dynamic_shared=dynamic_shared)


def run_analysis(kernel: str, M: str | None, N: str | None, K: str | None, block: str | None, by_line: bool,
                 engine: str = "sass", entry: str | None = None, grid: str | None = None,
                 args: list[str] | tuple = (), launch=None, concrete=None):
    """The Analysis a command line asks for: any kernel by its file (machine code; `launch` where
    the caller prepared it, `concrete` to record a block-by-block run for the cache model), or a
    registered one by name, through its machine code (`--engine sass`) or its hand model."""
    from warpsim.errors import UsageError

    if is_path(kernel):
        from warpsim.sass.analyze import analyze_launch

        launch = launch or file_launch(kernel, M, N, K, block, entry, grid, args)
        with block_progress() as progress:
            return analyze_launch(launch, by_line=by_line, progress=progress, concrete=concrete)
    if entry is not None or grid is not None or args:
        raise UsageError(f"--entry, --grid and --arg are for a kernel given by its .cu or .cubin file; "
                         f"{kernel!r} is a registered kernel (its launch comes from --M/--N/--K)")
    if M is None:
        raise UsageError(f"--M is needed: the size of the registered kernel {kernel!r}")
    from warpsim.engine import ENGINES, analyze, analyze_sass
    from warpsim.registry import parse_block

    if engine not in ENGINES:
        raise UsageError(f"--engine {engine!r}: use sass (the machine code) or model (the hand model)")
    run = analyze_sass if engine == "sass" else analyze
    return run(kernel, *sizes(M, N, K), parse_block(block), by_line=by_line)


def run_caches(kernel: str, M: str | None, N: str | None, K: str | None, block: str | None, engine: str = "sass",
               entry: str | None = None, grid: str | None = None, args: list[str] | tuple = (), launch=None,
               concrete=None, gpu: str = "h200"):
    """The cache prediction (warpsim.caches) of the launch `run_analysis` counts (for a file's
    kernel: `launch` and `concrete` as run_analysis took them, so that its blocks run once), for
    the GPU `gpu` names (warpsim.caches.hardware.MODELLED)."""
    from warpsim.caches import caches_for, caches_for_launch
    from warpsim.registry import parse_block

    hw = cache_gpu(gpu)
    if is_path(kernel):
        launch = launch or file_launch(kernel, M, N, K, block, entry, grid, args)
        with block_progress() as progress:
            return caches_for_launch(launch, progress, concrete, hw)
    return caches_for(kernel, *sizes(M, N, K), parse_block(block), engine=engine, hw=hw)


def cache_gpu(name: str):
    """The cache hierarchy `--gpu NAME` asks for (warpsim.caches.hardware.MODELLED); a GPU whose
    caches are not modelled is a UsageError naming those that are."""
    from warpsim.caches.hardware import MODELLED
    from warpsim.errors import UsageError
    from warpsim.gpus import preset_key

    key = preset_key(name)
    if key not in MODELLED:
        raise UsageError(f"--gpu {name!r}: the caches are modelled for {' and '.join(MODELLED)} only "
                         "(leave --caches out to count any launch exactly)")
    return MODELLED[key]


def show_analysis(kernel: str, M: str | None, N: str | None, K: str | None, block: str | None, fmt: str,
                  by_line: bool, engine: str = "sass", entry: str | None = None, grid: str | None = None,
                  args: list[str] | tuple = (), caches: bool = False, dynamic_shared: str | None = None,
                  gpu: str = "h200") -> None:
    """`warpsim analyze`: count the launch, print the warnings, then JSON, CSV or the tables;
    with `caches`, the cache prediction too (JSON: a `caches` object; CSV: its rows instead)."""
    from pathlib import Path

    from warpsim import report
    from warpsim.errors import UsageError
    from warpsim.registry import get_kernel

    if dynamic_shared is not None and not is_path(kernel):
        raise UsageError(f"--dynamic-shared is for a kernel given by its .cu or .cubin file; {kernel!r} is a "
                         "registered kernel (its shared memory is its own)")
    if caches:
        cache_gpu(gpu)  # a GPU not modelled is refused before anything runs
    launch = concrete = None
    if is_path(kernel):  # prepared once; a launch run block by block runs once for both
        from warpsim.caches.program import ConcreteRun

        launch = file_launch(kernel, M, N, K, block, entry, grid, args, dynamic_shared)
        concrete = ConcreteRun(launch) if caches else None
    a = run_analysis(kernel, M, N, K, block, by_line, engine, entry, grid, args, launch, concrete)
    warn(a.warnings)
    predicted = run_caches(kernel, M, N, K, block, engine, entry, grid, args, launch, concrete, gpu) if caches \
        else None
    if fmt == "json":
        if predicted is None:
            print(report.to_json(a))
            return
        import json

        print(json.dumps({**json.loads(report.to_json(a)), "caches": predicted.as_dict()}, allow_nan=False))
        return
    if fmt == "csv":
        if predicted is None:
            print(report.to_csv(a), end="")
            return
        from warpsim.caches.report import to_csv

        print(to_csv(a.launch(), predicted), end="")
        return
    from warpsim.terminal import show

    out, width = console(), table_width()
    if by_line:
        source = Path(a.source) if a.source else get_kernel(kernel).cu_path
        show(out, report.lines_layouts(a, source.read_text().splitlines() if source.is_file() else []), width)
    else:
        show(out, report.global_layouts(a), width)
        for more in (report.local_layouts(a), report.shared_layouts(a)):
            if more is not None:
                show(out, more, width)
        out.print(report.worst_access(a))  # wrapped at its spaces: no figure is split
        passes = report.atomic_passes_note(a)
        if passes:
            out.print(passes)
    if predicted is not None:
        from warpsim.caches.report import (cache_layouts, coalescer_note, invalidation_note, local_note, partial_note,
                                           pitch_note, sentence)

        show(out, cache_layouts(predicted), width)
        out.print(sentence(predicted, a.total("global", "load", "bytes_requested")))
        for note in (coalescer_note(predicted), pitch_note(predicted), partial_note(predicted), local_note(predicted),
                     invalidation_note(predicted)):
            if note:
                out.print(note)
