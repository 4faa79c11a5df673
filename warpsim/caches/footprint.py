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


def overlap(program, members, iterations: int = 8) -> float:
    """The share of a stream's sectors per block that its neighbour blocks touch too (a
    misaligned row's last sector is the next block's first): summed over the block dimensions
    its address moves with, measured on a block in the middle of the launch over the first
    iterations of its loop. Tiles of neighbours count as disjoint in the tile model, so their
    sizes are scaled by 1 - overlap."""
    a = program.accesses[members[0]]
    (x0, x1), (y0, y1), (z0, z1) = a.blocks
    centre = np.array([(x0 + x1 - 1) // 2, (y0 + y1 - 1) // 2, (z0 + z1 - 1) // 2])
    coef = a.site.address.coef
    total = 0.0
    for axis, (lo, hi) in enumerate(a.blocks):
        if not coef.get(f"blockIdx.{'xyz'[axis]}", 0) or centre[axis] + 1 >= hi:
            continue
        sets = []
        for shift in (0, 1):
            at = centre.copy()
            at[axis] += shift
            sets.append(_sectors(program, members, at, iterations))
        if len(sets[0]):
            total += len(np.intersect1d(sets[0], sets[1])) / len(sets[0])
    return min(total, 0.9)


def _sectors(program, members, block: np.ndarray, iterations: int) -> np.ndarray:
    found = []
    for m in members:
        a = program.accesses[m]
        bvals, inside = block_values(a, *(np.array([v]) for v in block))
        if not inside.all():
            continue
        dims = loop_dims(a.site)
        grids = np.meshgrid(*[np.arange(min(ld.extent, iterations)) for ld in dims], indexing="ij") if dims else []
        n = grids[0].size if dims else 1
        values = {d: np.repeat(v, n) for d, v in bvals.items()}
        for ld, g in zip(dims, grids):
            values[ld.dim] = g.ravel().astype(np.int64)
        addr, live = lanes(a, program.threads, values, n)
        _, line, mask = requests(addr.reshape(-1, 32), live.reshape(-1, 32))
        for k in range(4):
            found.append(line[((mask >> k) & 1) == 1] * 4 + k)
    return np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
