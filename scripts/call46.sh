#!/usr/bin/env bash
# Call 46: blind batch 23 (kernels/mathlib.cu: coordinates from sinf, cosf, atan2f, sqrtf and logf,
# predicted in scripts/h200_blind23_predictions.json before it ran), measured twice with the memory
# path's stages.
#   OUT=$OUT [BUDGET=S] bash scripts/call46.sh   (BUDGET: seconds for the batch's two passes)
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-250} bash scripts/h200_plan_twice.sh blind23
echo "total ${SECONDS}s"
