"""Write scripts/h200_plan_blind.json and scripts/h200_blind_predictions.json: five kernels that are
not GEMM (kernels/stencil.cu, softmax.cu, reduce.cu, conv1d.cu: a five-point stencil, a row
softmax with a float division's slow path, a row reduction through shared memory and shuffles, a
1-D convolution through a shared tile with halos), written for this test and predicted here,
exact counts and cache figures, before any of them ran on a GPU: a blind test of "any kernel a
user brings". Each at the catalog's three sizes: a small odd one, one that fits in the L2, one
1.6-2.7x the L2. Run where nvcc is: python scripts/h200_plan_blind.py

The same for other catalog files, named: `python scripts/h200_plan_blind.py iterate iterate.cu`
writes scripts/h200_plan_iterate.json and h200_iterate_predictions.json (kernels/iterate.cu: a
division's slow path, a halving loop and Mandelbrot, control flow decided by data).
"""

from __future__ import annotations

import json
import sys
import tempfile
import tomllib
from pathlib import Path

import numpy as np

from profiling import plan
from warpsim.caches import caches_for_launch
from warpsim.errors import UsageError
from warpsim.sass import analyze

REPO = Path(__file__).resolve().parent.parent
FILES = ("stencil.cu", "softmax.cu", "reduce.cu", "conv1d.cu")
#: the ranges a ladder batch's predictions carry (ladder_pairs)
LADDER_RANGES = ("l1_hit_sectors_range", "l2_read_sectors_range", "dram_read_bytes_range")


def predict(source: Path, entry: str, grid: str, block: str, args: dict, per_array: bool = False,
            reference: str | None = None, dynamic_shared: str | None = None,
            ranges: tuple[str, ...] = (), hw=None) -> tuple[dict, dict]:
    """One launch resolved into a plan entry (its cubin copied under traces/), and warpsim's
    prediction of it: the exact counts per access and the cache figures' totals (for the
    hierarchy `hw`, warpsim.caches.hardware: the H200's by default), and under "ranges" the keys
    `ranges` names of the cache prediction's JSON (`l2_read_sectors_range`, ...)."""
    launch = plan.build(source, entry, grid, block, args, REPO / "traces", per_array=per_array, reference=reference,
                        dynamic_shared=dynamic_shared)
    kernel = analyze.prepare(source, entry, grid, block, args, dynamic_shared=dynamic_shared)
    counts = analyze.analyze_launch(kernel)
    try:
        whole = caches_for_launch(kernel, hw=hw).as_dict()
        caches, bounds = whole["total"], {k: whole[k] for k in ranges}
    except UsageError as e:  # a launch the cache model cannot follow: its refusal is the prediction
        caches, bounds = {"refused": str(e)}, {}
    prediction = {"rows": [{**{k: r.record()[k] for k in ("array", "op", "requests", "sectors")},
                            **({"passes": r.wavefronts} if (r.space, r.op) == ("global", "atomic") else {})}
                           for r in counts.rows],
                  "caches": caches, **({"ranges": bounds} if ranges else {})}
    print(launch["id"], prediction["caches"])
    return launch, prediction


def save(name: str, pairs: list[tuple[dict, dict]]) -> None:
    """scripts/h200_plan_NAME.json and scripts/h200_NAME_predictions.json."""
    out = plan.save([launch for launch, _ in pairs], REPO / f"scripts/h200_plan_{name}.json")
    predictions = {launch["id"]: prediction for launch, prediction in pairs}
    (REPO / f"scripts/h200_{name}_predictions.json").write_text(json.dumps(predictions, indent=1) + "\n")
    print(f"wrote {out}: {len(pairs)} launches, and their predictions")


def ladder_pairs(sizes: tuple[int, ...], hw, also=None) -> list[tuple[dict, dict]]:
    """The nine kernels of the GEMM ladder (scripts/h200_plan_ladder.json, one launch a kernel: its
    source, entry, block and scalars) at each square size of `sizes`, predicted for the hierarchy
    `hw`: (plan entry, prediction) pairs; `also(kernel, n)` adds its dict to each prediction."""
    from warpsim.registry import get_kernel

    ladder = json.loads((REPO / "scripts/h200_plan_ladder.json").read_text())["launches"]
    kernels = {}
    for e in ladder:
        kernels.setdefault(e["id"].split("/")[0], e)
    pairs = []
    for n in sizes:
        for name, like in kernels.items():
            k = get_kernel(name)
            grid = ",".join(str(g) for g in k.grid(n, n, k.default_block))
            launch, prediction = predict(REPO / like["source"], like["entry"], grid, like["block_text"],
                                         {**like["args"], "M": n, "N": n, "K": n}, ranges=LADDER_RANGES, hw=hw)
            pairs.append((launch, {**prediction, **(also(name, n) if also else {})}))
    return pairs


def histograms(name: str, keys: dict[str, np.ndarray]) -> None:
    """scripts/h200_plan_NAME.json and its predictions: kernels/sparse.cu's histogram once per array
    of `keys`, each saved as `KEY.npy` (int32) and given as the launch's keys (`int[n]=@KEY.npy`,
    pinned under traces/ by the plan); the stop-31 searches for the atomics' extra sector passes."""
    pairs = []
    with tempfile.TemporaryDirectory() as tmp:
        for key, values in keys.items():
            path = Path(tmp) / f"{key}.npy"
            np.save(path, np.ascontiguousarray(values, dtype=np.int32))
            pairs.append(predict(REPO / "kernels" / "sparse.cu", "histogram", "cdiv(n,256)", "256",
                                 {"n": len(values), "keys": f"int[n]=@{path}", "counts": "int[1024]"},
                                 reference="sparse.cu:histogram"))
    save(name, pairs)


def file_pairs(files: tuple[str, ...]) -> list[tuple[dict, dict]]:
    """Every catalog kernel of `files` at each of its catalog sizes: (plan entry, prediction) pairs."""
    catalog = tomllib.loads((REPO / "kernels/catalog.toml").read_text())["kernel"]
    pairs = []
    for e in (e for e in catalog if e["file"] in files):
        for i, size in enumerate(e["sizes"]):
            pairs.append(predict(REPO / "kernels" / e["file"], e["entry"], e["grid"], e["block"],
                                 {**size, **e["buffers"]}, i == e["per_array"], f"{e['file']}:{e['entry']}",
                                 e.get("dynamic_shared")))
    return pairs


def main(name: str = "blind", files: tuple[str, ...] = FILES) -> None:
    save(name, file_pairs(files))


if __name__ == "__main__":
    main(sys.argv[1], tuple(sys.argv[2:])) if len(sys.argv) > 2 else main()
