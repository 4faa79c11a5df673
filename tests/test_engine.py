"""The fast engine equals the brute-force executor, and the executor computes the real GEMM."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warpsim.engine import analyze, execute, gemm
from warpsim.registry import kernels


def assert_same(fast, brute):
    assert [r.key for r in fast.rows] == [r.key for r in brute.rows]
    for f, b in zip(fast.rows, brute.rows):
        assert f.as_dict() == b.as_dict(), f.key


def launches(kernel_names):
    blocks = st.sampled_from([(32, 32), (16, 16), (32, 8), (8, 32), (64, 4), (128, 2), (32, 1)])

    def block_for(name):
        spec = kernels()[name]
        return blocks if not spec.block_fixed else st.just(spec.default_block)

    return st.sampled_from(kernel_names).flatmap(lambda name: st.tuples(
        st.just(name), st.integers(1, 200), st.integers(1, 200), st.integers(1, 40), block_for(name)))


SEED_KERNELS = ["naive", "naive_coalesced", "coalesced"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(launches(SEED_KERNELS))
def test_fast_equals_brute_force(launch):
    name, M, N, K, block = launch
    assert_same(analyze(name, M, N, K, block), execute(name, M, N, K, block))


@pytest.mark.parametrize("name", SEED_KERNELS)
@pytest.mark.parametrize("M,N,K", [(1, 1, 1), (33, 47, 19), (64, 64, 64), (100, 31, 7)])
def test_model_computes_the_gemm(name, M, N, K):
    rng = np.random.default_rng(M * 1000 + N * 10 + K)
    A, B, C = rng.standard_normal((M, K)), rng.standard_normal((K, N)), rng.standard_normal((M, N))
    alpha, beta = 1.5, -0.5
    out, counts = gemm(name, A, B, C, alpha, beta)
    expected = alpha * A @ B + beta * C if kernels()[name].reads_c else A @ B
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)
    # and the stream that computed it is the one the fast engine counts
    assert_same(analyze(name, M, N, K), counts)


def test_every_lane_access_is_counted_once():
    a = analyze("naive", 70, 50, 30)
    # every (row, col) thread reads K floats of A and K of B, then C once and writes C once
    assert a.row("global", "A", "load").active_lanes == 70 * 50 * 30
    assert a.row("global", "B", "load").active_lanes == 70 * 50 * 30
    assert a.row("global", "C", "store").active_lanes == 70 * 50
