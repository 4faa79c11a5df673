"""One warp instruction, concretely: the 32 lane addresses of one site at one block, warp and
loop iteration (what `warpsim draw` pictures)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warpsim.engine import trace
from warpsim.errors import UsageError
from warpsim.trace import Site


@dataclass(frozen=True)
class Request:
    addresses: np.ndarray  # (32,) int64 bytes
    mask: np.ndarray  # (32,) bool: lanes that access memory
    width: int  # bytes per lane
    line: int  # source line in kernels/<kernel>.cu
    where: str  # "block (x,y) warp w, i=..." for titles


def _value(coef: dict[str, int], at: dict[str, int]) -> int:
    return sum(c * at[d] for d, c in coef.items())


def one_request(kernel: str, M, N, K, block=None, *, array: str = "A", op: str = "load", space: str = "global",
                warp: int = 0, iteration: int = 0, block_idx: tuple[int, int] = (0, 0), site: int = 0) -> Request:
    """The `site`-th (space, array, op) instruction of warp `warp` in block `block_idx`, at
    iteration `iteration` of its innermost runtime loop (outer loops at 0)."""
    k = trace(kernel, M, N, K, block)
    grid = (k.gridDim.x, k.gridDim.y)
    sites: list[Site] = [s for s in k.sites if (s.space, s.array, s.op) == (space, array, op)]
    if not sites:
        raise UsageError(f"kernel {kernel} has no {space} {op} of {array}; try --array A, B or C")
    if not 0 <= site < len(sites):
        raise UsageError(f"--site must be in 0..{len(sites) - 1} for {space} {array} {op} of {kernel}")
    s = sites[site]
    if not 0 <= warp < k.warps:
        raise UsageError(f"--warp must be in 0..{k.warps - 1} (a block of {k.threads} threads)")
    at = {"blockIdx.x": block_idx[0], "blockIdx.y": block_idx[1]}
    loops = [(d, n) for d, n in s.dims if not d.startswith("blockIdx")]
    for d, n in loops:
        at[d] = 0
    if loops:
        d, n = loops[-1]
        if not 0 <= iteration < n:
            raise UsageError(f"--iteration must be in 0..{n - 1} (loop {d} runs {n} times here)")
        at[d] = iteration
    if not (0 <= block_idx[0] < grid[0] and 0 <= block_idx[1] < grid[1]):
        raise UsageError(f"block ({block_idx[0]},{block_idx[1]}) is outside the grid {grid[0]}x{grid[1]}")
    lanes = slice(32 * warp, 32 * warp + 32)
    thread = np.broadcast_to(s.address.thread, (k.threads,))
    addresses = (_value(s.address.coef, at) + thread)[lanes].astype(np.int64)
    mask = np.ones(32, dtype=bool)
    for atom in s.region + s.predicate:
        mask &= (_value(dict(atom.coef), at) + np.broadcast_to(atom.thread, (k.threads,))[lanes]) < 0
    where = f"block ({block_idx[0]},{block_idx[1]}) warp {warp}" + (f", {loops[-1][0]}={iteration}" if loops else "")
    return Request(addresses, mask, s.width, s.line, where)
