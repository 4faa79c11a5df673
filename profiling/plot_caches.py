"""`profile plot --caches`: per kernel, where its load bytes go, predicted beside measured.

For every hand-model trace at one size (default 4096^3), three groups of bars on a log scale:
the bytes the loads request (exact, `warpsim analyze`), the bytes L1 reads from L2
(`lts__t_sectors_srcunit_tex_op_read` x 32) and the bytes DRAM delivers (`dram__bytes_read`),
each of the last two predicted (warpsim.caches, hatched) beside measured (ncu on the H200, solid).
The title carries seed 000's sentence for naive.

The pure part: `cache_bars` (traces -> one row per kernel: requested, and predicted and measured
L2 and DRAM bytes). `plot_caches` writes the picture (.png, .svg or .pdf).

Limitations: one size per picture; the requested bytes are the loads' (stores go to L2 whole and
are not drawn).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import pandas as pd

from profiling import compare as compare_mod
from profiling.metrics import CACHE_BY_NAME
from profiling.traces import Trace
from warpsim.errors import UsageError

L2_READ = next(name for name, m in CACHE_BY_NAME.items() if m.field == "l2_read_sectors")
DRAM_READ = next(name for name, m in CACHE_BY_NAME.items() if m.field == "dram_read_bytes")
SECTOR = 32
DPI = 110
WIDTH, HEIGHT = 1400, 700  # pixels
PREDICTED, MEASURED = "#1f77b4", "#ff7f0e"


def _requested(trace: Trace) -> int:
    from warpsim.engine import analyze

    M, N, K = trace.sizes
    return analyze(trace.kernel, M, N, K, block=trace.block).total("global", "load", "bytes_requested")


def cache_bars(traces: Iterable[Trace], current_sha256: Mapping[str, str], sizes=(4096, 4096, 4096),
               requested: Callable[[Trace], int] = _requested, predict_caches: Callable | None = None) -> pd.DataFrame:
    """One row per hand-model trace of the given sizes: label, requested, l2_predicted,
    l2_measured, dram_predicted, dram_measured (bytes)."""
    from warpsim.registry import kernels

    order = list(kernels())
    chosen = sorted((t for t in traces if not t.is_sass and tuple(t.sizes) == tuple(sizes) and t.kernel in order),
                    key=lambda t: (order.index(t.kernel), -t.block[0] * t.block[1]))
    if not chosen:
        raise UsageError(f"no hand-model trace at {'x'.join(map(str, sizes))} to draw")
    frame = compare_mod.compare(chosen, current_sha256, caches=True, predict_caches=predict_caches)
    rows = []
    for trace in chosen:
        mine = frame[frame["trace"] == (str(trace.path) if trace.path else "")]

        def value(metric: str, column: str) -> float:
            picked = mine.loc[mine["metric"] == metric, column]
            return float(picked.iloc[0]) if len(picked) else float("nan")

        label = trace.kernel if trace.block == (32, 32) or trace.kernel not in ("naive_coalesced",) \
            else f"{trace.kernel} {trace.block[0]}x{trace.block[1]}"
        rows.append({"label": label, "requested": requested(trace),
                     "l2_predicted": SECTOR * value(L2_READ, "predicted"), "l2_measured": SECTOR * value(L2_READ, "measured"),
                     "dram_predicted": value(DRAM_READ, "predicted"), "dram_measured": value(DRAM_READ, "measured")})
    return pd.DataFrame(rows)


def draw(bars: pd.DataFrame, title: str, out: Path, force: bool = False) -> Path:
    from warpsim.draw import matplotlib_canvas, save_figure

    Figure, Canvas = matplotlib_canvas()
    fig = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI, facecolor="white")
    ax = fig.add_axes((0.07, 0.25, 0.91, 0.6))
    n = len(bars)
    width = 0.16
    x = range(n)
    ax.bar([i - 2 * width for i in x], bars["requested"], width, color="#7f7f7f", label="requested by the loads (exact)")
    ax.bar([i - width for i in x], bars["l2_predicted"], width, color=PREDICTED, hatch="//", edgecolor="white",
           label="L1 -> L2 bytes, predicted")
    ax.bar([i for i in x], bars["l2_measured"], width, color=PREDICTED, label="L1 -> L2 bytes, measured (ncu)")
    ax.bar([i + width for i in x], bars["dram_predicted"], width, color=MEASURED, hatch="//", edgecolor="white",
           label="DRAM bytes read, predicted")
    ax.bar([i + 2 * width for i in x], bars["dram_measured"], width, color=MEASURED, label="DRAM bytes read, measured (ncu)")
    ax.set_yscale("log")
    ax.set_xticks(list(x))
    ax.set_xticklabels(bars["label"], rotation=25, ha="right")
    ax.set_ylabel("bytes (log scale)")
    ax.grid(axis="y", which="major", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.27), fontsize=8.5, ncol=5, frameon=False)
    ax.set_title(title, fontsize=9.5, loc="left")
    return save_figure(fig, Canvas, out, force)


def plot_caches(traces: Iterable[Trace], current_sha256: Mapping[str, str], out: Path, force: bool = False,
                sizes=(4096, 4096, 4096), requested: Callable[[Trace], int] = _requested,
                predict_caches: Callable | None = None) -> tuple[Path, pd.DataFrame, str]:
    """Write the picture; returns (its path, the bars, seed 000's sentence for naive)."""
    from warpsim.files import FIGURE_FORMATS, check_out

    check_out(out, force, FIGURE_FORMATS)  # before any work
    bars = cache_bars(traces, current_sha256, sizes, requested, predict_caches)
    sentence = seed_sentence(bars)
    size = "x".join(map(str, sizes))
    title = (f"Where the load bytes go, {size} on the H200: predicted (warpsim.caches, hatched) beside measured "
             f"(ncu, solid)\n" + sentence.replace(" (predicted); ", " (predicted);\n"))
    return draw(bars, title, out, force), bars, sentence


def seed_sentence(bars: pd.DataFrame) -> str:
    """Seed 000's sentence for naive, predicted and measured (warpsim.caches.report's split)."""
    naive = bars[bars["label"] == "naive"]
    if naive.empty:
        return ""
    r = naive.iloc[0]

    def split(l2: float, dram: float) -> str:
        l2, dram = min(l2, r["requested"]), min(dram, l2)
        return (f"{(r['requested'] - l2) / 1e9:.1f} GB came from L1, {(l2 - dram) / 1e9:.1f} GB from L2 and "
                f"{dram / 1e9:.1f} GB from DRAM")

    return (f"naive: of {r['requested'] / 1e9:.1f} GB requested, {split(r['l2_predicted'], r['dram_predicted'])} "
            f"(predicted); measured: {split(r['l2_measured'], r['dram_measured'])}.")
