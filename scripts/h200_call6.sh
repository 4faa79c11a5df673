#!/usr/bin/env bash
# H200 call 6: block schedules where timing decides the cache model's DRAM reads (issue 10):
# naive at 2816^3 and 3072^3, coalesced at 3072^3, smem and blocktile1d at 2816^3, 3072^3 and
# 4096^3 (naive and coalesced at 4096^3 came before). Recorded with the probes' copies of the
# kernels (git history of kernels/probes/schedule.cu); call 10 recorded all eleven again.
#   OUT=$OUT bash scripts/h200_call6.sh
exec bash "$(dirname "$0")/h200_schedules.sh" "naive:2816 naive:3072 coalesced:3072 smem:2816 smem:3072 smem:4096 \
blocktile1d:2816 blocktile1d:3072 blocktile1d:4096"
