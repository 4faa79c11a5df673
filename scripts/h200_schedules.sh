#!/usr/bin/env bash
# Block schedules on the H200 (the probes of kernels/probes/schedule.cu: SM, start and end
# %globaltimer per block, 3 launches each after a warm-up), each probe first checked against numpy
# (python -m profiling.schedule --smoke): bash scripts/h200_schedules.sh "KERNEL:SIZE KERNEL:M:N:K ..."
# writes $OUT/run/schedule/KERNEL_M<M>_N<N>_K<K>.json (SIZE: M = N = K) and the logs, packed as
# $OUT/run.tgz. Calls 6, 10 and 15 are this with their lists.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=. PYTHONUNBUFFERED=1
R="$OUT/run"
mkdir -p "$R/schedule"
{ date -u; nvidia-smi; nvcc --version; } > "$R/versions.txt" 2>&1
timeout 120 python3 -m profiling.schedule --smoke > "$R/smoke.log" 2>&1; echo "smoke exit $?" >> "$R/smoke.log"
SECONDS=0
for spec in $1; do
  IFS=: read -r k m n kk <<< "$spec"
  n=${n:-$m}; kk=${kk:-$m}
  timeout 60 python3 -m profiling.schedule "$R/schedule/${k}_M${m}_N${n}_K${kk}.json" $k $m $n $kk --repeats 3
  echo "$k $m $n $kk exit $? at $SECONDS s"
done > "$R/schedule.log" 2>&1
tar -czf "$OUT/run.tgz" -C "$OUT" run
cat "$R/smoke.log" "$R/schedule.log"
