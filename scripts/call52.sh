#!/usr/bin/env bash
# Call 52: 96 single warps of blind batch 25's Zipf histogram, each repeated
# (scripts/h200_plan_atomwarps.py: which warps take passes beyond the rule),
# measured twice with the memory path's stages.
#   OUT=$OUT [BUDGET=S] bash scripts/call52.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-500} bash scripts/h200_plan_twice.sh atomwarps
echo "total ${SECONDS}s"
