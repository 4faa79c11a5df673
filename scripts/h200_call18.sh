#!/usr/bin/env bash
# H200 call 18: the fifth blind batch (scripts/h200_plan_blind5.json, predicted before it ran in
# scripts/h200_blind5_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call18.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" blind5
