"""Write scripts/h200_plan_blind7.json and scripts/h200_blind7_predictions.json: a seventh blind
batch, predicted here (exact counts and cache figures) before any of it ran, then measured with
the memory path's stages, twice (scripts/h200_call20.sh): kernels/flat.cu, written for this test
(a flat index divided by a parameter: a per-row scale, an outer product, a transpose without
tiles, a cyclic shift), each at its three catalog sizes (80 blocks or so; one that fits in the
L2; one 1.15-2x the L2, up to 62,501 blocks). The SASS engine counts every one block by block,
and the cache model follows them from every block's addresses (caches.program.Concrete), which
bias_add alone supported when it was written. No constant of the model was chosen on any of
them. Run where nvcc is: python scripts/h200_plan_blind7.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind7", file_pairs(("flat.cu",)))


if __name__ == "__main__":
    main()
