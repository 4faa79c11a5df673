#!/usr/bin/env bash
# H200 call 14: the third blind batch (scripts/h200_plan_blind3.json, predicted before it ran in
# scripts/h200_blind3_predictions.json), one ncu session with the memory path's stages, then a
# second session, a repeat (its traces under run2/): how far two measurements of a launch differ.
#   OUT=$OUT bash scripts/h200_call14.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=. PYTHONUNBUFFERED=1
R=/tmp/blind3
mkdir -p "$R/traces"
{ date -u; nvidia-smi; ncu --version; nvcc --version; } > "$R/versions.txt" 2>&1
SECONDS=0
for pass in traces run2; do
  timeout $((520 - SECONDS)) python3 -m profiling.cli batch scripts/h200_plan_blind3.json --paths \
    --traces-dir "$R/$pass" --timeout $((500 - SECONDS)) >> "$R/blind3.log" 2>&1
  echo "blind3 $pass exit $? after $SECONDS s" >> "$R/blind3.log"
done
tar -czf "$OUT/blind3.tgz" -C /tmp blind3
grep 'exit\|failed' "$R/blind3.log"; find "$R/traces" "$R/run2" -name '*.json' | wc -l
