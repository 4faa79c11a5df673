#!/usr/bin/env bash
# Call 33: blind batch 16 (kernels/switch.cu and kernels/userland.cu, scripts/h200_plan_blind16.json,
# predicted before it ran in scripts/h200_blind16_predictions.json), measured twice with the memory
# path's stages on whichever GPU the device tool lends.
#   OUT=$OUT bash scripts/call33.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/h200_plan_twice.sh blind16
echo "total ${SECONDS}s"
