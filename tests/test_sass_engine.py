"""The SASS engine against its two oracles, no GPU needed: the hand models (the nine ladder kernels,
at every size a committed H200 trace has and at random ones), and the same machine code run
concretely for every block and thread (the brute-force reference), instruction by instruction,
on the kernels nobody modelled. The H200's own counters are the third judge
(tests/test_profiling_recorded.py runs `profile compare` on every committed trace)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profiling.traces import TRACES_DIR, find_trace_files, load_trace
from warpsim import engine
from warpsim.registry import kernels
from warpsim.sass import analyze as sass_analyze

KERNELS = Path(__file__).resolve().parent.parent / "kernels"
CATALOG = tomllib.loads((KERNELS / "catalog.toml").read_text())["kernel"]
COUNTED = ("instructions", "requests", "sectors", "ideal_sectors", "lines", "broadcast_requests", "active_lanes",
           "bytes_requested", "wavefronts", "bank_conflicts")


def by_access(analysis) -> dict:
    """(space, array, op) -> counters, summed over opcode families (the models have none)."""
    out: dict = {}
    for r in analysis.rows:
        acc = out.setdefault((r.space, r.array, r.op), dict.fromkeys(COUNTED, 0))
        for c in COUNTED:
            acc[c] += getattr(r, c)
    return out


def assert_same(name, M, N, K, block=None):
    model = by_access(engine.analyze(name, M, N, K, block))
    sass = by_access(engine.analyze_sass(name, M, N, K, block))
    assert sass == model, f"{name} {M}x{N}x{K}: the machine code and the hand model disagree"


def trace_launches():
    """Every (kernel, M, N, K, block) a committed hand-model trace measured."""
    seen = set()
    for path in find_trace_files(None, TRACES_DIR):
        t = load_trace(path)
        if not t.is_sass and t.kernel in kernels():
            seen.add((t.kernel, *t.sizes, t.block))
    return sorted(seen)


@pytest.mark.parametrize("name,M,N,K,block", trace_launches())
def test_machine_code_equals_the_hand_model_at_every_traced_size(name, M, N, K, block):
    assert_same(name, M, N, K, block)


def fitting(name, draw):
    need = kernels()[name].multiple_of
    return [draw(st.integers(1, 300)) // need.get(d, 1) * need.get(d, 1) or need.get(d, 1) for d in "MNK"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_machine_code_equals_the_hand_model_at_random_sizes(data):
    name = data.draw(st.sampled_from(sorted(kernels())))
    M, N, K = fitting(name, data.draw)
    assert_same(name, M, N, K)


def launch(entry: dict, size: dict):
    args = {**size, **entry.get("buffers", {})}
    return sass_analyze.prepare(KERNELS / entry["file"], entry["entry"], entry["grid"], entry["block"], args,
                                dynamic_shared=entry.get("dynamic_shared"))


def per_pc(analysis) -> dict:
    return {(r.pc, r.space, r.op): {c: getattr(r, c) for c in COUNTED} for r in analysis.rows}


@pytest.mark.parametrize("entry", CATALOG, ids=[e["entry"] for e in CATALOG])
def test_fast_path_equals_brute_force_per_instruction(entry):
    # the smallest catalog size (every dimension odd where the kernel allows): every block, loop
    # iteration and thread executed concretely, against the summarized and class-counted path
    kernel = launch(entry, entry["sizes"][0])
    fast = per_pc(sass_analyze.analyze_launch(kernel, by_pc=True))
    brute = per_pc(sass_analyze.brute_force(kernel, by_pc=True))
    assert fast == brute


ODD_SIZES = {"trmm_lower": lambda d: {"M": d(1, 70), "N": d(1, 70)},  # a trip count per lane
             "gemv_warp": lambda d: {"M": d(1, 40), "N": d(1, 300)},  # a lane loop and a shuffle
             "sgemm_splitk": lambda d: {"M": d(1, 40), "N": d(1, 40), "K": d(1, 200), "splits": d(1, 7),
                                        "alpha": 1.5},  # min() clamp of the last slice, an integer division
             "sgemm_cp_async": lambda d: {"M": d(1, 50), "N": d(1, 50), "K": d(1, 80), "alpha": 1.0, "beta": 0.5},
             # 64-bit c - X*Y carries for k >= 1 only: the block index z is cut at 1
             "stencil7": lambda d: {"X": d(1, 70), "Y": d(1, 20), "Z": d(1, 12)},
             # the left halo's 64-bit address carries across zero in the first column of blocks only
             "conv_rows": lambda d: {"imageW": 128 * d(1, 3), "imageH": 4 * d(1, 3), "pitch": 384 + d(0, 40)},
             # registers spilled and reloaded, in a loop of any trip count (none included)
             "spill": lambda d: {"n": d(1, 700), "steps": d(0, 4)}}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fast_path_equals_brute_force_at_random_sizes(data):
    name = data.draw(st.sampled_from(sorted(ODD_SIZES)))
    entry = next(e for e in CATALOG if e["entry"] == name)
    size = ODD_SIZES[name](lambda lo, hi: data.draw(st.integers(lo, hi)))
    kernel = launch(entry, size)
    assert per_pc(sass_analyze.analyze_launch(kernel, by_pc=True)) == per_pc(sass_analyze.brute_force(kernel, by_pc=True))


def test_the_seed_table_from_machine_code():
    # seed 000's warp view, now read off the SASS: per warp instruction, A touches 32 sectors
    # (32 lanes = 32 rows, K floats apart), B one broadcast sector, C 32 sectors read and written
    a = engine.analyze_sass("naive", 4096, 4096, 4096)
    rows = {(r.array, r.op): r for r in a.rows}
    requests = 4096 * 4096 // 32 * 4096  # warps x K iterations: one A and one B load each
    assert rows["A", "load"].requests == requests and rows["A", "load"].sectors == 32 * requests
    assert rows["B", "load"].sectors == requests == rows["B", "load"].broadcast_requests
    assert rows["C", "store"].sectors == 32 * (4096 * 4096 // 32)  # one store per warp, 32 rows
