#!/usr/bin/env bash
# Call 67, on an H200 only (an H100 ran all of these already): blind batches 30, 31, 33 and 34
# (kernels/quotients.cu, flat_index.cu; predicted with the H200 model before they ran), each
# launch twice, then the ladder's bench at 4096^3 beside cuBLAS (scripts/h200_bench.sh).
#   OUT=$OUT bash scripts/call67.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200: nothing run"; exit 0; }
BUDGET=110 bash scripts/h200_plan_twice.sh blind30
BUDGET=90 bash scripts/h200_plan_twice.sh blind31
BUDGET=150 bash scripts/h200_plan_twice.sh blind33
BUDGET=75 bash scripts/h200_plan_twice.sh blind34
bash scripts/h200_bench.sh bench
echo "total ${SECONDS}s"
