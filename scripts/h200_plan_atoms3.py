"""Write scripts/h200_plan_atoms3.json and scripts/h200_atoms3_predictions.json: kernels/atomics.cu,
global atomics whose lanes share a word (float, double and 64-bit integer reductions to one, two
and eight words, an ATOMG whose old value is used), predicted here before they ran, measured twice
(scripts/call34.sh): how many sectors ncu counts for them, which warpsim reports and does not claim.
Run where nvcc is: python scripts/h200_plan_atoms3.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("atoms3", file_pairs(("atomics.cu",)))


if __name__ == "__main__":
    main()
