#!/usr/bin/env bash
# Call 60: blind batch 31 (kernels/quotients.cu past 2**20 blocks) measured twice on whatever GH100
# is lent; where it is an H200, blind batch 30 twice after it, as far as the 10 minutes allow.
#   OUT=$OUT bash scripts/call60.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=200 bash scripts/h200_plan_twice.sh blind31
echo "blind31 done after ${SECONDS}s"
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 0; }
left=$((560 - SECONDS))
BUDGET=$((left < 330 ? left : 330)) bash scripts/h200_plan_twice.sh blind30
echo "total ${SECONDS}s"
