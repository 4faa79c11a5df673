"""GPU presets for the roofline: peak FP32 rate, DRAM bandwidth and L2 size, each number cited.

Units: `peak_tflops` is 10^12 FP32 FLOP/s on the CUDA cores (an FMA counts as 2 FLOP, no tensor
cores); `bandwidth_gbs` is 10^9 bytes/s of DRAM bandwidth; `l2_bytes` is bytes (the vendors' "MB"
of cache is MiB, 2^20 bytes).

Limitations: these are datasheet peaks at boost clock, not what a kernel reaches. On the H200
cuBLAS SGEMM runs at about 51 TFLOP/s of the 67 (../shared/H200-NCU.md), and sustained DRAM
bandwidth is typically 85-90 % of the datasheet figure. Clocks vary by board and by power limit,
so `--peak-tflops` and `--bandwidth-gbs` exist to override either number. `l2_bytes` is carried
for reference only; nothing in the roofline uses it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from warpsim.errors import UsageError

MIB = 2**20


@dataclass(frozen=True)
class GPU:
    """One GPU's roofs: peak FP32 TFLOP/s, DRAM GB/s, L2 bytes, and where the numbers come from."""

    name: str  # preset key, lower case, e.g. "h200"
    label: str  # human name, e.g. "NVIDIA H200 SXM"
    peak_tflops: float  # 10^12 FP32 FLOP/s, CUDA cores, FMA = 2 FLOP
    bandwidth_gbs: float  # 10^9 bytes/s, DRAM
    l2_bytes: int  # bytes
    source: str  # one line: where the figures come from

    @property
    def peak_flops(self) -> float:
        """Peak FP32 rate in FLOP/s."""
        return self.peak_tflops * 1e12

    @property
    def bandwidth_bytes_per_s(self) -> float:
        """DRAM bandwidth in bytes/s."""
        return self.bandwidth_gbs * 1e9

    @property
    def ridge_flop_per_byte(self) -> float:
        """Intensity (FLOP/byte) where the memory slope meets the compute roof: peak / bandwidth."""
        return self.peak_flops / self.bandwidth_bytes_per_s

    def with_overrides(self, peak_tflops: float | None = None, bandwidth_gbs: float | None = None) -> "GPU":
        """This GPU with the peak rate and/or bandwidth replaced (None keeps the preset's value).

        Raises UsageError if an override is not a positive, finite number.
        """
        changes: dict[str, float] = {}
        for flag, value in (("peak_tflops", peak_tflops), ("bandwidth_gbs", bandwidth_gbs)):
            if value is None:
                continue
            if not (math.isfinite(value) and value > 0):  # rejects NaN and infinity too
                option = "--" + flag.replace("_", "-")
                raise UsageError(f"{option} must be a positive, finite number, got {value!r}")
            changes[flag] = float(value)
        if not changes:
            return self
        return replace(self, source=self.source + " (overridden: " + ", ".join(f"{k}={v:g}" for k, v in changes.items()) + ")", **changes)


PRESETS: dict[str, GPU] = {
    gpu.name: gpu
    for gpu in (
        GPU(
            name="h200",
            label="NVIDIA H200 SXM",
            # 67 TFLOP/s FP32: NVIDIA H200 datasheet (SXM column; same GH100 compute as H100 SXM, whose
            # table lists FP32 67 TFLOPS). Check: 132 SMs x 128 FP32 lanes x 2 FLOP x 1.98 GHz = 66.9.
            peak_tflops=67.0,
            # 4.8 TB/s HBM3e: NVIDIA H200 datasheet (SXM).
            bandwidth_gbs=4800.0,
            # 60 MiB = 62,914,560 B: read off the H200 we measure on (../shared/H200-NCU.md);
            # H100 SXM lists 50 MB, so do not copy that figure here.
            l2_bytes=60 * MIB,
            source="NVIDIA H200 datasheet (SXM): FP32 67 TFLOPS, 4.8 TB/s; L2 read off the device",
        ),
        GPU(
            name="h100",
            label="NVIDIA H100 SXM5 80GB",
            # 67 TFLOP/s FP32: NVIDIA H100 datasheet (SXM column), the GH100 of the H200 above.
            peak_tflops=67.0,
            # 3.35 TB/s HBM3: NVIDIA H100 datasheet (SXM).
            bandwidth_gbs=3350.0,
            # 50 MiB = 52,428,800 B: NVIDIA H100 datasheet (SXM5: 50 MB, the unit of the H200's 60 MB);
            # the H100 80GB HBM3 of stop 41 reported it to the byte (traces/schedule/device_h100.json).
            l2_bytes=50 * MIB,
            source="NVIDIA H100 datasheet (SXM): FP32 67 TFLOPS, 3.35 TB/s, 50 MB L2",
        ),
        GPU(
            name="rtx5080",
            label="NVIDIA GeForce RTX 5080",
            # 56.3 TFLOP/s: the figure seed 000 uses; 10,752 CUDA cores x 2 FLOP x 2.617 GHz boost = 56.28.
            peak_tflops=56.3,
            # 960 GB/s: seed 000; 16 GB GDDR7 at 30 Gbps on a 256-bit bus = 30 x 256 / 8 = 960
            # (NVIDIA spec as reported by TechPowerUp and Notebookcheck).
            bandwidth_gbs=960.0,
            # 64 MB L2 on GB203 (TechPowerUp RTX 5080 Founders Edition review).
            l2_bytes=64 * MIB,
            source="seed 000 (56.3 TFLOP/s, 960 GB/s); NVIDIA RTX 5080 specs (10,752 cores, 2.62 GHz, 30 Gbps x 256 bit)",
        ),
        GPU(
            name="rtx4070",
            label="NVIDIA GeForce RTX 4070",
            # 29.1 TFLOP/s: the figure seed 001 uses; 5,888 CUDA cores x 2 FLOP x 2.475 GHz boost = 29.15.
            peak_tflops=29.1,
            # 504 GB/s: seed 001; 12 GB GDDR6X at 21 Gbps on a 192-bit bus = 21 x 192 / 8 = 504.
            bandwidth_gbs=504.0,
            # 36 MB L2 on the 4070's cut-down AD104 (NVIDIA launch spec table, as reported by Club386).
            l2_bytes=36 * MIB,
            source="seed 001 (29.1 TFLOP/s, 504 GB/s); NVIDIA RTX 4070 specs (5,888 cores, 2.475 GHz, 21 Gbps x 192 bit)",
        ),
        GPU(
            name="t4",
            label="NVIDIA T4",
            # 8.1 TFLOP/s FP32: NVIDIA T4 datasheet. Check: 2,560 CUDA cores x 2 FLOP x 1.59 GHz = 8.14.
            peak_tflops=8.1,
            # 320 GB/s: NVIDIA T4 datasheet; 16 GB GDDR6 at 10 Gbps on a 256-bit bus = 10 x 256 / 8 = 320.
            bandwidth_gbs=320.0,
            # 4 MB L2 on TU104 (TechPowerUp GPU database entry for the Tesla T4).
            l2_bytes=4 * MIB,
            source="NVIDIA T4 datasheet: FP32 8.1 TFLOPS, 320 GB/s (the GPU of seed 002)",
        ),
    )
}


def preset_key(name: str) -> str:
    """A GPU's name as the presets (and warpsim.caches.hardware.MODELLED) key it: case, spaces,
    '-' and '_' ignored ('RTX-5080' is 'rtx5080')."""
    return name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")


def get_gpu(name: str) -> GPU:
    """The preset called `name` (case and '-'/'_' ignored: 'RTX-5080' finds 'rtx5080').

    Raises UsageError naming the known presets when there is none.
    """
    key = preset_key(name)
    if key not in PRESETS:
        raise UsageError(
            f"unknown GPU {name!r}; known GPUs: {', '.join(PRESETS)} "
            "(or pick the closest and set --peak-tflops and --bandwidth-gbs)"
        )
    return PRESETS[key]
