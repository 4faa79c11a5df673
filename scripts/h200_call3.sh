#!/usr/bin/env bash
# Third H200 session: the bench table again (the seed kernels' sources gained a line break since
# the first), and the run-to-run spread of ncu's aggregate shared counters (three repeats).
#   OUT=... bash scripts/h200_call3.sh
set -u
cd "$(dirname "$0")/.." || exit 2
export PYTHONPATH=$PWD
unset CUPY_TF32
mkdir -p logs
python3 -m profiling.cli bench naive coalesced naive_coalesced:32x32 naive_coalesced:16x16 smem blocktile1d \
  blocktile2d vectorized warptile warptile_db --M 4096 --reps 20 --force 2>&1 | tee logs/bench.log | tail -n 16
for i in 1 2 3; do
  for k in smem blocktile2d; do
    timeout 100 python3 -m profiling.cli run $k --M 1000 --N 1030 --K 999 --force --traces-dir /tmp/repeat$i > logs/repeat_${k}_$i.log 2>&1
    python3 - "$k" "$i" <<'PY'
import json, sys, glob
k, i = sys.argv[1], sys.argv[2]
t = json.load(open(glob.glob(f"/tmp/repeat{i}/{k}/*.json")[0]))["metrics"]
print(k, "repeat", i, {m.split("__")[1][:40]: t[m] for m in t if "shared" in m and ("wavefronts" in m or "conflicts" in m)})
PY
  done
done | tee logs/repeats.log
mkdir -p "$OUT/r"; cp -r /tmp/repeat1 /tmp/repeat2 /tmp/repeat3 "$OUT/r/" 2>/dev/null
tar -czf "$OUT/results.tgz" logs traces/bench /tmp/repeat1 /tmp/repeat2 /tmp/repeat3 2>/dev/null
echo "total ${SECONDS}s"
