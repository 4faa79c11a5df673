#!/usr/bin/env bash
# H200 call 6: block schedules where timing decides the cache model's DRAM reads (issue 10):
# the probes of kernels/probes/schedule.cu (SM, start and end %globaltimer per block), smoke-tested
# against numpy at 200x130x70, then naive at 2816^3 and 3072^3, smem and blocktile1d at 2816^3,
# 3072^3 and 4096^3, coalesced at 3072^3. Everything lands under $OUT/run, packed as $OUT/run.tgz.
#   OUT=$OUT bash scripts/h200_call6.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=. PYTHONUNBUFFERED=1
R="$OUT/run"
mkdir -p "$R/schedule"
{ date -u; nvidia-smi; nvcc --version; } > "$R/versions.txt" 2>&1
timeout 120 python3 - > "$R/smoke.log" 2>&1 <<'PY'
import numpy as np, cupy
from profiling.schedule import ENTRIES, PROBE, launch_shape
from warpsim.toolchain import build_cubin
mod = cupy.RawModule(path=str(build_cubin(PROBE)))
M, N, K = 200, 130, 70
rng = np.random.default_rng(1)
a, b = rng.random((M, K), dtype=np.float32), rng.random((K, N), dtype=np.float32)
for k, (entry, _, _) in ENTRIES.items():
    grid, block = launch_shape(k, M, N)
    A, B, C = cupy.asarray(a), cupy.asarray(b), cupy.zeros((M, N), dtype=np.float32)
    s = cupy.zeros(3 * grid[0] * grid[1], dtype=cupy.uint64)
    mod.get_function(entry)(grid, block, (np.int32(M), np.int32(N), np.int32(K), np.float32(1), A, B, np.float32(0), C, s))
    s = cupy.asnumpy(s).reshape(-1, 3).astype(np.int64)
    err = float(np.abs(cupy.asnumpy(C) - a @ b).max())
    ok = err < 1e-3 and (s[:, 0] < 132).all() and (s[:, 2] > s[:, 1]).all() and (s[:, 1] > 0).all()
    print(k, grid, block, "max err", err, "OK" if ok else "FAIL")
PY
echo "smoke exit $?" >> "$R/smoke.log"
SECONDS=0
for ks in naive:2816 naive:3072 coalesced:3072 smem:2816 smem:3072 smem:4096 blocktile1d:2816 blocktile1d:3072 blocktile1d:4096; do
  k=${ks%:*}; n=${ks#*:}
  timeout 60 python3 -m profiling.schedule "$R/schedule/${k}_M${n}_N${n}_K${n}.json" $k $n $n $n --repeats 3; echo "$k $n exit $? at $SECONDS s"
done > "$R/schedule.log" 2>&1
tar -czf "$OUT/run.tgz" -C "$OUT" run
cat "$R/smoke.log" "$R/schedule.log"
