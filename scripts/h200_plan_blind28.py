"""Write scripts/h200_plan_blind28.json and scripts/h200_blind28_predictions.json: a twenty-eighth
blind batch, predicted here before any of it ran (stop 34): kernels/cub.cu, written for this test
of kernels built on CUB's collectives (CCCL, shipped with the pinned toolkit) instead of by hand.
A block reduction, a block prefix sum whose warp scan nvcc guards with BRA.DIV (the check that
the warp has converged: warpsim.sass.ops_memory._bra_convergence, new in this stop), a warp scan
after the out-of-range threads returned, and a blocked load transposed through shared memory.
Exact counts (global and shared, bank conflicts among them) and cache figures, each at a small
odd size and at two inside the L2 (4 and 12 MB an array).
Run where nvcc is: python scripts/h200_plan_blind28.py
"""

from __future__ import annotations

from h200_plan_blind import REPO, predict, save

CUB = REPO / "kernels" / "cub.cu"
SIZES = (97, 1_000_003, 3_000_017)
LAUNCHES = [("block_sum", "cdiv(n,128)", {"n": n, "x": "float[n]", "out": "float[cdiv(n,128)]"}) for n in SIZES]
LAUNCHES += [("block_scan", "cdiv(n,128)", {"n": n, "x": "int[n]", "y": "int[n]"}) for n in SIZES]
LAUNCHES += [("warp_scan_exit", "cdiv(n,128)", {"n": n, "x": "int[n]", "y": "int[n]"}) for n in SIZES]
LAUNCHES += [("load_transpose_sum", "cdiv(n,512)", {"n": n, "x": "float[n]", "out": "float[cdiv(n,512)]"})
             for n in SIZES]

#: the cache prediction's ranges each launch's prediction holds, which the measurements are judged by
RANGES = ("l1_hit_sectors_range", "l2_read_sectors_range", "dram_read_bytes_range")


def main() -> None:
    save("blind28", [predict(CUB, entry, grid, "128", args, per_array=args["n"] == 97, ranges=RANGES)
                     for entry, grid, args in LAUNCHES])


if __name__ == "__main__":
    main()
