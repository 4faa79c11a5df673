"""The README's ladder table: warpsim's predictions at 4096^3 beside the committed H200 bench.

    python benchmarks/ladder_table.py [--bench traces/bench/bench_M4096_N4096_K4096.json]

Prints a Markdown table: per kernel (and block), global sectors per request of the A and B loads
and of the C store, shared wavefronts per shared instruction, and the measured time, GFLOP/s and
percent of cuBLAS SGEMM (FP32) from the bench trace.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from warpsim.engine import analyze

REPO = Path(__file__).resolve().parent.parent


def per_request(a, space, array, op, counter="sectors") -> str:
    rows = [r for r in a.rows if (r.space, r.array, r.op) == (space, array, op)]
    requests = sum(r.requests for r in rows)
    return f"{sum(getattr(r, counter) for r in rows) / requests:.2f}" if requests else "-"


def shared_per_instruction(a) -> str:
    rows = [r for r in a.rows if r.space == "shared"]
    instructions = sum(r.instructions for r in rows)
    return f"{sum(r.wavefronts for r in rows) / instructions:.2f}" if instructions else "-"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=str(REPO / "traces/bench/bench_M4096_N4096_K4096.json"))
    bench = json.loads(Path(ap.parse_args().bench).read_text())
    M, N, K = bench["meta"]["M"], bench["meta"]["N"], bench["meta"]["K"]
    print("| kernel | block | A sectors/req | B sectors/req | C store sectors/req | shared wavefronts/instr "
          "| time (ms) | GFLOP/s | % of cuBLAS |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in bench["rows"]:
        if row["kernel"] == "cublas_sgemm":
            cublas = row
            continue
        block = tuple(int(x) for x in row["block"].split("x"))
        a = analyze(row["kernel"], M, N, K, block=block)
        print(f"| {row['kernel']} | {row['block']} | {per_request(a, 'global', 'A', 'load')} "
              f"| {per_request(a, 'global', 'B', 'load')} | {per_request(a, 'global', 'C', 'store')} "
              f"| {shared_per_instruction(a)} | {row['time_ms']:.3f} | {row['gflops']:,.0f} | {row['pct_of_cublas']:.1f} |")
    print(f"| cuBLAS SGEMM (FP32) | | | | | | {cublas['time_ms']:.3f} | {cublas['gflops']:,.0f} | 100.0 |")
    print(f"\n{bench['meta']['gpu']}, {bench['meta']['timer']}, {bench['meta']['date']}; M=N=K={M}")


if __name__ == "__main__":
    main()
