"""Write scripts/h200_plan_blind25.json and scripts/h200_blind25_predictions.json: a twenty-fifth
blind batch, predicted here before any of it ran (stop 31), whose index arrays are real data read
from .npy files (`--arg perm='int[n]=@perm.npy'`), which no expression of the element index
writes: kernels/sparse.cu's gather through a random permutation, its CSR product over a random
sparse matrix (rows of 0 to 24 entries at random columns), its histogram of Zipf-distributed keys
(many lanes of a warp on one bin). The data is drawn here from fixed seeds; the plan copies each
file under traces/sass/sparse/ by its digest, and the GPU run reads that copy, refusing any other.
Run where nvcc is: python scripts/h200_plan_blind25.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from h200_plan_blind import REPO, predict, save

SPARSE = REPO / "kernels" / "sparse.cu"


def data(folder: Path) -> dict[str, Path]:
    """The batch's index arrays, from fixed seeds, saved as .npy in `folder`."""
    rng = np.random.default_rng(2025_12_06)
    arrays = {}
    for n in (97, 200_003):
        arrays[f"perm{n}"] = rng.permutation(n).astype(np.int32)
        arrays[f"keys{n}"] = np.minimum(rng.zipf(1.3, n) - 1, 2**31 - 1).astype(np.int32)
    for rows in (97, 20_011):
        lengths = rng.integers(0, 25, rows)
        arrays[f"row_ptr{rows}"] = np.concatenate(([0], np.cumsum(lengths))).astype(np.int32)
        arrays[f"col{rows}"] = rng.integers(0, rows, int(lengths.sum())).astype(np.int32)
    paths = {}
    for name, values in arrays.items():
        paths[name] = folder / f"{name}.npy"
        np.save(paths[name], values)
    return paths


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        files = data(Path(tmp))
        nnz = {rows: int(np.load(files[f"row_ptr{rows}"])[-1]) for rows in (97, 20_011)}
        pairs = []
        for n in (97, 200_003):
            pairs.append(predict(SPARSE, "gather", "cdiv(n,256)", "256",
                                 {"n": n, "perm": f"int[n]=@{files[f'perm{n}']}", "x": "float[n]", "y": "float[n]"},
                                 per_array=n == 97, reference="sparse.cu:gather"))
            pairs.append(predict(SPARSE, "histogram", "cdiv(n,256)", "256",
                                 {"n": n, "keys": f"int[n]=@{files[f'keys{n}']}", "counts": "int[1024]"},
                                 per_array=n == 97, reference="sparse.cu:histogram"))
        for rows in (97, 20_011):
            pairs.append(predict(SPARSE, "spmv_csr", "cdiv(rows,256)", "256",
                                 {"rows": rows, "row_ptr": f"int[rows+1]=@{files[f'row_ptr{rows}']}",
                                  "col": f"int[{nnz[rows]}]=@{files[f'col{rows}']}", "val": f"float[{nnz[rows]}]",
                                  "x": "float[rows]", "y": "float[rows]"},
                                 per_array=rows == 97, reference="sparse.cu:spmv_csr"))
        save("blind25", pairs)


if __name__ == "__main__":
    main()
