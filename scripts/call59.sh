#!/usr/bin/env bash
# Call 59: blind batch 30 (kernels/quotients.cu, a block index divided by a constant) measured twice
# on the H200 with the memory path's stages, as predicted in scripts/h200_blind30_predictions.json
# before it ran; then blind batch 19's second run, which did not fit stop 36's calls.
#   OUT=$OUT bash scripts/call59.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 0; }
BUDGET=330 bash scripts/h200_plan_twice.sh blind30
echo "blind30 done after ${SECONDS}s"
left=$((570 - SECONDS))
if [ "$left" -gt 60 ]; then
  R=/tmp/blind19
  mkdir -p "$R"
  { date -u; nvidia-smi; ncu --version; nvcc --version; } > "$R/versions.txt" 2>&1
  PYTHONPATH=.:/tmp/site PYTHONUNBUFFERED=1 timeout "$left" python3 -m profiling.cli batch \
    scripts/h200_plan_blind19.json --paths --traces-dir "$R/run2" --timeout $((left - 15)) >> "$R/blind19.log" 2>&1
  echo "blind19 run2 exit $? after $SECONDS s" >> "$R/blind19.log"
  tar -czf "$OUT/blind19.tgz" -C /tmp blind19
  grep 'exit\|failed' "$R/blind19.log"; find "$R/run2" -name '*.json' | wc -l
fi
echo "total ${SECONDS}s"
