"""Write scripts/h200_plan_blind31.json and scripts/h200_blind31_predictions.json: a thirty-first
blind batch, predicted here before any of it ran (stop 37): kernels/quotients.cu past 2**20
blocks, which only residue classes count (block by block stops at 2**20): split_heads, whose
`t * 16 + blockIdx.x % 16` nvcc ORs together (alu._low_bits_only, new in stop 37), the batched
scale and Triton's grouped order, each with fewer than 256 classes (a divisor of 977 tiles
makes more pieces than the engine takes: refused). Not the flat transpose: past 2**20 blocks of
32 x 32 floats its buffers pass 4 GiB, and its 64-bit addresses cross a 4 GiB boundary within
its residue classes, which the engine refuses (at 200,001 x 255 it counts them). The cache model places at most 2**18
blocks: its refusal is the prediction there.
Run where nvcc is: python scripts/h200_plan_blind31.py
"""

from __future__ import annotations

from h200_plan_blind import predict, save
from h200_plan_blind30 import GEMM, HEADS, QUOTIENTS, RANGES, SCALE

LAUNCHES = [
    ("split_heads", "16*cdiv(tokens,4)", "64,4", {"tokens": (1 << 18) + 3, **HEADS}),  # 1,048,592 blocks
    ("batched_scale", "batches*cdiv(n,256)", "256", {"batches": 11_000, "n": 25_001, **SCALE}),  # 1,078,000
    ("grouped_tiles", "cdiv(M,32)*cdiv(N,32)", "32,8", {"M": 16_800_001, "N": 64, "K": 1, **GEMM}),  # 1,050,002
]


def main() -> None:
    save("blind31", [predict(QUOTIENTS, entry, grid, block, args, ranges=RANGES) for entry, grid, block, args in LAUNCHES])


if __name__ == "__main__":
    main()
