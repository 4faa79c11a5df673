#!/usr/bin/env bash
# Call 50: the sector passes of reductions whose lanes put unequal runs on the words of a sector
# (scripts/h200_plan_atomruns.py: 29 warp patterns, each over 512 warps of sparse.cu's histogram),
# measured twice with the memory path's stages.
#   OUT=$OUT [BUDGET=S] bash scripts/call50.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-400} bash scripts/h200_plan_twice.sh atomruns
echo "total ${SECONDS}s"
