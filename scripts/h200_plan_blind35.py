"""Write scripts/h200_plan_blind35.json and scripts/h200_blind35_predictions.json: the GEMM ladder
(the nine kernels of scripts/h200_plan_ladder.json) at sizes whose A, B and C together lie well
below, near, just above and well above the H100's 50 MiB L2 (12 n^2 bytes: 0.24x at 1024, 0.84x
at 1920, 1.21x at 2304, 1.65x at 2688, 3.84x at 4096), predicted with the H100's cache model
(warpsim.caches.hardware.H100: the H200's with the L2 and its curve scaled to 50 MiB) before any
ran. The committed H100 traces are small launches whose arrays fit in either L2; this batch
judges the model where the L2's size decides. Run where nvcc is: python scripts/h200_plan_blind35.py;
on the device: OUT=$OUT bash scripts/call65.sh
"""

from __future__ import annotations

from h200_plan_blind import ladder_pairs, save
from warpsim.caches.hardware import H100

SIZES = (1024, 1920, 2304, 2688, 4096)


def main() -> None:
    save("blind35", ladder_pairs(SIZES, H100))


if __name__ == "__main__":
    main()
