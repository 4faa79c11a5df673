#!/usr/bin/env bash
# H200 call 23: the ninth blind batch (scripts/h200_plan_blind9.json, predicted before it ran in
# scripts/h200_blind9_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call23.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" blind9
