"""Write scripts/h200_plan_blind8.json and scripts/h200_blind8_predictions.json: an eighth blind
batch, predicted here (exact counts and cache figures) before any of it ran, then measured with
the memory path's stages, twice (scripts/h200_call21.sh): kernels/gridstride.cu, written for this
test (grid-stride loops over a flat index divided by a parameter: a per-column scale, a gathered
block of a wider matrix, a 2-D cyclic shift), each at its three catalog sizes on a fixed grid of
264, 528 or 1056 blocks (one that fits in the L2, one 1.3-2x the L2). The SASS engine counts every
one block by block, and the cache model follows them with an access per iteration of the loop
(caches.program.Concrete), which no measured launch had exercised when it was written. No
constant of the model was chosen on any of them. Run where nvcc is: python scripts/h200_plan_blind8.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind8", file_pairs(("gridstride.cu",)))


if __name__ == "__main__":
    main()
