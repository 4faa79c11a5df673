#!/usr/bin/env bash
# Call 41: blind batch 19 (kernels/textbook.cu, predicted in scripts/h200_blind19_predictions.json
# before it ran), then batches 18 and 17 again where an H200 is lent (they ran on an H100, whose
# cache figures are not judged), each measured twice with the memory path's stages, as long as the
# 600 s a call has leave room.
#   OUT=$OUT bash scripts/call41.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/h200_plan_twice.sh blind19
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  for name in blind18 blind17; do
    [ "$SECONDS" -lt 330 ] && bash scripts/h200_plan_twice.sh "$name"
  done
fi
echo "total ${SECONDS}s"
