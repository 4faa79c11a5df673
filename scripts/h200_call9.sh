#!/usr/bin/env bash
# H200 call 9: kernels/iterate.cu (a division's slow path, a halving loop, Mandelbrot: control flow
# data decides, in code that touches no memory) at three sizes each, predicted before they ran
# (python scripts/h200_plan_blind.py iterate iterate.cu), in one ncu session. From the repo root:
#   OUT=$OUT bash scripts/h200_call9.sh
exec bash "$(dirname "$0")/h200_batch.sh" scripts/h200_plan_iterate.json iterate
