"""The H200's memory hierarchy as the cache model sees it (and the H100's, below): sizes, each
with where it comes from.

Every figure the model uses is a field of `H200` below; nothing else in warpsim.caches hard-codes
a device constant. Sizes are bytes unless a name says otherwise.

Sources: /work/shared/H200-NCU.md (read off the H200: 132 SMs, 60 MiB L2, compute capability
9.0), NVIDIA's Hopper tuning guide and CUDA programming guide for sm_90 (256 KB of combined L1
and shared memory per SM; shared-memory capacities 0, 8, 16, 32, 64, 100, 132, 164, 196 and
228 KB; 1 KB of shared memory reserved per block; 2048 threads, 32 blocks and 65536 registers
per SM, registers allocated per warp in units of 256), and the committed measurements named
where a figure is a choice of the model (docs/CACHES.md lists them all).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

KIB = 1024
MIB = 1024 * KIB


@dataclass(frozen=True)
class Hierarchy:
    name: str
    sms: int  # streaming multiprocessors
    sector: int  # bytes: the unit L1 fetches and L2 counts
    line: int  # bytes: the unit L1 and L2 tag (4 sectors)
    l1_and_shared: int  # bytes of SRAM per SM, split between L1 and shared memory
    shared_capacities: tuple[int, ...]  # the carve-outs the driver can pick, bytes of shared memory
    shared_reserved_per_block: int  # bytes the driver adds to each block's shared memory
    l2: int  # bytes
    l2_effective: int  # bytes: the stack distance at which half of the L2's re-uses miss (docs/CACHES.md)
    l2_softness: int  # bytes: how gradually re-uses start to miss around l2_effective
    l2_staggered_effective: int  # bytes: l2_effective for a launch whose slots run half a block apart
    l2_staggered_softness: int  # bytes: l2_softness for such a launch
    l1_ways: int  # the model's associativity for L1, sets hashed (unpublished; no trace shows conflict misses)
    max_threads_per_sm: int
    max_blocks_per_sm: int
    registers_per_sm: int
    register_unit: int  # registers are allocated per warp in units of this many
    max_warps_per_sm: int


H200 = Hierarchy(
    name="H200",
    sms=132,
    sector=32,
    line=128,
    l1_and_shared=256 * KIB,
    shared_capacities=tuple(k * KIB for k in (0, 8, 16, 32, 64, 100, 132, 164, 196, 228)),
    shared_reserved_per_block=1 * KIB,
    l2=60 * MIB,
    l2_effective=71 * MIB // 2,  # 35.5 MiB
    l2_softness=13 * MIB // 4,  # 3.25 MiB
    l2_staggered_effective=40 * MIB,  # naive 2560^3/3072^3, smem 2560^3-4096^3, staggered (docs/CACHES.md)
    l2_staggered_softness=4 * MIB,
    l1_ways=16,
    max_threads_per_sm=2048,
    max_blocks_per_sm=32,
    registers_per_sm=65536,
    register_unit=256,
    max_warps_per_sm=64,
)


#: The H100 SXM5 (80 GB HBM3), the GH100 of the H200 with a smaller L2: the same SMs, L1 and
#: occupancy rules (every count of the committed H100 traces is exact under the H200's), 50 MiB of
#: L2 (NVIDIA's H100 datasheet, SXM5: 50 MB, in the unit of the H200's 60 MB, which its runtime
#: gives as 62,914,560 B; the H100 of stop 41 reported 52,428,800 B: traces/schedule/device_h100.json).
#: The L2 curve is the H200's scaled by the L2 sizes (5/6): its centre and width were fitted to H200
#: launches above the L2 only. Blind batches 35 and 36 (the ladder at 0.24x-3.84x the H100's L2) put
#: 130 of their 162 DRAM figures within tolerance at 5/6, 140 at 0.9 (scripts/h100_l2_scale.py); blind
#: batch 37, predicted with both before it ran, put 81 of 90 within at 5/6 and 68 at 0.9: 5/6 stays.
def l2_curve_scaled(base: Hierarchy, numerator: int, denominator: int, **fields) -> Hierarchy:
    """`base` with its L2 curve (l2_effective, l2_softness and the staggered pair) scaled by
    numerator / denominator, rounded down to the byte, and `fields` replaced."""
    curve = ("l2_effective", "l2_softness", "l2_staggered_effective", "l2_staggered_softness")
    return replace(base, **{f: getattr(base, f) * numerator // denominator for f in curve}, **fields)


H100 = l2_curve_scaled(H200, 5, 6, name="H100", l2=50 * MIB)

#: The hierarchies modelled, by the name `--gpu` takes.
MODELLED = {"h200": H200, "h100": H100}

#: The device names (ncu's, as a trace's meta "gpu" holds them) of each hierarchy modelled: an H100
#: of another form (PCIe: 114 SMs; NVL: 94 GB) is not the one measured.
DEVICE_NAMES = {"NVIDIA H200": H200, "NVIDIA H100 80GB HBM3": H100}


def for_device(name: str) -> Hierarchy | None:
    """The hierarchy modelled for a device as ncu names it, or None."""
    return DEVICE_NAMES.get(name)
