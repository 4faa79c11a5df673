#!/usr/bin/env bash
# Call 40: blind batch 19, kernels/textbook.cu (scripts/h200_plan_blind19.json, predicted before
# it ran in scripts/h200_blind19_predictions.json), measured twice with the memory path's stages on
# whichever GPU the device tool lends.
#   OUT=$OUT bash scripts/call40.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/h200_plan_twice.sh blind19
echo "total ${SECONDS}s"
