"""The fast engine is general: on randomly drawn synthetic kernels (address coefficients that are
not multiples of 32, lane patterns, edge conditions on one dimension or coupling two, loops with
steps, range_cycle phases, global and shared, widths 4 to 16) it counts exactly what the
brute-force executor counts. No formula of any real kernel is involved."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warpsim.counts import Row
from warpsim.engine import _blocks
from warpsim.execute import ExecKernel
from warpsim.fast import count_site
from warpsim.trace import TraceKernel

coef = st.integers(-300, 300)


@st.composite
def synthetic(draw):
    p = dict(
        grid=(draw(st.integers(1, 5)), draw(st.integers(1, 5))),
        block=draw(st.sampled_from([(32, 1), (64, 1), (16, 4), (8, 8), (32, 4)])),
        loop=(draw(st.integers(0, 3)), draw(st.integers(1, 40)), draw(st.integers(1, 3))),  # start, stop, step
        cx=draw(coef), cy=draw(coef), cl=draw(coef),
        stride=draw(st.integers(0, 9)), group=draw(st.integers(1, 8)), jump=draw(st.integers(-50, 50)),
        width=draw(st.sampled_from([4, 8, 16])),
        t1=draw(st.integers(0, 200)), a1=draw(st.integers(0, 20)),
        t2=draw(st.integers(0, 60)), t3=draw(st.integers(0, 12)),
        predicated=draw(st.booleans()), cycle=draw(st.booleans()),
    )
    return p


def model(p):
    def kernel(k):
        tid = k.threadIdx.y * k.blockDim.x + k.threadIdx.x
        lane_part = tid * p["stride"] + (tid // p["group"]) * p["jump"]
        inside = (k.blockIdx.x * p["a1"] + tid % 37 < p["t1"])  # an edge on blockIdx.x, several blocks wide
        smem = k.shared("S", 4096, holds="B")
        start, stop, step = p["loop"]
        loop = k.range_cycle("i", start, stop, step, 2) if p["cycle"] else ((i, 0) for i in k.range("i", start, stop, step))
        with k.branch(inside):
            for i, phase in loop:
                address = k.blockIdx.x * p["cx"] + k.blockIdx.y * p["cy"] + i * p["cl"] + lane_part + phase * 5
                # an edge several iterations wide, and one that couples two dimensions
                edge = (i + tid // p["group"] < p["t2"]) & (k.blockIdx.y + i < p["t3"] + start)
                k.load("A", address, line=1, width=p["width"], where=edge if p["predicated"] else None)
                k.store(smem, (tid * p["stride"]) % 1000 + phase * 4, 0.0, line=2, width=p["width"] if p["width"] < 16 else 4)
    return kernel


def fast(p) -> dict:
    k = TraceKernel(p["grid"], p["block"])
    model(p)(k)
    rows: dict = {}
    for site in k.sites:
        row = rows.setdefault((site.space, site.array, site.op), Row(site.space, site.array, site.op, site.width))
        row.add(**count_site(site, k.threads))
    return {key: r.as_dict() for key, r in rows.items()}


def brute(p) -> dict:
    rows: dict = {}
    model(p)(ExecKernel(p["grid"], p["block"], _blocks(p["grid"]), None, rows))
    return {key: r.as_dict() for key, r in rows.items()}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(synthetic())
def test_fast_equals_brute_force_on_synthetic_kernels(p):
    assert fast(p) == brute(p)


def test_a_known_synthetic_case():
    # 1 block of 32 threads, 5 iterations, lanes 4 B apart, no edges: 5 requests of 4 sectors
    p = dict(grid=(1, 1), block=(32, 1), loop=(0, 5, 1), cx=0, cy=0, cl=32, stride=1, group=8, jump=0,
             width=4, t1=10**6, a1=0, t2=10**6, t3=10**6, predicated=False, cycle=False)
    counts = fast(p)[("global", "A", "load")]
    assert counts["requests"] == 5 and counts["sectors"] == 5 * 4  # 32 lanes x 4 B = 128 B = 4 sectors
    assert counts == brute(p)[("global", "A", "load")]
    assert np.isclose(counts["bytes_requested"], 5 * 32 * 4)
