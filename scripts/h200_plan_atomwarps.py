"""Write scripts/h200_plan_atomwarps.json and scripts/h200_atomwarps_predictions.json: which warps of
blind batch 25's Zipf histogram take sector passes beyond warpsim.coalescer.atomic_passes. Call 51
showed the excess additive over 16 chunks of warps (their 572 = the whole's, in either order), so a
property of single warps: here 96 warps of chunk 9 (excess 47 over 391 warps), each repeated over
512 warps in a launch of its own (as call 50's patterns), so its measured passes over 512 are its own.
Run where nvcc is: python scripts/h200_plan_atomwarps.py
"""

from __future__ import annotations

import numpy as np
from h200_plan_blind import REPO, histograms

KEYS = REPO / "traces/sass/sparse/keys200003-8c3ffab8c7a1c13c.npy"
FIRST, COUNT, REPEAT = 9 * 391, 96, 512


def main() -> None:
    warps = np.load(KEYS)[:200_000].reshape(-1, 32)
    histograms("atomwarps", {f"zipf_warp{w}": np.tile(warps[w], REPEAT) for w in range(FIRST, FIRST + COUNT)})


if __name__ == "__main__":
    main()
