"""Write scripts/h200_plan_blind19.json and scripts/h200_blind19_predictions.json: a nineteenth
blind batch, predicted here before any of it ran (stop 28), to be measured with the memory path's
stages, twice (scripts/call40.sh): kernels/textbook.cu, kernels as the textbooks and samples write
them, brought as a user would: the samples' column convolution (its halo above the image), PMPP's
2-D tiled convolution (a 20x20 block for a 16x16 tile), the diagonally reordered transpose (a
modulo by gridDim), GPU Gems 3's scan with conflict-free padding, an n-body tile of float4s, a
__noinline__ device function, an inline-PTX ld.global.nc.v4 and a cooperative-groups reduction.
Run where nvcc is: python scripts/h200_plan_blind19.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind19", file_pairs(("textbook.cu",)))


if __name__ == "__main__":
    main()
