"""Write scripts/h200_plan_blind36.json and scripts/h200_blind36_predictions.json: the GEMM ladder
(the nine kernels of scripts/h200_plan_ladder.json) at sizes in the gaps blind batch 35 left near
the H100's 50 MiB L2, where its DRAM misses lay (12 n^2 bytes: 0.96x at 2048, 1.08x at 2176, 1.35x
at 2432, 2.16x at 3072), predicted with the H100's cache model (warpsim.caches.hardware.H100, its
L2 curve the H200's scaled by 5/6, kept after blind batch 35) before any ran.
Run where nvcc is: python scripts/h200_plan_blind36.py; on the device: OUT=$OUT bash scripts/call68.sh
"""

from __future__ import annotations

from h200_plan_blind import ladder_pairs, save
from warpsim.caches.hardware import H100

SIZES = (2048, 2176, 2432, 3072)


def main() -> None:
    save("blind36", ladder_pairs(SIZES, H100))


if __name__ == "__main__":
    main()
