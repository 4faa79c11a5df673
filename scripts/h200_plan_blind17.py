"""Write scripts/h200_plan_blind17.json and scripts/h200_blind17_predictions.json: a seventeenth
blind batch, predicted here before any of it ran (stop 27, when no GPU was lent), to be measured
with the memory path's stages, twice (scripts/call38.sh): kernels/constants.cu, `__constant__`
variables that decide addresses and a loop bound (a stencil's int[5] offsets, a namespace's int
stride with a long long base, shorts read two to a bank word, a loop bound), given as the
program's cudaMemcpyToSymbol would set them (the GPU run sets them through CuPy's get_global);
and kernels/params.cu, a structure passed by value (laid out as C does, given field by field; the
GPU run packs it as a numpy structured scalar), an enum and a double.
Run where nvcc is: python scripts/h200_plan_blind17.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind17", file_pairs(("constants.cu", "params.cu")))


if __name__ == "__main__":
    main()
