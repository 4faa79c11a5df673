#!/usr/bin/env bash
# Block schedules on the H200 (the probes of kernels/probes/schedule.cu: SM, start and end
# %globaltimer per block, 3 launches each after a warm-up), each probe first checked against numpy
# (python -m profiling.schedule --smoke): bash scripts/h200_schedules.sh "KERNEL:SIZE ..." writes
# $OUT/run/schedule/KERNEL_M<SIZE>_N<SIZE>_K<SIZE>.json and the logs, packed as $OUT/run.tgz.
# Calls 6 and 10 are this with their lists.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=. PYTHONUNBUFFERED=1
R="$OUT/run"
mkdir -p "$R/schedule"
{ date -u; nvidia-smi; nvcc --version; } > "$R/versions.txt" 2>&1
timeout 120 python3 -m profiling.schedule --smoke > "$R/smoke.log" 2>&1; echo "smoke exit $?" >> "$R/smoke.log"
SECONDS=0
for ks in $1; do
  k=${ks%:*}; n=${ks#*:}
  timeout 60 python3 -m profiling.schedule "$R/schedule/${k}_M${n}_N${n}_K${n}.json" $k $n $n $n --repeats 3; echo "$k $n exit $? at $SECONDS s"
done > "$R/schedule.log" 2>&1
tar -czf "$OUT/run.tgz" -C "$OUT" run
cat "$R/smoke.log" "$R/schedule.log"
