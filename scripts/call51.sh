#!/usr/bin/env bash
# Call 51: blind batch 25's Zipf histogram in 16 chunks, whole and reversed
# (scripts/h200_plan_atomzipf.py: where its 609 passes beyond the rule come from),
# measured twice with the memory path's stages.
#   OUT=$OUT [BUDGET=S] bash scripts/call51.sh
set -u
cd "$(dirname "$0")/.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET=${BUDGET:-400} bash scripts/h200_plan_twice.sh atomzipf
echo "total ${SECONDS}s"
