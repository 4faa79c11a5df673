"""Write scripts/h200_plan_atomdelta.json and scripts/h200_atomdelta_predictions.json: what in a warp
of blind batch 25's Zipf histogram makes ncu count sector passes beyond warpsim.coalescer.atomic_passes.
Call 52 found 4 such warps in 96 (3571: +1, 3583: +2, 3607: +1, 3609: +1 a warp, both runs). Here
warps 3571 and 3607, each changed one way per launch and repeated over 64 warps: as they are, lanes
sorted by bin, reversed, rotated by 1 and by 16 lanes, the lanes off sector 0 sent to sectors of their
own, the lanes off sector 0 moved 512 bins on, and each lane alone sent to a sector of its own (32).
Run where nvcc is: python scripts/h200_plan_atomdelta.py
"""

from __future__ import annotations

import numpy as np
from h200_plan_blind import REPO, histograms

KEYS = REPO / "traces/sass/sparse/keys200003-8c3ffab8c7a1c13c.npy"
WARPS, REPEAT = (3571, 3607), 64


def variants(bins: np.ndarray) -> dict[str, np.ndarray]:
    free = [s for s in range(127, -1, -1) if s not in set((bins // 8).tolist())]  # sectors the warp leaves
    off = bins >= 8
    out = {"orig": bins, "sorted": np.sort(bins), "reversed": bins[::-1], "rot1": np.roll(bins, 1),
           "rot16": np.roll(bins, 16)}
    alone = bins.copy()
    alone[off] = [8 * free[k] for k in range(int(off.sum()))]
    out["others_alone"] = alone
    out["others_shifted"] = np.where(off, (bins + 512) % 1024, bins)
    for lane in range(32):
        v = bins.copy()
        v[lane] = 8 * free[-1] + 3
        out[f"lane{lane:02d}_alone"] = v
    return out


def main() -> None:
    warps = np.load(KEYS)[:200_000].reshape(-1, 32) & 1023
    histograms("atomdelta", {f"w{w}_{name}": np.tile(bins, REPEAT) for w in WARPS
                             for name, bins in variants(warps[w].astype(np.int64)).items()})


if __name__ == "__main__":
    main()
