"""Write scripts/h200_plan_atomruns.json and scripts/h200_atomruns_predictions.json: how many sector
passes ncu counts for a warp's reduction whose lanes put unequal runs on the words of one sector.

Blind batch 25's histogram of Zipf keys measured 124,575 passes where warpsim.coalescer.atomic_passes
(each sector once per lane on its busiest word) gives 123,966. Stop 26 measured only equal runs
(32 lanes on one word, 16 on each of two words, 4 on each of eight). Here each launch repeats one
warp pattern (32 bins of kernels/sparse.cu's histogram, `counts[keys[i] & 1023] += 1`, a RED.E.ADD)
over 512 warps, so its measured passes over 512 are one warp's. The patterns: runs on the words
of sector 0 (bins 0-7) in several orders, the rest of the lanes one a sector (bins 8, 16, ...).
Run where nvcc is: python scripts/h200_plan_atomruns.py
"""

from __future__ import annotations

import numpy as np
from h200_plan_blind import histograms

WARPS = 512


def runs(*lengths: int, order: str = "blocked") -> list[int]:
    """32 bins: runs of `lengths` lanes on words 0, 1, 2, ... of sector 0 (blocked: word by word;
    interleaved: round robin), the remaining lanes one each on sectors 1, 2, ..."""
    words = [w for w, k in enumerate(lengths) for _ in range(k)]
    if order == "interleaved":
        left, words = list(lengths), []
        while any(left):
            for w, k in enumerate(left):
                if k:
                    words.append(w)
                    left[w] -= 1
    elif order == "reversed":
        words = words[::-1]
    return words + [8 * (s + 1) for s in range(32 - len(words))]


PATTERNS = {
    "one32": runs(32),
    "two16_blocked": runs(16, 16),
    "two16_interleaved": runs(16, 16, order="interleaved"),
    "r31_1": runs(31, 1), "r1_31": runs(1, 31), "r30_2": runs(30, 2), "r24_8": runs(24, 8),
    "r20_12": runs(20, 12), "r17_15": runs(17, 15), "r17_15_interleaved": runs(17, 15, order="interleaved"),
    "r2_1": runs(2, 1), "r1_2": runs(1, 2), "r3_2": runs(3, 2), "r3_1": runs(3, 1), "r2_2": runs(2, 2),
    "r2_1_1": runs(2, 1, 1), "r4_3_2_1": runs(4, 3, 2, 1), "r4_3_2_1_reversed": runs(4, 3, 2, 1, order="reversed"),
    "r12_5_3_2": runs(12, 5, 3, 2), "r16_8_8": runs(16, 8, 8), "r12_10_10": runs(12, 10, 10),
    "r8x4": runs(8, 8, 8, 8), "r4x8": runs(4, 4, 4, 4, 4, 4, 4, 4), "r5_4x6_3": runs(5, 4, 4, 4, 4, 4, 4, 3),
    "r2": runs(2), "r2_interleaved_1": runs(2, 1, order="interleaved"), "r6_1x7": runs(6, 1, 1, 1, 1, 1, 1, 1),
    # two sectors with runs each: sector 0 (10, 6) and sector 1 (8, 8), the rest one a sector
    "two_sectors": [0] * 10 + [1] * 6 + [8] * 8 + [9] * 8,
    "two_sectors_uneven": [0] * 10 + [1] * 6 + [8] * 12 + [9] * 4,
}


def main() -> None:
    assert all(len(bins) == 32 for bins in PATTERNS.values())
    histograms("atomruns", {name: np.tile(bins, WARPS) for name, bins in PATTERNS.items()})


if __name__ == "__main__":
    main()
