"""Write scripts/h200_plan_blind24.json and scripts/h200_blind24_predictions.json: a twenty-fourth
blind batch, predicted here before any of it ran (stop 30), to be measured with the memory path's
stages, twice (scripts/call47.sh): kernels/clamps.cu, indices clamped by max(min(i, hi), 0), which
nvcc compiles to VIMNMX.RELU and VIADDMNMX.RELU (a shifted copy that repeats its edges, a 3x3 blur
clamped to the image's edge, a clamped 1D filter in a loop).
Run where nvcc is: python scripts/h200_plan_blind24.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind24", file_pairs(("clamps.cu",)))


if __name__ == "__main__":
    main()
