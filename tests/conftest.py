"""Shared test configuration: the one GPU marker, defined here and nowhere else; the property
tests' profile."""

from __future__ import annotations

import os
import shutil

import pytest
from hypothesis import settings

#: CI (.ci/run sets HYPOTHESIS_PROFILE=ci) draws each property test's examples from a seed fixed by
#: the test, so a gate that lands a change fails only for what the change did; a run anywhere else
#: draws new examples each time, which is how the property tests find what CI would not (stop 14's
#: CI found layernorm_warp at 361x129 that way, a real fault).
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def _gpu_reason() -> str | None:
    try:
        import cupy  # noqa: F401
    except ImportError:
        return "CuPy is not installed (pip install 'warpsim[gpu]' on a machine with an NVIDIA GPU)"
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return "no CUDA GPU is visible"
    except Exception as e:  # CuPy raises its own runtime errors when no driver is present
        return f"no usable CUDA GPU ({type(e).__name__})"
    return None


GPU_SKIP_REASON = _gpu_reason()
skip_if_no_gpu = pytest.mark.skipif(GPU_SKIP_REASON is not None, reason=GPU_SKIP_REASON or "")
skip_if_no_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc (CUDA toolkit) is not on PATH")
skip_if_no_ncu = pytest.mark.skipif(shutil.which("ncu") is None, reason="ncu (Nsight Compute) is not on PATH")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "gpu" in item.keywords and GPU_SKIP_REASON is not None:
            item.add_marker(pytest.mark.skip(reason=GPU_SKIP_REASON))
