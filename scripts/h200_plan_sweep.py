"""Write scripts/h200_plan_sweep.json and scripts/h200_sweep_predictions.json: naive, coalesced
and smem at every size from 2816^3 to 3200^3 in steps of 32, and at 3000^3 (A, B and C 1.51x to
1.95x the 60 MiB L2). Blind batch 4 found the H200 reading more from DRAM at 3000^3 than at
3072^3 though the matrices are 4% smaller, where the model's soft-capacity LRU falls with the
size (tests/test_caches_recorded.py): the sweep measures how DRAM reads grow with the size
just above the L2 (scripts/h200_call17.sh). Run where nvcc is: python scripts/h200_plan_sweep.py
"""

from __future__ import annotations

import json

from h200_plan_blind import REPO, predict, save
from warpsim.registry import get_kernel

KERNELS = ("naive", "coalesced", "smem")
SIZES = tuple(sorted({*range(2816, 3201, 32), 3000}))


def main() -> None:
    ladder = {e["id"].split("/")[0]: e for e in json.loads((REPO / "scripts/h200_plan_ladder.json").read_text())["launches"]}
    pairs = []
    for n in SIZES:
        for name in KERNELS:
            like, k = ladder[name], get_kernel(name)
            grid = ",".join(str(g) for g in k.grid(n, n, k.default_block))
            pairs.append(predict(REPO / like["source"], like["entry"], grid, like["block_text"],
                                 {**like["args"], "M": n, "N": n, "K": n}))
    save("sweep", pairs)


if __name__ == "__main__":
    main()
