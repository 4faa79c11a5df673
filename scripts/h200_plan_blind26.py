"""Write scripts/h200_plan_blind26.json and scripts/h200_blind26_predictions.json: a twenty-sixth
blind batch, predicted here before any of it ran (stop 32): kernels/leftout.cu, written for this
test of the figures the cache model gives as ranges (CachePrediction.left_out): local memory at an
index per lane (a per-thread histogram, a ring read back 5 steps after it was written) and a store
that fills a third of each sector it touches. The prediction of each launch holds, beside the
exact counts and the cache totals, its L2 and DRAM read ranges, which the measured figures are
claimed to lie in. Run where nvcc is: python scripts/h200_plan_blind26.py
"""

from __future__ import annotations

from h200_plan_blind import REPO, predict, save

LEFTOUT = REPO / "kernels" / "leftout.cu"
LAUNCHES = [("local_hist", {"n": n, "rounds": 20, "keys": "int[n]=(i*7919)%41", "out": "int[32*n]"})
            for n in (97, 100_003, 300_007)]
LAUNCHES += [("ring", {"n": n, "steps": 40, "in": "float[16*n]", "out": "float[n]"}) for n in (97, 200_003, 500_009)]
LAUNCHES += [("every_third", {"n": n, "x": "float[n]", "y": "float[3*n]"}) for n in (97, 1_000_003, 2_000_003)]


#: the cache prediction's ranges each launch's prediction holds, which the measurements are judged by
RANGES = ("l2_read_sectors_range", "dram_read_bytes_range", "local_sectors", "partly_written_sectors")


def main() -> None:
    save("blind26", [predict(LEFTOUT, entry, "cdiv(n,256)", "256", args, per_array=args["n"] == 97,
                             ranges=RANGES) for entry, args in LAUNCHES])


if __name__ == "__main__":
    main()
