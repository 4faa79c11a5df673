#!/usr/bin/env bash
# One ncu session over a plan (profile batch), on the H200: bash scripts/h200_batch.sh PLAN NAME
# writes the traces under $OUT/run/traces, the log as $OUT/run/NAME.log, and packs everything
# into $OUT/run.tgz. Calls 5 and 7 are this with their plans.
set -uo pipefail
cd "$(dirname "$0")/.."
PLAN="$1" NAME="$2"
export PYTHONPATH=. PYTHONUNBUFFERED=1
R="$OUT/run"
mkdir -p "$R/traces"
{ date -u; nvidia-smi; ncu --version; nvcc --version; } > "$R/versions.txt" 2>&1
SECONDS=0
timeout 420 python3 -m profiling.cli batch "$PLAN" --traces-dir "$R/traces" --timeout 400 > "$R/$NAME.log" 2>&1; echo "$NAME exit $? after $SECONDS s" >> "$R/$NAME.log"
tar -czf "$OUT/run.tgz" -C "$OUT" run
tail -5 "$R/$NAME.log"
find "$R/traces" -name '*.json' | wc -l
