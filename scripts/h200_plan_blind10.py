"""Write scripts/h200_plan_blind10.json and scripts/h200_blind10_predictions.json: a tenth blind
batch, predicted here (exact counts and cache figures) before any of it ran, then measured with
the memory path's stages, twice (scripts/h200_call24.sh): kernels/dynshared.cu, written for this
test, three kernels whose shared memory is dynamic (`extern __shared__`, sized at launch: the
catalog's `dynamic_shared`, warpsim's --dynamic-shared): a chunked reverse through a buffer of up
to 64 KiB (past 48 KiB, an opt-in; three blocks an SM), a row sum's tree, and a transpose whose
tile's row pad is a parameter (its bank conflicts decided at launch). No catalog kernel had
dynamic shared memory, and the GPU side could not launch one before this batch. Run where nvcc
is: python scripts/h200_plan_blind10.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind10", file_pairs(("dynshared.cu",)))


if __name__ == "__main__":
    main()
