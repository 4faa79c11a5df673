"""bench without a GPU: input-set rotation arithmetic, kernel:block parsing, refusals."""

from __future__ import annotations

import json

import pytest

from profiling import bench
from profiling.bench import BenchOptions, input_sets, parse_kernel
from warpsim.errors import UsageError

L2 = 62_914_560  # the H200's 60 MiB


def test_sets_exceed_three_l2s():
    per_set = 4 * 3 * 256 * 256  # float32 A, B, C at 256^3: 768 KiB
    sets = input_sets(per_set, L2, 3)
    assert sets * per_set > 3 * L2 and sets == 241  # 3 x 60 MiB / 768 KiB = 240, one more to exceed it
    assert input_sets(4 * 3 * 4096 * 4096, L2, 3) == 2  # 192 MiB a set: still rotate between two


def test_kernel_with_block():
    problem = parse_kernel("naive_coalesced:16x16", 64, 64, 64)
    assert problem.block == (16, 16)
    assert parse_kernel("naive", 64, 64, 64).block == (32, 32)
    with pytest.raises(UsageError, match="compiled for block 32x32 only"):
        parse_kernel("naive:16x16", 64, 64, 64)


def test_refusals_come_before_the_gpu(tmp_path):
    with pytest.raises(UsageError, match="at least 10"):
        bench.bench(["naive"], 64, 64, 64, BenchOptions(reps=9, traces_dir=tmp_path))
    with pytest.raises(UsageError, match="CUPY_TF32=1"):
        bench.bench(["naive"], 64, 64, 64, BenchOptions(tf32_env="1", traces_dir=tmp_path))
    with pytest.raises(UsageError, match="no kernels to bench"):
        bench.bench([], 64, 64, 64, BenchOptions(traces_dir=tmp_path))
    path = bench.bench_path(tmp_path, 64, 64, 64)
    path.parent.mkdir(parents=True)
    path.write_text("{}")
    with pytest.raises(UsageError, match="pass --force"):
        bench.bench(["naive"], 64, 64, 64, BenchOptions(traces_dir=tmp_path))


class NumpyCupyTimed:
    """Stand-in for cupy in bench (not CuPy): numpy arithmetic, events that report 1 ms, a 1 MiB L2."""

    __version__ = "stand-in"

    class _Event:
        def record(self):
            pass

        def synchronize(self):
            pass

    class cuda:
        @staticmethod
        def Event():
            return NumpyCupyTimed._Event()

        @staticmethod
        def get_elapsed_time(start, end):
            return 1.0  # ms

        class Device:
            attributes = {"L2CacheSize": 1 << 20}

            def synchronize(self):
                pass

    def __getattr__(self, name):
        import numpy as np

        return getattr(np, name)


def test_bench_end_to_end_on_stand_ins(tmp_path, monkeypatch):
    from profiling import launch, ncu
    from test_profiling_launch import fake_kernel

    monkeypatch.setattr(launch, "require_cupy", lambda: NumpyCupyTimed())
    monkeypatch.setattr(launch, "load_function", lambda problem: fake_kernel(problem))
    monkeypatch.setattr(ncu, "probe_versions", lambda: {"gpu": "stand-in"})
    options = BenchOptions(reps=10, traces_dir=tmp_path, command=("profile", "bench"))
    table, payload = bench.bench(["naive", "naive_coalesced:16x16"], 64, 48, 33, options)
    assert list(table["kernel"]) == [bench.CUBLAS, "naive", "naive_coalesced"]
    assert list(table["time_ms"]) == [1.0, 1.0, 1.0] and list(table["pct_of_cublas"]) == [100.0] * 3
    assert table["gflops"].iloc[0] == pytest.approx(2 * 64 * 48 * 33 / 1e-3 / 1e9)  # 2*M*N*K flops in 1 ms
    per_set = 4 * (64 * 33 + 33 * 48 + 64 * 48)
    assert (table["input_sets"] * per_set > 3 * (1 << 20)).all()
    path = bench.write(payload, options)
    assert path == tmp_path / "bench" / "bench_M64_N48_K33.json"
    written = json.loads(path.read_text())
    assert written["meta"]["cupy_tf32"] == "unset" and written["meta"]["gpu"] == "stand-in"
    assert written["rows"][2]["block"] == "16x16"
    from profiling.report import bench_layouts
    from warpsim.terminal import fit, render

    forms = bench_layouts(table, "bench")
    for width in (30, 80):
        form, at = fit(forms, width)
        text = render(form, at)
        assert "…" not in text and "cublas_sgemm" in text and "16x16" in text
        assert "100.0" in text and "1.0000" in text  # % of cuBLAS, the time in ms: whole at any width
