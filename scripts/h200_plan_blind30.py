"""Write scripts/h200_plan_blind30.json and scripts/h200_blind30_predictions.json: a thirtieth
blind batch, predicted here before any of it ran (stop 37): kernels/quotients.cu, written for this
test of a block index divided by a constant (warpsim.sass.analyze.pieces' residue classes, new in
stop 36: before it each ran block by block, and past 2**20 blocks was refused). Exact counts and
cache figures at a small odd size, one inside the L2 and one 1.6-2x it; rgb_planar also past
2**20 blocks (1,171,878), where the cache model, which places block ranges only, refuses.
Run where nvcc is: python scripts/h200_plan_blind30.py
"""

from __future__ import annotations

from h200_plan_blind import REPO, predict, save

QUOTIENTS = REPO / "kernels" / "quotients.cu"
SCALE = {"x": "float[batches*n]", "y": "float[batches*n]"}
FLAT = {"in": "float[rows*cols]", "out": "float[rows*cols]"}
GEMM = {"A": "float[M*K]", "B": "float[K*N]", "C": "float[M*N]"}
RGB = {"rgb": "float[3*pixels]", "planes": "float[3*pixels]"}
HEADS = {"x": "float[tokens*1024]", "y": "float[tokens*1024]"}
LAUNCHES = (
    [("batched_scale", "batches*cdiv(n,256)", "256", {"batches": b, "n": n, **SCALE})
     for b, n in ((3, 97), (1_000, 3_001), (5_000, 3_001))]
    + [("transpose_flat", "cdiv(rows,32)*cdiv(cols,32)", "32,8", {"rows": r, "cols": c, **FLAT})
       for r, c in ((33, 65), (2_000, 1_999), (5_003, 3_001))]
    + [("grouped_tiles", "cdiv(M,32)*cdiv(N,32)", "32,8", {"M": m, "N": n, "K": k, **GEMM})
       for m, n, k in ((45, 70, 9), (600, 400, 64), (1_000, 1_000, 32))]
    + [("rgb_planar", "3*cdiv(pixels,128)", "128", {"pixels": p, **RGB})
       for p in (1_001, 1_000_003, 5_000_011, 50_000_017)]
    + [("split_heads", "16*cdiv(tokens,4)", "64,4", {"tokens": t, **HEADS}) for t in (7, 5_003, 15_001)])

#: the cache prediction's ranges each launch's prediction holds, which the measurements are judged by
RANGES = ("l1_hit_sectors_range", "l2_read_sectors_range", "dram_read_bytes_range")
SMALL = {97, 65, 9, 1_001, 7}  # the small sizes: counted per array


def main() -> None:
    save("blind30", [predict(QUOTIENTS, entry, grid, block, args, per_array=bool(SMALL & set(args.values())),
                             ranges=RANGES) for entry, grid, block, args in LAUNCHES])


if __name__ == "__main__":
    main()
