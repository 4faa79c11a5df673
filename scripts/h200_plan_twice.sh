#!/usr/bin/env bash
# Measure a plan's launches on the H200 twice, with the memory path's stages: one ncu session
# (traces under /tmp/NAME/traces), then a repeat (/tmp/NAME/run2): how far two measurements of a
# launch differ. Packs both, the log and the versions into $OUT/NAME.tgz. BUDGET (default 520):
# the seconds both passes may take together (a pass cut short leaves the other's traces).
#   OUT=$OUT [BUDGET=S] bash scripts/h200_plan_twice.sh NAME     # scripts/h200_plan_NAME.json
set -uo pipefail
NAME=${1:?usage: h200_plan_twice.sh NAME (measures scripts/h200_plan_NAME.json)}
cd "$(dirname "$0")/.."
# pyelftools and cxxfilt (the cubin reader's) from wheels carried in .whl/ where the machine has none
[ -d .whl ] && python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
export PYTHONPATH=.:/tmp/site PYTHONUNBUFFERED=1
R=/tmp/$NAME
mkdir -p "$R/traces"
{ date -u; nvidia-smi; ncu --version; nvcc --version; } > "$R/versions.txt" 2>&1
SECONDS=0
for pass in traces run2; do
  left=$((${BUDGET:-520} - SECONDS))
  [ "$left" -gt 20 ] || break
  timeout "$left" python3 -m profiling.cli batch "scripts/h200_plan_$NAME.json" --paths \
    --traces-dir "$R/$pass" --timeout $((left - 15)) >> "$R/$NAME.log" 2>&1
  echo "$NAME $pass exit $? after $SECONDS s" >> "$R/$NAME.log"
done
tar -czf "$OUT/$NAME.tgz" -C /tmp "$NAME"
grep 'exit\|failed' "$R/$NAME.log"; find "$R/traces" "$R/run2" -name '*.json' | wc -l
