#!/usr/bin/env bash
# Call 49: blind batch 25 (kernels/sparse.cu with index arrays read from .npy files: a random
# permutation, Zipf keys, a random CSR matrix; predicted in scripts/h200_blind25_predictions.json
# before it ran), measured twice with the memory path's stages.
#   OUT=$OUT [BUDGET=S] bash scripts/call49.sh   (BUDGET: seconds for the batch's two passes)
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-250} bash scripts/h200_plan_twice.sh blind25
echo "total ${SECONDS}s"
