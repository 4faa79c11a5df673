#!/usr/bin/env bash
# H200 call 22: the ladder's bench again (no kernel changed since stop 16's table; this stop's
# GFLOP/s, measured, not carried over), into /tmp/bench22, packed with the versions into $OUT.
#   OUT=$OUT bash scripts/h200_call22.sh
set -u
cd "$(dirname "$0")/.." || exit 2
[ -d .whl ] && python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
export PYTHONPATH=.:/tmp/site
unset CUPY_TF32
mkdir -p /tmp/bench22
{ date -u; nvidia-smi; nvcc --version; } > /tmp/bench22/versions.txt 2>&1
python3 -m profiling.cli bench naive coalesced naive_coalesced:32x32 naive_coalesced:16x16 smem blocktile1d \
  blocktile2d vectorized warptile warptile_db --M 4096 --reps 20 --traces-dir /tmp/bench22 2>&1 | tee /tmp/bench22/bench.log | tail -n 16
tar -czf "$OUT/bench22.tgz" -C /tmp bench22
echo "total ${SECONDS}s"
