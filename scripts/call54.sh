#!/usr/bin/env bash
# Call 54: blind batch 26 (kernels/leftout.cu: local memory at an index per lane, a store filling a
# third of each sector; predicted in scripts/h200_blind26_predictions.json, the L2 and DRAM read
# ranges among it, before it ran), measured twice with the memory path's stages.
#   OUT=$OUT [BUDGET=S] bash scripts/call54.sh   (BUDGET: seconds for the batch's two passes)
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-250} bash scripts/h200_plan_twice.sh blind26
echo "total ${SECONDS}s"
