"""Write scripts/h200_plan_blind32.json and scripts/h200_blind32_predictions.json: a thirty-second
blind batch, predicted here before any of it ran (stop 37): kernels/transpose.cu's three
transposes over 2,000,001 x 600 floats (4.8 GB each way, 19 x 62,501 = 1,187,519 blocks; first
planned at 4,200,001 x 255, whose grid's y of 131,251 passes CUDA's 65,535: warpsim warned, and
the GPU would not launch it), whose blocks' rows lie 256 MB apart, so that each thread's 4 GiB window differs (values.thread_windows, new in stop
37: before it, refused past 2**20 blocks). The cache model places at most 2**18 blocks: its
refusal is the prediction there.
Run where nvcc is: python scripts/h200_plan_blind32.py
"""

from __future__ import annotations

from h200_plan_blind import REPO, predict, save

TRANSPOSE = REPO / "kernels" / "transpose.cu"
ARGS = {"M": 2_000_001, "N": 600, "in": "float[M*N]", "out": "float[N*M]"}
RANGES = ("l1_hit_sectors_range", "l2_read_sectors_range", "dram_read_bytes_range")


def main() -> None:
    save("blind32", [predict(TRANSPOSE, entry, "cdiv(N,32),cdiv(M,32)", "32x8", ARGS, ranges=RANGES)
                     for entry in ("transpose_naive", "transpose_tiled<0>", "transpose_tiled<1>")])


if __name__ == "__main__":
    main()
