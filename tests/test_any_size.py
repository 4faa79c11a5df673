"""Counts that never wrap, at any size, in the time any size takes (issue 9, items 1 and 2): the
seed kernels' closed forms at 2^21, 2^22 and 10^7 on every side, and grids past CUDA's limits
warned about (analyze) or refused (profile run)."""

from __future__ import annotations

import pytest

from profiling.problem import Problem
from warpsim import engine
from warpsim.errors import UsageError


def cdiv(a, b):
    return -(-a // b)


@pytest.mark.parametrize("n", [2**21, 2**22, 10**7])
def test_naive_closed_forms(n):
    # seed 000: a warp is 32 rows of one column (block 32x32, grid ceil(N/32) x ceil(M/32)); a warp
    # whose rows all lie past M never runs (`@P0 EXIT`). Per k: A, one request, a sector per
    # active lane (rows K floats apart); B, one broadcast sector. C: one request per warp, a
    # sector per active lane (rows N floats apart), read and written.
    M = N = K = n
    a = engine.analyze("naive", M, N, K)  # the hand model: the machine code's 32-bit indices wrap here
    rows = {(r.array, r.op): r for r in a.rows}
    warps = cdiv(M, 32) * N
    assert rows["A", "load"].requests == warps * K
    assert rows["A", "load"].sectors == M * N * K  # 10^21 at n = 10^7: past 2^63, exact
    assert rows["B", "load"].sectors == rows["B", "load"].broadcast_requests == warps * K
    assert rows["C", "store"].requests == warps and rows["C", "store"].sectors == M * N
    assert any("32-bit int" in w for w in a.warnings)
    assert any("exceeds CUDA's limits" in w for w in a.warnings)  # gridDim.y = ceil(n/32) > 65535


@pytest.mark.parametrize("n", [2**21, 2**22, 10**7])
def test_naive_coalesced_closed_forms(n):
    # seeds 001/002: col from threadIdx.x, a warp is 32 columns of one row; with N a multiple of
    # 32 every warp is whole and 128-byte aligned: A one broadcast sector per k, B four sectors
    # per k, C four sectors per store
    M = N = K = n
    rows = {(r.array, r.op): r for r in engine.analyze("naive_coalesced", M, N, K).rows}
    warps = M * N // 32
    assert rows["A", "load"].requests == warps * K and rows["A", "load"].sectors == warps * K
    assert rows["B", "load"].sectors == 4 * warps * K
    assert rows["C", "store"].sectors == 4 * warps


def test_profile_run_refuses_a_grid_the_gpu_cannot_launch():
    with pytest.raises(UsageError, match=r"grid 1x131072 exceeds CUDA's limits .* the GPU cannot launch it"):
        Problem.resolve("naive", 2**22, 32, 8)  # ceil(2^22 / 32) = 131072 row blocks > 65535
