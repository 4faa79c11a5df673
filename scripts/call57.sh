#!/usr/bin/env bash
# Call 57: blind batches 28 (kernels/cub.cu: CUB's block reduce, block scan behind BRA.DIV, warp
# scan after exits, blocked load through shared memory) and 29 (kernels/cubstore.cu: a count one
# thread hands the block through shared memory decides the stores; CUB's guarded BlockStore),
# predicted in scripts/h200_blind2{8,9}_predictions.json before they ran, each measured twice
# with the memory path's stages, on whatever GH100 is lent (the exact counts hold on any); then,
# where it is an H200,
# the ladder's bench and blind batches 18 and 17 again as far as the 10 minutes allow.
#   OUT=$OUT bash scripts/call57.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=200 bash scripts/h200_plan_twice.sh blind28
BUDGET=160 bash scripts/h200_plan_twice.sh blind29
echo "blind28 and 29 done after ${SECONDS}s"
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 0; }
bash scripts/h200_bench.sh bench34
echo "bench done after ${SECONDS}s"
for name in blind18 blind17; do
  left=$((560 - SECONDS))
  [ "$left" -gt 120 ] || break
  BUDGET=$((left < 260 ? left : 260)) bash scripts/h200_plan_twice.sh "$name"
done
echo "total ${SECONDS}s"
