"""Every model declares the memory instructions the compiler emitted: nvcc builds each kernel
here (no GPU needed) and the model's sites must be its SASS memory instructions, so a changed
kernel cannot drift silently from its model."""

from collections import Counter

import pytest
from test_sass import needs_nvcc

from profiling import source
from warpsim import toolchain
from warpsim.sass import listing
from warpsim.registry import kernels
from warpsim.engine import trace

# nvcc unrolls these kernels' runtime K loop (29 copies of each load: 16 + 8 + 4 + 1 remainders),
# while the model keeps one symbolic loop: their SASS has the same instructions, more copies.
UNROLLED_K_LOOP = {"naive", "coalesced", "naive_coalesced"}


def sites(name, M=1024, N=1024, K=1024):
    return trace(name, M, N, K).sites


def first_copies(all_sites):
    """A `k.range_cycle` loop is traced once per phase (iteration % period); its phase-0 sites
    stand for the one copy of the loop body in the machine code."""
    return [s for s in all_sites if not any("%" in d and not d.endswith("=0") for d, _ in s.dims)]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    out = tmp_path_factory.mktemp("cubin")
    options = toolchain.BuildOptions(cache_dir=out)
    return {name: listing.memory_instructions(toolchain.build_cubin(spec.cu_path, options))
            for name, spec in kernels().items()}


@needs_nvcc
@pytest.mark.parametrize("name", list(kernels()))
def test_model_sites_are_the_sass_instructions(name, compiled):
    df = compiled[name]
    modelled = [(s.line, s.space, s.op, s.width, bool(s.predicate)) for s in first_copies(sites(name))]
    emitted = list(zip(df.line, df.space, df.op, df.width, df.predicated))
    if name in UNROLLED_K_LOOP:
        assert set(modelled) == set(emitted)  # same lines, widths and predication; more copies
    else:
        assert Counter(modelled) == Counter(emitted)  # one site per instruction


@pytest.mark.parametrize("name", list(kernels()))
def test_every_instruction_names_one_array(name):
    # (line, space, op, width) must name one array, or ncu's per-line counters cannot be split
    mapping = source.line_map(sites(name))
    assert set(mapping.values()) <= {"A", "B", "C"}
