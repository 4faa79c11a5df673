#!/usr/bin/env bash
# H200 call 7: the two triangular products at three held-out sizes (issue 10: DRAM reads in
# 64-byte pieces), one ncu session: scripts/h200_plan_triangles.json (h200_plan_triangles.py).
# Run from the repo root: OUT=$OUT bash scripts/h200_call7.sh
exec bash "$(dirname "$0")/h200_batch.sh" scripts/h200_plan_triangles.json triangles
