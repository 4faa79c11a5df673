#!/usr/bin/env bash
# H200 call 5: the ladder at two held-out sizes (issue 10: sizes no cache-model constant was
# chosen on), one ncu session: scripts/h200_plan_holdout.json (written by h200_plan_holdout.py).
# Run from the repo root: OUT=$OUT bash scripts/h200_call5.sh
exec bash "$(dirname "$0")/h200_batch.sh" scripts/h200_plan_holdout.json holdout
