#!/usr/bin/env bash
# Call 65: the lent GPU's properties (scripts/h100_device.py), then blind batch 35 (the GEMM ladder
# below, near and above the H100's L2, predicted with the H100 cache model) measured twice.
#   OUT=$OUT bash scripts/call65.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
PYTHONPATH=. python3 scripts/h100_device.py
BUDGET=500 bash scripts/h200_plan_twice.sh blind35
echo "total ${SECONDS}s"
