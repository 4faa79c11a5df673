"""Write scripts/h200_plan_blind16.json and scripts/h200_blind16_predictions.json: a sixteenth
blind batch, predicted here before any of it ran, then measured with the memory path's stages,
twice (scripts/call33.sh): kernels/switch.cu, switches nvcc compiles to jump tables (BRX, its pcs
in constant bank 2) on a mode parameter, inside a loop, on the warp index and on a divided flat
index; and kernels/userland.cu, a double atomic to one address, a shuffle of width 8, float3
elements and uchar4 pixels through __ldg. Run where nvcc is: python scripts/h200_plan_blind16.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind16", file_pairs(("switch.cu", "userland.cu")))


if __name__ == "__main__":
    main()
