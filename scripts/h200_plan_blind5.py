"""Write scripts/h200_plan_blind5.json and scripts/h200_blind5_predictions.json: a fifth blind
batch, predicted here (exact counts and cache figures) before any of it ran, then measured with
the memory path's stages, twice (scripts/h200_call18.sh): every catalog kernel at a size of its
kind that no trace has, several of them above the 60 MiB L2 (transpose_tiled<0> 3001x2999 1.2x,
axpy_float2 n = 12345679 1.6x, stencil5 3000x5000 1.9x, sgemm_splitk 2048x1536x4096 1.1x,
sgemm_batched 1024x768x640 x 10 1.4x), and the nine ladder kernels at 2944x2112x1536 (A, B and C
56 MB, 0.89x the L2: just below it, no side a multiple of 128). No constant of the model was
chosen on any of them. Run where nvcc is: python scripts/h200_plan_blind5.py
"""

from __future__ import annotations

from h200_plan_blind import save
from h200_plan_blind3 import catalog_pairs, ladder_pairs

SHAPE = (2944, 2112, 1536)  # M, N, K of the ladder's launches
#: (entry, sizes): the catalog kernel's other arguments and buffers as listed
NEW_SIZES = (
    ("transpose_naive", {"M": 2222, "N": 1333}),
    ("transpose_tiled<0>", {"M": 3001, "N": 2999}),
    ("transpose_tiled<1>", {"M": 777, "N": 1555}),
    ("gemv_row", {"M": 4000, "N": 3000}),
    ("gemv_warp", {"M": 1234, "N": 5678}),
    ("sgemm_bt", {"M": 1500, "N": 900, "K": 700}),
    ("trmm_lower", {"M": 1200, "N": 800}),
    ("trmm_lower_coalesced", {"M": 2600, "N": 1000}),
    ("axpy_float2", {"n": 12345679}),
    ("hgemm_naive", {"M": 1536, "N": 1000, "K": 768}),
    ("dgemm_smem", {"M": 1200, "N": 1000, "K": 900}),
    ("sgemm_cp_async", {"M": 1700, "N": 1300, "K": 900}),
    ("sgemm_cp_async_vec4", {"M": 1500, "N": 1204, "K": 1000}),
    ("wmma_tf32_global", {"M": 1024, "N": 768, "K": 512}),
    ("wmma_tf32_smem", {"M": 1500, "N": 700, "K": 600}),
    ("wmma_half_smem", {"M": 1111, "N": 999, "K": 555}),
    ("sgemm_splitk", {"M": 2048, "N": 1536, "K": 4096, "splits": 4}),
    ("sgemm_batched", {"M": 1024, "N": 768, "K": 640, "batch": 10}),
    ("stencil5", {"M": 3000, "N": 5000}),
    ("softmax_warp", {"M": 5000, "N": 1500}),
    ("row_sum", {"M": 2000, "N": 9000}),
    ("conv1d_smem<3>", {"n": 5000011}),
    ("conv1d_smem<8>", {"n": 12000007}),
    ("ratio", {"n": 3000001}),
    ("halvings", {"n": 2000003}),
    ("mandel", {"W": 2000, "H": 1500, "maxit": 128, "dx": 0.0015}),
    ("layernorm_warp", {"M": 3000, "N": 2500}),
    ("stencil7", {"X": 200, "Y": 150, "Z": 100}),
)


def main() -> None:
    pairs = ladder_pairs(*SHAPE) + catalog_pairs(NEW_SIZES)
    save("blind5", pairs)


if __name__ == "__main__":
    main()
