"""Write scripts/h200_plan_blind14.json and scripts/h200_blind14_predictions.json: a fourteenth
blind batch, predicted here before any of it ran, then measured with the memory path's stages,
twice (scripts/h200_call30.sh): kernels/sortscan.cu, written for this test: a bitonic sort's
step (addresses from an exclusive or, counted block by block), a block scan whose shared reads
reach back a doubling distance, a dot product reduced by shuffles into one float atomic a warp,
and a transpose of doubles through a shared tile. Run where nvcc is: python scripts/h200_plan_blind14.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind14", file_pairs(("sortscan.cu",)))


if __name__ == "__main__":
    main()
