"""Blocks per SM as the H200's driver computes them (cuOccupancyMaxActiveBlocksPerMultiprocessor),
beside warpsim.caches.residency's, for kernels of 37 and 44 KiB of static shared memory and one of
dynamic shared memory only (kernels/probes/occupancy.cu): does the 1 KiB the driver reserves per
block come on top of the cubin's shared section, which already starts with it? Prints one line a
case and writes $OUT/occupancy.json. Run on the H200: OUT=$OUT python scripts/h200_occupancy.py
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from pathlib import Path

import cupy as cp

from warpsim.caches.residency import residency
from warpsim.sass.cubin import read_cubin
from warpsim.toolchain import build_cubin

SOURCE = Path(__file__).resolve().parent.parent / "kernels/probes/occupancy.cu"
CASES = [("static37", 0), ("static44", 0), ("dynamic_only", 37 * 1024), ("dynamic_only", 44 * 1024)]
THREADS = 128


def main() -> None:
    cubin = build_cubin(SOURCE)
    functions = {f.source_name: f for f in read_cubin(cubin).functions.values()}
    module = cp.RawModule(path=str(cubin))
    rows = []
    for name, dynamic in CASES:
        f = module.get_function(name)
        if dynamic > 48 * 1024:
            f.max_dynamic_shared_size_bytes = dynamic
        driver = cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(f.kernel.ptr, THREADS, dynamic)
        section = functions[name].shared_bytes
        static = f.shared_size_bytes
        model = residency(THREADS, functions[name].registers, section + dynamic).blocks_per_sm
        once = residency(THREADS, functions[name].registers, max(section - 1024, 0) + dynamic).blocks_per_sm
        rows.append({"kernel": name, "dynamic": dynamic, "section": section, "attribute_static": static,
                     "driver": driver, "warpsim": model, "reserve_once": once})
        print(rows[-1], flush=True)
    out = Path(os.environ.get("OUT", "."))
    props = cp.cuda.runtime.getDeviceProperties(0)
    meta = {"gpu": props["name"].decode(), "driver": cp.cuda.runtime.driverGetVersion(),
            "source_sha256": hashlib.sha256(SOURCE.read_bytes()).hexdigest(),
            "cubin_sha256": hashlib.sha256(cubin.read_bytes()).hexdigest(),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    (out / "occupancy.json").write_text(json.dumps({"threads": THREADS, "rows": rows, "meta": meta}, indent=1) + "\n")


if __name__ == "__main__":
    main()
