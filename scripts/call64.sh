#!/usr/bin/env bash
# Call 64: blind batch 34 (kernels/flat_index.cu, a flat thread index divided by sizes the launch
# gives) measured twice on whatever GH100 is lent; where it is an H200, blind batch 30 twice after it.
#   OUT=$OUT bash scripts/call64.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=240 bash scripts/h200_plan_twice.sh blind34
echo "blind34 done after ${SECONDS}s"
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 0; }
left=$((560 - SECONDS))
BUDGET=$((left < 330 ? left : 330)) bash scripts/h200_plan_twice.sh blind30
echo "total ${SECONDS}s"
