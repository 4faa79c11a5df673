"""Speed and memory of the cache figures (warpsim.caches) at 4096^3, both engines.

    python benchmarks/bench_caches.py [--M 4096] [--kernels ...] [--engines sass model]

Per kernel and engine, one fresh child process runs `warpsim analyze KERNEL --M M --engine E
--caches --format json` (imports, the exact analysis and the cache prediction); printed: its
wall time and peak resident memory (the child's own, from wait4). Target (issue 10, item 5):
under 5 s and under 1 GB each on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time

from bench_analyze import warpsim_command

LADDER = ("naive", "coalesced", "naive_coalesced", "smem", "blocktile1d", "blocktile2d", "vectorized", "warptile",
          "warptile_db")


def run(kernel: str, M: int, engine: str) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of one child process."""
    t = time.perf_counter()
    p = subprocess.Popen([*warpsim_command(), "analyze", kernel, "--M", str(M), "--engine", engine, "--caches",
                          "--format", "json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if status:
        raise SystemExit(f"{kernel} ({engine}): {p.stderr.read().decode().strip()}")
    return wall, usage.ru_maxrss / 1024  # Linux: ru_maxrss is KiB


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--M", type=int, default=4096)
    ap.add_argument("--kernels", nargs="*", default=list(LADDER))
    ap.add_argument("--engines", nargs="*", default=["sass", "model"])
    args = ap.parse_args()
    print(f"warpsim analyze KERNEL --M {args.M} --engine E --caches (a fresh process each; {os.cpu_count()} cores)")
    print(f"  {'kernel':16} {'engine':6} {'wall s':>7} {'peak MiB':>9}")
    worst = (0.0, 0.0)
    for kernel in args.kernels:
        for engine in args.engines:
            wall, mib = run(kernel, args.M, engine)
            worst = (max(worst[0], wall), max(worst[1], mib))
            print(f"  {kernel:16} {engine:6} {wall:7.2f} {mib:9.0f}")
    print(f"  worst: {worst[0]:.2f} s, {worst[1]:.0f} MiB (targets: 5 s, 1024 MiB)")


if __name__ == "__main__":
    main()
