#!/usr/bin/env bash
# Call 45: blind batch 22 (kernels/slowpaths.cu: coordinates from divisions, reciprocals and square
# roots whose lanes take nvcc's slow paths, predicted in scripts/h200_blind22_predictions.json
# before it ran), measured twice with the memory path's stages; then blind batch 21 again where an
# H200 is lent and time is left (it ran on an H100, whose cache figures are not judged).
#   OUT=$OUT [BUDGET=S] bash scripts/call45.sh   (BUDGET: seconds for each batch's two passes)
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-250} bash scripts/h200_plan_twice.sh blind22
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  [ "$SECONDS" -lt 300 ] && BUDGET=${BUDGET:-250} bash scripts/h200_plan_twice.sh blind21
fi
echo "total ${SECONDS}s"
