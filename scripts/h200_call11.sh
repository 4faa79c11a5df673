#!/usr/bin/env bash
# H200 call 11: a second blind batch, layer normalisation (kernels/layernorm.cu) and a 3-D
# seven-point stencil (kernels/stencil3d.cu) at three sizes each, predicted before they ran
# (python scripts/h200_plan_blind.py blind2 layernorm.cu stencil3d.cu), in one ncu session.
#   OUT=$OUT bash scripts/h200_call11.sh
exec bash "$(dirname "$0")/h200_batch.sh" scripts/h200_plan_blind2.json blind2
