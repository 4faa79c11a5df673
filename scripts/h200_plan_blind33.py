"""Write scripts/h200_plan_blind33.json and scripts/h200_blind33_predictions.json: a thirty-third
blind batch, predicted here before any of it ran (stop 38): kernels/quotients.cu where a block
index's divisor has more than 256 classes, which the engine now takes as quotient and remainder,
a dimension each (analyze.pieces, values.QUOTIENT): the flat transpose at 258 tiles a row (66,306
blocks) and at 1,250 (40,000 x 40,000, 1,562,500 blocks, 6.4 GB a matrix), the batched scale at
391 and at 977 tiles a row (the latter 1,074,700 blocks), Triton's grouped order with 500 blocks
a group. The two past 2**20 blocks were refused before this stop; the cache model places at most
2**18 blocks, so its refusal is the prediction there.
Run where nvcc is: python scripts/h200_plan_blind33.py
"""

from __future__ import annotations

from h200_plan_blind import predict, save
from h200_plan_blind30 import FLAT, GEMM, QUOTIENTS, RANGES, SCALE

LAUNCHES = [
    ("transpose_flat", "cdiv(rows,32)*cdiv(cols,32)", "32,8", {"rows": 8_224, "cols": 8_229, **FLAT}),  # 66,306
    ("transpose_flat", "cdiv(rows,32)*cdiv(cols,32)", "32,8", {"rows": 40_000, "cols": 40_000, **FLAT}),  # 1,562,500
    ("batched_scale", "batches*cdiv(n,256)", "256", {"batches": 300, "n": 100_003, **SCALE}),  # 117,300
    ("batched_scale", "batches*cdiv(n,256)", "256", {"batches": 1_100, "n": 250_001, **SCALE}),  # 1,074,700
    ("grouped_tiles", "cdiv(M,32)*cdiv(N,32)", "32,8", {"M": 4_000, "N": 4_000, "K": 8, **GEMM}),  # 15,625
]


def main() -> None:
    save("blind33", [predict(QUOTIENTS, entry, grid, block, args, ranges=RANGES) for entry, grid, block, args in LAUNCHES])


if __name__ == "__main__":
    main()
