"""`profile`: run kernels under Nsight Compute, compare traces with warpsim, time against cuBLAS.

    profile run KERNEL --M M [--N N] [--K K] [--block BXxBY] [--force] [--timeout S] [--keep-report DIR]
    profile compare [PATHS...] [--strict] [--format table|csv|json]
    profile bench [KERNEL[:BXxBY]...] [--M 4096] [--N N] [--K K] [--reps 20] [--force]
    profile plot --out FILE.png|.svg|.pdf [--force] [--traces-dir DIR] [--bench FILE]

Thin: each command turns its arguments into options and calls one module. A UsageError is
printed as `error: <message>` on stderr with exit status 2; `compare --strict` exits 1 when it
judged nothing, or a claimed-exact metric differs, or a trace is stale or could not be predicted.
Traces are found under --traces-dir, else the WARPSIM_TRACES environment variable, else the
checkout's traces/.
"""

from __future__ import annotations

import math
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import List, Optional

import typer

from profiling import bench as bench_mod
from profiling import compare as compare_mod
from profiling.metrics import CACHE_BY_NAME
from profiling import report
from profiling.ncu import NcuOptions
from profiling.problem import Problem
from warpsim.registry import parse_block
from profiling.record import RecordOptions, beside_prediction, record
from profiling.traces import TRACES_DIR, current_sha256, find_trace_files, load_trace
from warpsim import __version__
from warpsim.cli_errors import add_version
from warpsim.commands import console, table_width
from warpsim.errors import UsageError
from warpsim.terminal import show

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  context_settings={"help_option_names": ["-h", "--help"]},
                  help="Measure warpsim's kernels on the GPU under Nsight Compute and set measured beside predicted.")
FORMATS = ("table", "csv", "json")
TRACES_ENV = "WARPSIM_TRACES"  # where traces are when --traces-dir is not given
TRACES_DEFAULT = f"(default: ${TRACES_ENV}, else the checkout's traces/)"
TRACES_HELP = f"folder of traces {TRACES_DEFAULT}"


add_version(app, f"profile (warpsim) {__version__}")


def positive_seconds(option: str, value: float) -> float:
    if not (math.isfinite(value) and value > 0):
        raise UsageError(f"{option} must be a positive number of seconds, got {value!r}")
    return value


@contextmanager
def user_errors():
    """UsageError -> one line on stderr, exit status 2, no traceback."""
    try:
        yield
    except UsageError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)


@app.command()
def run(
    kernel: str = typer.Argument(..., help="registered kernel name (e.g. naive), or a .cu/.cubin file of any kernel"),
    M: Optional[int] = typer.Option(None, "--M", help="rows of A and C (registered kernels)"),
    N: Optional[int] = typer.Option(None, "--N", help="columns of B and C (default M)"),
    K: Optional[int] = typer.Option(None, "--K", help="columns of A, rows of B (default M)"),
    block: Optional[str] = typer.Option(None, "--block", help="BXxBY, e.g. 32x32 (default: the kernel's); "
                                        "for a .cu file BX[xBY[xBZ]]"),
    entry: Optional[str] = typer.Option(None, "--entry", help=".cu/.cubin: the kernel, as written in the source"),
    grid: Optional[str] = typer.Option(None, "--grid", help=".cu/.cubin: GX[,GY[,GZ]], integer expressions "
                                       "over the scalar arguments, e.g. 'cdiv(N,32),cdiv(M,32)'"),
    arg: Optional[List[str]] = typer.Option(None, "--arg", help=".cu/.cubin: NAME=VALUE for each scalar parameter, "
                                            "NAME=TYPE[COUNT] for each pointer, NAME=TYPE[COUNT]=EXPR for an index "
                                            "buffer whose contents EXPR (of the element index i) gives, NAME=TYPE[COUNT]=@FILE.npy for "
                                            "one whose contents a numpy.save file gives, pinned under traces/ "
                                            "(repeat)"),
    dynamic_shared: Optional[str] = typer.Option(None, "--dynamic-shared", help=".cu/.cubin: bytes of dynamic "
                                                 "shared memory per block (`extern __shared__`), an integer "
                                                 "expression like --grid's"),
    force: bool = typer.Option(False, "--force", help="replace an existing trace"),
    timeout: float = typer.Option(300.0, "--timeout", help="seconds ncu may take (> 0)"),
    keep_report: Optional[Path] = typer.Option(None, "--keep-report", help="also save the .ncu-rep and raw CSV here"),
    traces_dir: Path = typer.Option(TRACES_DIR, "--traces-dir", envvar=TRACES_ENV,
                                    help=f"where traces are written {TRACES_DEFAULT}"),
    per_array: bool = typer.Option(False, "--per-array", help="also collect ncu's per-instruction source "
                                   "counters and attribute them to A, B and C"),
):
    """Profile one launch under ncu, write its trace, print measured beside predicted."""
    if kernel.endswith((".cu", ".cubin")):
        _run_any(kernel, entry, grid, block, arg or [], per_array, force, timeout, traces_dir, dynamic_shared)
        return
    with user_errors():
        positive_seconds("--timeout", timeout)
        if dynamic_shared is not None:
            raise UsageError(f"--dynamic-shared is for a .cu/.cubin launch; {kernel!r} is a registered kernel")
        if M is None:
            raise UsageError(f"--M is needed for the registered kernel {kernel!r}")
        problem = Problem.resolve(kernel, M, N, K, parse_block(block))
        options = RecordOptions(traces_dir, force, per_array, NcuOptions(timeout_s=timeout, keep_dir=keep_report))
        trace = record(problem, options)
    typer.echo(f"wrote {trace.path}")
    frame, warning = beside_prediction(trace)
    if warning:
        typer.echo(f"warning: {warning}", err=True)
    show(console(), report.comparison_layouts(frame, title=f"{problem}: measured (ncu) vs predicted (warpsim)",
                                              one_launch=True), table_width())


def _run_any(path, entry, grid, block, args, per_array, force, timeout, traces_dir, dynamic_shared=None) -> None:
    """`profile run KERNEL.cu --entry ... --grid ... --block ... --arg ...`: a one-launch plan."""
    import tempfile

    from profiling import batch, plan
    from warpsim.sass.launch import parse_args

    with user_errors():
        if grid is None or block is None:
            raise UsageError("a .cu/.cubin launch needs --grid and --block (and --arg for every parameter)")
        entry_dict = plan.build(Path(path), entry or "", grid, block, parse_args(args), traces_dir,
                                per_array=per_array, dynamic_shared=dynamic_shared)
        with tempfile.TemporaryDirectory(prefix="warpsim-plan-") as tmp:
            plan_path = plan.save([entry_dict], Path(tmp) / "plan.json")
            result = batch.run([entry_dict], batch.BatchOptions(traces_dir, force, timeout, plan_path=plan_path))
        if result.failed:
            raise UsageError("; ".join(f"{k}: {v}" for k, v in result.failed.items()))
        traces = [load_trace(p) for p in result.written]
        frame = compare_mod.compare(traces, {})
    for t in traces:
        typer.echo(f"wrote {t.path}")
    show(console(), report.comparison_layouts(frame, title=f"{entry_dict['id']}: measured (ncu) vs predicted (warpsim)",
                                              one_launch=True), table_width())


@app.command("plan")
def plan_cmd(
    catalog: Path = typer.Argument(Path("kernels/catalog.toml"), help="a kernel catalog (kernels/catalog.toml)"),
    out: Path = typer.Option(..., "--out", help="the plan JSON to write"),
    traces_dir: Path = typer.Option(TRACES_DIR, "--traces-dir", envvar=TRACES_ENV,
                                    help=f"where the cubins are kept, beside the traces {TRACES_DEFAULT}"),
):
    """Resolve every launch of a catalog (compiling with the pinned nvcc) into a plan that a GPU
    machine replays with `profile batch` (it needs only CuPy and ncu there)."""
    from profiling import plan

    with user_errors():
        if out.exists():
            raise UsageError(f"{out} already exists; remove it or pick another --out")
        launches = plan.from_catalog(catalog, traces_dir)
        plan.save(launches, out)
    typer.echo(f"wrote {out}: {len(launches)} launches ({sum(bool(e['per_array']) for e in launches)} per array)")


@app.command()
def batch(
    plan_file: Path = typer.Argument(..., help="a plan written by `profile plan`"),
    only: Optional[List[str]] = typer.Option(None, "--only", help="launch ids to run (default: all)"),
    force: bool = typer.Option(False, "--force", help="replace existing traces"),
    timeout: float = typer.Option(600.0, "--timeout", help="seconds one ncu session may take"),
    traces_dir: Path = typer.Option(TRACES_DIR, "--traces-dir", envvar=TRACES_ENV,
                                    help=f"where traces are written {TRACES_DEFAULT}"),
    keep: Optional[Path] = typer.Option(None, "--keep", help="also save ncu's raw and source pages here"),
    paths: bool = typer.Option(False, "--paths", help="also collect the memory path's stages (L1 misses and "
                               "fills, the L2 request coalescer, L2 hits: profiling.metrics.PATH_METRICS); "
                               "more replay passes"),
):
    """Profile every launch of a plan in one ncu session (per-instruction counters for those marked
    per_array) and write one trace per launch under traces/sass/."""
    from profiling import batch as batch_mod
    from profiling import plan
    from profiling.metrics import PATH_NAMES

    with user_errors():
        entries = [e for e in plan.load(plan_file) if not only or e["id"] in only]
        if not entries:
            raise UsageError(f"no launch of {plan_file} matches --only {only}")
        result = batch_mod.run(entries, batch_mod.BatchOptions(traces_dir, force, timeout, plan_path=plan_file,
                                                               keep_dir=keep, extra_metrics=PATH_NAMES if paths else ()))
    for path in result.written:
        typer.echo(f"wrote {path}")
    for launch_id, why in result.failed.items():
        typer.echo(f"failed: {launch_id}: {why}", err=True)
    if result.failed:
        raise typer.Exit(1)


@app.command()
def compare(
    paths: Optional[List[Path]] = typer.Argument(None, help="trace files or folders (default: all of --traces-dir)"),
    strict: bool = typer.Option(False, "--strict", help="exit 1 unless every trace is current and predicted, "
                                "every claimed-exact value matches, every cache figure lies within its tolerance, "
                                "and there was something to compare"),
    fmt: str = typer.Option("table", "--format", help="table, csv or json (integer counts, a status per row)"),
    traces_dir: Path = typer.Option(TRACES_DIR, "--traces-dir", envvar=TRACES_ENV, help=TRACES_HELP),
    engine: str = typer.Option("sass", "--engine", help="registered kernels' predictions from their machine code "
                               "(sass) or their hand models (model); traces of any kernel always from the cubin"),
    caches: bool = typer.Option(False, "--caches", help="also predict L1 hits, L2 and DRAM traffic "
                                "(warpsim.caches, about a second a trace), each within its stated tolerance"),
    jobs: int = typer.Option(0, "--jobs", "-j", help="processes to predict in (0: one per core this process "
                             "may use); a launch measured more than once is predicted once"),
):
    """Re-predict every trace and print predicted, measured and difference for each metric.

    With --caches, the cache figures (L1 hits, L2 sectors, DRAM bytes) are predictions within
    tolerances, a class of their own: their status gives the relative error and the bound
    (`within 10%: -2.2%`, `OUTSIDE 15%: +15.6%`), and --strict fails on one outside it. A trace file that
    cannot be read is reported and the rest are compared; the exit status is then 2. A stale
    trace (its kernel's source changed since) is re-predicted and flagged."""
    with user_errors():
        if fmt not in FORMATS:
            raise UsageError(f"--format {fmt!r}: use one of {', '.join(FORMATS)}")
        if jobs < 0:
            raise UsageError(f"--jobs {jobs}: give a number of processes, or 0 for one per core")
        if not paths and not traces_dir.is_dir():
            raise UsageError(f"the traces folder {traces_dir} does not exist: give trace files or folders, "
                             f"--traces-dir, or set {TRACES_ENV} (a plain install ships no traces)")
        files = find_trace_files(paths, traces_dir)
    traces, unreadable = [], 0
    for path in files:
        try:
            traces.append(load_trace(path))
        except UsageError as e:
            typer.echo(f"error: {e}", err=True)
            unreadable += 1
    with user_errors():
        frame = compare_mod.compare(traces, current_sha256({t.kernel for t in traces}),
                                    analyze=compare_mod.analyzer(engine), caches=caches,
                                    jobs=jobs or compare_mod.usable_cores())
    if not traces:
        typer.echo(f"no traces found under {', '.join(map(str, paths or [traces_dir]))} "
                   f"(give trace files or folders, --traces-dir, or set {TRACES_ENV})", err=True)
    elif fmt == "table":
        show(console(), report.comparison_layouts(frame, title=f"{len(traces)} traces: measured (ncu) vs "
                                                  "predicted (warpsim)"), table_width())
    else:
        typer.echo(report.comparison_text(frame, fmt), nl=False)
    for note in frame.attrs["notes"]:
        typer.echo(f"warning: {note}", err=True)
    stale = compare_mod.stale_traces(frame)
    for path in stale:
        typer.echo(f"stale: {path} (its kernel source changed since it was measured; re-predicted, its rows "
                   "are flagged stale; re-profile it with `profile run --force`)", err=True)
    exact, claimed = compare_mod.summary(frame)
    line = f"{exact}/{claimed} exact ({len(traces)} traces"
    if stale:
        s_exact, s_claimed = compare_mod.stale_summary(frame)
        line += f"; {len(stale)} stale, {s_exact}/{s_claimed} of their claimed values match"
    within, tolerated = compare_mod.tolerance_summary(frame)
    if tolerated:
        line += f"; {within}/{tolerated} cache figures within their tolerance"
        refused = int(compare_mod.tolerance_rows(frame)["predicted"].isna().sum())
        if refused:
            line += f", {refused} of them not predicted (refused: see the notes)"
    for metric, inside, n, median, worst, where in compare_mod.error_distribution(frame):
        claim = f"{inside}/{n} within tolerance" if CACHE_BY_NAME[metric].tolerance else f"{n} predicted, not claimed"
        typer.echo(f"caches: {metric}: {claim}; |relative error| median {median:.1%}, worst {worst:.1%} "
                   f"({Path(where).name})", err=fmt != "table")
    for metric, inside, n in compare_mod.range_distribution(frame):
        typer.echo(f"caches: {metric}: {n} given as a range, not claimed (traffic the model leaves out); {inside}/{n} "
                   "measured within it", err=fmt != "table")
    if traces:
        typer.echo(line + ")", err=fmt != "table")
    if strict:
        problems = [f"{n} {one if n == 1 else many}" for n, one, many in (
            (len(compare_mod.failures(frame)), "claimed-exact value differs", "claimed-exact values differ"),
            (len(compare_mod.tolerance_failures(frame)), "cache figure lies outside its tolerance",
             "cache figures lie outside their tolerance"),
            (len(stale), "trace is stale", "traces are stale"),
            (len(frame.attrs["notes"]), "trace or part of a trace could not be predicted",
             "traces or parts of traces could not be predicted"),
            (unreadable, "trace file could not be read", "trace files could not be read")) if n]
        if not claimed:
            problems.append("nothing was compared: no current trace with a claimed-exact value")
        for p in problems:
            typer.echo(f"strict: {p}", err=True)
        if problems and not unreadable:
            raise typer.Exit(1)
    if unreadable:
        raise typer.Exit(2)


@app.command()
def bench(
    kernels: Optional[List[str]] = typer.Argument(None, help="KERNEL or KERNEL:BXxBY (default: every registered kernel)"),
    M: int = typer.Option(4096, "--M", help="rows of A and C"),
    N: Optional[int] = typer.Option(None, "--N", help="columns of B and C (default M)"),
    K: Optional[int] = typer.Option(None, "--K", help="columns of A, rows of B (default M)"),
    reps: int = typer.Option(20, "--reps", help="timed launches per kernel (at least 10), median kept"),
    warmup: int = typer.Option(3, "--warmup", help="untimed launches before the timed ones (>= 0)"),
    force: bool = typer.Option(False, "--force", help="replace an existing bench table"),
    traces_dir: Path = typer.Option(TRACES_DIR, "--traces-dir", envvar=TRACES_ENV,
                                    help=f"the bench table goes to its bench/ {TRACES_DEFAULT}"),
):
    """Time kernels with CUDA events beside cuBLAS SGEMM (FP32) and write traces/bench/."""
    with user_errors():
        from warpsim import registry

        names = list(kernels or registry.kernels())
        options = bench_mod.BenchOptions(reps=reps, warmup=warmup, tf32_env=os.environ.get("CUPY_TF32"),
                                         traces_dir=traces_dir, force=force, command=tuple(sys.argv))
        N, K = M if N is None else N, M if K is None else K
        table, payload = bench_mod.bench(names, M, N, K, options)
        path = bench_mod.write(payload, options)
    show(console(), report.bench_layouts(table, title=f"M={M} N={N} K={K}, median of {reps} launches"), table_width())
    typer.echo(f"wrote {path}")


@app.command()
def plot(
    out: Path = typer.Option(..., "--out", help="picture to write, two panels side by side: .png, .svg or "
                             ".pdf (its folder must exist)"),
    force: bool = typer.Option(False, "--force", help="replace --out if it exists"),
    traces_dir: Path = typer.Option(TRACES_DIR, "--traces-dir", envvar=TRACES_ENV,
                                    help=f"traces to compare, all under it {TRACES_DEFAULT}"),
    bench: Optional[Path] = typer.Option(None, "--bench", help="bench table (default: "
                                         "<traces-dir>/bench/bench_M4096_N4096_K4096.json)"),
    caches: bool = typer.Option(False, "--caches", help="draw instead, per kernel at --size, the bytes its loads "
                                "request, L1 reads from L2 and DRAM delivers, predicted beside measured"),
    size: int = typer.Option(4096, "--size", help="with --caches: the traces' M = N = K"),
):
    """One picture, two panels: predicted vs measured for every trace (left), the H200 roofline
    with each benched kernel at its measured GFLOP/s and FLOP per DRAM byte (right). With
    --caches: the cache picture (where each kernel's load bytes go) instead."""
    if caches:
        with user_errors():
            from profiling.plot_caches import plot_caches

            traces = [load_trace(path) for path in find_trace_files(None, traces_dir)]
            written, bars, sentence = plot_caches(traces, current_sha256({t.kernel for t in traces}), out, force,
                                                  (size, size, size))
        typer.echo(f"wrote {written}: {len(bars)} kernels at {size}^3")
        if sentence:
            typer.echo(sentence)
        return
    with user_errors():
        from profiling import plot as plot_mod
        from warpsim.files import FIGURE_FORMATS, check_out
        from warpsim.gpus import get_gpu

        check_out(out, force, FIGURE_FORMATS)  # before reading or comparing anything
        traces = [load_trace(path) for path in find_trace_files(None, traces_dir)]
        options = plot_mod.PlotOptions(traces_dir, bench, out, get_gpu("h200"), force)
        result = plot_mod.plot(options, traces, current_sha256({t.kernel for t in traces}))
    for line in result.skipped:
        typer.echo(f"warning: left off the roofline: {line}", err=True)
    typer.echo(f"wrote {result.out}: {result.exact}/{result.claimed} exact over {result.traces} traces, "
               f"{len(result.points)} kernels on the {options.gpu.label} roofline")


def main() -> None:
    from warpsim.cli_errors import run as run_app  # argument errors too become one line, exit 2

    run_app(app, "profile")


if __name__ == "__main__":
    main()
