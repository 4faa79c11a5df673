"""Write scripts/h200_plan_blind4.json and scripts/h200_blind4_predictions.json: a fourth blind
batch, at the sizes issue 10's targets name, predicted here (exact counts and cache figures)
before any of them ran, then measured with the memory path's stages (scripts/h200_call16.sh): the
nine ladder kernels at 1400x1300x1200 (A, B and C 20.2 MB, 0.32x the 60 MiB L2: well below it),
2600^3 (81.1 MB, 1.29x: just above), 3000^3 (108 MB, 1.72x) and 3584^3 (154 MB, 2.45x: well
above), sizes no trace has and no constant was chosen on (3000 and 1400x1300x1200 a multiple of
no tile side). Run where nvcc is: python scripts/h200_plan_blind4.py
"""

from __future__ import annotations

from h200_plan_blind import save
from h200_plan_blind3 import ladder_pairs

SIZES = ((1400, 1300, 1200), (2600, 2600, 2600), (3000, 3000, 3000), (3584, 3584, 3584))


def main() -> None:
    pairs = [pair for M, N, K in SIZES for pair in ladder_pairs(M, N, K)]
    save("blind4", pairs)


if __name__ == "__main__":
    main()
