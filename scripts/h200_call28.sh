#!/usr/bin/env bash
# H200 call 28: blocks per SM by the driver's occupancy calculator beside warpsim's residency
# (scripts/h200_occupancy.py), for static and dynamic shared memory near a block boundary.
#   OUT=$OUT bash scripts/h200_call28.sh
set -uo pipefail
cd "$(dirname "$0")/.."
[ -d .whl ] && python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
export PYTHONPATH=.:/tmp/site PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > "$OUT/versions.txt" 2>&1
python3 scripts/h200_occupancy.py 2>&1 | tee "$OUT/occupancy.log"
