#!/usr/bin/env bash
# Call 39: blind batch 18, kernels/halo.cu (scripts/h200_plan_blind18.json, predicted before
# it ran in scripts/h200_blind18_predictions.json), measured twice with the memory path's stages on
# whichever GPU the device tool lends.
#   OUT=$OUT bash scripts/call39.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/h200_plan_twice.sh blind18
echo "total ${SECONDS}s"
