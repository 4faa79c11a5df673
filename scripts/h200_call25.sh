#!/usr/bin/env bash
# H200 call 25: the eleventh blind batch (scripts/h200_plan_blind11.json, predicted before it ran in
# scripts/h200_blind11_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call25.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" blind11
