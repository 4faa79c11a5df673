#!/usr/bin/env bash
# H200 call 21: the eighth blind batch (scripts/h200_plan_blind8.json, predicted before it ran in
# scripts/h200_blind8_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call21.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" blind8
