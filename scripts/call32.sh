#!/usr/bin/env bash
# Call 32: whichever GPU the device tool lends. On an H200, blind batches 14 and 15 twice with
# the memory path (their cache figures are judged only on the H200) and the ladder's bench
# (scripts/h200_call30.sh); on an H100, the bench and count_from's per-instruction launch
# (scripts/h100_call31.sh).
#   OUT=$OUT bash scripts/call32.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  bash scripts/h200_call30.sh
else
  bash scripts/h100_call31.sh
fi
