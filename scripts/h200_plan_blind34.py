"""Write scripts/h200_plan_blind34.json and scripts/h200_blind34_predictions.json: a thirty-fourth
blind batch, predicted here before any of it ran (stop 39): kernels/flat_index.cu, element-wise
kernels over one flat thread index divided by sizes the launch gives (a transpose, a row
broadcast, an NCHW to NHWC permute, im2col). Where every thread's quotient estimate is one affine
value over each piece (a width of 4096 or 8192: values.split, new in stop 39) the launch is
counted symbolically; the others (odd widths, chained divisions) run block by block, as before.
Run where nvcc is: python scripts/h200_plan_blind34.py
"""

from __future__ import annotations

from h200_plan_blind import REPO, predict, save
from h200_plan_blind30 import RANGES

FLAT = REPO / "kernels" / "flat_index.cu"
MATRIX = {"in": "float[rows*cols]", "out": "float[rows*cols]"}
BIAS = {"x": "float[rows*cols]", "bias": "float[cols]", "y": "float[rows*cols]"}
TENSOR = {"in": "float[n*c*h*w]", "out": "float[n*c*h*w]"}
IMAGE = {"img": "float[c*h*w]", "col": "float[c*k*k*(h-k+1)*(w-k+1)]"}
LAUNCHES = (
    [("flat_transpose", "cdiv(rows*cols,256)", "256", {"rows": r, "cols": c, **MATRIX})
     for r, c in ((61, 97), (4_096, 4_096), (5_000, 8_192), (3_000, 3_001))]
    + [("bias_rows", "cdiv(rows*cols,256)", "256", {"rows": r, "cols": c, **BIAS})
       for r, c in ((8_192, 4_096), (3_000, 3_001))]
    + [("nchw_to_nhwc", "cdiv(n*c*h*w,256)", "256", {"n": n, "c": c, "h": h, "w": w, **TENSOR})
       for n, c, h, w in ((2, 3, 5, 7), (32, 64, 56, 56))]
    + [("im2col", "cdiv(c*k*k*(h-k+1)*(w-k+1),256)", "256", {"c": c, "h": h, "w": w, "k": k, **IMAGE})
       for c, h, w, k in ((3, 224, 224, 3), (64, 56, 56, 3))])
SMALL = {61, 7}  # the small sizes: counted per array


def main() -> None:
    save("blind34", [predict(FLAT, entry, grid, block, args, per_array=bool(SMALL & set(args.values())),
                             ranges=RANGES) for entry, grid, block, args in LAUNCHES])


if __name__ == "__main__":
    main()
