#!/usr/bin/env bash
# Call 66: whichever GH100 is lent. On an H100: its properties (scripts/h100_device.py) and blind
# batch 35 (predicted with the H100 cache model) twice. On an H200: blind batch 30 (predicted with
# the H200 model, quotient kernels) twice. Then the ladder's bench at 4096^3 in the time left.
#   OUT=$OUT bash scripts/call66.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  BUDGET=330 bash scripts/h200_plan_twice.sh blind30
else
  PYTHONPATH=. python3 scripts/h100_device.py
  BUDGET=400 bash scripts/h200_plan_twice.sh blind35
fi
left=$((570 - SECONDS))
mkdir -p /tmp/bench
{ date -u; nvidia-smi; nvcc --version; } > /tmp/bench/versions.txt 2>&1
PYTHONPATH=.:/tmp/site timeout "$left" python3 -m profiling.cli bench --traces-dir /tmp/bench > /tmp/bench/bench.log 2>&1
echo "bench exit $? after ${SECONDS}s"
tail -16 /tmp/bench/bench.log
tar -czf "$OUT/bench.tgz" -C /tmp bench
echo "total ${SECONDS}s"
