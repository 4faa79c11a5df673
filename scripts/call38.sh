#!/usr/bin/env bash
# Call 38: blind batch 17, kernels/constants.cu and params.cu (scripts/h200_plan_blind17.json, predicted before
# it ran in scripts/h200_blind17_predictions.json), measured twice with the memory path's stages on
# whichever GPU the device tool lends.
#   OUT=$OUT bash scripts/call38.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/h200_plan_twice.sh blind17
echo "total ${SECONDS}s"
