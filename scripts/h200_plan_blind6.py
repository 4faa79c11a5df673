"""Write scripts/h200_plan_blind6.json and scripts/h200_blind6_predictions.json: a sixth blind
batch, predicted here (exact counts and cache figures) before any of it ran, then measured with
the memory path's stages, twice (scripts/h200_call19.sh): kernels/idioms.cu, written for this
test (user code's idioms: a 64-bit stencil index, a size_t grid-stride loop, a padded transpose
tile, int64 batch strides, an integer division by a parameter), each at its three catalog sizes
(a small odd one, one that fits in the L2, one 1.3-3x the L2), and stencil7 at two sizes the
carry split lets the cache model follow (300x200x150: in and out 1.1x the L2; 258x257x255, 2.1x,
which the engine refused outright before: 74,880 blocks, more than it ran one at a time). No
constant of the model was chosen on any of them. Run where nvcc is: python scripts/h200_plan_blind6.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save
from h200_plan_blind3 import catalog_pairs

NEW_SIZES = (
    ("stencil7", {"X": 300, "Y": 200, "Z": 150}),
    ("stencil7", {"X": 258, "Y": 257, "Z": 255}),
)


def main() -> None:
    save("blind6", file_pairs(("idioms.cu",)) + catalog_pairs(NEW_SIZES))


if __name__ == "__main__":
    main()
