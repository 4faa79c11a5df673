"""Write scripts/h200_plan_blind15.json and scripts/h200_blind15_predictions.json: a fifteenth
blind batch, predicted here before any of it ran, then measured with the memory path's stages,
twice (scripts/h200_call30.sh): kernels/votes.cu, written for this test: an integer atomicAdd
to one address, which nvcc aggregates a warp at a time (VOTEU.ANY, UFLO, UPOPC, one REDG from the
elected lane), a ballot of a condition computed from data, and a histogram in shared memory whose
atomics (ATOMS) fall on spread banks, on 8 words of one bank, or on one word, as the keys the
launch gives and a shift decide. Run where nvcc is: python scripts/h200_plan_blind15.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind15", file_pairs(("votes.cu",)))


if __name__ == "__main__":
    main()
