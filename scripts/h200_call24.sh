#!/usr/bin/env bash
# H200 call 24: the tenth blind batch (scripts/h200_plan_blind10.json, predicted before it ran in
# scripts/h200_blind10_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call24.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" blind10
