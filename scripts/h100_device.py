"""The lent GPU's properties as its runtime reports them (cudaGetDeviceProperties: name, SMs, L2
bytes, shared memory and registers per SM), for warpsim.caches.hardware's figures of a GPU other
than the H200. Writes $OUT/device.json. Run on the device: OUT=$OUT python scripts/h100_device.py
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

import cupy as cp

FIELDS = ("name", "multiProcessorCount", "l2CacheSize", "persistingL2CacheMaxSize", "sharedMemPerMultiprocessor",
          "sharedMemPerBlockOptin", "regsPerMultiprocessor", "maxThreadsPerMultiProcessor", "major", "minor",
          "clockRate", "memoryClockRate", "memoryBusWidth", "totalGlobalMem")


def main() -> None:
    props = cp.cuda.runtime.getDeviceProperties(0)
    found = {k: (props[k].decode() if isinstance(props[k], bytes) else props[k]) for k in FIELDS if k in props}
    found["driver"] = cp.cuda.runtime.driverGetVersion()
    found["runtime"] = cp.cuda.runtime.runtimeGetVersion()
    found["date"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    print(json.dumps(found))
    Path(os.environ["OUT"], "device.json").write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    main()
