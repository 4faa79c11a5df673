#!/usr/bin/env bash
# Call 69, on an H100 80GB HBM3: blind batch 37, the GEMM ladder at 1792^3, 2112^3, 2560^3, 2944^3
# and 3584^3 (0.73x-2.94x the H100's L2), each launch twice, predicted with the H100 model and with
# its L2 curve at 0.9 (scripts/h200_plan_blind37.py); on an H200, call 67 in its place.
#   OUT=$OUT bash scripts/call69.sh
exec bash "$(dirname "$0")/call68.sh" blind37
