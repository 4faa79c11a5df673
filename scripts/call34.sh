#!/usr/bin/env bash
# Call 34: kernels/atomics.cu (scripts/h200_plan_atoms3.json,
# predicted before it ran in scripts/h200_atoms3_predictions.json), measured twice with the memory
# path's stages on whichever GPU the device tool lends.
#   OUT=$OUT bash scripts/call34.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/h200_plan_twice.sh atoms3
echo "total ${SECONDS}s"
