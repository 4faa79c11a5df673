#!/usr/bin/env bash
# H200 calls 12 and 13: every launch the committed traces measured, measured again with the memory
# path's stages (profile batch --paths: L1 misses and fills, the L2 request coalescer, L2 hits;
# plan written by python scripts/h200_plan_paths.py). Chunks of 20 launches, one ncu session each,
# until LIMIT seconds (default 540) are spent since the first pass began; the traces land under
# paths/PASS/sass/, ncu's raw pages under raw/PASS/, packed into $OUT/PASS.tgz with the log.
#   OUT=$OUT bash scripts/h200_call12.sh PASS [FIRST_CHUNK [LAST_CHUNK]]
# Call 12: h200_call12.sh run1 (chunk 1 refused: two launches shared an id). Call 13:
#   OUT=$OUT bash -c 'scripts/h200_call12.sh run1 1 1; scripts/h200_call12.sh run2'
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=. PYTHONUNBUFFERED=1
PLAN=scripts/h200_plan_paths.json
PASS=${1:?usage: h200_call12.sh PASS [FIRST_CHUNK [LAST_CHUNK]]}
FIRST=${2:-1}
LAST=${3:-99}
LIMIT=${LIMIT:-540}
R=/tmp/$PASS
mkdir -p "$R/paths" "$R/raw"
[ -f /tmp/paths_start ] || date +%s > /tmp/paths_start
{ date -u; nvidia-smi; ncu --version; nvcc --version; } > "$R/versions.txt" 2>&1
python3 -c "
import json
ids = [e['id'] for e in json.load(open('$PLAN'))['launches']]
for i in range(0, len(ids), 20):
    print(' '.join(ids[i:i + 20]))" > "$R/chunks.txt"
n=0
while read -r ids; do
  n=$((n + 1))
  { [ "$n" -lt "$FIRST" ] || [ "$n" -gt "$LAST" ]; } && continue
  left=$((LIMIT - $(date +%s) + $(cat /tmp/paths_start)))
  if [ "$left" -lt 90 ]; then echo "chunk $n not run: $left s left" >> "$R/paths.log"; continue; fi
  only=(); for i in $ids; do only+=(--only "$i"); done
  timeout "$left" python3 -m profiling.cli batch "$PLAN" --paths --traces-dir "$R/paths" --keep "$R/raw/c$n" \
    --timeout $((left - 15)) "${only[@]}" >> "$R/paths.log" 2>&1
  echo "chunk $n exit $? at $(( $(date +%s) - $(cat /tmp/paths_start) )) s" >> "$R/paths.log"
done < "$R/chunks.txt"
tar -czf "$OUT/$PASS.tgz" -C /tmp "$PASS"
echo "$PASS: $(grep -c '^wrote' "$R/paths.log") traces"; grep '^chunk\|^failed\|rror' "$R/paths.log" | tail -12
