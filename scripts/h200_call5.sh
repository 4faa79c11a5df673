#!/usr/bin/env bash
# H200 call 5: the ladder at two held-out sizes (issue 10: sizes no cache-model constant was
# chosen on), one ncu session: scripts/h200_plan_holdout.json (written by h200_plan_holdout.py).
# Everything lands under $OUT/run and comes back as $OUT/run.tgz. Run from the repo root:
#   OUT=$OUT bash scripts/h200_call5.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=. PYTHONUNBUFFERED=1
R="$OUT/run"
mkdir -p "$R/traces"
{ date -u; nvidia-smi; ncu --version; nvcc --version; } > "$R/versions.txt" 2>&1
SECONDS=0
timeout 420 python3 -m profiling.cli batch scripts/h200_plan_holdout.json --traces-dir "$R/traces" --timeout 400 > "$R/holdout.log" 2>&1; echo "holdout exit $? after $SECONDS s" >> "$R/holdout.log"
tar -czf "$OUT/run.tgz" -C "$OUT" run
tail -5 "$R/holdout.log"
find "$R/traces" -name '*.json' | wc -l
