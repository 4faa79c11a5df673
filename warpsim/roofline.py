"""Place an FP32 GEMM, and a kernel that computes it, on a GPU's roofline.

Two things sit on the chart, as in seed 000. The *problem*: 2*M*N*K FLOP against the fewest DRAM
bytes any kernel could move (A and B read once, C written once, and read once more when the
kernel computes beta*C). Its floors are the compute floor (FLOP / peak) and the memory floor
(minimal bytes / bandwidth); no kernel can beat the larger. The *kernel*: the same FLOP against
the bytes its threads request from global memory (loads + stores, as warpsim simulates them).
Its sloped ceiling min(peak, intensity x bandwidth) is what the roofline allows if every
requested byte came from DRAM.

Units: FLOP, bytes, milliseconds, GFLOP/s, FLOP/byte. Bandwidth is 10^9 bytes/s (GB/s) and peak
is 10^12 FLOP/s (TFLOP/s), as on datasheets.

The kernel's *DRAM* intensity: the same FLOP against the DRAM bytes warpsim.caches predicts
(reads and writes, for the H200's caches, or the H100's with `--gpu h100`), and the time the
DRAM roof allows there: what the caches leave of the requested traffic (seed 000's naive kernel
runs 1.7x faster than its 573 ms requested-bytes roof; its predicted 8.6 GB of DRAM traffic put
its DRAM roof at a few ms, far below the 276 ms it takes: it is bound by L1, not DRAM).

Limitations: the requested-bytes intensity counts traffic into L1, not DRAM traffic; the DRAM
figures are predictions within tolerances (docs/CACHES.md) for the H200's caches (the H100's
for `--gpu h100`), whatever other `--gpu` the roofs are drawn for. `sector_bytes` (32 B x global sectors) is
the traffic between L1 and L2 and is reported, not used for the ceiling. Elements are 4-byte
floats; the model knows nothing of tensor cores, clocks below boost, or launch overhead.
"""

from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass

from warpsim.errors import UsageError
from warpsim.gpus import GPU

FP32_BYTES = 4
SECTOR_BYTES = 32


@dataclass(frozen=True)
class Roofline:
    """The roofline figures of one GEMM on one GPU. Field names are also the JSON keys."""

    gpu: str  # preset name
    peak_tflops: float  # 10^12 FLOP/s used (preset or override)
    bandwidth_gbs: float  # 10^9 bytes/s used (preset or override)
    M: int
    N: int
    K: int
    reads_c: bool  # the kernel reads C (beta*C) as well as writing it
    flops: int  # 2*M*N*K
    compute_floor_ms: float  # flops / peak
    min_dram_bytes: int  # 4*(M*K + K*N + M*N), + 4*M*N when C is read
    memory_floor_ms: float  # min_dram_bytes / bandwidth
    problem_flop_per_byte: float  # flops / min_dram_bytes
    ridge_flop_per_byte: float  # peak / bandwidth
    requested_bytes: int  # bytes the threads request in global loads + stores
    kernel_flop_per_byte: float  # flops / requested_bytes
    sector_bytes: int  # 32 x global sectors: bytes moved between L1 and L2
    sloped_ceiling_gflops: float  # min(peak, kernel_flop_per_byte x bandwidth), GFLOP/s
    sloped_time_ms: float  # flops / sloped ceiling
    bound: str  # "memory" if the kernel's intensity is left of the ridge, else "compute"
    problem_bound: str  # the same test for the problem's intensity
    # Predicted by warpsim.caches (H200, or H100), None where not predicted: DRAM bytes read and written,
    # FLOP per DRAM byte, and the time the DRAM roof allows at that intensity.
    dram_bytes: int | None = None
    dram_flop_per_byte: float | None = None
    dram_ceiling_gflops: float | None = None
    dram_time_ms: float | None = None
    dram_bound: str | None = None

    def as_dict(self) -> dict:
        """Plain JSON-ready dict; keys are the field names (flops, compute_floor_ms, ...)."""
        return asdict(self)


def min_dram_bytes(M: int, N: int, K: int, reads_c: bool, element_bytes: int = FP32_BYTES) -> int:
    """Fewest DRAM bytes of any GEMM kernel: A (MxK) and B (KxN) read once, C (MxN) written once,
    and read once too when the kernel reads C."""
    c_trips = 2 if reads_c else 1
    return element_bytes * (M * K + K * N + c_trips * M * N)


def roofline(
    M: int,
    N: int,
    K: int,
    *,
    reads_c: bool,
    gpu: GPU,
    requested_bytes: int,
    sector_bytes: int,
    peak_tflops: float | None = None,
    bandwidth_gbs: float | None = None,
    dram_bytes: int | None = None,
) -> Roofline:
    """The roofline of C = A(MxK) @ B(KxN) [+ beta*C] on `gpu`, for a kernel whose threads request
    `requested_bytes` of global loads and stores and touch `sector_bytes` (= 32 x sectors).

    `peak_tflops` / `bandwidth_gbs` override the preset's figures; `dram_bytes`, the DRAM bytes
    the kernel is predicted to move (warpsim.caches), places it at its DRAM intensity too.
    Raises UsageError on non-positive sizes, overrides, or requested bytes.
    """
    for dim, value in (("M", M), ("N", N), ("K", K)):
        if int(value) != value or value < 1:
            raise UsageError(f"{dim} must be a positive integer, got {value!r}")
    if requested_bytes < 1:
        raise UsageError(
            f"requested_bytes must be positive, got {requested_bytes!r}: the kernel's simulated "
            "global loads and stores came to nothing; check the kernel and sizes"
        )
    if sector_bytes < 0:
        raise UsageError(f"sector_bytes must be >= 0, got {sector_bytes!r}")
    gpu = gpu.with_overrides(peak_tflops=peak_tflops, bandwidth_gbs=bandwidth_gbs)
    M, N, K = int(M), int(N), int(K)

    flops = 2 * M * N * K  # one multiply and one add per (m, n, k)
    dram = min_dram_bytes(M, N, K, reads_c)
    problem_intensity = flops / dram
    kernel_intensity = flops / requested_bytes
    ridge = gpu.ridge_flop_per_byte
    # GFLOP/s: FLOP/byte x 10^9 bytes/s; the flat roof is peak_tflops x 1000.
    ceiling_gflops = min(gpu.peak_tflops * 1e3, kernel_intensity * gpu.bandwidth_gbs)
    predicted = {}
    if dram_bytes:
        intensity = flops / dram_bytes
        ceiling = min(gpu.peak_tflops * 1e3, intensity * gpu.bandwidth_gbs)
        predicted = {"dram_bytes": int(dram_bytes), "dram_flop_per_byte": intensity, "dram_ceiling_gflops": ceiling,
                "dram_time_ms": flops / (ceiling * 1e9) * 1e3, "dram_bound": "memory" if intensity < ridge else "compute"}

    return Roofline(
        gpu=gpu.name,
        peak_tflops=gpu.peak_tflops,
        bandwidth_gbs=gpu.bandwidth_gbs,
        M=M,
        N=N,
        K=K,
        reads_c=bool(reads_c),
        flops=flops,
        compute_floor_ms=flops / gpu.peak_flops * 1e3,
        min_dram_bytes=dram,
        memory_floor_ms=dram / gpu.bandwidth_bytes_per_s * 1e3,
        problem_flop_per_byte=problem_intensity,
        ridge_flop_per_byte=ridge,
        requested_bytes=int(requested_bytes),
        kernel_flop_per_byte=kernel_intensity,
        sector_bytes=int(sector_bytes),
        sloped_ceiling_gflops=ceiling_gflops,
        sloped_time_ms=flops / (ceiling_gflops * 1e9) * 1e3,
        bound="memory" if kernel_intensity < ridge else "compute",
        problem_bound="memory" if problem_intensity < ridge else "compute",
        **predicted,
    )


def to_csv(kernel: str, r: Roofline) -> str:
    """One header line and one row: kernel, then the JSON's keys (the Roofline's fields)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["kernel", *r.as_dict()], lineterminator="\n")
    writer.writeheader()
    writer.writerow({"kernel": kernel, **r.as_dict()})
    return out.getvalue()


def global_traffic(analysis) -> tuple[int, int]:
    """(requested_bytes, sector_bytes) of a warpsim.counts.Analysis: bytes requested by global
    loads + stores, and 32 B x their sectors. Shared-memory rows are left out."""
    requested = analysis.total("global", "load", "bytes_requested") + analysis.total("global", "store", "bytes_requested")
    sectors = analysis.total("global", "load", "sectors") + analysis.total("global", "store", "sectors")
    return int(requested), int(sectors) * SECTOR_BYTES


def _si(value: float, unit: str) -> tuple[str, str]:
    """A number scaled to k/M/G/T with 4 significant digits, and its prefixed unit."""
    for scale, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.4g}", prefix + unit
    return f"{value:.4g}", unit


def table_rows(r: Roofline) -> list[tuple[str, str, str]]:
    """(label, value, unit) rows in the order the issue lists them, numbers rounded for reading."""
    return [
        ("GPU", r.gpu, f"{r.peak_tflops:g} TFLOP/s, {r.bandwidth_gbs:g} GB/s"),
        ("FLOPs", *_si(r.flops, "FLOP")),
        ("compute floor", f"{r.compute_floor_ms:.4g}", "ms"),
        ("min DRAM bytes", *_si(r.min_dram_bytes, "B")),
        ("memory floor", f"{r.memory_floor_ms:.4g}", "ms"),
        ("problem intensity", f"{r.problem_flop_per_byte:.4g}", f"FLOP/B ({r.problem_bound} bound)"),
        ("ridge point", f"{r.ridge_flop_per_byte:.3g}", "FLOP/B"),
        ("requested bytes", *_si(r.requested_bytes, "B")),
        ("kernel intensity", f"{r.kernel_flop_per_byte:.4g}", f"FLOP/B ({r.bound} bound)"),
        ("L1<->L2 sector bytes", *_si(r.sector_bytes, "B")),
        ("sloped ceiling", f"{r.sloped_ceiling_gflops:.4g}", "GFLOP/s"),
        ("time on sloped roof", f"{r.sloped_time_ms:.4g}", "ms"),
        *([] if r.dram_bytes is None else [
            ("DRAM bytes (predicted)", *_si(r.dram_bytes, "B")),
            ("DRAM intensity", f"{r.dram_flop_per_byte:.4g}", f"FLOP/B ({r.dram_bound} bound)"),
            ("time on DRAM roof", f"{r.dram_time_ms:.4g}", "ms"),
        ]),
    ]


def table_layouts(r: Roofline) -> list:
    """`table_rows(r)` titled with the problem, as a table or, where it is too narrow, a listing
    (warpsim.terminal picks: no value is cut)."""
    from warpsim.terminal import Column, grid, listing

    c = " + beta*C" if r.reads_c else ""
    title = f"roofline: {r.M}x{r.N}x{r.K} SGEMM{c} on {r.gpu}"
    columns = [Column("quantity", numeric=False, fold=True, fold_min=12), Column("value"),
               Column("unit", numeric=False, fold=True, fold_min=8)]
    rows = [list(row) for row in table_rows(r)]
    return [grid(title, columns, rows, False), listing(title, columns, rows, heads=1)]
