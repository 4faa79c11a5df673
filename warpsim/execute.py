"""Concrete interpretation of a model: the brute-force reference.

Runs every thread of a chunk of blocks as numpy arrays shaped (blocks, threads), statement by
statement, every loop iteration in turn. Loads read real values from the matrices at the
simulated addresses, stores write them, and every warp instruction is counted: so running a
model both computes C and enumerates the exact address stream that computed it.

Limitations: it enumerates all M*N*K lane accesses, so it is for small sizes and for checking the
fast engine (`warpsim.fast`); values are float64, so results differ from the GPU's float32 by
rounding only.
"""

from __future__ import annotations

import numpy as np

from warpsim.counts import Row
from warpsim.program import FLOAT, Dim3, Kernel, SharedArray
from warpsim.tally import tally


class OutOfBounds(IndexError):
    """A model accessed outside a matrix: names the kernel line, block and warp."""


class ExecKernel(Kernel):
    def __init__(self, grid, block, blocks: np.ndarray, memory: dict[str, np.ndarray] | None,
                 rows: dict[tuple, Row]):
        """`blocks`: (nb, 2) block coordinates (x, y) run together; `memory`: flat float64 matrices
        by name (None: count only, loads return zeros); `rows`: counters, updated in place."""
        super().__init__(grid, block)
        tid = np.arange(self.threads, dtype=np.int64)[None, :]
        self.threadIdx = Dim3(tid % block[0], tid // block[0])
        self.blockIdx = Dim3(blocks[:, :1].astype(np.int64), blocks[:, 1:].astype(np.int64))
        self._blocks = blocks
        self._memory = memory
        self._rows = rows
        self._smem: dict[str, np.ndarray] = {}
        self._shape = (len(blocks), self.threads)

    def range(self, name: str, start: int, stop: int, step: int = 1):
        return range(start, stop, step)

    def range_cycle(self, name: str, start: int, stop: int, step: int, period: int):
        return ((value, i % period) for i, value in enumerate(range(start, stop, step)))

    def shared(self, name, size, holds, align=16):
        arr = super().shared(name, size, holds, align)
        self._smem[name] = np.zeros((self._shape[0], size))
        return arr

    # -- memory ----------------------------------------------------------------------------------
    def _lanes(self, index, where):
        idx = np.broadcast_to(np.asarray(index, dtype=np.int64), self._shape)
        region = np.ones(self._shape, dtype=bool)
        for cond in self._region:
            region &= np.broadcast_to(cond, self._shape)
        active = region if where is None else region & np.broadcast_to(where, self._shape)
        return idx, region, active

    def _count(self, space, array, op, width, line, addr, region, active):
        key = (space, array, op)
        row = self._rows.setdefault(key, Row(space, array, op, width))
        n = self._shape[0] * self.warps
        region_w = region.reshape(n, 32)
        row.add(**tally(space, width, addr.reshape(n, 32), active.reshape(n, 32),
                        region_w.any(axis=1), np.ones(n, dtype=np.int64), op))

    def _check(self, name, idx, active, size, width, line):
        lanes = width // FLOAT if width >= FLOAT else 1
        bad = active & ((idx < 0) | (idx + lanes > size))
        if bad.any():
            b, t = np.argwhere(bad)[0]
            bx, by = self._blocks[b]
            raise OutOfBounds(f"line {line}: {name}[{idx[b, t]}] is outside its {size} elements "
                              f"(block ({bx},{by}), warp {t // 32}, lane {t % 32})")

    def load(self, array, index, *, line: int, width: int = 4, where=None):
        idx, region, active = self._lanes(index, where)
        lanes = max(1, width // FLOAT)
        if isinstance(array, SharedArray):
            self._count("shared", array.holds, "load", width, line, array.base + idx * FLOAT, region, active)
            store = self._smem[array.name]
            self._check(array.name, idx, active, array.size, width, line)
            safe = np.where(active, idx, 0)
            vals = np.stack([np.take_along_axis(store, safe + j, axis=1) for j in range(lanes)], -1)
        else:
            self._count("global", array, "load", width, line, idx * FLOAT, region, active)
            if self._memory is None:
                return np.zeros(self._shape + ((lanes,) if lanes > 1 else ()))
            flat = self._memory[array]
            self._check(array, idx, active, flat.size, width, line)
            safe = np.where(active, idx, 0)
            vals = np.stack([flat[safe + j] for j in range(lanes)], -1)
        vals = np.where(active[..., None], vals, 0.0)
        return vals if lanes > 1 else vals[..., 0]

    def store(self, array, index, value, *, line: int, width: int = 4, where=None) -> None:
        idx, region, active = self._lanes(index, where)
        lanes = max(1, width // FLOAT)
        value = np.asarray(value, dtype=np.float64)
        value = np.broadcast_to(value, self._shape + ((lanes,) if lanes > 1 else ()))
        if lanes == 1:
            value = value[..., None]
        if isinstance(array, SharedArray):
            self._count("shared", array.holds, "store", width, line, array.base + idx * FLOAT, region, active)
            self._check(array.name, idx, active, array.size, width, line)
            b, t = np.nonzero(active)
            for j in range(lanes):
                self._smem[array.name][b, idx[b, t] + j] = value[b, t, j]
        else:
            self._count("global", array, "store", width, line, idx * FLOAT, region, active)
            if self._memory is None:
                return
            flat = self._memory[array]
            self._check(array, idx, active, flat.size, width, line)
            for j in range(lanes):
                flat[idx[active] + j] = value[..., j][active]
