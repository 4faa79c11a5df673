#!/usr/bin/env bash
# H200 call 17: naive, coalesced and smem from 2816^3 to 3200^3 (scripts/h200_plan_sweep.json,
# predicted in scripts/h200_sweep_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call17.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" sweep
