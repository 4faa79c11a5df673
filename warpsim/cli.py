"""`warpsim` command line: thin typer commands over warpsim.engine and warpsim.report.

Bad input never shows a traceback: one line `error: ...` on stderr and exit status 2. The
console script enters through warpsim.entry, which runs a plain `analyze` without importing
typer and hands every other command line to `main` here.
"""

from __future__ import annotations

from enum import Enum
from typing import List, Optional

import typer

from warpsim import __version__
from warpsim.cli_errors import add_version
from warpsim.commands import console, show_analysis, sizes, table_width, warn
from warpsim.registry import parse_block

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  context_settings={"help_option_names": ["-h", "--help"]},
                  help="Exact warp-level memory traffic of CUDA GEMM kernels.")

# The options every command that names a launch takes, with the same help everywhere.
M_HELP = "rows of A and C (a whole number >= 1)"
N_HELP = "columns of B and C (default M)"
K_HELP = "columns of A, rows of B (default M)"
BLOCK_HELP = "block shape BXxBY, e.g. 16x16 (default: the kernel's; `warpsim list` says which accept others)"


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


add_version(app, f"warpsim {__version__}")


@app.command()
def analyze(
    kernel: str = typer.Argument(..., help="a registered kernel's name (see `warpsim list`), or any kernel's "
                                 ".cu or .cubin file"),
    M: Optional[str] = typer.Option(None, "--M", help=M_HELP + " (registered kernels)"),
    N: Optional[str] = typer.Option(None, "--N", help=N_HELP),
    K: Optional[str] = typer.Option(None, "--K", help=K_HELP),
    block: Optional[str] = typer.Option(None, "--block", help=BLOCK_HELP + "; a file's kernel: BX[xBY[xBZ]]"),
    fmt: Format = typer.Option(Format.table, "--format", help="table (fitted to the terminal), or json or "
                               "csv (exact integers, the same names)"),
    by_line: bool = typer.Option(False, "--by-line", help="one row per .cu source line (as ncu's source view)"),
    engine: str = typer.Option("sass", "--engine", help="registered kernels: sass (count the machine code nvcc "
                               "emits) or model (the hand-written model, the independent oracle)"),
    entry: Optional[str] = typer.Option(None, "--entry", help="a file's kernel: its entry point as written in "
                                        "the source, e.g. 'sgemm<32>' (default: the file's only one)"),
    grid: Optional[str] = typer.Option(None, "--grid", help="a file's kernel: GX[,GY[,GZ]], integer expressions "
                                       "over its scalar arguments with + - * // % << >> & | ^, cdiv(a, b), min, max"),
    arg: Optional[List[str]] = typer.Option(None, "--arg", help="a file's kernel: NAME=VALUE for each scalar "
                                            "parameter, NAME=TYPE[COUNT] to declare a pointer's buffer, "
                                            "NAME=TYPE[COUNT]=EXPR to give an index buffer's contents, EXPR of "
                                            "the element index i, or NAME=TYPE[COUNT]=@FILE.npy, a numpy.save "
                                            "file's integers (repeat)"),
    dynamic_shared: Optional[str] = typer.Option(None, "--dynamic-shared", help="a file's kernel: bytes of dynamic "
                                                 "shared memory per block (`extern __shared__`; the launch's third "
                                                 "<<<...>>> argument), an integer expression like --grid's"),
    caches: bool = typer.Option(False, "--caches", help="also predict, per array, the L1 hit sectors, L2 read and "
                                "write sectors and DRAM bytes (within tolerances: docs/CACHES.md)"),
    gpu: str = typer.Option("h200", "--gpu", help="with --caches: the GPU whose caches are predicted, h200 or "
                            "h100 (H100 SXM5: the H200's model with a 50 MiB L2)"),
) -> None:
    """Count requests, sectors and wavefronts of every memory instruction of one launch."""
    show_analysis(kernel, M, N, K, block, fmt.value, by_line, engine, entry, grid, arg or [], caches, dynamic_shared,
                  gpu)


@app.command()
def roofline(
    kernel: str = typer.Argument(..., help="kernel name (see `warpsim list`)"),
    M: str = typer.Option(..., "--M", help=M_HELP),
    N: Optional[str] = typer.Option(None, "--N", help=N_HELP),
    K: Optional[str] = typer.Option(None, "--K", help=K_HELP),
    gpu: str = typer.Option("h200", "--gpu", help="h200, h100, rtx5080, rtx4070 or t4"),
    peak_tflops: Optional[float] = typer.Option(None, "--peak-tflops", help="override the FP32 peak, 10^12 FLOP/s"),
    bandwidth_gbs: Optional[float] = typer.Option(None, "--bandwidth-gbs", help="override the DRAM bandwidth, "
                                                  "10^9 bytes/s"),
    block: Optional[str] = typer.Option(None, "--block", help=BLOCK_HELP),
    fmt: Format = typer.Option(Format.table, "--format", help="table, json or csv (one header line, one row)"),
    caches: bool = typer.Option(True, "--caches/--no-caches", help="place it at its predicted DRAM intensity too "
                                "(warpsim.caches' prediction for the H200, or the H100 with --gpu h100; "
                                "--no-caches leaves the dram_* figures empty)"),
    engine: str = typer.Option("sass", "--engine", help="sass (count the machine code nvcc emits) or model (the "
                               "hand-written model), as for analyze"),
) -> None:
    """Place a kernel on a GPU's roofline, with its simulated traffic."""
    import json

    from warpsim.caches.hardware import MODELLED
    from warpsim.commands import run_analysis, run_caches
    from warpsim.gpus import get_gpu
    from warpsim.registry import get_kernel
    from warpsim.roofline import global_traffic, table_layouts, to_csv
    from warpsim.terminal import show
    from warpsim.roofline import roofline as place

    m, n, k = sizes(M, N, K)
    preset = get_gpu(gpu)
    a = run_analysis(kernel, M, N, K, block, False, engine)
    warn(a.warnings)
    requested, moved = global_traffic(a)
    dram = None
    if caches:
        from warpsim.caches import TooManyBlocks

        try:
            modelled = preset.name if preset.name in MODELLED else "h200"  # else the H200's
            total = run_caches(kernel, M, N, K, block, engine, gpu=modelled).total
            dram = total.dram_read_bytes + total.dram_write_bytes
        except TooManyBlocks as e:  # the roofline of the requested bytes stands without them
            warn([f"DRAM figures left out: {e}"])
    r = place(m, n, k, reads_c=get_kernel(kernel).reads_c, gpu=preset, requested_bytes=requested,
              sector_bytes=moved, peak_tflops=peak_tflops, bandwidth_gbs=bandwidth_gbs, dram_bytes=dram)
    if fmt is Format.json:
        print(json.dumps({"kernel": kernel, **r.as_dict()}, allow_nan=False))
    elif fmt is Format.csv:
        print(to_csv(kernel, r), end="")
    else:
        show(console(), table_layouts(r), table_width())


@app.command()
def draw(
    kernel: str = typer.Argument(..., help="kernel name (see `warpsim list`)"),
    M: str = typer.Option(..., "--M", help=M_HELP),
    N: Optional[str] = typer.Option(None, "--N", help=N_HELP),
    K: Optional[str] = typer.Option(None, "--K", help=K_HELP),
    array: str = typer.Option("A", "--array", help="A, B or C"),
    op: str = typer.Option("load", "--op", help="load or store"),
    warp: int = typer.Option(0, "--warp", help="warp within the block"),
    iteration: int = typer.Option(0, "--iteration", help="iteration of the innermost runtime loop"),
    block_x: int = typer.Option(0, "--block-x", help="blockIdx.x"),
    block_y: int = typer.Option(0, "--block-y", help="blockIdx.y"),
    site: int = typer.Option(0, "--site", help="which of several such instructions (unrolled copies)"),
    block: Optional[str] = typer.Option(None, "--block", help=BLOCK_HELP),
    out_file: str = typer.Option(..., "--out", help="picture to write: .png, .svg or .pdf (its folder must exist)"),
    force: bool = typer.Option(False, "--force", help="replace --out if it exists"),
) -> None:
    """Draw one global-memory warp instruction: lanes against the 32-byte sectors they touch.

    (Shared-memory instructions are counted by `analyze`, in wavefronts and bank conflicts; a
    sector picture would not describe them, so they are not drawn.)"""
    from pathlib import Path

    from warpsim.draw import draw_request
    from warpsim.files import FIGURE_FORMATS, check_out
    from warpsim.request import one_request

    check_out(out_file, force, FIGURE_FORMATS)  # before any work: nothing is lost, nothing half-made
    m, n, k = sizes(M, N, K)
    r = one_request(kernel, m, n, k, parse_block(block), array=array, op=op, space="global", warp=warp,
                    iteration=iteration, block_idx=(block_x, block_y), site=site)
    title = f"{kernel} {array} {op} (line {r.line}), M={m} N={n} K={k}, {r.where}"
    counts = draw_request(r.addresses, r.mask, r.width, title, Path(out_file), force=force)
    print(f"wrote {out_file}: {counts.sectors} sectors (ideal {counts.ideal_sectors})")


@app.command("list")
def list_kernels() -> None:
    """The kernels warpsim models, with their launch configurations."""
    from warpsim.registry import kernels
    from warpsim.terminal import Column, grid, listing, show

    columns = [Column(name, numeric=False) for name in ("name", "entry", "block", "C tile", "grid")]
    columns += [Column("block option", numeric=False, fold=True), Column("needs", numeric=False, fold=True),
                Column("what", numeric=False, fold=True, fold_min=24)]
    rows = []
    for spec in kernels().values():
        cols, rows_ = spec.tile(spec.default_block)
        needs = ", ".join(f"{d} % {m} == 0" for d, m in spec.multiple_of.items()) or "any M, N, K >= 1"
        rows.append([spec.name, spec.entry, "{}x{}".format(*spec.default_block), f"{cols}x{rows_}",
                     f"(ceil(N/{cols}), ceil(M/{rows_}))", "fixed" if spec.block_fixed else "any, multiple of 32 threads",
                     needs, spec.summary])
    show(console(), [grid("kernels", columns, rows, False), listing("kernels", columns, rows, heads=1)], table_width())


def main() -> None:
    from warpsim.cli_errors import run

    run(app, "warpsim")


if __name__ == "__main__":
    main()
