#!/usr/bin/env bash
# Call 55: the ladder's bench (GFLOP/s at 4096^3 beside cuBLAS) on whatever GPU is lent; then,
# where it is an H200, blind batches 18 and 17 again (they ran on an H100, whose cache figures are
# not judged), as far as the command's 10 minutes allow, each measured twice with the memory path's
# stages.
#   OUT=$OUT bash scripts/call55.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/h200_bench.sh bench33
echo "bench done after ${SECONDS}s"
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 0; }
for name in blind18 blind17; do
  left=$((560 - SECONDS))
  [ "$left" -gt 120 ] || break
  BUDGET=$((left < 260 ? left : 260)) bash scripts/h200_plan_twice.sh "$name"
done
echo "total ${SECONDS}s"
