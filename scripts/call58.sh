#!/usr/bin/env bash
# Call 58: the ladder's bench (GFLOP/s at 4096^3 beside cuBLAS) on whatever GH100 is lent; then,
# where it is an H200, blind batches 29, 28, 27, ... measured twice with the memory path's stages
# as far as the 10 minutes allow (none of 17-29 has been measured on an H200 yet).
#   OUT=$OUT bash scripts/call58.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/h200_bench.sh bench35
echo "bench done after ${SECONDS}s"
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 0; }
for name in blind29 blind28 blind27 blind26 blind25; do
  left=$((560 - SECONDS))
  [ "$left" -gt 120 ] || break
  BUDGET=$((left < 200 ? left : 200)) bash scripts/h200_plan_twice.sh "$name"
done
echo "total ${SECONDS}s"
