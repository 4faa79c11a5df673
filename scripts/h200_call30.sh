#!/usr/bin/env bash
# H200 call 30: blind batches 14 and 15 (scripts/h200_plan_blind1{4,5}.json, predicted before they
# ran in scripts/h200_blind1{4,5}_predictions.json), each measured twice with the memory path's
# stages; then the ladder's bench (this stop's GFLOP/s, measured, not carried over) into
# /tmp/bench30. All packed into $OUT.
#   OUT=$OUT bash scripts/h200_call30.sh
set -u
cd "$(dirname "$0")/.." || exit 2
bash scripts/h200_plan_twice.sh blind14
bash scripts/h200_plan_twice.sh blind15
export PYTHONPATH=.:/tmp/site
unset CUPY_TF32
mkdir -p /tmp/bench30
{ date -u; nvidia-smi; nvcc --version; } > /tmp/bench30/versions.txt 2>&1
python3 -m profiling.cli bench naive coalesced naive_coalesced:32x32 naive_coalesced:16x16 smem blocktile1d \
  blocktile2d vectorized warptile warptile_db --M 4096 --reps 20 --traces-dir /tmp/bench30 2>&1 | tee /tmp/bench30/bench.log | tail -n 16
tar -czf "$OUT/bench30.tgz" -C /tmp bench30
echo "total ${SECONDS}s"
