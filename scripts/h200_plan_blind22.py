"""Write scripts/h200_plan_blind22.json and scripts/h200_blind22_predictions.json: a twenty-second
blind batch, predicted here before any of it ran (stop 30), to be measured with the memory path's
stages, twice (scripts/call45.sh): kernels/slowpaths.cu, coordinates from divisions, reciprocals
and square roots whose lanes take nvcc's slow paths (0 / 0 and x / 0 beside FSEL's |dx| and |dy|,
sqrtf of a negative, a ratio of denormals, 1.0f / scale and 1 / 0 through rcp.rn), each counted
block by block.
Run where nvcc is: python scripts/h200_plan_blind22.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind22", file_pairs(("slowpaths.cu",)))


if __name__ == "__main__":
    main()
