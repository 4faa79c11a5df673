#!/usr/bin/env bash
# Call 56: blind batch 27 (kernels/cacheops.cu: a stencil loaded through six cache operators, an
# acquire load that invalidates L1, stores through three; predicted in
# scripts/h200_blind27_predictions.json, its L1 hit and L2 read ranges among it, before it ran),
# measured twice with the memory path's stages.
#   OUT=$OUT [BUDGET=S] bash scripts/call56.sh   (BUDGET: seconds for the batch's two passes)
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-400} bash scripts/h200_plan_twice.sh blind27
echo "total ${SECONDS}s"
