"""The kernel ladder: one registry entry per kernels/<name>.cu, with the model that mirrors it."""

from warpsim.models import coalesced, naive, naive_coalesced
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
)
