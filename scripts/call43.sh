#!/usr/bin/env bash
# Call 43: blind batch 20 (kernels/images.cu, addresses computed in floating point from the indices,
# predicted in scripts/h200_blind20_predictions.json before it ran), measured twice with the memory
# path's stages; then blind batches 18 and 17 again where an H200 is lent and time is left (they
# ran on an H100, whose cache figures are not judged).
#   OUT=$OUT [BUDGET=S] bash scripts/call43.sh   (BUDGET: seconds for blind 20's two passes)
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-520} bash scripts/h200_plan_twice.sh blind20
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  [ "$SECONDS" -lt "$((${BUDGET:-520} - 40))" ] && BUDGET=40 bash scripts/h200_plan_twice.sh blind18
fi
echo "total ${SECONDS}s"
