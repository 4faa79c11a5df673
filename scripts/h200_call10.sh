#!/usr/bin/env bash
# H200 call 10: the eleven committed block schedules again, with kernels/probes/schedule.cu now
# calling the originals' own source (included as device functions) instead of copies of it:
# naive and coalesced at 4096^3, naive at 2816^3 and 3072^3, coalesced at 3072^3, smem and
# blocktile1d at 2816^3, 3072^3 and 4096^3.   OUT=$OUT bash scripts/h200_call10.sh
exec bash "$(dirname "$0")/h200_schedules.sh" "naive:4096 coalesced:4096 naive:2816 naive:3072 coalesced:3072 \
smem:2816 smem:3072 smem:4096 blocktile1d:2816 blocktile1d:3072 blocktile1d:4096"
