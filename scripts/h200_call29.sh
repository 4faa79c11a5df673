#!/usr/bin/env bash
# H200 call 29: the fourteenth blind batch (scripts/h200_plan_blind14.json, predicted before it ran in
# scripts/h200_blind14_predictions.json), measured twice with the memory path's stages; then the
# ladder's bench (this stop's GFLOP/s, measured, not carried over) into /tmp/bench29. Both packed
# into $OUT.
#   OUT=$OUT bash scripts/h200_call29.sh
set -u
cd "$(dirname "$0")/.." || exit 2
bash scripts/h200_plan_twice.sh blind14
export PYTHONPATH=.:/tmp/site
unset CUPY_TF32
mkdir -p /tmp/bench29
{ date -u; nvidia-smi; nvcc --version; } > /tmp/bench29/versions.txt 2>&1
python3 -m profiling.cli bench naive coalesced naive_coalesced:32x32 naive_coalesced:16x16 smem blocktile1d \
  blocktile2d vectorized warptile warptile_db --M 4096 --reps 20 --traces-dir /tmp/bench29 2>&1 | tee /tmp/bench29/bench.log | tail -n 16
tar -czf "$OUT/bench29.tgz" -C /tmp bench29
echo "total ${SECONDS}s"
