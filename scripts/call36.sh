#!/usr/bin/env bash
# Call 36: kernels/atomics2.cu (scripts/h200_plan_atoms4.json,
# predicted before it ran in scripts/h200_atoms4_predictions.json), measured twice with the memory
# path's stages on whichever GPU the device tool lends.
#   OUT=$OUT bash scripts/call36.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/h200_plan_twice.sh atoms4
echo "total ${SECONDS}s"
