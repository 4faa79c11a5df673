"""Speed and memory of the SASS engine (issue 8, item 3), whole commands in fresh processes.

    python benchmarks/bench_sass.py [--M 4096] [--repeat 3]

1. every ladder kernel at M^3 through its machine code (`warpsim analyze KERNEL --M M --engine sass
   --format json`): the first run with an empty cubin cache (compiling with nvcc and
   disassembling included), then the median of --repeat runs with the cubin cached; peak memory.
   Target: under 2 s with the cubin cached.
2. every kernel of kernels/catalog.toml at 2048x1024x512 (`warpsim analyze FILE.cu --entry ...`;
   M, N, K of that size where the kernel has them, its catalog size for the other arguments).
   Target: under 5 s each.
Peak memory target: under 1 GB. Figures are printed, not asserted (a 2-core laptop-class
machine is what they are quoted for).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_analyze import warpsim_command  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LADDER = ("naive", "naive_coalesced", "coalesced", "smem", "blocktile1d", "blocktile2d", "vectorized", "warptile",
          "warptile_db")
SIZE = {"M": 2048, "N": 1024, "K": 512}


def timed(command: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of one child process (it must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    p = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if p.returncode:
        raise SystemExit(f"{' '.join(command)}: {p.stderr.strip()}")
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    return wall, peak


def ladder(M: int, repeat: int) -> None:
    print(f"ladder kernels at {M}^3 through their machine code (--engine sass)")
    print(f"  {'kernel':16} {'first run':>10} {'cached':>8} {'peak MiB':>9}")
    for name in LADDER:
        cmd = [*warpsim_command(), "analyze", name, "--M", str(M), "--engine", "sass", "--format", "json"]
        with tempfile.TemporaryDirectory() as cache:
            first, _ = timed(cmd, {**os.environ, "WARPSIM_CACHE": cache})  # nvcc + nvdisasm included
        runs = [timed(cmd) for _ in range(repeat + 1)][1:]
        wall = statistics.median(r[0] for r in runs)
        print(f"  {name:16} {first:9.2f}s {wall:7.2f}s {max(r[1] for r in runs):9.0f}")


def catalog(repeat: int) -> None:
    entries = tomllib.loads((ROOT / "kernels" / "catalog.toml").read_text())["kernel"]
    print(f"every catalog kernel at M={SIZE['M']} N={SIZE['N']} K={SIZE['K']} (other arguments: the catalog's "
          "largest size)")
    print(f"  {'kernel':22} {'wall':>7} {'peak MiB':>9}")
    for e in entries:
        size = {**e["sizes"][-1], **{k: v for k, v in SIZE.items() if k in e["sizes"][-1]}}
        if "n" in size:
            size["n"] = SIZE["M"] * SIZE["N"]
        cmd = [*warpsim_command(), "analyze", str(ROOT / "kernels" / e["file"]), "--entry", e["entry"],
               "--grid", e["grid"], "--block", e["block"], "--format", "json"]
        for k, v in {**size, **e.get("buffers", {})}.items():
            cmd += ["--arg", f"{k}={v}"]
        if "dynamic_shared" in e:
            cmd += ["--dynamic-shared", e["dynamic_shared"]]
        runs = [timed(cmd) for _ in range(repeat)]
        print(f"  {e['entry']:22} {statistics.median(r[0] for r in runs):6.2f}s {max(r[1] for r in runs):9.0f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--M", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    ladder(args.M, args.repeat)
    catalog(args.repeat)


if __name__ == "__main__":
    main()
