"""Write scripts/h200_plan_blind20.json and scripts/h200_blind20_predictions.json: a twentieth
blind batch, predicted here before any of it ran (stop 29), to be measured with the memory path's
stages, twice (scripts/call43.sh): kernels/images.cu, addresses computed in floating point from the
indices (nearest-neighbour and bilinear resizing, a byte image rounded to nearest, taps at float
offsets in a loop), each counted block by block.
Run where nvcc is: python scripts/h200_plan_blind20.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind20", file_pairs(("images.cu",)))


if __name__ == "__main__":
    main()
