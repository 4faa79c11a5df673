#!/usr/bin/env bash
# Call 61: blind batch 32 (kernels/transpose.cu over 4.8 GB, past 2**20 blocks) measured twice on
# whatever GH100 is lent; where it is an H200, blind batch 30 twice after it.
#   OUT=$OUT bash scripts/call61.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=200 bash scripts/h200_plan_twice.sh blind32
echo "blind32 done after ${SECONDS}s"
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 0; }
left=$((560 - SECONDS))
BUDGET=$((left < 330 ? left : 330)) bash scripts/h200_plan_twice.sh blind30
echo "total ${SECONDS}s"
