"""Write scripts/h200_plan_atoms5.json and scripts/h200_atoms5_predictions.json: kernels/halfatomic.cu,
atomicAdd on __half2 (a generic ATOM whose predicate says it was done, its emulation for shared
memory skipped), predicted here before it ran, measured twice (scripts/call37.sh).
Run where nvcc is: python scripts/h200_plan_atoms5.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("atoms5", file_pairs(("halfatomic.cu",)))


if __name__ == "__main__":
    main()
