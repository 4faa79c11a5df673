#!/usr/bin/env bash
# Call 69, on an H100 80GB HBM3 (the batch is predicted with the H100 model): blind batch 37, the
# GEMM ladder at 1792^3, 2112^3, 2560^3, 2944^3 and 3584^3 (0.73x-2.94x the H100's L2), each twice.
# Where an H200 comes instead, call 67 (blind batches 30, 31, 33 and 34 and the bench) in its place.
#   OUT=$OUT bash scripts/call69.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && exec bash scripts/call67.sh
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q "H100 80GB HBM3" || { echo "not an H100: nothing run"; exit 0; }
BUDGET=500 bash scripts/h200_plan_twice.sh blind37
echo "total ${SECONDS}s"
