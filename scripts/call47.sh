#!/usr/bin/env bash
# Call 47: blind batch 24 (kernels/clamps.cu: indices clamped by VIMNMX.RELU and VIADDMNMX.RELU,
# predicted in scripts/h200_blind24_predictions.json before it ran), measured twice with the memory
# path's stages.
#   OUT=$OUT [BUDGET=S] bash scripts/call47.sh   (BUDGET: seconds for the batch's two passes)
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-250} bash scripts/h200_plan_twice.sh blind24
echo "total ${SECONDS}s"
