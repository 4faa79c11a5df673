"""bench without a GPU: input-set rotation arithmetic, kernel:block parsing, refusals."""

from __future__ import annotations

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
