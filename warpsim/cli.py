"""`warpsim` command line: thin typer commands over warpsim.engine and warpsim.report.

Bad input never shows a traceback: one line `error: ...` on stderr and exit status 2.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from warpsim.errors import UsageError
from warpsim.registry import parse_block

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Exact warp-level memory traffic of CUDA GEMM kernels.")
out = Console(width=None if sys.stdout.isatty() else 150)


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


def parse_size(name: str, text: Optional[str]) -> Optional[int]:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"--{name} must be a whole number, got {text!r}") from None


def sizes(M: str, N: Optional[str], K: Optional[str]) -> tuple[int, int, int]:
    m = parse_size("M", M)
    return m, parse_size("N", N) if N is not None else m, parse_size("K", K) if K is not None else m


def warn(messages: list[str]) -> None:
    for m in messages:
        print(f"warning: {m}", file=sys.stderr)


@app.command()
def analyze(
    kernel: str = typer.Argument(..., help="kernel name (see `warpsim list`)"),
    M: str = typer.Option(..., "--M", help="rows of A and C"),
    N: Optional[str] = typer.Option(None, "--N", help="columns of B and C (default M)"),
    K: Optional[str] = typer.Option(None, "--K", help="columns of A, rows of B (default M)"),
    block: Optional[str] = typer.Option(None, "--block", help="block shape BXxBY, e.g. 16x16"),
    fmt: Format = typer.Option(Format.table, "--format", help="table, json or csv"),
    by_line: bool = typer.Option(False, "--by-line", help="one row per .cu source line (as ncu's source view)"),
) -> None:
    """Count requests, sectors and wavefronts of every memory instruction of one launch."""
    from warpsim.engine import analyze as run_analysis
    from warpsim.registry import get_kernel
    from warpsim.report import global_table, lines_table, shared_table, to_csv, to_json, worst_access

    a = run_analysis(kernel, *sizes(M, N, K), parse_block(block), by_line=by_line)
    warn(a.warnings)
    if fmt is Format.json:
        print(to_json(a))
    elif fmt is Format.csv:
        print(to_csv(a), end="")
    elif by_line:
        out.print(lines_table(a, get_kernel(kernel).cu_path.read_text().splitlines()))
    else:
        out.print(global_table(a))
        shared = shared_table(a)
        if shared is not None:
            out.print(shared)
        out.print(worst_access(a))


@app.command()
def roofline(
    kernel: str = typer.Argument(..., help="kernel name (see `warpsim list`)"),
    M: str = typer.Option(..., "--M"),
    N: Optional[str] = typer.Option(None, "--N"),
    K: Optional[str] = typer.Option(None, "--K"),
    gpu: str = typer.Option("h200", "--gpu", help="h200, rtx5080, rtx4070 or t4"),
    peak_tflops: Optional[float] = typer.Option(None, "--peak-tflops", help="override the FP32 peak"),
    bandwidth_gbs: Optional[float] = typer.Option(None, "--bandwidth-gbs", help="override DRAM bandwidth"),
    block: Optional[str] = typer.Option(None, "--block"),
    fmt: Format = typer.Option(Format.table, "--format", help="table or json"),
) -> None:
    """Place a kernel on a GPU's roofline, with its simulated traffic."""
    import json

    from warpsim.engine import analyze as run_analysis
    from warpsim.gpus import get_gpu
    from warpsim.registry import get_kernel
    from warpsim.roofline import global_traffic, render_table
    from warpsim.roofline import roofline as place

    m, n, k = sizes(M, N, K)
    a = run_analysis(kernel, m, n, k, parse_block(block))
    warn(a.warnings)
    requested, moved = global_traffic(a)
    r = place(m, n, k, reads_c=get_kernel(kernel).reads_c, gpu=get_gpu(gpu), requested_bytes=requested,
              sector_bytes=moved, peak_tflops=peak_tflops, bandwidth_gbs=bandwidth_gbs)
    if fmt is Format.json:
        print(json.dumps({"kernel": kernel, **r.as_dict()}))
    else:
        out.print(render_table(r))


@app.command()
def draw(
    kernel: str = typer.Argument(..., help="kernel name (see `warpsim list`)"),
    M: str = typer.Option(..., "--M"),
    N: Optional[str] = typer.Option(None, "--N"),
    K: Optional[str] = typer.Option(None, "--K"),
    array: str = typer.Option("A", "--array", help="A, B or C"),
    op: str = typer.Option("load", "--op", help="load or store"),
    warp: int = typer.Option(0, "--warp", help="warp within the block"),
    iteration: int = typer.Option(0, "--iteration", help="iteration of the innermost runtime loop"),
    block_x: int = typer.Option(0, "--block-x", help="blockIdx.x"),
    block_y: int = typer.Option(0, "--block-y", help="blockIdx.y"),
    site: int = typer.Option(0, "--site", help="which of several such instructions (unrolled copies)"),
    block: Optional[str] = typer.Option(None, "--block"),
    out_file: str = typer.Option(..., "--out", help="PNG file to write"),
) -> None:
    """Draw one global-memory warp instruction: lanes against the 32-byte sectors they touch.

    (Shared-memory instructions are counted by `analyze`, in wavefronts and bank conflicts; a
    sector picture would not describe them, so they are not drawn.)"""
    from pathlib import Path

    from warpsim.draw import draw_request
    from warpsim.request import one_request

    m, n, k = sizes(M, N, K)
    r = one_request(kernel, m, n, k, parse_block(block), array=array, op=op, space="global", warp=warp,
                    iteration=iteration, block_idx=(block_x, block_y), site=site)
    title = f"{kernel} {array} {op} (line {r.line}), M={m} N={n} K={k}, {r.where}"
    counts = draw_request(r.addresses, r.mask, r.width, title, Path(out_file))
    print(f"wrote {out_file}: {counts.sectors} sectors (ideal {counts.ideal_sectors})")


@app.command("list")
def list_kernels() -> None:
    """The kernels warpsim models, with their launch configurations."""
    from warpsim.registry import kernels

    t = Table(title="kernels")
    for col in ("name", "entry", "block", "C tile", "grid", "block option", "needs", "what"):
        t.add_column(col)
    for spec in kernels().values():
        cols, rows = spec.tile(spec.default_block)
        needs = ", ".join(f"{d} % {m} == 0" for d, m in spec.multiple_of.items()) or "any M, N, K >= 1"
        t.add_row(spec.name, spec.entry, "{}x{}".format(*spec.default_block), f"{cols}x{rows}",
                  f"(ceil(N/{cols}), ceil(M/{rows}))", "fixed" if spec.block_fixed else "any, multiple of 32 threads",
                  needs, spec.summary)
    out.print(t)


def main() -> None:
    from warpsim.cli_errors import run

    run(app, "warpsim")


if __name__ == "__main__":
    main()
