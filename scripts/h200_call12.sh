#!/usr/bin/env bash
# H200 call 12: every launch the committed traces measured, measured again with the memory path's
# stages (profile batch --paths: L1 misses and fills, the L2 request coalescer, L2 hits; plan
# written by python scripts/h200_plan_paths.py). Chunks of 20 launches, one ncu session each, until
# LIMIT seconds are spent; the traces land under run/paths/sass/, ncu's raw pages under
# run/raw/, packed into $OUT/run.tgz (and the log, $OUT/paths.log).
#   OUT=$OUT bash scripts/h200_call12.sh [FIRST_CHUNK]
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=. PYTHONUNBUFFERED=1
PLAN=scripts/h200_plan_paths.json
LIMIT=${LIMIT:-540}
FIRST=${1:-1}
R=/tmp/run
mkdir -p "$R/paths" "$R/raw"
{ date -u; nvidia-smi; ncu --version; nvcc --version; } > "$R/versions.txt" 2>&1
SECONDS=0
python3 -c "
import json
ids = [e['id'] for e in json.load(open('$PLAN'))['launches']]
for i in range(0, len(ids), 20):
    print(' '.join(ids[i:i + 20]))" > "$R/chunks.txt"
n=0
while read -r ids; do
  n=$((n + 1))
  [ "$n" -lt "$FIRST" ] && continue
  left=$((LIMIT - SECONDS))
  if [ "$left" -lt 90 ]; then echo "chunk $n not run: $left s left" >> "$R/paths.log"; continue; fi
  only=(); for i in $ids; do only+=(--only "$i"); done
  timeout "$left" python3 -m profiling.cli batch "$PLAN" --paths --traces-dir "$R/paths" --keep "$R/raw/c$n" \
    --timeout $((left - 15)) "${only[@]}" >> "$R/paths.log" 2>&1
  echo "chunk $n exit $? at $SECONDS s" >> "$R/paths.log"
done < "$R/chunks.txt"
tar -czf "$OUT/run.tgz" -C /tmp run; cp "$R/paths.log" "$OUT/"
grep -c '^wrote' "$R/paths.log"; grep '^chunk\|^failed\|rror' "$R/paths.log" | tail -20
