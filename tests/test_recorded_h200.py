"""What the committed H200 traces pin beyond `profile compare --strict` (tests/test_profiling_recorded.py):
coverage, the per-instruction source counters of every kernel, and the two places where ncu's own
numbers are not warpsim's, written down as what they are (docs/EXACTNESS.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from profiling.traces import current_sha256
from profiling.metrics import METRICS, SOURCE_METRICS
from profiling.traces import TRACES_DIR, find_trace_files, load_trace
from warpsim import engine
from warpsim.engine import analyze
from warpsim.fast import count_site
from warpsim.registry import kernels

TRACES = [t for t in (load_trace(p) for p in find_trace_files(None, TRACES_DIR)) if not t.is_sass]  # hand models
PER_ARRAY = [t for t in TRACES if t.per_instruction]


def ids(traces):
    return [t.path.stem for t in traces]


@pytest.mark.parametrize("name", list(kernels()))
def test_every_kernel_has_current_traces(name):
    # issue 3/4: four sizes or more (4096^3, a non-square one, two multiples of no tile side),
    # two of them with per-instruction counters (issue 5); a kernel edit makes them stale
    sha = current_sha256([name])[name]
    current = [t for t in TRACES if t.kernel == name and t.meta["kernel_sha256"] == sha]
    assert len(current) >= 4, f"{name}: {len(current)} current traces; re-profile it on the H200"
    assert any(t.sizes == (4096, 4096, 4096) for t in current)
    assert any(t.sizes[0] != t.sizes[1] for t in current)
    assert any(all(s % 32 for s in t.sizes) for t in current)
    assert sum(bool(t.per_instruction) for t in current) >= 2


def predicted_by_kind(trace) -> dict[tuple, Counter]:
    """(line, space, op, width, predicated) -> warpsim's counters summed over those sites."""
    k = engine.trace(trace.kernel, *trace.sizes, trace.block)
    out: dict[tuple, Counter] = {}
    for s in k.sites:
        out.setdefault((s.line, s.space, s.op, s.width, bool(s.predicate)), Counter()).update(count_site(s, k.threads))
    return out


@pytest.mark.parametrize("trace", PER_ARRAY, ids=ids(PER_ARRAY))
def test_source_counters_per_instruction_kind(trace):
    # ncu's per-SASS-instruction counters summed per (line, space, op, width, predicated) equal the
    # model's sites of that kind, for every counter warpsim claims: instructions (which pins what is
    # predicated and what sits behind an EXIT/branch), active lanes, L1 tag requests (128 B lines),
    # sectors, wavefronts and excess wavefronts. Unrolled copies of one instruction sum together.
    predicted = predicted_by_kind(trace)
    measured: dict[tuple, Counter] = {}
    for instr in trace.per_instruction:
        key = (instr["line"], instr["space"], instr["op"], instr["width"], instr["sass"].lstrip().startswith("@"))
        counts = measured.setdefault(key, Counter())
        for column in SOURCE_METRICS:
            if column.exact and column.space in (None, instr["space"]):
                counts[column.counter] += instr[column.name]
    assert sorted(measured) == sorted(predicted)  # the same kinds of instruction, none missing or extra
    for key, counts in measured.items():
        assert {c: predicted[key].get(c, 0) for c in counts} == dict(counts), key


def aggregate(space, op, counter) -> str:
    return next(m.name for m in METRICS if m.predicts == (space, op, counter))


@pytest.mark.parametrize("trace", TRACES, ids=ids(TRACES))
def test_aggregate_shared_surplus_is_one_number_in_both_counters(trace):
    # The whole-launch shared counters may exceed the per-instruction truth (smem stores +14% at
    # 4096^3), never fall short, and by the same amount in wavefronts and in bank conflicts.
    a = analyze(trace.kernel, *trace.sizes, block=trace.block)
    for op in ("load", "store"):
        surplus = trace.metrics[aggregate("shared", op, "wavefronts")] - a.total("shared", op, "wavefronts")
        assert surplus >= 0, op
        assert trace.metrics[aggregate("shared", op, "bank_conflicts")] - a.total("shared", op, "bank_conflicts") == surplus


def test_ncu_ideal_sectors_are_not_warpsims():
    # naive_coalesced with 16x16 blocks: a warp is 2 rows x 16 columns, so its A load is 2 broadcast
    # addresses K*4 B apart. warpsim's ideal is ceil(8 distinct bytes / 32) = 1 sector; ncu's
    # "L2 Theoretical Sectors Global Ideal" counts 2 (= the sectors touched) at 1000x1030x999.
    trace = next(t for t in PER_ARRAY if t.kernel == "naive_coalesced" and t.block == (16, 16) and t.sizes[0] == 1000)
    a_loads = [i for i in trace.per_instruction if i["line"] == 12]
    executed = sum(i["Instructions Executed"] for i in a_loads)
    assert sum(i["L2 Theoretical Sectors Global Ideal"] for i in a_loads) == 2 * executed
    assert analyze("naive_coalesced", 1000, 1030, 999, block=(16, 16)).row("global", "A", "load").ideal_sectors == executed
