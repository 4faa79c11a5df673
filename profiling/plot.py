"""`profile plot`: one PNG of what the H200 measured, two panels side by side.

Left: every claimed-exact (trace, metric) pair that `profile compare` checks, the per-array
source-counter rows included, predicted on x and measured on y (warpsim.draw's
`draw_predicted_vs_measured`, on the same figure). Right: the H200's roofs (warpsim.gpus
preset) with each kernel of the bench table placed by what was measured at the bench's size:
y = its GFLOP/s timed with CUDA events (traces/bench/), x = its arithmetic intensity
2*M*N*K FLOP / the DRAM bytes ncu counted for the same launch (read + write, from the trace of
the same kernel, block and size). cuBLAS SGEMM, timed in the same run, is a dashed line: its
DRAM bytes were not measured, so it has no intensity.

The pure parts: `comparison_frame` (traces -> the frame of the left panel), `roofline_points`
(bench payload + traces -> the right panel's points). `plot` reads the files and writes the picture (.png, .svg or .pdf, by its extension).

Limitations: the four tiled kernels sit within 4% of each other in intensity and 40% in rate,
so labels at a fixed offset would print over one another; here they are stacked apart
vertically with a leader line. The intensity is DRAM traffic with a cold L2
(ncu's `--cache-control all`), the time is a median over launches that rotate through input
sets larger than the L2: the two come from different runs of the same kernel.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from profiling import compare as compare_mod
from profiling.bench import CUBLAS, bench_path
from profiling.metrics import METRICS
from profiling.traces import Trace
from warpsim.errors import UsageError
from warpsim.gpus import GPU

#: The ncu metrics of METRICS whose sum is the launch's DRAM traffic in bytes (read + write).
DRAM_BYTES: tuple[str, ...] = tuple(m.name for m in METRICS if m.name.startswith("dram__bytes_"))

DPI = 110  # warpsim.draw's figures are drawn at 110 dpi; this one matches them
LEFT_W = 825  # pixels of the predicted-vs-measured panel (warpsim.draw's 7.5 in at 110 dpi)
ROOF_W, ROOF_H = 1000, 770  # pixels of the roofline panel
LABEL_PT = 7.5  # font size of the point labels, points
POINT = "#2ca02c"  # the kernels' marker colour


@dataclass(frozen=True)
class PlotOptions:
    traces_dir: Path  # every trace under it is compared (bench tables left out)
    bench: Path | None  # bench table; None: <traces_dir>/bench/bench_M4096_N4096_K4096.json
    out: Path  # the picture to write: .png, .svg or .pdf
    gpu: GPU  # whose roofs (the H200's: where the traces and the bench were measured)
    force: bool = False  # replace `out` if it exists


@dataclass(frozen=True)
class KernelPoint:
    """One benched kernel on the roofline, all figures measured."""

    label: str  # kernel, with its block when the bench times the kernel at several blocks
    flops: int  # 2*M*N*K
    dram_bytes: int  # ncu: DRAM bytes read + written by the launch
    gflops: float  # bench: 10^9 FLOP/s from the median CUDA-event time
    pct_of_cublas: float  # bench: 100 x cuBLAS time / this kernel's time

    @property
    def flop_per_byte(self) -> float:
        return self.flops / self.dram_bytes


@dataclass(frozen=True)
class Bench:
    """The parts of a bench table (profiling.bench's JSON) the roofline needs."""

    path: Path
    M: int
    N: int
    K: int
    cublas_gflops: float | None  # None when the table has no cuBLAS row
    rows: tuple[dict, ...]  # the kernels' rows: kernel, block (bx, by), gflops, pct_of_cublas


@dataclass
class PlotResult:
    out: Path
    traces: int  # traces compared
    exact: int  # claimed-exact pairs that match
    claimed: int  # claimed-exact pairs compared
    points: list[KernelPoint]
    skipped: list[str] = field(default_factory=list)  # bench kernels left off the roofline, and why


def comparison_frame(traces: list[Trace], current_sha256: Mapping[str, str],
                     analyze: Callable | None = None) -> pd.DataFrame:
    """The left panel's rows: `profile compare`'s claimed-exact, non-stale rows (aggregate and
    per-array), columns kernel, metric, predicted, measured, ... (counts)."""
    frame = compare_mod.checked(compare_mod.compare(traces, current_sha256, analyze=analyze))
    return frame.dropna(subset=["predicted", "measured"]).reset_index(drop=True)


def load_bench(path: Path) -> Bench:
    """Read a bench table; a UsageError names the file and what is wrong or missing."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"no bench table at {path}: run `profile bench` on the GPU, or give --bench FILE") from None
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise UsageError(f"{path} is not a bench table: not JSON ({e})") from e
    try:
        meta, rows = data["meta"], data["rows"]
        M, N, K = (int(meta[k]) for k in ("M", "N", "K"))
        cublas = [float(r["gflops"]) for r in rows if r["kernel"] == CUBLAS]
        kernels = tuple({"kernel": str(r["kernel"]), "block": _block(r["block"]), "gflops": float(r["gflops"]),
                         "pct_of_cublas": float(r["pct_of_cublas"])} for r in rows if r["kernel"] != CUBLAS)
    except (KeyError, TypeError, ValueError) as e:
        raise UsageError(f"{path} is not a bench table: needs meta.M/N/K and rows of kernel, block (BXxBY), "
                         f"gflops, pct_of_cublas ({type(e).__name__}: {e})") from None
    return Bench(path, M, N, K, cublas[0] if cublas else None, kernels)


def _block(text: str) -> tuple[int, int]:
    """'32x32' -> (32, 32); ValueError otherwise."""
    bx, by = (int(v) for v in str(text).lower().split("x"))
    return bx, by


def roofline_points(bench: Bench, load: Callable[[str, tuple[int, int]], Trace | None]) -> tuple[list[KernelPoint], list[str]]:
    """(points, skipped): each bench row with its trace at the bench's size placed by measured
    GFLOP/s and FLOP per DRAM byte. `load(kernel, block)` returns that trace or None.

    A row is skipped (with the reason) when its trace is missing or lacks DRAM bytes, or its
    rate is not positive (a log axis cannot show it).
    """
    flops = 2 * bench.M * bench.N * bench.K  # one multiply and one add per (m, n, k)
    times_seen = pd.Series([r["kernel"] for r in bench.rows]).value_counts()
    points, skipped = [], []
    for row in bench.rows:
        kernel, block = row["kernel"], row["block"]
        label = kernel if times_seen[kernel] == 1 else f"{kernel} {block[0]}x{block[1]}"
        trace = load(kernel, block)
        if not row["gflops"] > 0:
            skipped.append(f"{label}: measured {row['gflops']} GFLOP/s")
            continue
        if trace is None:
            skipped.append(f"{label}: no trace at {bench.M}x{bench.N}x{bench.K} (profile run {kernel} --M {bench.M})")
            continue
        dram = [trace.metrics.get(name) for name in DRAM_BYTES]
        if any(v is None for v in dram) or sum(dram) <= 0:
            skipped.append(f"{label}: its trace {trace.path} has no DRAM bytes")
            continue
        points.append(KernelPoint(label, flops, int(sum(dram)), float(row["gflops"]), float(row["pct_of_cublas"])))
    return points, skipped


def _stacked(y_pt: np.ndarray, gap: float) -> np.ndarray:
    """Label heights (points) at least `gap` apart, each as close to its point's height as that allows."""
    order = np.argsort(y_pt, kind="stable")
    placed = np.empty_like(y_pt)
    last = -np.inf
    for i in order:
        last = max(y_pt[i], last + gap)
        placed[i] = last
    return placed


def _draw_roofline(fig, rect: tuple[float, float, float, float], gpu: GPU, points: list[KernelPoint],
                   cublas_gflops: float | None, sizes: tuple[int, int, int]) -> None:
    """The roofline panel on `fig` in `rect` (figure fractions): roofs, cuBLAS, labelled points."""
    ax = fig.add_axes(rect)
    peak = gpu.peak_tflops * 1e3  # GFLOP/s
    ridge = gpu.ridge_flop_per_byte
    xs = np.array([p.flop_per_byte for p in points])
    ys = np.array([p.gflops for p in points])
    lo = min(ridge / 10, *(xs / 3)) if len(xs) else ridge / 10
    hi = max(ridge * 30, *(xs * 25)) if len(xs) else ridge * 30  # room right of the points for labels
    y_lo = min(lo * gpu.bandwidth_gbs, *(ys / 3)) if len(ys) else lo * gpu.bandwidth_gbs
    y_hi = peak * 2.5

    ax.plot([lo, ridge], [lo * gpu.bandwidth_gbs, peak], color="black", lw=1.5,
            label=f"memory roof: {gpu.bandwidth_gbs:g} GB/s x intensity")
    ax.plot([ridge, hi], [peak, peak], color="black", lw=2.5, label=f"compute roof: {gpu.peak_tflops:g} TFLOP/s FP32")
    ax.axvline(ridge, color="#888888", lw=0.8, ls=":")
    ax.annotate(f"ridge {ridge:.3g} FLOP/B", (ridge, y_lo), xytext=(4, 6), textcoords="offset points",
                fontsize=7, color="#555555")
    if cublas_gflops:
        ax.axhline(cublas_gflops, color="#d62728", lw=1, ls="--",
                   label=f"cuBLAS SGEMM: {cublas_gflops / 1e3:.1f} TFLOP/s (same run; intensity not measured)")

    # labels right of their points, stacked at least one line apart
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(y_lo, y_hi)
    height_pt = rect[3] * fig.get_figheight() * 72
    y_pt = np.log10(ys / y_lo) / math.log10(y_hi / y_lo) * height_pt if len(ys) else ys
    label_pt = _stacked(y_pt, LABEL_PT * 1.35)
    for i, p in enumerate(points):
        shift = float(label_pt[i] - y_pt[i])
        ax.annotate(f"{p.label}  {p.gflops / 1e3:.3g} TFLOP/s ({p.pct_of_cublas:.0f}% cuBLAS) at {p.flop_per_byte:.3g} FLOP/B",
                    (p.flop_per_byte, p.gflops), xytext=(8, shift - LABEL_PT / 3), textcoords="offset points",
                    fontsize=LABEL_PT, bbox=dict(facecolor="white", edgecolor="none", alpha=0.85, pad=0.4),
                    arrowprops=dict(arrowstyle="-", lw=0.5, color="#666666", shrinkA=0, shrinkB=3) if shift > 2 else None)
    # one colour: the labels name the kernels, and the left panel's colours mean something else
    ax.scatter(xs, ys, s=40, color=POINT, edgecolor="black", linewidth=0.5, zorder=3, label="kernel (measured)")

    M, N, K = sizes
    ax.set_xlabel("arithmetic intensity: FLOP / DRAM byte (ncu, same launch)")
    ax.set_ylabel("GFLOP/s (CUDA events, median)")
    ax.set_title(f"{gpu.label} roofline, measured: SGEMM M={M} N={N} K={K}", fontsize=11)
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=7, loc="lower right")


def draw_figure(frame: pd.DataFrame, points: list[KernelPoint], cublas_gflops: float | None, gpu: GPU,
                sizes: tuple[int, int, int], out: Path, force: bool = False) -> Path:
    """Write the two-panel picture `out` atomically: `frame` predicted vs measured (left), `points`
    on `gpu`'s roofline (right). Raises UsageError when matplotlib is missing, `frame` is empty,
    or `out` cannot be written (warpsim.files.check_out)."""
    from warpsim.draw import check_comparison, draw_predicted_vs_measured, matplotlib_canvas, save_figure

    check_comparison(frame)
    Figure, Canvas = matplotlib_canvas()
    width, height = LEFT_W + ROOF_W, ROOF_H
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor="white")

    def rect(x0: int, panel_w: int, margins: tuple[int, int, int, int]) -> tuple[float, float, float, float]:
        left, bottom, top, right = margins  # pixels: tick labels, axis labels, title
        return ((x0 + left) / width, bottom / height, (panel_w - left - right) / width, (height - bottom - top) / height)

    draw_predicted_vs_measured(fig.add_axes(rect(0, LEFT_W, (75, 60, 35, 25))), frame)
    _draw_roofline(fig, rect(LEFT_W, ROOF_W, (80, 60, 35, 20)), gpu, points, cublas_gflops, sizes)
    return save_figure(fig, Canvas, out, force)


def plot(options: PlotOptions, traces: Iterable[Trace], current_sha256: Mapping[str, str],
         analyze: Callable | None = None) -> PlotResult:
    """Compare `traces`, place the bench's kernels on the roofline, write `options.out`.

    Raises UsageError when there are no traces, no claimed-exact comparison, or no bench table.
    """
    from warpsim.files import FIGURE_FORMATS, check_out

    check_out(options.out, options.force, FIGURE_FORMATS)  # before any work
    traces = list(traces)
    if not traces:
        raise UsageError(f"no traces under {options.traces_dir}: record some with `profile run`, or give --traces-dir")
    frame = comparison_frame(traces, current_sha256, analyze)
    if frame.empty:
        raise UsageError(f"none of the {len(traces)} traces under {options.traces_dir} has a current "
                         "claimed-exact comparison (all stale?): re-profile them with `profile run --force`")
    bench = load_bench(options.bench or bench_path(options.traces_dir, 4096, 4096, 4096))
    at_bench_size = {(t.kernel, t.block): t for t in traces
                     if not t.is_sass and t.sizes == (bench.M, bench.N, bench.K)}
    points, skipped = roofline_points(bench, lambda kernel, block: at_bench_size.get((kernel, block)))
    out = draw_figure(frame, points, bench.cublas_gflops, options.gpu, (bench.M, bench.N, bench.K), options.out,
                      options.force)
    exact, claimed = compare_mod.summary(frame)
    return PlotResult(out, len(traces), exact, claimed, points, skipped)
