"""Write scripts/h200_plan_paths.json: every launch the committed traces measured, to be measured
again with the memory path's stages (`profile batch --paths`, profiling.metrics.PATH_METRICS):
the ladder's `profile run` traces (traces/<kernel>/, as plan launches of the same kernels, sizes
and blocks), then the launches of every earlier plan (ladder, holdout, catalog, blind, blind2,
triangles, iterate; Mandelbrot left out: it loads nothing). No source counters (per_array off).
Run where nvcc is: python scripts/h200_plan_paths.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from profiling import plan
from profiling.traces import TRACES_DIR, load_trace
from warpsim.registry import get_kernel

REPO = Path(__file__).resolve().parent.parent
PLANS = ("ladder", "holdout", "catalog", "blind", "blind2", "triangles", "iterate")
LADDER_RUNS = ("naive", "naive_coalesced", "coalesced", "smem", "blocktile1d", "blocktile2d", "vectorized",
               "warptile", "warptile_db")


def _plan(name: str) -> list[dict]:
    return json.loads((REPO / f"scripts/h200_plan_{name}.json").read_text())["launches"]


def ladder_runs() -> list[dict]:
    """The `profile run` traces of the ladder as plan launches (the ladder plan's entries give each
    kernel's source, entry, arguments and cubin; the trace its sizes and block). The cubin is the
    ladder plan's: the same source compiled elsewhere differs in three bytes of its ELF, not in
    its machine code."""
    like = {e["id"].split("/")[0]: e for e in _plan("ladder")}
    launches = []
    scratch = Path(tempfile.mkdtemp(prefix="warpsim-plan-"))
    for name in LADDER_RUNS:
        for path in sorted((TRACES_DIR / name).glob("*.json")):
            meta = load_trace(path).meta
            M, N, K, block = meta["M"], meta["N"], meta["K"], tuple(meta["block"])
            k, template = get_kernel(name), like[name]
            grid = ",".join(str(g) for g in k.grid(M, N, block))
            args = {**template["args"], "M": M, "N": N, "K": K}
            entry = plan.build(REPO / template["source"], template["entry"], grid, f"{block[0]}x{block[1]}", args,
                               scratch, reference=template.get("reference"))
            launches.append({**entry, "id": f"{entry['id']}_b{block[0]}x{block[1]}",  # 16x16 and 32x32 alike
                             "cubin": template["cubin"], "cubin_sha256": template["cubin_sha256"]})
    return launches


def main() -> None:
    launches = ladder_runs()
    for name in PLANS:
        launches += [{**e, "per_array": False} for e in _plan(name) if not e["entry"].startswith("mandel")]
    seen, unique = set(), []
    for e in launches:
        key = (e["source"], e["entry"], tuple(e["grid"]), tuple(e["block"]), json.dumps(e["args"], sort_keys=True))
        if key not in seen:
            seen.add(key)
            unique.append(e)
    out = plan.save(unique, REPO / "scripts/h200_plan_paths.json")
    print(f"wrote {out}: {len(unique)} launches")


if __name__ == "__main__":
    main()
