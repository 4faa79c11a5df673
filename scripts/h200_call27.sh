#!/usr/bin/env bash
# H200 call 27: the thirteenth blind batch (scripts/h200_plan_blind13.json, predicted before it ran in
# scripts/h200_blind13_predictions.json), measured twice with the memory path's stages.
#   OUT=$OUT bash scripts/h200_call27.sh
exec bash "$(dirname "$0")/h200_plan_twice.sh" blind13
