#!/usr/bin/env bash
# The ladder's bench on the H200 (GFLOP/s at 4096^3 beside cuBLAS, 20 repetitions), into /tmp/NAME,
# packed with the versions into $OUT/NAME.tgz. Called by the H200 call scripts:
#   OUT=$OUT bash scripts/h200_bench.sh NAME
set -u
NAME=${1:?usage: h200_bench.sh NAME}
cd "$(dirname "$0")/.." || exit 2
[ -d .whl ] && python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
export PYTHONPATH=.:/tmp/site
unset CUPY_TF32
mkdir -p "/tmp/$NAME"
{ date -u; nvidia-smi; nvcc --version; } > "/tmp/$NAME/versions.txt" 2>&1
python3 -m profiling.cli bench naive coalesced naive_coalesced:32x32 naive_coalesced:16x16 smem blocktile1d \
  blocktile2d vectorized warptile warptile_db --M 4096 --reps 20 --traces-dir "/tmp/$NAME" 2>&1 \
  | tee "/tmp/$NAME/bench.log" | tail -n 16
tar -czf "$OUT/$NAME.tgz" -C /tmp "$NAME"
