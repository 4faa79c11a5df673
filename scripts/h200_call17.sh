#!/usr/bin/env bash
# H200 call 17: naive, coalesced and smem from 2816^3 to 3200^3 (scripts/h200_plan_sweep.json, predicted in
# scripts/h200_sweep_predictions.json), one ncu session with the memory path's stages, then a
# second session, a repeat (its traces under run2/): how far two measurements of a launch differ.
#   OUT=$OUT bash scripts/h200_call17.sh
set -uo pipefail
cd "$(dirname "$0")/.."
# pyelftools and cxxfilt (the cubin reader's) from wheels carried in .whl/ where the machine has none
[ -d .whl ] && python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
export PYTHONPATH=.:/tmp/site PYTHONUNBUFFERED=1
R=/tmp/sweep
mkdir -p "$R/traces"
{ date -u; nvidia-smi; ncu --version; nvcc --version; } > "$R/versions.txt" 2>&1
SECONDS=0
for pass in traces run2; do
  timeout $((520 - SECONDS)) python3 -m profiling.cli batch scripts/h200_plan_sweep.json --paths \
    --traces-dir "$R/$pass" --timeout $((500 - SECONDS)) >> "$R/sweep.log" 2>&1
  echo "sweep $pass exit $? after $SECONDS s" >> "$R/sweep.log"
done
tar -czf "$OUT/sweep.tgz" -C /tmp sweep
grep 'exit\|failed' "$R/sweep.log"; find "$R/traces" "$R/run2" -name '*.json' | wc -l
