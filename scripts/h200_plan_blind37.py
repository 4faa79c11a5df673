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

from h200_plan_blind import ladder_pairs, save
from warpsim import caches
from warpsim.caches.hardware import H100, H200, l2_curve_scaled

SIZES = (1792, 2112, 2560, 2944, 3584)
#: the H100 with the H200's L2 curve scaled by 0.9 in place of 5/6
H100_09 = l2_curve_scaled(H200, 9, 10, name=H100.name, l2=H100.l2)


def main() -> None:
    save("blind37", ladder_pairs(SIZES, H100, lambda name, n: {
        "caches_l2_0.9": caches.caches_for(name, n, n, n, hw=H100_09).total.as_dict()}))


if __name__ == "__main__":
    main()
