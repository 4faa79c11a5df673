"""Write scripts/h200_plan_blind3.json and scripts/h200_blind3_predictions.json: a third blind
batch, launches no trace has and no constant was chosen on, predicted here (exact counts and
cache figures) before any of them ran, then measured with the memory path's stages
(scripts/h200_call14.sh): the nine ladder kernels at 2304^3 (A, B and C 63.7 MB, 1.01x the 60 MiB
L2: the edge of it) and twenty-one catalog kernels at sizes of their kind that none of their
traces has. Run where nvcc is: python scripts/h200_plan_blind3.py
"""

from __future__ import annotations

import json
import tomllib

from h200_plan_blind import REPO, predict, save
from warpsim.registry import get_kernel

LADDER = ("naive", "naive_coalesced", "coalesced", "smem", "blocktile1d", "blocktile2d", "vectorized", "warptile",
          "warptile_db")
EDGE = 2304
#: (entry, sizes): the catalog kernel's other arguments and buffers as listed
NEW_SIZES = (
    ("transpose_naive", {"M": 1111, "N": 999}),
    ("transpose_tiled<1>", {"M": 2500, "N": 1700}),
    ("gemv_row", {"M": 3000, "N": 777}),
    ("gemv_warp", {"M": 5000, "N": 3000}),
    ("sgemm_bt", {"M": 1000, "N": 700, "K": 300}),
    ("trmm_lower", {"M": 800, "N": 1200}),
    ("trmm_lower_coalesced", {"M": 1500, "N": 900}),
    ("axpy_float2", {"n": 9000001}),
    ("hgemm_naive", {"M": 1000, "N": 600, "K": 512}),
    ("dgemm_smem", {"M": 700, "N": 900, "K": 500}),
    ("sgemm_cp_async", {"M": 1000, "N": 800, "K": 600}),
    ("sgemm_cp_async_vec4", {"M": 1000, "N": 800, "K": 600}),
    ("wmma_tf32_smem", {"M": 1024, "N": 512, "K": 768}),
    ("sgemm_splitk", {"M": 600, "N": 500, "K": 3000, "splits": 6}),
    ("sgemm_batched", {"M": 400, "N": 300, "K": 200, "batch": 7}),
    ("stencil5", {"M": 2000, "N": 3001}),
    ("softmax_warp", {"M": 2000, "N": 2049}),
    ("row_sum", {"M": 3000, "N": 2001}),
    ("conv1d_smem<8>", {"n": 3000007}),
    ("layernorm_warp", {"M": 2500, "N": 777}),
    ("stencil7", {"X": 100, "Y": 50, "Z": 40}),
)


def ladder_pairs(M: int, N: int, K: int) -> list:
    """The nine ladder kernels at M x N x K, each launched as scripts/h200_plan_ladder.json
    launches it: (plan entry, prediction) pairs."""
    ladder = {e["id"].split("/")[0]: e for e in json.loads((REPO / "scripts/h200_plan_ladder.json").read_text())["launches"]}
    pairs = []
    for name in LADDER:
        like, k = ladder[name], get_kernel(name)
        grid = ",".join(str(g) for g in k.grid(M, N, k.default_block))
        args = {**like["args"], "M": M, "N": N, "K": K}
        pairs.append(predict(REPO / like["source"], like["entry"], grid, like["block_text"], args))
    return pairs


def catalog_pairs(new_sizes) -> list:
    """Catalog kernels at new sizes, ((entry, sizes), ...), their other arguments and buffers as
    the catalog lists them: (plan entry, prediction) pairs."""
    catalog = {e["entry"]: e for e in tomllib.loads((REPO / "kernels/catalog.toml").read_text())["kernel"]}
    pairs = []
    for entry, size in new_sizes:
        e = catalog[entry]
        args = {**e["sizes"][0], **size, **e["buffers"]}
        pairs.append(predict(REPO / "kernels" / e["file"], entry, e["grid"], e["block"], args,
                             reference=f"{e['file']}:{entry}"))
    return pairs


def main() -> None:
    pairs = ladder_pairs(EDGE, EDGE, EDGE) + catalog_pairs(NEW_SIZES)
    save("blind3", pairs)


if __name__ == "__main__":
    main()
