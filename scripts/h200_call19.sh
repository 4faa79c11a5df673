#!/usr/bin/env bash
# H200 call 19: the sixth blind batch (scripts/h200_plan_blind6.json, predicted before it ran in
# scripts/h200_blind6_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call19.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" blind6
