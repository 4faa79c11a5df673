"""Write scripts/h200_plan_blind11.json and scripts/h200_blind11_predictions.json: an eleventh
blind batch, predicted here before any of it ran, then measured with the memory path's stages,
twice (scripts/h200_call25.sh): kernels/local.cu, written for this test, the first catalog
kernels whose machine code uses local memory (LDL/STL: per-thread arrays the compiler cannot keep
in registers, one indexed per lane, one by a loop index) or an atomic's old value (ATOMG). No
committed trace had measured a local access or an ATOMG: their counts (instructions, requests;
local sectors, which warpsim does not yet place in the hardware's interleaved local layout) are
reported, not claimed, until these measurements say what they are. Run where nvcc is:
python scripts/h200_plan_blind11.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind11", file_pairs(("local.cu",)))


if __name__ == "__main__":
    main()
