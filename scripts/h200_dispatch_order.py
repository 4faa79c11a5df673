"""The H200's block dispatch order in a launch's first wave, rebuilt from the block schedules
(traces/schedule/) and checked against them.

    python scripts/h200_dispatch_order.py

The dispatcher walks a fixed cycle of 124 SMs, TPC slot by TPC slot (p = 0..7), each slot across
the GPCs that have it (SMs 0-63: four GPCs of eight TPCs, SM 16 g + 2 p and the next; SMs 64-119:
four of seven, SM 64 + 14 g + 2 (p - 1) for p >= 1; SMs 120-121 after slot 6's, 122-123 after
slot 7's), one block to an SM with a free slot; SMs 124-131 take one block each, all eight at
once, at the launch's first block and about every 100 blocks after; a full SM is passed over.
Where the cycle starts turns from launch to launch (the slot after the first burst). For each
measured launch the script prints the share of first-wave blocks this puts on the SM measured
(the cycle started where that launch's did) and the commonest gap sequences between one SM's
blocks, rebuilt and measured.

Printed on the committed schedules (36 launches): 84-94% of the first-wave blocks on the measured SM, for 2
blocks an SM (naive, coalesced, smem), 3 (blocktile1d) and 10 (wmma_tf32_smem). docs/CACHES.md
(assumption 3) says why warpsim.caches does not use it: taking its co-resident groups for the
first wave's L1 replay put fewer L2 read figures within 10% (602 of 741 traces against 611).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

SCHEDULES = Path(__file__).resolve().parent.parent / "traces" / "schedule"
SMS, BURST, EVERY = 132, tuple(range(124, 132)), 100


def cycle() -> list[int]:
    order = []
    for p in range(8):
        order += [sm for g in range(4) for sm in (16 * g + 2 * p, 16 * g + 2 * p + 1)]
        if p >= 1:
            order += [sm for g in range(4) for sm in (64 + 14 * g + 2 * (p - 1), 65 + 14 * g + 2 * (p - 1))]
        if p >= 6:
            order += [120 + 2 * (p - 6), 121 + 2 * (p - 6)]
    assert sorted(order) == list(range(124))
    return order


def first_wave(blocks_per_sm: int, phase: int) -> np.ndarray:
    """The SM of each block of the first wave, the cycle started at TPC slot `phase`."""
    order, held, out = cycle(), Counter(), []
    pos, since = order.index(2 * phase), EVERY
    while len(out) < blocks_per_sm * SMS:
        if since >= EVERY and any(held[b] < blocks_per_sm for b in BURST):
            for b in (b for b in BURST if held[b] < blocks_per_sm):
                out.append(b)
                held[b] += 1
            since = len(BURST)
            continue
        sm, pos = order[pos % len(order)], pos + 1
        if held[sm] < blocks_per_sm:
            out.append(sm)
            held[sm] += 1
            since += 1
    return np.array(out[: blocks_per_sm * SMS])


def gap_sequences(sm: np.ndarray) -> Counter:
    blocks: dict = {}
    for b, s in enumerate(sm):
        blocks.setdefault(int(s), []).append(b)
    return Counter(tuple(int(g) for g in np.diff(v)) for v in blocks.values())


def checks():
    """Per measured launch that fills a wave: (schedule, blocks an SM, the share of first-wave
    blocks rebuilt on the measured SM, rebuilt and measured gap sequences)."""
    for path in sorted(SCHEDULES.glob("*.json")):
        data = json.loads(path.read_text())
        if "runs" not in data:  # not a block schedule (occupancy_h200.json and its metadata)
            continue
        for run in data["runs"]:
            sm, start, end = (np.asarray(run[k], dtype=float) for k in ("sm", "start_ns", "end_ns"))
            first = int((start < 0.05 * np.median(end - start)).sum())  # blocks that start at once
            per_sm = first // SMS
            if per_sm < 1 or first % SMS:
                continue  # a launch smaller than one wave
            measured = sm[:first].astype(int)
            phase = next((p for p in range(8) if measured[len(BURST)] == 2 * p), 0)
            rebuilt = first_wave(per_sm, phase)
            yield path.stem, per_sm, float(np.mean(rebuilt == measured)), gap_sequences(rebuilt), gap_sequences(measured)


def main() -> None:
    for name, per_sm, share, rebuilt, measured in checks():
        print(f"{name:36s} {per_sm:2d} an SM: {share:.1%} on the measured SM; commonest gaps rebuilt "
              f"{rebuilt.most_common(2)}, measured {measured.most_common(2)}")


if __name__ == "__main__":
    main()
