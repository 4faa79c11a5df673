#!/usr/bin/env bash
# H200 call 16: the fourth blind batch (scripts/h200_plan_blind4.json, predicted before it ran in
# scripts/h200_blind4_predictions.json), one ncu session with the memory path's stages, then a
# second session, a repeat (its traces under run2/): how far two measurements of a launch differ.
#   OUT=$OUT bash scripts/h200_call16.sh
set -uo pipefail
cd "$(dirname "$0")/.."
# pyelftools and cxxfilt (the cubin reader's) from wheels carried in .whl/ where the machine has none
[ -d .whl ] && python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
export PYTHONPATH=.:/tmp/site PYTHONUNBUFFERED=1
R=/tmp/blind4
mkdir -p "$R/traces"
{ date -u; nvidia-smi; ncu --version; nvcc --version; } > "$R/versions.txt" 2>&1
SECONDS=0
for pass in traces run2; do
  timeout $((520 - SECONDS)) python3 -m profiling.cli batch scripts/h200_plan_blind4.json --paths \
    --traces-dir "$R/$pass" --timeout $((500 - SECONDS)) >> "$R/blind4.log" 2>&1
  echo "blind4 $pass exit $? after $SECONDS s" >> "$R/blind4.log"
done
tar -czf "$OUT/blind4.tgz" -C /tmp blind4
grep 'exit\|failed' "$R/blind4.log"; find "$R/traces" "$R/run2" -name '*.json' | wc -l
