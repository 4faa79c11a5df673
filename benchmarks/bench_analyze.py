"""Speed and memory of `warpsim analyze` (whole command, fresh process) and of the brute force.

    python benchmarks/bench_analyze.py [--M 4096] [--brute-M 256] [--kernels ...] [--repeat 7]

Prints first the start-up check of issue 9: `python -c "import numpy"` and `warpsim analyze
naive --M 4096 --format json` side by side (median wall time of --repeat fresh processes each;
target: the command at most twice the import). Then, per kernel, the wall time and peak memory
of `warpsim analyze KERNEL --M M` run as a child process (imports included) through the machine
code (the default, `--engine sass`, cubin cached) and the hand model (`--engine model`), then the
brute-force executor's throughput in lane accesses per second.
Targets (issues 2 and 4): under 2 s / 1 s and under 1 GB at 4096^3 on a 2-core machine.

The children run as an installed warpsim runs: with Python's bytecode cache. PYTHONDONTWRITEBYTECODE
is dropped from their environment (some machines set it), else every run compiles warpsim's ~40
modules from source again, ~0.1 s that no user's install pays (pip writes the .pyc files).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

#: the children's environment: this one, with the bytecode cache allowed (see above)
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def warpsim_command() -> list[str]:
    """The `warpsim` console script beside this Python (what a user runs), else `python -m warpsim`."""
    script = Path(sys.executable).with_name("warpsim")
    found = str(script) if script.is_file() else shutil.which("warpsim")
    return [found] if found else [sys.executable, "-m", "warpsim"]


def wall(command: list[str]) -> float:
    """Wall seconds of one fresh run of `command`."""
    t = time.perf_counter()
    p = subprocess.run(command, capture_output=True, text=True, env=CHILD_ENV)
    if p.returncode:
        raise SystemExit(f"{' '.join(command)}: {p.stderr.strip()}")
    return time.perf_counter() - t


def startup(repeat: int) -> None:
    """The two commands run in turn (after one untimed run of each, which warms the file cache),
    so that a load on the machine weighs on both alike: the medians, and the median of the ratios
    of each pair."""
    numpy_cmd = [sys.executable, "-c", "import numpy"]
    json_cmd = [*warpsim_command(), "analyze", "naive", "--M", "4096", "--format", "json"]
    wall(numpy_cmd), wall(json_cmd)
    pairs = [(wall(numpy_cmd), wall(json_cmd)) for _ in range(repeat)]
    numpy, analysis = (statistics.median(t) for t in zip(*pairs))
    ratio = statistics.median(b / a for a, b in pairs)
    print(f"start-up (median of {repeat} fresh processes each, run in turn)")
    print(f"  {'python -c ' + repr('import numpy'):48} {numpy:7.3f} s")
    print(f"  {'warpsim analyze naive --M 4096 --format json':48} {analysis:7.3f} s   "
          f"{ratio:.2f}x the import, median of the pairs (target: at most 2x)")


def run_cli(kernel: str, M: int, engine: str) -> tuple[float, float]:
    """Wall seconds and peak resident MiB (the largest child so far) of one `warpsim analyze`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    p = subprocess.run([*warpsim_command(), "analyze", kernel, "--M", str(M), "--format", "json",
                        "--engine", engine], capture_output=True, text=True, env=CHILD_ENV)
    wall = time.perf_counter() - t
    if p.returncode:
        raise SystemExit(f"{kernel}: {p.stderr.strip()}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024


def brute_throughput(kernel: str, M: int) -> tuple[int, float]:
    from warpsim.engine import execute

    t = time.perf_counter()
    a = execute(kernel, M, M, M)
    dt = time.perf_counter() - t
    return sum(r.active_lanes for r in a.rows), dt


def main() -> None:
    from warpsim.registry import kernels

    ap = argparse.ArgumentParser()
    ap.add_argument("--M", type=int, default=4096)
    ap.add_argument("--brute-M", type=int, default=256)
    ap.add_argument("--kernels", nargs="*", default=list(kernels()))
    ap.add_argument("--repeat", type=int, default=7, help="fresh processes timed for the start-up check")
    args = ap.parse_args()
    startup(args.repeat)
    print(f"\nwarpsim analyze KERNEL --M {args.M}  (child process, imports included)")
    print(f"{'kernel':18} {'sass s':>8} {'model s':>8} {'peak MiB':>9}")
    for name in args.kernels:
        run_cli(name, args.M, "sass")  # compiles the cubin once: the timed run finds it cached
        sass, _ = run_cli(name, args.M, "sass")
        model, mib = run_cli(name, args.M, "model")
        print(f"{name:18} {sass:8.3f} {model:8.3f} {mib:9.0f}")
    print(f"\nbrute force (every lane access enumerated) at {args.brute_M}^3")
    print(f"{'kernel':18} {'lane accesses':>14} {'seconds':>8} {'accesses/s':>12}")
    for name in args.kernels:
        n, dt = brute_throughput(name, args.brute_M)
        print(f"{name:18} {n:14,} {dt:8.2f} {n / dt:12.3g}")


if __name__ == "__main__":
    main()
