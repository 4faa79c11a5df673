"""Write scripts/h200_plan_blind37.json and scripts/h200_blind37_predictions.json: the GEMM ladder
(the nine kernels of scripts/h200_plan_ladder.json) at sizes neither blind batch 35 nor 36 had
(12 n^2 bytes: 0.73x the H100's 50 MiB L2 at 1792, 1.02x at 2112, 1.50x at 2560, 1.98x at 2944,
2.94x at 3584), predicted before any ran with the H100's cache model as it stands (its L2 curve the
H200's scaled by 5/6: "caches") and with the curve scaled by 0.9 instead ("caches_l2_0.9"), the
scale that put most DRAM figures of batches 35 and 36 within tolerance (scripts/h100_l2_scale.py).
This batch decides between them, blind. Run where nvcc is: python scripts/h200_plan_blind37.py;
on the device: OUT=$OUT bash scripts/call69.sh
"""

from __future__ import annotations

import json
from dataclasses import replace

from h200_plan_blind import REPO, predict, save
from warpsim import caches
from warpsim.caches.hardware import H100, H200
from warpsim.registry import get_kernel

SIZES = (1792, 2112, 2560, 2944, 3584)
RANGES = ("l1_hit_sectors_range", "l2_read_sectors_range", "dram_read_bytes_range")
#: the H100 with the H200's L2 curve scaled by 0.9 in place of 5/6
H100_09 = replace(H100, l2_effective=H200.l2_effective * 9 // 10, l2_softness=H200.l2_softness * 9 // 10,
                  l2_staggered_effective=H200.l2_staggered_effective * 9 // 10,
                  l2_staggered_softness=H200.l2_staggered_softness * 9 // 10)


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
            launch, prediction = predict(REPO / like["source"], like["entry"], grid, like["block_text"],
                                         {**like["args"], "M": n, "N": n, "K": n}, ranges=RANGES, hw=H100)
            prediction["caches_l2_0.9"] = caches.caches_for(name, n, n, n, hw=H100_09).total.as_dict()
            pairs.append((launch, prediction))
    save("blind37", pairs)


if __name__ == "__main__":
    main()
