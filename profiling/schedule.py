"""Which blocks ran where and when: the block-schedule probes of kernels/probes/ (schedule.cu,
schedule_wmma.cu).

    python -m profiling.schedule OUT.json KERNEL M N K [--repeats R]

launches the probe (seed 000's naive or coalesced kernel, the ladder's smem or blocktile1d, or
wmma_tf32_smem, ten blocks to an SM,
their own source called from a kernel that records per block its SM, start and end time from
%globaltimer, each with its original's launch shape) once to warm up and R times measured, and writes one JSON: metadata
(GPU, driver, probe source sha256, launch, date) and per launch three lists in block order
(blockIdx.y * gridDim.x + blockIdx.x): sm, start_ns, end_ns (start relative to the launch's
first block). It is what warpsim's cache model (issue 10) reads the dispatch order and the
blocks that share an SM and the L2 from. `python -m profiling.schedule --smoke` checks each probe's
C against numpy first. The probe's identity (`probe_sha256`) covers the originals it includes.

Limitations: the probe is not profiled by ncu (ncu's replay would serialize it); %globaltimer
ticks in steps of about 32 ns on Hopper, so start times order blocks only to that resolution.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from profiling.launch import require_cupy
from warpsim.toolchain import build_cubin, source_sha256

PROBES = Path(__file__).resolve().parent.parent / "kernels" / "probes"


@dataclass(frozen=True)
class Probe:
    """A kernel's block-schedule probe, launched as its original is: grid (ceil(N / tile[0]),
    ceil(M / tile[1]))."""

    entry: str  # the probe kernel
    block: tuple[int, int, int]
    tile: tuple[int, int]  # columns and rows of C a block computes
    source: Path
    tolerance: float  # the largest |C - A B| its smoke test accepts


PROBE = PROBES / "schedule.cu"
#: TF32 keeps 10 bits of mantissa: 70 products of values below 1 lose up to 70 x 2^-11 = 0.034.
ENTRIES = {
    "naive": Probe("sgemm_naive_sched", (32, 32, 1), (32, 32), PROBE, 1e-3),
    "coalesced": Probe("sgemm_coalesced_sched", (32, 32, 1), (32, 32), PROBE, 1e-3),
    "smem": Probe("sgemm_smem_sched", (32, 32, 1), (32, 32), PROBE, 1e-3),
    "blocktile1d": Probe("sgemm_blocktile1d_sched", (512, 1, 1), (64, 64), PROBE, 1e-3),
    "wmma_tf32_smem": Probe("wmma_tf32_smem_sched", (128, 1, 1), (32, 32), PROBES / "schedule_wmma.cu", 0.05),
}


def launch_shape(kernel: str, M: int, N: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(grid, block) of `kernel`'s probe at M x N, as its original is launched."""
    probe = ENTRIES[kernel]
    return (-(-N // probe.tile[0]), -(-M // probe.tile[1]), 1), probe.block


def _arguments(M: int, N: int, K: int, A, B, C, sched) -> tuple:
    """A probe's arguments, as its original takes them (alpha 1, beta 0), and the record buffer."""
    return (np.int32(M), np.int32(N), np.int32(K), np.float32(1.0), A, B, np.float32(0.0), C, sched)


def measure(kernel: str, M: int, N: int, K: int, repeats: int = 3) -> dict:
    cupy = require_cupy()
    probe = ENTRIES[kernel]
    function = cupy.RawModule(path=str(build_cubin(probe.source))).get_function(probe.entry)
    grid, block = launch_shape(kernel, M, N)
    blocks = grid[0] * grid[1]
    rng = np.random.default_rng(0)
    A = cupy.asarray(rng.random((M, K), dtype=np.float32))
    B = cupy.asarray(rng.random((K, N), dtype=np.float32))
    C = cupy.asarray(rng.random((M, N), dtype=np.float32))
    sched = cupy.zeros(3 * blocks, dtype=cupy.uint64)
    args = _arguments(M, N, K, A, B, C, sched)
    runs = []
    for i in range(repeats + 1):
        function(grid, block, args)
        cupy.cuda.Device().synchronize()
        if i == 0:
            continue  # warm-up: module load, first-touch
        s = cupy.asnumpy(sched).reshape(blocks, 3).astype(np.int64)
        t0 = int(s[:, 1].min())
        runs.append({"sm": s[:, 0].tolist(), "start_ns": (s[:, 1] - t0).tolist(), "end_ns": (s[:, 2] - t0).tolist()})
    from profiling.ncu import probe_versions

    versions = probe_versions()
    return {"schema": 1, "meta": {**versions, "probe": str(probe.source.relative_to(probe.source.parents[2])),
                                  "probe_sha256": source_sha256(probe.source), "kernel": kernel, "entry": probe.entry,
                                  "M": M, "N": N, "K": K, "grid": list(grid), "block": list(block),
                                  "date": datetime.now(timezone.utc).isoformat(timespec="seconds")},
            "runs": runs}


def smoke(M: int = 200, N: int = 130, K: int = 70) -> bool:
    """Each probe's C against numpy at a size that is a multiple of no tile side, and its records
    sane (an SM id below 132, every block ending after it starts): True when all pass."""
    cupy = require_cupy()
    rng = np.random.default_rng(1)
    a, b = rng.random((M, K), dtype=np.float32), rng.random((K, N), dtype=np.float32)
    passed = True
    for kernel, probe in ENTRIES.items():
        module = cupy.RawModule(path=str(build_cubin(probe.source)))
        grid, block = launch_shape(kernel, M, N)
        A, B, C = cupy.asarray(a), cupy.asarray(b), cupy.zeros((M, N), dtype=np.float32)
        s = cupy.zeros(3 * grid[0] * grid[1], dtype=cupy.uint64)
        module.get_function(probe.entry)(grid, block, _arguments(M, N, K, A, B, C, s))
        s = cupy.asnumpy(s).reshape(-1, 3).astype(np.int64)
        err = float(np.abs(cupy.asnumpy(C) - a @ b).max())
        ok = err < probe.tolerance and bool((s[:, 0] < 132).all() and (s[:, 2] > s[:, 1]).all() and (s[:, 1] > 0).all())
        print(kernel, grid, block, "max err", err, "OK" if ok else "FAIL")
        passed &= ok
    return passed


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--smoke"]:
        return 0 if smoke() else 1
    if len(args) < 5 or args[1] not in ENTRIES:
        print(f"usage: python -m profiling.schedule OUT.json {{{'|'.join(ENTRIES)}}} M N K [--repeats R]"
              "\n       python -m profiling.schedule --smoke", file=sys.stderr)
        return 2
    repeats = int(args[args.index("--repeats") + 1]) if "--repeats" in args else 3
    out = Path(args[0])
    data = measure(args[1], int(args[2]), int(args[3]), int(args[4]), repeats)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
