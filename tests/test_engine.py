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


def fit(name, M, N, K):
    """Round N and K up to what the kernel needs (float4 kernels: multiples of 4)."""
    need = kernels()[name].multiple_of
    up = lambda v, d: -(-v // need.get(d, 1)) * need.get(d, 1)  # noqa: E731
    return M, up(N, "N"), up(K, "K")


BLOCKS = [(32, 32), (16, 16), (32, 8), (8, 32), (64, 4), (128, 2), (32, 1)]


@st.composite
def launches(draw):
    name = draw(st.sampled_from(list(kernels())))
    spec = kernels()[name]
    block = draw(st.sampled_from(BLOCKS)) if not spec.block_fixed else spec.default_block
    M, N, K = fit(name, draw(st.integers(1, 200)), draw(st.integers(1, 200)), draw(st.integers(1, 40)))
    return name, M, N, K, block


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(launches())
def test_fast_equals_brute_force(launch):
    name, M, N, K, block = launch
    assert_same(analyze(name, M, N, K, block), execute(name, M, N, K, block))


@pytest.mark.parametrize("name", list(kernels()))
@pytest.mark.parametrize("size", [(1, 1, 1), (33, 31, 7), (64, 64, 64), (130, 65, 9), (200, 129, 17)])
def test_model_computes_the_gemm(name, size):
    # sizes that are multiples of no tile side (N and K rounded up to 4 for the float4 kernels)
    M, N, K = fit(name, *size)
    rng = np.random.default_rng(M * 10_000 + N * 100 + K)
    A, B, C = rng.standard_normal((M, K)), rng.standard_normal((K, N)), rng.standard_normal((M, N))
    alpha, beta = 1.5, -0.5
    out, counts = gemm(name, A, B, C, alpha, beta)
    expected = alpha * A @ B + beta * C if kernels()[name].reads_c else A @ B
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)
    assert_same(analyze(name, M, N, K), counts)  # the stream that computed C is the one counted


def test_every_lane_access_is_counted_once():
    a = analyze("naive", 70, 50, 30)
    # every (row, col) thread reads K floats of A and K of B, then C once and writes C once
    assert a.row("global", "A", "load").active_lanes == 70 * 50 * 30
    assert a.row("global", "B", "load").active_lanes == 70 * 50 * 30
    assert a.row("global", "C", "store").active_lanes == 70 * 50


@pytest.mark.parametrize("name", list(kernels()))
def test_by_line_rows_add_up_to_the_arrays(name):
    M, N, K = fit(name, 130, 65, 9)
    whole, lines = analyze(name, M, N, K), analyze(name, M, N, K, by_line=True)
    for r in whole.rows:
        parts = [x for x in lines.rows if (x.space, x.array, x.op) == (r.space, r.array, r.op)]
        for counter in ("instructions", "requests", "sectors", "wavefronts", "bank_conflicts", "active_lanes"):
            assert sum(getattr(x, counter) for x in parts) == getattr(r, counter), (r.key, counter)
    assert [x.line for x in lines.rows] == sorted(x.line for x in lines.rows)
