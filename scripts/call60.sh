#!/usr/bin/env bash
# Call 60: blind batch 31 (kernels/quotients.cu past 2**20 blocks) measured twice on whatever GH100
# is lent; where it is an H200, blind batch 30 twice and blind 19's second run after it (call59.sh).
#   OUT=$OUT bash scripts/call60.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=200 bash scripts/h200_plan_twice.sh blind31
echo "blind31 done after ${SECONDS}s"
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 0; }
BUDGET=$((560 - SECONDS)) bash scripts/call59.sh
