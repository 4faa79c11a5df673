"""The distinct sectors a launch touches per array, counted exactly where the launch is small.

Where every warp request of the launch can be made concrete within `LIMIT` lane evaluations,
this enumerates them all (warpsim.caches.lanes) and counts the distinct 32-byte sectors of each
array: what DRAM must deliver once when everything fits in L2. The tile model
(warpsim.caches.tiles) sizes tiles from sampled blocks, which at small sizes mis-weights the
partial tiles of edge blocks; `warpsim.caches.model` scales each array's tiles to this count.

Limitations: None (not counted) past LIMIT; the loads' and atomics' sectors count (a stored-only
sector needs no DRAM read).
"""

from __future__ import annotations

import numpy as np

from warpsim.caches.lanes import block_values, lanes, requests
from warpsim.caches.stream import loop_dims

LIMIT = 1 << 25  # lane evaluations, over the whole launch


def exact(program) -> dict[str, int] | None:
    """Per array, the distinct sectors its loads and atomics touch; None if the launch is too big."""
    total = 0
    for a in program.accesses:
        n = 1
        for lo, hi in a.blocks:
            n *= max(0, hi - lo)
        for ld in loop_dims(a.site):
            n *= ld.extent
        total += n * program.threads
    if total > LIMIT:
        return None
    gx, gy, _ = program.grid
    seen: dict[str, list] = {}
    for a in program.accesses:
        if a.op == "store":
            continue
        (x0, x1), (y0, y1), (z0, z1) = a.blocks
        z, y, x = np.meshgrid(np.arange(z0, z1), np.arange(y0, y1), np.arange(x0, x1), indexing="ij")
        bvals, _ = block_values(a, x.ravel(), y.ravel(), z.ravel())
        dims = loop_dims(a.site)
        grids = np.meshgrid(*[np.arange(ld.extent) for ld in dims], indexing="ij") if dims else []
        nb, ni = x.size, (grids[0].size if dims else 1)
        values = {d: np.repeat(v, ni) for d, v in bvals.items()}
        for ld, g in zip(dims, grids):
            values[ld.dim] = np.tile(g.ravel().astype(np.int64), nb)
        g = nb * ni
        addr, live = lanes(a, program.threads, values, g)
        _, line, mask = requests(addr.reshape(-1, 32), live.reshape(-1, 32))
        for k in range(4):
            on = ((mask >> k) & 1) == 1
            seen.setdefault(a.array, []).append(np.unique(line[on] * 4 + k))
    return {name: int(len(np.unique(np.concatenate(parts)))) for name, parts in seen.items()}
