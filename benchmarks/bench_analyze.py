"""Speed and memory of `warpsim analyze` (whole command, fresh process) and of the brute force.

    python benchmarks/bench_analyze.py [--M 4096] [--brute-M 256] [--kernels ...]

Prints, per kernel, the wall time and peak memory of `warpsim analyze KERNEL --M M` run as a child
process (imports included), then the brute-force executor's throughput in lane accesses per second.
Targets (issues 2 and 4): under 2 s / 1 s and under 1 GB at 4096^3 on a 2-core machine.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time


def run_cli(kernel: str, M: int) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of one `warpsim analyze` child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "warpsim.cli", "analyze", kernel, "--M", str(M), "--format", "json"],
                       capture_output=True, text=True)
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
    args = ap.parse_args()
    print(f"warpsim analyze KERNEL --M {args.M}  (child process, imports included)")
    print(f"{'kernel':18} {'wall s':>8} {'peak MiB':>9}")
    for name in args.kernels:
        wall, mib = run_cli(name, args.M)
        print(f"{name:18} {wall:8.3f} {mib:9.0f}")
    print(f"\nbrute force (every lane access enumerated) at {args.brute_M}^3")
    print(f"{'kernel':18} {'lane accesses':>14} {'seconds':>8} {'accesses/s':>12}")
    for name in args.kernels:
        n, dt = brute_throughput(name, args.brute_M)
        print(f"{name:18} {n:14,} {dt:8.2f} {n / dt:12.3g}")


if __name__ == "__main__":
    main()
