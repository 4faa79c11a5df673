"""The code as its next reader finds it: no import circle (but the one the registry and the
models still share), each launch traced once by `profile compare`, a model that cannot be traced
named with its kernel and lines, and the dead code gone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from profiling import compare
from profiling.traces import current_sha256
from profiling.traces import TRACES_DIR, load_trace
from warpsim import engine, registry
from warpsim.errors import ModelError, UsageError

ROOT = Path(__file__).resolve().parents[1]
#: The one circle left: warpsim/models/__init__.py builds KernelSpecs (registry) that registry
#: loads. Breaking it moves KernelSpec out of the registry, in files this change leaves alone.
KNOWN = {("warpsim.models", "warpsim.registry")}


def imports() -> dict[str, set[str]]:
    """Module -> the project modules it imports, at the top or inside functions."""
    paths = [*ROOT.glob("warpsim/**/*.py"), *ROOT.glob("profiling/*.py")]
    names = {}
    for path in paths:
        parts = path.relative_to(ROOT).with_suffix("").parts
        names[path] = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    graph = {}
    for path, name in names.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # `from warpsim import banks` imports the module warpsim.banks (the package is loaded already)
                subs = {f"{node.module}.{a.name}" for a in node.names} & set(names.values())
                found |= subs or {node.module}
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
        graph[name] = found
    return {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}


def circles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """The modules that import one another, directly or round about (strongly connected sets)."""
    reach = {m: set() for m in graph}
    for start in graph:
        todo = list(graph[start])
        while todo:
            m = todo.pop()
            if m not in reach[start]:
                reach[start].add(m)
                todo += graph[m]
    return {tuple(sorted({m} | {n for n in reach[m] if m in reach[n]})) for m in graph if m in reach[m]}


def test_no_import_circle_but_the_known_one():
    graph = imports()
    assert circles(graph) == KNOWN
    assert "profiling.record" not in graph["profiling.compare"]  # compare <-> record is gone


@pytest.mark.parametrize("which", ["model", "sass"])
def test_compare_traces_each_launch_once(monkeypatch, which):
    # One trace with aggregate and per-instruction rows: both come from one analysis of its launch,
    # whichever engine predicts it (the hand model's trace step, or the machine code's replay).
    traced = []
    if which == "model":
        real = engine._traced
        monkeypatch.setattr(engine, "_traced", lambda *a: traced.append(a[1:4]) or real(*a))
    else:
        from warpsim.sass import analyze as sass_analyze

        real = sass_analyze.analyze_launch
        monkeypatch.setattr(sass_analyze, "analyze_launch",
                            lambda k, **kw: traced.append(tuple(k.launch.scalars[n] for n in "MNK")) or real(k, **kw))
    trace = load_trace(TRACES_DIR / "smem" / "smem_M1000_N1030_K999_b32x32.json")
    assert trace.per_instruction  # aggregate and per-array rows, from the one analysis
    frame = compare.compare([trace], current_sha256(["smem"]), analyze=compare.analyzer(which))
    assert traced == [(1000, 1030, 999)]
    assert compare.summary(frame) == (len(compare.checked(frame)),) * 2
    assert frame["metric"].str.contains(r"\(shared\)").any()


def badly_modelled(k, M, N, K, alpha, beta):
    col = k.blockIdx.x * 32 + k.threadIdx.x
    for i in k.range("i", 0, K):
        k.load("A", k.blockIdx.y * i + col,  # a product of two launch indices: not affine
               line=7)


def test_a_model_that_cannot_be_traced_names_kernel_and_lines(monkeypatch):
    spec = registry.KernelSpec(name="bad", entry="bad", model=badly_modelled, default_block=(32, 1),
                               tile=lambda block: (32, 1), args=(), summary="")
    monkeypatch.setitem(registry.kernels(), "bad", spec)
    with pytest.raises(ModelError) as err:
        engine.analyze("bad", 64, 64, 64)
    message = str(err.value)
    assert message.startswith("kernel bad, test_code_shape.py:")  # the model's own line
    assert "(kernels/bad.cu line 7)" in message  # the access it was computing
    assert "product of two expressions" in message and "affine" in message
    assert isinstance(err.value, UsageError)  # the CLI prints it as one line, exit 2


@pytest.mark.parametrize("module, name", [
    ("profiling.parse", "read"), ("profiling.source", "read_source_file"), ("warpsim.draw", "plot_roofline"),
    ("warpsim.roofline.Roofline", "floor_ms"), ("profiling.traces.Trace", "per_array"),
])
def test_dead_code_is_gone(module, name):
    import importlib

    path = module.split(".")
    try:
        owner = importlib.import_module(module)
    except ImportError:
        owner = getattr(importlib.import_module(".".join(path[:-1])), path[-1])
    assert not hasattr(owner, name)
