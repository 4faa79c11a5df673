"""Write scripts/h200_plan_blind21.json and scripts/h200_blind21_predictions.json: a twenty-first
blind batch, predicted here before any of it ran (stop 29), to be measured with the memory path's
stages, twice (scripts/call44.sh): kernels/coords.cu, coordinates from a float division
((x + 0.5f) / scale: nvcc's division with its slow-path check, FCHK), from doubles (a double
scale in one DFMA, a double literal's (int)(y * 1.5)), from a division inside a loop and from
sqrtf (a packed triangle's row; a radial profile, sqrtf(0) at its centre taking the slow path's
call), each counted block by block.
Run where nvcc is: python scripts/h200_plan_blind21.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind21", file_pairs(("coords.cu",)))


if __name__ == "__main__":
    main()
