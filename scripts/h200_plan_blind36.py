"""Write scripts/h200_plan_blind36.json and scripts/h200_blind36_predictions.json: the GEMM ladder
(the nine kernels of scripts/h200_plan_ladder.json) at sizes in the gaps blind batch 35 left near
the H100's 50 MiB L2, where its DRAM misses lay (12 n^2 bytes: 0.96x at 2048, 1.08x at 2176, 1.35x
at 2432, 2.16x at 3072), predicted with the H100's cache model (warpsim.caches.hardware.H100, its
L2 curve the H200's scaled by 5/6, kept after blind batch 35) before any ran.
Run where nvcc is: python scripts/h200_plan_blind36.py; on the device: OUT=$OUT bash scripts/call68.sh
"""

from __future__ import annotations

import json

from h200_plan_blind import REPO, predict, save
from warpsim.caches.hardware import H100
from warpsim.registry import get_kernel

SIZES = (2048, 2176, 2432, 3072)
RANGES = ("l1_hit_sectors_range", "l2_read_sectors_range", "dram_read_bytes_range")


def main() -> None:
    ladder = json.loads((REPO / "scripts/h200_plan_ladder.json").read_text())["launches"]
    kernels = {}
    for e in ladder:  # one launch a kernel, in the ladder's order: its source, entry, block and scalars
        kernels.setdefault(e["id"].split("/")[0], e)
    pairs = []
    for n in SIZES:
        for name, like in kernels.items():
            k = get_kernel(name)
            grid = ",".join(str(g) for g in k.grid(n, n, k.default_block))
            pairs.append(predict(REPO / like["source"], like["entry"], grid, like["block_text"],
                                 {**like["args"], "M": n, "N": n, "K": n}, ranges=RANGES, hw=H100))
    save("blind36", pairs)


if __name__ == "__main__":
    main()
