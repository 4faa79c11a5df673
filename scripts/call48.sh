#!/usr/bin/env bash
# Call 48: blind batches 21-24 again on an H200 (they ran on an H100, whose cache figures are not
# judged), each measured twice with the memory path's stages. Exits at once, measuring nothing,
# where the machine lent is not an H200.
#   OUT=$OUT bash scripts/call48.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 3; }
for name in blind24 blind23 blind21 blind22; do
  BUDGET=130 bash scripts/h200_plan_twice.sh "$name"
done
echo "total ${SECONDS}s"
