#!/usr/bin/env bash
# H200 call 26: the twelfth blind batch (scripts/h200_plan_blind12.json, predicted before it ran in
# scripts/h200_blind12_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call26.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" blind12
