#!/usr/bin/env bash
# H200 call 16: the fourth blind batch (scripts/h200_plan_blind4.json, predicted before it ran in
# scripts/h200_blind4_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call16.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" blind4
