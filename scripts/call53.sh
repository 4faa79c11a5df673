#!/usr/bin/env bash
# Call 53: two warps of blind batch 25's Zipf histogram, changed 39 ways each
# (scripts/h200_plan_atomdelta.py: what in a warp takes passes beyond the rule),
# measured twice with the memory path's stages.
#   OUT=$OUT [BUDGET=S] bash scripts/call53.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-500} bash scripts/h200_plan_twice.sh atomdelta
echo "total ${SECONDS}s"
