"""Write scripts/h200_plan_blind29.json and scripts/h200_blind29_predictions.json: a twenty-ninth
blind batch, predicted here before any of it ran (stop 34): kernels/cubstore.cu, written for this
test of a value one thread hands the block through shared memory, which then decides the stores
(CUB's guarded BlockStore, a copy through BlockLoad and BlockStore, the same written by hand:
warpsim.sass.ops_memory._shared_words, new in this stop; before it, each was refused as steered
by data). Exact counts and cache figures at a small odd size and at two inside the L2.
Run where nvcc is: python scripts/h200_plan_blind29.py
"""

from __future__ import annotations

from h200_plan_blind import REPO, predict, save

CUBSTORE = REPO / "kernels" / "cubstore.cu"
SIZES = (97, 1_000_003, 3_000_017)
LAUNCHES = [(entry, "cdiv(n,512)", "128", {"n": n, "x": "float[n]", "y": "float[n]"})
            for entry in ("store_warp_striped", "copy_transpose") for n in SIZES]
LAUNCHES += [("shared_count", "cdiv(n,256)", "256", {"n": n, "x": "float[n]", "y": "float[n]"}) for n in SIZES]

#: the cache prediction's ranges each launch's prediction holds, which the measurements are judged by
RANGES = ("l1_hit_sectors_range", "l2_read_sectors_range", "dram_read_bytes_range")


def main() -> None:
    save("blind29", [predict(CUBSTORE, entry, grid, block, args, per_array=args["n"] == 97, ranges=RANGES)
                     for entry, grid, block, args in LAUNCHES])


if __name__ == "__main__":
    main()
