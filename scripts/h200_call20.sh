#!/usr/bin/env bash
# H200 call 20: the seventh blind batch (scripts/h200_plan_blind7.json, predicted before it ran in
# scripts/h200_blind7_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call20.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" blind7
