"""Write scripts/h200_plan_holdout.json: the nine ladder kernels at two sizes no committed trace
has and no cache-model constant was chosen on (issue 10, held out): 2816^3 (A+B+C 95.2 MB, 1.51x
the 60 MiB L2: the band just above it) and 1800x1900x1700 (38.8 MB, 0.62x: it fits; a multiple of
no tile side). Run where nvcc is: python scripts/h200_plan_holdout.py
"""

from __future__ import annotations

import json
from pathlib import Path

from profiling import plan
from warpsim.registry import get_kernel

LADDER = ("naive", "naive_coalesced", "coalesced", "smem", "blocktile1d", "blocktile2d", "vectorized", "warptile",
          "warptile_db")
SIZES = ((2816, 2816, 2816), (1800, 1900, 1700))
REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    ladder = {e["id"].split("/")[0]: e for e in json.loads((REPO / "scripts/h200_plan_ladder.json").read_text())["launches"]}
    launches = []
    for name in LADDER:
        like, k = ladder[name], get_kernel(name)
        block = like["block_text"]
        for M, N, K in SIZES:
            args = {**like["args"], "M": M, "N": N, "K": K}
            k.check_sizes(M, N, K)
            grid = ",".join(str(g) for g in k.grid(M, N, k.default_block))
            launches.append(plan.build(REPO / like["source"], like["entry"], grid, block, args, REPO / "traces",
                                       reference=like.get("reference")))
    out = plan.save(launches, REPO / "scripts/h200_plan_holdout.json")
    print(f"wrote {out}: {len(launches)} launches")


if __name__ == "__main__":
    main()
