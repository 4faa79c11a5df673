#!/usr/bin/env bash
# Call 35, on an H200: blind batches 16, 14 and 15 twice with the memory path's stages (their cache
# figures are judged on the H200 only; 14 and 15 had been measured on an H100), then the ladder's
# bench into /tmp/bench35.
#   OUT=$OUT bash scripts/call35.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for b in blind16 blind14 blind15; do bash scripts/h200_plan_twice.sh $b; done
bash scripts/h200_bench.sh bench35
echo "total ${SECONDS}s"
