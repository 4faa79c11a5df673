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
bash scripts/h200_bench.sh bench30
echo "total ${SECONDS}s"
