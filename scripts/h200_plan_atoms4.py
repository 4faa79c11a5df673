"""Write scripts/h200_plan_atoms4.json and scripts/h200_atoms4_predictions.json: kernels/atomics2.cu,
float reductions whose lanes share words unevenly, predicted here (a sector counted as often as
the most lanes on one of its words: warpsim.coalescer.atomic) before they ran, measured twice
(scripts/call36.sh).
Run where nvcc is: python scripts/h200_plan_atoms4.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("atoms4", file_pairs(("atomics2.cu",)))


if __name__ == "__main__":
    main()
