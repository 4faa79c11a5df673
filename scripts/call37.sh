#!/usr/bin/env bash
# Call 37: kernels/halfatomic.cu (scripts/h200_plan_atoms5.json,
# predicted before it ran in scripts/h200_atoms5_predictions.json), measured twice with the memory
# path's stages on whichever GPU the device tool lends.
#   OUT=$OUT bash scripts/call37.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/h200_plan_twice.sh atoms5
echo "total ${SECONDS}s"
