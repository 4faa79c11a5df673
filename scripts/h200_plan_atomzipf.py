"""Write scripts/h200_plan_atomzipf.json and scripts/h200_atomzipf_predictions.json: where blind batch
25's histogram of Zipf keys gets its 609 sector passes more than warpsim.coalescer.atomic_passes
gives (124,575 measured, 123,966 predicted, both runs), when every warp pattern of call 50 (29 of
them: equal and unequal runs on the words of a sector, one or two sectors with runs) matched the rule.
The same keys in 16 chunks of 391 warps (12,512 keys), each a launch of its own: if the excess is a
property of some warps, the chunks' excesses sum to 609; the whole launch again, and its warps in
reverse order (the same warps, another schedule).
Run where nvcc is: python scripts/h200_plan_atomzipf.py
"""

from __future__ import annotations

import numpy as np
from h200_plan_blind import REPO, histograms

KEYS = REPO / "traces/sass/sparse/keys200003-8c3ffab8c7a1c13c.npy"
CHUNK = 391 * 32


def main() -> None:
    keys = np.load(KEYS)
    full = (len(keys) // 32) * 32  # whole warps only: 6,250 of them
    sets = {f"chunk{c:02d}": keys[c * CHUNK:min((c + 1) * CHUNK, full)] for c in range(16)}
    sets["whole"] = keys[:full]
    sets["reversed"] = keys[:full].reshape(-1, 32)[::-1].reshape(-1)
    histograms("atomzipf", {f"zipf_{name}": values for name, values in sets.items()})


if __name__ == "__main__":
    main()
