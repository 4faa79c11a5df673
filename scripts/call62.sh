#!/usr/bin/env bash
# Call 62: blind batch 33 (kernels/quotients.cu, divisors of more than 256 classes, taken as
# quotient and remainder) measured twice on whatever GH100 is lent; where it is an H200, blind
# batch 30 twice after it.
#   OUT=$OUT bash scripts/call62.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=300 bash scripts/h200_plan_twice.sh blind33
echo "blind33 done after ${SECONDS}s"
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 0; }
left=$((560 - SECONDS))
BUDGET=$((left < 330 ? left : 330)) bash scripts/h200_plan_twice.sh blind30
echo "total ${SECONDS}s"
