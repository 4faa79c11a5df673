#!/usr/bin/env bash
# H200 call 8: (1) the blind test: five kernels that are not GEMM (stencil, softmax, row sums, two
# 1-D convolutions) at three sizes each, predicted before they ran (scripts/h200_plan_blind.py ->
# h200_plan_blind.json, h200_blind_predictions.json), in one ncu session; (2) the ladder's bench at
# 4096^3 beside cuBLAS (CUDA events, 20 launches after 3 warm-ups). Run from the repo root:
#   OUT=$OUT bash scripts/h200_call8.sh
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/h200_batch.sh scripts/h200_plan_blind.json blind
export PYTHONPATH=. PYTHONUNBUFFERED=1
unset CUPY_TF32
SECONDS=0
timeout 150 python3 -m profiling.cli bench naive coalesced naive_coalesced:32x32 naive_coalesced:16x16 smem \
  blocktile1d blocktile2d vectorized warptile warptile_db --M 4096 --reps 20 --force > "$OUT/run/bench.log" 2>&1
echo "bench exit $? after $SECONDS s" >> "$OUT/run/bench.log"
cp -r traces/bench "$OUT/run/bench"
tar -czf "$OUT/run.tgz" -C "$OUT" run
tail -16 "$OUT/run/bench.log"
