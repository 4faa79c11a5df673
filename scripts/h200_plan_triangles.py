"""Write scripts/h200_plan_triangles.json: the two lower-triangular products of the catalog at
three sizes no committed trace has, recorded after footprint.exact took DRAM's 64-byte pieces
from the committed trmm traces (issue 10, held out): whether the triangle's pieces, not its
sectors, are what DRAM reads. 1000x700 (6.9 MB), 1777x333 (15.7 MB, misaligned rows) and
2400x1200 (46.1 MB, 0.73x the L2). Run where nvcc is: python scripts/h200_plan_triangles.py
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from profiling import plan

REPO = Path(__file__).resolve().parent.parent
SIZES = ((1000, 700), (1777, 333), (2400, 1200))


def main() -> None:
    catalog = tomllib.loads((REPO / "kernels/catalog.toml").read_text())["kernel"]
    launches = []
    for e in (e for e in catalog if e["entry"].startswith("trmm_lower")):
        for M, N in SIZES:
            args = {"M": M, "N": N, **e["buffers"]}
            launches.append(plan.build(REPO / "kernels" / e["file"], e["entry"], e["grid"], e["block"], args,
                                       REPO / "traces"))
    out = plan.save(launches, REPO / "scripts/h200_plan_triangles.json")
    print(f"wrote {out}: {len(launches)} launches")


if __name__ == "__main__":
    main()
