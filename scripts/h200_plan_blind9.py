"""Write scripts/h200_plan_blind9.json and scripts/h200_blind9_predictions.json: a ninth blind
batch, predicted here (exact counts and cache figures) before any of it ran, then measured with
the memory path's stages, twice (scripts/h200_call23.sh): kernels/pixels.cu, written for this
test (byte loads three a pixel 3 bytes apart, a 3 x 3 blur of bytes whose neighbours are clamped
at the borders with min/max, and column sums: a thread a column and a loop down the rows), each
at its three catalog sizes (a small odd one, one that fits in the L2, one 1.5-1.7x the L2). No
kernel of the catalog loads bytes; no constant of the model was chosen on any of them. Run where
nvcc is: python scripts/h200_plan_blind9.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind9", file_pairs(("pixels.cu",)))


if __name__ == "__main__":
    main()
