#!/usr/bin/env bash
# Call 31, on an H100 (no H200 could be had in stop 24): the ladder's bench (GFLOP/s beside the
# H100's cuBLAS: how near the ladder comes on another GH100) into /tmp/bench31, and blind batch
# 15's count_from at n = 1,000,003 per instruction (the launch the first H100 run could not
# parse: scripts/h200_plan_atoms.json's last), into /tmp/atoms2. Packed into $OUT.
#   OUT=$OUT bash scripts/h100_call31.sh
set -u
cd "$(dirname "$0")/.." || exit 2
bash scripts/h200_bench.sh bench31
export PYTHONPATH=.:/tmp/site
mkdir -p /tmp/atoms2
{ date -u; nvidia-smi; ncu --version; } > /tmp/atoms2/versions.txt 2>&1
timeout 200 python3 -m profiling.cli batch scripts/h200_plan_atoms.json --traces-dir /tmp/atoms2/traces \
  --timeout 180 > /tmp/atoms2/atoms.log 2>&1
echo "atoms exit $?"; grep -c wrote /tmp/atoms2/atoms.log
tar -czf "$OUT/atoms2.tgz" -C /tmp atoms2
echo "total ${SECONDS}s"
