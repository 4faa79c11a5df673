#!/usr/bin/env bash
# Call 44: blind batch 21 (kernels/coords.cu, coordinates from a float division and from doubles,
# predicted in scripts/h200_blind21_predictions.json before it ran), measured twice with the memory
# path's stages; then blind batch 20 again where an H200 is lent and time is left (it ran on an
# H100, whose cache figures are not judged).
#   OUT=$OUT [BUDGET=S] bash scripts/call44.sh   (BUDGET: seconds for each batch's two passes)
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-250} bash scripts/h200_plan_twice.sh blind21
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  [ "$SECONDS" -lt 300 ] && BUDGET=${BUDGET:-250} bash scripts/h200_plan_twice.sh blind20
fi
echo "total ${SECONDS}s"
