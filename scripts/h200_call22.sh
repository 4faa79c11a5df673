#!/usr/bin/env bash
# H200 call 22: the ladder's bench again (no kernel changed since stop 16's table; this stop's
# GFLOP/s, measured, not carried over), into /tmp/bench22, packed with the versions into $OUT.
#   OUT=$OUT bash scripts/h200_call22.sh
set -u
cd "$(dirname "$0")/.." || exit 2
bash scripts/h200_bench.sh bench22
echo "total ${SECONDS}s"
