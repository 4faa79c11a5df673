#!/usr/bin/env bash
# Call 63: the GEMM ladder's GFLOP/s beside cuBLAS SGEMM at 4096^3 (profile bench) on whatever
# GH100 is lent, packed to $OUT/bench.tgz; where it is an H200, blind batch 30 twice after it
# (call 59's first half: the cache model judged on quotient kernels).
#   OUT=$OUT bash scripts/call63.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
[ -d .whl ] && python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
mkdir -p /tmp/bench
{ date -u; nvidia-smi; nvcc --version; } > /tmp/bench/versions.txt 2>&1
PYTHONPATH=.:/tmp/site timeout 240 python3 -m profiling.cli bench --traces-dir /tmp/bench > /tmp/bench/bench.log 2>&1
echo "bench exit $? after ${SECONDS}s"
tail -30 /tmp/bench/bench.log
tar -czf "$OUT/bench.tgz" -C /tmp bench
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200"; exit 0; }
left=$((560 - SECONDS))
BUDGET=$((left < 330 ? left : 330)) bash scripts/h200_plan_twice.sh blind30
echo "total ${SECONDS}s"
