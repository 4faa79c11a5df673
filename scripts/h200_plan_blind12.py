"""Write scripts/h200_plan_blind12.json and scripts/h200_blind12_predictions.json: a twelfth
blind batch, predicted here before any of it ran, then measured with the memory path's stages,
twice (scripts/h200_call26.sh): kernels/spill.cu, written for this test. Blind batch 11 measured
local memory's interleave (a 4-byte word per lane in turn) with 4- and 16-byte accesses of
per-thread arrays; this one claims it, before measuring, for 8-byte and 1-byte accesses, and for
registers nvcc spills under __launch_bounds__ (STL/LDL at one address for every lane, whose
values the engine now keeps so that an address reloaded from a spill is still followed). The
cache model refuses each launch (it does not follow local traffic): that refusal is its
prediction. Run where nvcc is: python scripts/h200_plan_blind12.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind12", file_pairs(("spill.cu",)))


if __name__ == "__main__":
    main()
