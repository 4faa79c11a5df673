#!/usr/bin/env bash
# H200 call 15: which blocks share an SM when ten do: wmma_tf32_smem's block schedule (its probe,
# kernels/probes/schedule_wmma.cu) at 1024x512x768 (512 blocks: one wave, blind batch 3 missed its
# L1 hits by -7% and its L2 reads by +99%) and 2048^3 (4096 blocks: -10% and +35%).
#   OUT=$OUT bash scripts/h200_call15.sh
exec bash "$(dirname "$0")/h200_schedules.sh" "wmma_tf32_smem:1024:512:768 wmma_tf32_smem:2048"
