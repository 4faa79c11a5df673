#!/usr/bin/env bash
# Second H200 session: every kernel's aggregate traces at four sizes, per-array (source counter)
# traces at the two sizes that are not multiples of 32, parser fixtures, then the GPU tests.
#   OUT=... bash scripts/h200_call2.sh
set -u
cd "$(dirname "$0")/.." || exit 2
export PYTHONPATH=$PWD
L=()
for s in 4096:4096:4096 2048:1024:4096 1000:1030:999 257:130:65; do
  for c in naive coalesced naive_coalesced:32x32 naive_coalesced:16x16 smem blocktile1d blocktile2d; do
    L+=("$c@$s")
  done
done
for s in 4096:4096:4096 2048:1024:4096 1000:1028:996 257:260:68; do
  for c in vectorized warptile warptile_db; do L+=("$c@$s"); done
done
mkdir -p "$OUT/fixtures" logs
echo "== fixture (fail fast)"
python3 -m profiling.cli run naive_coalesced --M 64 --N 48 --K 33 --block 32x32 --force --per-array \
  --keep-report "$OUT/fixtures" --traces-dir /tmp/fixture_traces > logs/fixture.log 2>&1
rc=$?; tail -n 30 logs/fixture.log
if [ $rc -ne 0 ]; then echo "fixture failed ($rc): stopping"; tar -czf "$OUT/results.tgz" logs; exit 1; fi
cp /tmp/fixture_traces/naive_coalesced/*.json "$OUT/fixtures/"
START=$SECONDS
for item in "${L[@]}"; do
  cfg=${item%@*}; size=${item#*@}; kernel=${cfg%%:*}; block=""; [ "$cfg" != "$kernel" ] && block="--block ${cfg#*:}"
  IFS=: read -r M N K <<<"$size"
  extra=""; case $size in 1000:*|257:*) extra=--per-array ;; esac
  if [ $((SECONDS - START)) -gt 470 ]; then echo "SKIPPED (time) $item"; continue; fi
  log=logs/run_${kernel}_${M}_${N}_${K}_${cfg#*:}.log
  timeout 120 python3 -m profiling.cli run "$kernel" --M "$M" --N "$N" --K "$K" $block --force --timeout 110 $extra > "$log" 2>&1
  echo "$item $extra rc=$? $(grep -E '^(error|warning)' "$log" | head -2 | tr '\n' ' ')"
done
python3 -m profiling.cli compare > logs/compare.log 2>&1; tail -n 3 logs/compare.log
timeout 60 python3 -m pytest -q -rs tests/test_profiling_parse.py > logs/pytest_parse.log 2>&1; tail -n 5 logs/pytest_parse.log
tar -czf "$OUT/results.tgz" logs traces
echo "total ${SECONDS}s"
