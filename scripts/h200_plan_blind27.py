"""Write scripts/h200_plan_blind27.json and scripts/h200_blind27_predictions.json: a twenty-seventh
blind batch, predicted here before any of it ran (stop 33): kernels/cacheops.cu, written for this
test of the cache operators a load may carry. One three-point stencil loaded six ways (plain,
__ldcg, volatile, __ldcs, __ldlu, L1::no_allocate), an acquire load that invalidates L1 before the
plain stencil, and a store through __stcg, __stcs and __stwt. The exact counts are the same across
the stencils; the cache model says the strong loads of GPU and system scope and the no-allocate
ones get no L1 hit and send every sector to L2 (warpsim.caches.program.NO_L1), the eviction hints
are served as plain loads, and the invalidating launch's L1 hits lie anywhere from 0 to the
plain stencil's. Each prediction holds its L1 hit and L2 read ranges beside the cache totals.
Run where nvcc is: python scripts/h200_plan_blind27.py
"""

from __future__ import annotations

from h200_plan_blind import REPO, predict, save

CACHEOPS = REPO / "kernels" / "cacheops.cu"
SIZES = (97, 1_000_003, 3_000_017)
STENCILS = ("stencil_plain", "stencil_cg", "stencil_volatile", "stencil_cs", "stencil_lu", "stencil_na")
LAUNCHES = [(entry, {"n": n, "x": "float[n]", "y": "float[n]"}) for entry in STENCILS for n in SIZES]
LAUNCHES += [("stencil_acquire", {"n": n, "x": "float[n]", "flag": "int[1]", "y": "float[n]"}) for n in SIZES]
LAUNCHES += [("store_ops", {"n": n, "x": "float[n]", **dict.fromkeys("abc", "float[n]")}) for n in SIZES]


#: the cache prediction's ranges each launch's prediction holds, which the measurements are judged by
RANGES = ("l1_hit_sectors_range", "l2_read_sectors_range", "dram_read_bytes_range", "l1_invalidated")


def main() -> None:
    save("blind27", [predict(CACHEOPS, entry, "cdiv(n,256)", "256", args, per_array=args["n"] == 97,
                             ranges=RANGES) for entry, args in LAUNCHES])


if __name__ == "__main__":
    main()
