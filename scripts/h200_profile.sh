#!/usr/bin/env bash
# Record warpsim's truth on the H200: ncu traces, a bench table, and parser fixtures, in one go.
#
#   OUT=/some/folder bash scripts/h200_profile.sh [--quick] [KERNEL:M:N:K[:BXxBY] ...]
#
# Run from anywhere (it moves to the repository root). With no launches given it records the
# issue-3 set: naive, coalesced, naive_coalesced at 32x32 and 16x16, each at 4096^3, a
# non-square size and two sizes that are not multiples of 32 (K odd). --quick: two small sizes.
# It keeps going when a step fails (each step's log says why) and fits every step into what is
# left of HARD_S seconds (default 560, inside a 10-minute device window), so that it always packs
#   $OUT/results.tgz   traces/ + fixtures/ + logs/ + versions.txt + compare.csv + summary.txt
#   $OUT/fixtures/     the raw-page CSV and .ncu-rep of one small run (parser fixtures)
#   $OUT/summary.txt   the table printed last
# Environment: OUT (default ./out), PYTHON (default python3), HARD_S, RUN_TIMEOUT_S (default 150).
set -u -o pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
REPO=$PWD
export PYTHONPATH="$REPO${PYTHONPATH:+:$PYTHONPATH}"
export COLUMNS=200             # rich tables in logs: one line per metric
unset CUPY_TF32                # cuBLAS at full FP32 in bench
PY=${PYTHON:-python3}
OUT=${OUT:-$REPO/out}
HARD_S=${HARD_S:-560}
RUN_TIMEOUT_S=${RUN_TIMEOUT_S:-150}
START=$SECONDS

QUICK=0
LAUNCHES=()
for arg in "$@"; do
  case $arg in
    --quick) QUICK=1 ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *:*:*:*) LAUNCHES+=("$arg") ;;
    *) echo "error: launch '$arg' is not KERNEL:M:N:K[:BXxBY] (e.g. naive_coalesced:1000:1030:999:16x16)" >&2; exit 2 ;;
  esac
done

if [ ${#LAUNCHES[@]} -eq 0 ]; then
  CONFIGS=(naive:32x32 coalesced:32x32 naive_coalesced:32x32 naive_coalesced:16x16)
  if [ $QUICK -eq 1 ]; then
    SIZES=(512:512:512 257:130:65)
  else
    SIZES=(4096:4096:4096 2048:1024:4096 1000:1030:999 257:130:65)  # square, non-square, odd
  fi
  for size in "${SIZES[@]}"; do
    for config in "${CONFIGS[@]}"; do
      LAUNCHES+=("${config%%:*}:$size:${config#*:}")
    done
  done
fi
if [ $QUICK -eq 1 ]; then BENCH_M=1024; BENCH_REPS=10; else BENCH_M=4096; BENCH_REPS=20; fi
read -r -a BENCH_KERNELS <<<"${BENCH:-naive coalesced naive_coalesced:32x32 naive_coalesced:16x16}"

STAGE=$(mktemp -d "${TMPDIR:-/tmp}/h200_profile.XXXXXX")
mkdir -p "$OUT/fixtures" "$STAGE/logs"
SUMMARY=()

# limit CAP: seconds the next step may take: CAP, or less if that is all that is left of HARD_S
# (20 s are kept for packing).
limit() {
  local left=$((HARD_S - (SECONDS - START) - 20))
  echo $(( left < $1 ? left : $1 ))
}

# step NAME LIMIT -- COMMAND...: run with a log and a wall-clock limit; one line in the summary.
step() {
  local name=$1 lim=$2; shift 3
  local log="$STAGE/logs/$name.log" t0=$SECONDS status why
  if [ "$lim" -lt 30 ]; then
    SUMMARY+=("$(printf '%-48s %-8s %5s  %s' "$name" SKIPPED - "under 30 s left of HARD_S=${HARD_S}")")
    return
  fi
  echo "+ $*" | tee "$log"
  timeout -k 5 "$lim" "$@" >>"$log" 2>&1
  status=$?
  if [ $status -eq 0 ]; then
    SUMMARY+=("$(printf '%-48s %-8s %5s  %s' "$name" ok $((SECONDS - t0)) "")")
  else
    why=$(grep -E '^(error|warning|strict):|FAILED|Error' "$log" | tail -n 1)
    [ -n "$why" ] || why=$(tail -n 1 "$log")
    [ $status -eq 124 ] && why="killed after ${lim} s; $why"
    SUMMARY+=("$(printf '%-48s %-8s %5s  %s' "$name" "exit $status" $((SECONDS - t0)) "${why:0:150}")")
    echo "  -> exit $status: ${why:0:200}"
  fi
}

echo "== versions"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "git: $(git rev-parse HEAD 2>/dev/null) $(git status --porcelain 2>/dev/null | wc -l) changed files"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
  ncu --version 2>&1 | tail -n 1
  nvcc --version 2>&1 | tail -n 2
  "$PY" --version 2>&1
  "$PY" -c 'import numpy, pandas, typer, rich; print("numpy", numpy.__version__, "pandas", pandas.__version__, "typer", typer.__version__)' 2>&1
  "$PY" -c 'import cupy; print("cupy", cupy.__version__, "devices", cupy.cuda.runtime.getDeviceCount())' 2>&1
  "$PY" -c 'from profiling import parse; m = parse.ncu_report_module(); print("ncu_report", m.__file__ if m else "not found")' 2>&1
} | tee "$STAGE/versions.txt"

echo "== parser fixtures (one small run, report kept)"
lim=$(limit "$RUN_TIMEOUT_S")
step fixture_naive_coalesced_M64_N48_K33_b32x32 "$lim" -- \
  "$PY" -m profiling.cli run naive_coalesced --M 64 --N 48 --K 33 --block 32x32 --force \
  --timeout $((lim - 15)) --keep-report "$OUT/fixtures"

echo "== bench"
step "bench_M${BENCH_M}" "$(limit 300)" -- \
  "$PY" -m profiling.cli bench "${BENCH_KERNELS[@]}" --M "$BENCH_M" --reps "$BENCH_REPS" --force

echo "== ncu runs (${#LAUNCHES[@]})"
for launch in "${LAUNCHES[@]}"; do
  IFS=: read -r kernel M N K block <<<"$launch"
  block_args=()
  [ -n "${block:-}" ] && block_args=(--block "$block")
  lim=$(limit "$RUN_TIMEOUT_S")
  step "run_${kernel}_M${M}_N${N}_K${K}_b${block:-default}" "$lim" -- \
    "$PY" -m profiling.cli run "$kernel" --M "$M" --N "$N" --K "$K" "${block_args[@]}" --force --timeout $((lim - 15))
done

echo "== compare"
step compare_strict "$(limit 120)" -- "$PY" -m profiling.cli compare --strict
"$PY" -m profiling.cli compare --format csv >"$STAGE/compare.csv" 2>/dev/null

echo "== tests"
step pytest_profiling "$(limit 240)" -- \
  "$PY" -m pytest -q -rs tests/test_profiling_gpu.py tests/test_profiling_parse.py tests/test_profiling_recorded.py

{
  echo "== summary (${SECONDS}s in all; logs and traces in results.tgz)"
  printf '%-48s %-8s %5s  %s\n' step status secs note
  printf '%s\n' "${SUMMARY[@]}"
  echo
  grep -h -E '^[0-9]+/[0-9]+ exact' "$STAGE/logs/compare_strict.log" 2>/dev/null || echo "compare: no summary line (see logs/compare_strict.log)"
  grep -h -A 12 -E 'median of' "$STAGE/logs/bench_M${BENCH_M}.log" 2>/dev/null || echo "bench: no table (see logs/bench_M${BENCH_M}.log)"
} >"$STAGE/summary.txt"

cp -r "$OUT/fixtures" "$STAGE/fixtures"
mkdir -p traces
tar -czf "$OUT/results.tgz" -C "$STAGE" logs fixtures versions.txt compare.csv summary.txt -C "$REPO" traces
cp "$STAGE/summary.txt" "$OUT/summary.txt"
rm -rf "$STAGE"
cat "$OUT/summary.txt"
echo "packed $OUT/results.tgz ($(du -h "$OUT/results.tgz" | cut -f1))"
