"""Write scripts/h200_plan_blind23.json and scripts/h200_blind23_predictions.json: a twenty-third
blind batch, predicted here before any of it ran (stop 30), to be measured with the memory path's
stages, twice (scripts/call46.sh): kernels/mathlib.cu, coordinates from the CUDA math library
(cosf and sinf of a parameter's angle, atan2f and sqrtf of a pixel's offsets, sinf of a row index,
logf of a squared distance), computed as the GPU rounds each FFMA of their polynomials, each
counted block by block. No numpy reference: the functions' last bits are the GPU's own.
Run where nvcc is: python scripts/h200_plan_blind23.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind23", file_pairs(("mathlib.cu",)))


if __name__ == "__main__":
    main()
