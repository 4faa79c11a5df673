"""Write scripts/h200_plan_blind18.json and scripts/h200_blind18_predictions.json: an eighteenth
blind batch, predicted here before any of it ran (stop 28), to be measured with the memory path's
stages, twice (scripts/call39.sh): kernels/halo.cu, the CUDA samples' row convolution through a
16x4 shared tile with one halo step a side, whose first column of blocks reads its left halo from
left of the image (a 64-bit address's carry across zero that the block's side of an edge decides,
refused before stop 28), with float `__constant__` weights given by value (the GPU run sets them
through CuPy's get_global), at 1024x1000 (pitch 1036: odd rows a sector off), 3072^2 and
4096^2 (pitch 4100: the two images 1.1x the L2).
Run where nvcc is: python scripts/h200_plan_blind18.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind18", file_pairs(("halo.cu",)))


if __name__ == "__main__":
    main()
