"""Write scripts/h200_plan_blind13.json and scripts/h200_blind13_predictions.json: a thirteenth
blind batch, predicted here before any of it ran, then measured with the memory path's stages,
twice (scripts/h200_call27.sh): kernels/sparse.cu, written for this test, the first kernels whose
addresses come from index arrays (a gather through a permutation, a CSR matrix-vector product, a
histogram's atomics). Until now warpsim refused them (an address computed from data); the launch
now gives the indices' contents (`--arg perm='int[n]=(i*7919)%n'`, the catalog's buffers), the
engine reads them as it runs the blocks one by one, and the GPU run fills the buffers with the
same values. Run where nvcc is: python scripts/h200_plan_blind13.py
"""

from __future__ import annotations

from h200_plan_blind import file_pairs, save


def main() -> None:
    save("blind13", file_pairs(("sparse.cu",)))


if __name__ == "__main__":
    main()
