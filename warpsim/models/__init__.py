"""The kernel ladder: one registry entry per kernels/<name>.cu, with the model that mirrors it."""

from warpsim.models import (
    blocktile1d, blocktile2d, coalesced, naive, naive_coalesced, smem, vectorized, warptile, warptile_db,
)
from warpsim.registry import KernelSpec

_ALPHA_BETA = ("M", "N", "K", "alpha", "A", "B", "beta", "C")

LADDER = (
    KernelSpec(
        name="naive", entry="sgemm_naive", model=naive.sgemm_naive, default_block=(32, 32),
        tile=lambda block: (32, 32), args=_ALPHA_BETA,
        summary="seed 000: row from threadIdx.x, a warp walks down a column (A uncoalesced)",
    ),
    KernelSpec(
        name="naive_coalesced", entry="matmul_naive", model=naive_coalesced.matmul_naive,
        default_block=(32, 32), tile=lambda block: block, args=("A", "B", "C", "M", "N", "K"),
        summary="seeds 001/002: col from threadIdx.x, early return, C only written",
        block_fixed=False, reads_c=False,
    ),
    KernelSpec(
        name="coalesced", entry="sgemm_coalesced", model=coalesced.sgemm_coalesced, default_block=(32, 32),
        tile=lambda block: (32, 32), args=_ALPHA_BETA,
        summary="seed 000 with the mapping fixed: col from threadIdx.x (B and C coalesced)",
    ),
    KernelSpec(
        name="smem", entry="sgemm_smem", model=smem.sgemm_smem, default_block=(32, 32),
        tile=lambda block: (32, 32), args=_ALPHA_BETA,
        summary="32x32 shared-memory tiles of A and B",
    ),
    KernelSpec(
        name="blocktile1d", entry="sgemm_blocktile1d", model=blocktile1d.sgemm_blocktile1d, default_block=(512, 1),
        tile=lambda block: (64, 64), args=_ALPHA_BETA,
        summary="64x64 tile, BK=8, each thread a column of TM=8 results",
    ),
    KernelSpec(
        name="blocktile2d", entry="sgemm_blocktile2d", model=blocktile2d.sgemm_blocktile2d, default_block=(256, 1),
        tile=lambda block: (128, 128), args=_ALPHA_BETA,
        summary="128x128 tile, BK=8, each thread an 8x8 block of results",
    ),
    KernelSpec(
        name="vectorized", entry="sgemm_vectorized", model=vectorized.sgemm_vectorized, default_block=(256, 1),
        tile=lambda block: (128, 128), args=_ALPHA_BETA, multiple_of={"K": 4, "N": 4},
        summary="blocktile2d with float4 global loads and A transposed in shared memory",
    ),
    KernelSpec(
        name="warptile", entry="sgemm_warptile", model=warptile.sgemm_warptile, default_block=(128, 1),
        tile=lambda block: (128, 128), args=_ALPHA_BETA, multiple_of={"K": 4, "N": 4},
        summary="warp tiling: 128x128x16 block tile, 64x64 warp tiles, 8x4 per thread",
    ),
    KernelSpec(
        name="warptile_db", entry="sgemm_warptile_db", model=warptile_db.sgemm_warptile_db, default_block=(256, 1),
        tile=lambda block: (256, 128), args=_ALPHA_BETA, multiple_of={"K": 4, "N": 4},
        summary="warptile, double-buffered through registers, 128x256x8 block tile",
    ),
)
