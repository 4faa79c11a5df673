#!/usr/bin/env bash
# Call 68, on an H100 80GB HBM3 (the batch is predicted with the H100 model): blind batch 36, the
# GEMM ladder at 2048^3, 2176^3, 2432^3 and 3072^3 (0.96x-2.16x the H100's L2), each launch twice;
# or the H100 batch named (call 69: blind37). Where an H200 comes instead, call 67 (blind batches
# 30, 31, 33 and 34 and the bench) in its place.
#   OUT=$OUT bash scripts/call68.sh [BATCH]
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && exec bash scripts/call67.sh
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q "H100 80GB HBM3" ||
  { echo "not an H100: nothing run"; exit 0; }
BUDGET=500 bash scripts/h200_plan_twice.sh "${1:-blind36}"
echo "total ${SECONDS}s"
