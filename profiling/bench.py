"""`profile bench`: time kernels with CUDA events beside cuBLAS SGEMM, in one run.

Each kernel (and cuBLAS, through `cupy.matmul` on float32) is launched `warmup` times, then
`reps` times with a CUDA event pair around every launch; the median is kept. Launches rotate
through enough independent input sets that together they exceed `l2_multiple` times the L2
size (queried from the device), so a small problem cannot run out of a warm L2. Each kernel's
result is checked (float64 reference) before it is timed.

cuBLAS runs at full FP32: CuPy picks CUBLAS_COMPUTE_32F unless the environment variable
CUPY_TF32=1 was set when it was imported, so a set CUPY_TF32 is refused, and the table records it.

Limitations: cuBLAS computes C = A @ B (alpha 1, beta 0) while a kernel may also read C
(beta * C): that extra M*N read is charged to the kernel. GFLOP/s counts 2*M*N*K flops.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from profiling import launch, ncu
from warpsim.toolchain import source_sha256
from profiling.problem import Problem
from warpsim.registry import parse_block
from profiling.record import utc_now
from profiling.traces import TRACES_DIR, refuse_overwrite, write_json_atomic
from warpsim.errors import UsageError

CUBLAS = "cublas_sgemm"
L2_FALLBACK_BYTES = 62_914_560  # H200's 60 MiB, used only if the device does not report its L2


@dataclass(frozen=True)
class BenchOptions:
    reps: int = 20  # timed launches per kernel, median kept (at least 10)
    warmup: int = 3  # untimed launches first
    l2_multiple: int = 3  # input sets together exceed this many L2 caches
    seed: int = 0
    tf32_env: str | None = None  # CUPY_TF32 as found in the environment by the CLI
    traces_dir: Path = TRACES_DIR
    force: bool = False
    command: tuple[str, ...] = field(default_factory=tuple)  # the command line, for the metadata


def bench_path(root: Path, M: int, N: int, K: int) -> Path:
    return Path(root) / "bench" / f"bench_M{M}_N{N}_K{K}.json"


def parse_kernel(text: str, M: int, N: int, K: int) -> Problem:
    """'naive' or 'naive_coalesced:16x16' -> the Problem to time."""
    name, _, block = text.partition(":")
    return Problem.resolve(name, M, N, K, parse_block(block or None))


def input_sets(bytes_per_set: int, l2_bytes: int, l2_multiple: int) -> int:
    """How many independent input sets rotate: together > l2_multiple x L2, and at least 2."""
    return max(2, math.ceil(l2_multiple * l2_bytes / bytes_per_set) + 1)


def _median_ms(cp, run_once, sets: int, options: BenchOptions) -> float:
    for i in range(options.warmup):
        run_once(i % sets)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for i in range(options.reps):
        start.record()
        run_once((options.warmup + i) % sets)
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))  # milliseconds
    return statistics.median(times)


def _sets_for(problem: Problem, l2_bytes: int, options: BenchOptions) -> int:
    bytes_per_set = 4 * (problem.M * problem.K + problem.K * problem.N + problem.M * problem.N)
    return input_sets(bytes_per_set, l2_bytes, options.l2_multiple)


def bench(kernels: list[str], M: int, N: int, K: int, options: BenchOptions = BenchOptions()) -> tuple[pd.DataFrame, dict]:
    """Time every kernel and cuBLAS; returns (table, the JSON payload written by `write`)."""
    if options.reps < 10:
        raise UsageError(f"--reps {options.reps}: take at least 10 timed launches for a median")
    if options.warmup < 0:
        raise UsageError(f"--warmup {options.warmup}: the untimed launches cannot be fewer than 0")
    if options.tf32_env not in (None, "", "0"):
        raise UsageError(f"CUPY_TF32={options.tf32_env} lets cuBLAS use TF32; unset it so cuBLAS runs full FP32")
    problems = [parse_kernel(k, M, N, K) for k in kernels]
    if not problems:
        raise UsageError("no kernels to bench: name at least one, e.g. profile bench naive --M 4096")
    refuse_overwrite(bench_path(options.traces_dir, M, N, K), options.force)
    cp = launch.require_cupy()
    l2_bytes = int(cp.cuda.Device().attributes.get("L2CacheSize", L2_FALLBACK_BYTES))

    rows = []
    sets = _sets_for(problems[0], l2_bytes, options)
    ops = launch.make_operands(problems[0], options.seed, sets)  # cuBLAS overwrites C, poisoned or not
    cublas_ms = _median_ms(cp, lambda i, ops=ops: cp.matmul(ops.A[i], ops.B[i], out=ops.C[i]), sets, options)
    rows.append({"kernel": CUBLAS, "entry": "cupy.matmul", "kernel_sha256": "", "block": "", "grid": "",
                 "input_sets": sets, "time_ms": cublas_ms})
    del ops

    for problem in problems:
        function = launch.load_function(problem)
        once = launch.make_operands(problem, options.seed)
        launch.launch(function, problem, once)
        launch.check(problem, once)  # a wrong kernel's time means nothing
        del once
        sets = _sets_for(problem, l2_bytes, options)
        ops = launch.make_operands(problem, options.seed, sets)
        ms = _median_ms(cp, lambda i, ops=ops: launch.launch(function, problem, ops, i), sets, options)
        rows.append({"kernel": problem.kernel, "entry": problem.spec.entry,
                     "kernel_sha256": source_sha256(problem.spec.cu_path), "block": problem.block_text,
                     "grid": "x".join(map(str, problem.grid)), "input_sets": sets, "time_ms": ms})
        del ops

    table = pd.DataFrame(rows)
    table["gflops"] = 2 * M * N * K / (table["time_ms"] * 1e-3) / 1e9
    table["pct_of_cublas"] = 100 * cublas_ms / table["time_ms"]
    meta = {
        **ncu.probe_versions(),
        "M": M, "N": N, "K": K, "date": utc_now(), "command": list(options.command),
        "cupy_version": cp.__version__, "cupy_tf32": options.tf32_env or "unset",
        "l2_bytes": l2_bytes, "l2_multiple": options.l2_multiple,
        "reps": options.reps, "warmup": options.warmup, "timer": "CUDA events, median per launch",
    }
    payload = {"schema": 1, "meta": meta, "rows": table.to_dict(orient="records")}
    return table, payload


def write(payload: dict, options: BenchOptions) -> Path:
    meta = payload["meta"]
    return write_json_atomic(bench_path(options.traces_dir, meta["M"], meta["N"], meta["K"]), payload, options.force)
