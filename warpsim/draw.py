"""Pictures: one warp instruction against the sectors it touches, and predicted vs measured.

matplotlib is an optional extra (`pip install 'warpsim[plot]'`); it is imported inside each
function, and figures are drawn with the object API on an Agg canvas, so nothing here touches
pyplot's global state or the user's backend. A picture is written in the format its name's
extension says (.png, .svg, .pdf), whole or not at all, and never over an existing file unless
asked (warpsim.files).

Limitations: these are pictures for people, not data; sizes and colours are fixed. The warp
picture shows one instruction of at most 32 lanes; for widths of 1 or 2 bytes the marks are
thin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from warpsim.coalescer import SECTOR, WIDTHS, coalesce
from warpsim.errors import UsageError
from warpsim.files import FIGURE_FORMATS, check_out, replacing

LANES = 32
USED = "#1f77b4"  # bytes a lane reads or writes
BROADCAST = "#ff7f0e"  # a lane whose address another active lane shares
WASTED = "#d62728"  # bytes fetched in a sector that no lane uses
INACTIVE = "#bdbdbd"  # lanes predicated off


def matplotlib_canvas():
    """(Figure, FigureCanvasAgg), or a UsageError saying how to install matplotlib."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as e:
        raise UsageError("pictures need matplotlib: pip install 'warpsim[plot]'") from e
    return Figure, FigureCanvasAgg


def save_figure(fig, canvas_cls, out: Path, force: bool = False) -> Path:
    """Write `fig` to `out` in the format its extension names (see warpsim.files.check_out)."""
    out = Path(out)
    fmt = check_out(out, force, FIGURE_FORMATS)
    canvas_cls(fig)
    with replacing(out, force, suffix="." + fmt) as tmp:
        fig.savefig(tmp, format=fmt)
    return out


# --- one warp instruction --------------------------------------------------------------------


@dataclass(frozen=True)
class RequestCounts:
    """What the warp picture's title states, for one instruction (from warpsim.coalescer)."""

    sectors: int  # distinct 32-byte sectors touched
    ideal_sectors: int  # ceil(distinct bytes / 32)
    bytes_requested: int  # active lanes x width
    bytes_moved: int  # sectors x 32
    broadcast: bool  # two or more active lanes share an address

    def title(self, title: str) -> str:
        return (
            f"{title}: {self.sectors} sectors (ideal {self.ideal_sectors}), "
            f"{self.bytes_requested} bytes requested, {self.bytes_moved} moved, "
            f"broadcast {'yes' if self.broadcast else 'no'}"
        )


def _check_request(addresses, mask, width) -> tuple[np.ndarray, np.ndarray]:
    addresses = np.asarray(addresses, dtype=np.int64).reshape(-1)
    mask = np.asarray(mask, dtype=bool).reshape(-1)
    if addresses.shape != (LANES,) or mask.shape != (LANES,):
        raise UsageError(f"one warp instruction has 32 lanes; got addresses {addresses.shape} and mask {mask.shape}")
    if width not in WIDTHS:
        raise UsageError(f"access width {width} B is not a CUDA load/store width; use one of {WIDTHS}")
    return addresses, mask


def request_counts(addresses, mask, width: int) -> RequestCounts:
    """The counts of one warp instruction: (32,) int64 byte addresses, (32,) bool mask, width in bytes."""
    addresses, mask = _check_request(addresses, mask, width)
    c = coalesce(addresses[None, :], mask[None, :], width)
    sectors = int(c.sectors[0])
    return RequestCounts(
        sectors=sectors,
        ideal_sectors=int(c.ideal_sectors[0]),
        bytes_requested=int(c.active[0]) * width,
        bytes_moved=sectors * SECTOR,
        broadcast=bool(c.broadcast[0]),
    )


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, length) of each run of True in a 1-D bool array."""
    edges = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    return list(zip(starts.tolist(), (ends - starts).tolist()))


def draw_request(addresses: np.ndarray, mask: np.ndarray, width: int, title: str, out: Path,
                 force: bool = False) -> RequestCounts:
    """Draw one warp instruction to `out` (.png, .svg or .pdf); return the counts its title states.

    Lanes 0..31 run along x. Along y, one band per distinct 32-byte sector touched (sorted; only
    touched sectors are shown, labelled by sector index relative to the first, and a dashed line
    marks where untouched sectors were skipped). Inside a band, height is the byte offset 0..31
    in the sector: each active lane's `width` bytes are a bar at its column (orange when another
    active lane shares its address: a broadcast), and bytes the sector carries that no lane uses
    are shaded red across the band: the waste. Inactive lanes are grey columns.

    Units: addresses in bytes, (32,) int64; mask (32,) bool; width in bytes (1, 2, 4, 8 or 16).
    Raises UsageError on bad shapes or widths, when matplotlib is missing, or when `out` cannot
    be written (warpsim.files.check_out: exists without `force`, no such folder, ...).
    """
    addresses, mask = _check_request(addresses, mask, width)
    check_out(out, force, FIGURE_FORMATS)
    counts = request_counts(addresses, mask, width)
    Figure, Canvas = matplotlib_canvas()
    from matplotlib.patches import Patch

    lanes = np.flatnonzero(mask)
    byte_addr = addresses[lanes, None] + np.arange(width)  # (active, width) bytes each lane touches
    touched = np.unique(byte_addr // SECTOR)  # sorted distinct sectors
    shared = np.zeros(LANES, dtype=bool)
    if lanes.size:
        _, inverse, n = np.unique(addresses[lanes], return_inverse=True, return_counts=True)
        shared[lanes] = n[inverse.reshape(-1)] > 1

    n_rows = max(len(touched), 1)
    height = min(2.6 + 0.32 * n_rows, 14)  # inches: room for title and legend, then ~0.3 in a band
    fig = Figure(figsize=(11, height), dpi=110)
    ax = fig.add_subplot()

    # each lane's bytes: one bar per (lane, byte) at height row + offset/32
    lane_x = np.repeat(lanes, width)
    flat = byte_addr.reshape(-1)
    rows = np.searchsorted(touched, flat // SECTOR)  # band index of each byte's sector
    bottom = rows + (flat % SECTOR) / SECTOR
    colors = np.where(np.repeat(shared[lanes], width), BROADCAST, USED)
    ax.bar(lane_x, 1 / SECTOR, bottom=bottom, width=0.7, color=colors, linewidth=0)

    # waste: offsets of each touched sector that no lane's bytes cover
    used = np.zeros((len(touched), SECTOR), dtype=bool)
    used[rows, flat % SECTOR] = True
    for r in range(len(touched)):
        for start, length in _runs(~used[r]):
            ax.add_patch(_rect(-0.5, r + start / SECTOR, LANES, length / SECTOR, WASTED, alpha=0.22))
        ax.text(LANES - 0.2, r + 0.5, f"{used[r].sum()}/32 B used", va="center", fontsize=7)

    for lane in np.flatnonzero(~mask):
        ax.add_patch(_rect(lane - 0.5, 0, 1, n_rows, INACTIVE, alpha=0.6))

    # band separators; dashed where untouched sectors were skipped
    for r in range(1, len(touched)):
        gap = int(touched[r] - touched[r - 1]) - 1
        ax.axhline(r, color="black" if gap else "#888888", lw=0.6, ls="--" if gap else "-")
        if gap and len(touched) <= 8:  # past 8 bands the labels crowd the axis; the ticks say it
            ax.text(LANES - 0.2, r, f"{gap} skipped", va="center", fontsize=6, color="#555555",
                    bbox=dict(facecolor="white", edgecolor="none", pad=0.5))

    rel = (touched - touched[0]).tolist() if len(touched) else []
    step = max(1, math.ceil(len(rel) / 40))  # keep at most ~40 y labels
    ax.set_yticks([r + 0.5 for r in range(0, len(rel), step)], [str(v) for v in rel[::step]])
    ax.set_ylim(0, n_rows)
    ax.set_xlim(-0.5, LANES + 3.5)
    ax.set_xticks(range(LANES), [str(i) for i in range(LANES)], fontsize=7)
    for lane, label in enumerate(ax.get_xticklabels()):
        if not mask[lane]:
            label.set_color(INACTIVE)
    ax.set_xlabel("lane")
    sparse = len(rel) > 1 and rel[-1] + 1 != len(rel)
    ax.set_ylabel("sector - first sector" + (" (gaps cut)" if sparse else "") + "\nbyte 0..31 upward", fontsize=8)
    ax.set_title(counts.title(title), fontsize=9, wrap=True)
    fig.legend(
        handles=[
            Patch(color=USED, label="bytes a lane uses"),
            Patch(color=BROADCAST, label="broadcast lane (shared address)"),
            Patch(color=WASTED, alpha=0.3, label="fetched, unused (wasted)"),
            Patch(color=INACTIVE, label="inactive lane"),
        ],
        loc="lower center",
        ncol=4,
        fontsize=7,
        frameon=False,
    )
    fig.tight_layout(rect=(0, 0.35 / height, 1, 1))  # keep the bottom 0.35 in for the legend
    save_figure(fig, Canvas, out, force)
    return counts


def _rect(x, y, w, h, color, alpha):
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), w, h, facecolor=color, edgecolor="none", alpha=alpha)


# --- predicted against measured --------------------------------------------------------------

COMPARE_COLUMNS = ("kernel", "metric", "predicted", "measured")


def check_comparison(df) -> None:
    """A UsageError unless `df` has the columns kernel, metric, predicted, measured and a row."""
    missing = [c for c in COMPARE_COLUMNS if c not in df.columns]
    if missing:
        raise UsageError(f"predicted-vs-measured table lacks columns {missing}; it needs {list(COMPARE_COLUMNS)}")
    if len(df) == 0:
        raise UsageError("no predicted/measured pairs to plot: run `profile compare` on some traces first")


def draw_predicted_vs_measured(ax, df) -> None:
    """On the axes `ax`: every (kernel, metric) pair, predicted on x, measured on y, the y = x
    diagonal, exact matches as filled circles and misses as crosses labelled "kernel metric";
    the title counts "E/T exact". Log-log axes (symmetric log, linear below 1, so a zero count
    still shows). `df` as for `plot_predicted_vs_measured`."""
    check_comparison(df)
    pred = df["predicted"].to_numpy(dtype=float)
    meas = df["measured"].to_numpy(dtype=float)
    exact = pred == meas
    top = max(float(np.nanmax(np.concatenate([pred, meas]))), 1.0) * 2
    ax.plot([0, top], [0, top], color="#888888", lw=1, ls="--", label="predicted = measured")

    palette = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#ff7f0e"]
    for i, kernel in enumerate(sorted(df["kernel"].astype(str).unique())):
        sel = (df["kernel"].astype(str) == kernel).to_numpy()
        color = palette[i % len(palette)]
        hit, miss = sel & exact, sel & ~exact
        ax.scatter(pred[hit], meas[hit], s=36, color=color, edgecolor="black", linewidth=0.6, label=kernel, zorder=3)
        ax.scatter(pred[miss], meas[miss], s=60, marker="x", color=color, linewidth=1.6, zorder=4,
                   label=None if hit.any() else kernel)
    misses = np.flatnonzero(~exact)
    for j in misses[:20]:  # label the misses; 20 is enough to read, more is clutter
        ax.annotate(f"{df['kernel'].iloc[j]} {df['metric'].iloc[j]}", (pred[j], meas[j]), fontsize=6,
                    xytext=(4, -8), textcoords="offset points", color=WASTED)

    ax.set_xscale("symlog", linthresh=1)
    ax.set_yscale("symlog", linthresh=1)
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    ax.set_xlabel("predicted (warpsim)")
    ax.set_ylabel("measured (ncu)")
    ax.set_title(f"predicted vs measured: {int(exact.sum())}/{len(df)} exact")
    ax.grid(True, which="major", lw=0.3)
    from matplotlib.lines import Line2D

    key = [
        Line2D([], [], ls="", marker="o", color="#999999", markeredgecolor="black", label="exact"),
        Line2D([], [], ls="", marker="x", color="#999999", label="off (labelled)"),
    ]
    handles, _ = ax.get_legend_handles_labels()
    ax.legend(handles=handles + key, fontsize=7, loc="upper left")


def plot_predicted_vs_measured(df, out: Path, force: bool = False) -> Path:
    """`draw_predicted_vs_measured` as a picture of its own at `out` (.png, .svg or .pdf).

    `df` is a pandas DataFrame with columns kernel, metric, predicted, measured (counts: requests,
    sectors, ...). Raises UsageError on missing columns or no rows, or an `out` that cannot be written.
    """
    check_comparison(df)
    check_out(out, force, FIGURE_FORMATS)
    Figure, Canvas = matplotlib_canvas()
    fig = Figure(figsize=(7.5, 7), dpi=110)
    draw_predicted_vs_measured(fig.add_subplot(), df)
    fig.tight_layout()
    return save_figure(fig, Canvas, out, force)
