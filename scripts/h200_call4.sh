#!/usr/bin/env bash
# H200 call 4: any kernel through ncu (issue 8 item 5) and the caches (issue 10).
#   1. versions, and the metric names ncu knows on gh100
#   2. the child alone on one launch (a smoke test outside ncu)
#   3. the ladder at 1536^3, 2560^3, 3072^3 (A+B+C at 0.45x, 1.25x and 1.8x the 60 MiB L2), one ncu session
#   4. every launch of kernels/catalog.toml, one ncu session, per-instruction counters for one size each
#   5. block-schedule probes of seed 000's naive and coalesced kernels at 4096^3
# Everything lands under $OUT/run and comes back as $OUT/run.tgz. Run from the repo root:
#   OUT=$OUT bash scripts/h200_call4.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=. PYTHONUNBUFFERED=1
R="$OUT/run"
mkdir -p "$R/traces" "$R/raw"
{ date -u; nvidia-smi; ncu --version; nvcc --version; python3 -c "import cupy, numpy; print('cupy', cupy.__version__, 'numpy', numpy.__version__)"; } > "$R/versions.txt" 2>&1
ncu --query-metrics --chip gh100 > "$R/query_metrics.txt" 2>&1
first=$(python3 -c "import json; print(json.load(open('scripts/h200_plan_catalog.json'))['launches'][0]['id'])")
timeout 60 python3 -m profiling.launch --plan scripts/h200_plan_catalog.json "$first" > "$R/smoke.log" 2>&1; echo "smoke exit $?" >> "$R/smoke.log"
SECONDS=0
timeout 170 python3 -m profiling.cli batch scripts/h200_plan_ladder.json --traces-dir "$R/traces" --keep "$R/raw" --timeout 160 > "$R/ladder.log" 2>&1; echo "ladder exit $? after $SECONDS s" >> "$R/ladder.log"
SECONDS=0
timeout 300 python3 -m profiling.cli batch scripts/h200_plan_catalog.json --traces-dir "$R/traces" --keep "$R/raw" --timeout 200 > "$R/catalog.log" 2>&1; echo "catalog exit $? after $SECONDS s" >> "$R/catalog.log"
SECONDS=0
for k in naive coalesced; do
  timeout 40 python3 -m profiling.schedule "$R/traces/schedule/${k}_M4096_N4096_K4096.json" $k 4096 4096 4096 --repeats 3
done > "$R/schedule.log" 2>&1; echo "schedule exit $? after $SECONDS s" >> "$R/schedule.log"
tar -czf "$OUT/run.tgz" -C "$OUT" run
ls -la "$R" "$R/traces" | head -40
tail -3 "$R"/*.log
