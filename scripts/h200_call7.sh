#!/usr/bin/env bash
# H200 call 7: the two triangular products at three held-out sizes (issue 10: DRAM reads in
# 64-byte pieces), one ncu session: scripts/h200_plan_triangles.json (h200_plan_triangles.py).
# Everything lands under $OUT/run and comes back as $OUT/run.tgz. Run from the repo root:
#   OUT=$OUT bash scripts/h200_call7.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=. PYTHONUNBUFFERED=1
R="$OUT/run"
mkdir -p "$R/traces"
{ date -u; nvidia-smi; ncu --version; nvcc --version; } > "$R/versions.txt" 2>&1
SECONDS=0
timeout 420 python3 -m profiling.cli batch scripts/h200_plan_triangles.json --traces-dir "$R/traces" --timeout 400 > "$R/triangles.log" 2>&1; echo "triangles exit $? after $SECONDS s" >> "$R/triangles.log"
tar -czf "$OUT/run.tgz" -C "$OUT" run
tail -5 "$R/triangles.log"
find "$R/traces" -name '*.json' | wc -l
