"""The launcher's logic on the CPU: argument order, operands, the float64 check, the child entry.

`NumpyCupy` stands in for CuPy (numpy arrays, a no-op synchronize) and `fake_kernel` for the
compiled kernel (numpy arithmetic); neither is the GPU. The real launches are in
test_profiling_gpu.py.
"""

from __future__ import annotations

import types

import numpy as np
import pytest

from profiling import launch
from profiling.problem import Problem
from warpsim.errors import UsageError


class NumpyCupy:
    """Stand-in for the cupy module: numpy's functions, plus cuda.Device().synchronize()."""

    cuda = types.SimpleNamespace(Device=lambda: types.SimpleNamespace(synchronize=lambda: None))

    def __getattr__(self, name):
        return getattr(np, name)


def fake_kernel(problem: Problem, drop_alpha=False, skip_last_row=False):
    """Stand-in for the compiled kernel: C = alpha * A @ B (+ beta * C), by argument name."""

    def function(grid, block, args):
        assert grid == (*problem.grid, 1) and block == (*problem.block, 1)
        a = dict(zip(problem.spec.args, args))
        alpha = 1.0 if drop_alpha else float(a.get("alpha", 1.0))
        out = alpha * (a["A"].astype(np.float64) @ a["B"].astype(np.float64))
        if problem.spec.reads_c:
            out += float(a.get("beta", 1.0)) * a["C"]
        rows = problem.M - 1 if skip_last_row else problem.M
        a["C"][:rows] = out[:rows].astype(np.float32)

    return function


@pytest.fixture
def numpy_gpu(monkeypatch):
    monkeypatch.setattr(launch, "require_cupy", lambda: NumpyCupy())


@pytest.mark.parametrize("kernel", ["naive", "naive_coalesced", "coalesced"])
def test_correct_kernel_passes(numpy_gpu, kernel):
    problem = Problem.resolve(kernel, 37, 29, 33)  # none a multiple of 32, K odd
    ops = launch.make_operands(problem, seed=1)
    launch.launch(fake_kernel(problem), problem, ops)
    assert launch.check(problem, ops) < 1e-6


def test_args_follow_the_registry_order(numpy_gpu):
    problem = Problem.resolve("naive", 8, 8, 8)
    ops = launch.make_operands(problem)
    args = launch.kernel_args(problem, ops)
    assert [type(a) for a in args[:4]] == [np.int32, np.int32, np.int32, np.float32]  # M N K alpha
    assert args[3] == launch.ALPHA and args[6] == launch.BETA
    assert args[4] is not None and args[4].shape == (8, 8)


def test_operands_are_random_and_c_poisoned_only_when_not_read(numpy_gpu):
    reads = launch.make_operands(Problem.resolve("naive", 16, 8, 4), sets=3)
    assert reads.A.shape == (3, 16, 4) and reads.C0 is None
    assert np.all(np.isfinite(reads.C)) and np.count_nonzero(reads.A) > 0
    writes = launch.make_operands(Problem.resolve("naive_coalesced", 16, 8, 4))
    assert np.all(np.isnan(writes.C)) and writes.C0 is not None
    assert writes.bytes_per_set == 4 * (16 * 4 + 4 * 8 + 16 * 8)  # float32 A + B + C


def test_dropped_alpha_is_caught(numpy_gpu):
    problem = Problem.resolve("naive", 40, 40, 40)
    ops = launch.make_operands(problem)
    launch.launch(fake_kernel(problem, drop_alpha=True), problem, ops)
    with pytest.raises(UsageError, match="wrong result, relative Frobenius error"):
        launch.check(problem, ops)


def test_unwritten_elements_are_caught(numpy_gpu):
    problem = Problem.resolve("naive_coalesced", 40, 24, 40, (32, 32))
    ops = launch.make_operands(problem)
    launch.launch(fake_kernel(problem, skip_last_row=True), problem, ops)
    with pytest.raises(UsageError, match="24 of 960 elements of C were never written"):
        launch.check(problem, ops)


def test_without_cupy_the_message_says_what_to_install(monkeypatch):
    monkeypatch.setattr(launch, "cp", None)
    with pytest.raises(UsageError, match=r"CuPy with a CUDA GPU is needed: pip install 'warpsim\[gpu\]'"):
        launch.require_cupy()


def test_child_entry_point(numpy_gpu, monkeypatch, capsys):
    monkeypatch.setattr(launch, "load_function", lambda problem: fake_kernel(problem))
    assert launch.main(["naive_coalesced", "64", "48", "33", "16", "16"]) == 0
    assert capsys.readouterr().out.startswith(launch.MARK_OK)
    monkeypatch.setattr(launch, "load_function", lambda problem: fake_kernel(problem, drop_alpha=True))
    assert launch.main(["naive", "64", "48", "33", "32", "32"]) == 3
    assert capsys.readouterr().err.startswith(launch.MARK_FAIL + "naive M=64 N=48 K=33 block 32x32: wrong result")


def test_child_refuses_bad_arguments(capsys):
    assert launch.main(["naive", "64"]) == 2
    assert launch.USAGE in capsys.readouterr().err
    assert launch.main(["nosuch", "1", "1", "1", "32", "32"]) == 3
    assert "unknown kernel 'nosuch'" in capsys.readouterr().err
