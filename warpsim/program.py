"""The vocabulary a kernel model is written in: CUDA's, one call per memory instruction.

A model is a Python function `kernel(k, M, N, K, alpha, beta)` that mirrors its `.cu` file line
by line. `k` is either a `TraceKernel` (symbolic: records each memory instruction once, for the
fast engine) or an `ExecKernel` (concrete: runs every thread of every block, reads and writes
real matrices, and counts every warp instruction: the brute-force reference). Both implement
the interface below, so one model serves both.

    row = k.blockIdx.y * 32 + k.threadIdx.x
    with k.branch((row < M) & (col < N)):          # if (row < M && col < N) {
        for i in k.range("i", 0, K):               #   for (int i = 0; i < K; ++i)
            acc += k.load("A", row * K + i, line=13) * ...

`k.range_cycle(name, start, stop, step, period)` is a runtime loop that also yields
`iteration % period` (a double buffer's stage), so that stage-dependent addresses stay affine.
Conditions combine with `&`, `|` and `~` (never `and`/`or`), since they are arrays or symbols.

Limitations: a model states what the compiler emitted (widths, predication, unrolling) by hand:
tests/test_models_match_sass.py checks it against the SASS, and the SASS engine (warpsim.sass)
counts the machine code itself; matrices are 4-byte floats and launches two-dimensional.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from warpsim.symbolic import GHOST, Ghost


@dataclass(frozen=True)
class Dim3:
    x: object
    y: object
    z: object = 0


@dataclass(frozen=True)
class SharedArray:
    """A `__shared__ float name[size]` array; `holds` names the global matrix it stages."""

    name: str
    size: int  # floats
    holds: str  # "A" or "B"
    base: int  # byte offset in the block's shared memory


FLOAT = 4  # bytes per element of every matrix


class Kernel:
    """Common part of both interpretations: launch shape, shared-memory layout, the lane mask."""

    def __init__(self, grid: tuple[int, int], block: tuple[int, int]):
        self.gridDim = Dim3(*grid, 1)
        self.blockDim = Dim3(*block, 1)
        self.threads = block[0] * block[1]
        self.warps = self.threads // 32
        self._shared_end = 0
        self._region: list = []  # conditions of the enclosing branches and early exits

    def shared(self, name: str, size: int, holds: str, align: int = 16) -> SharedArray:
        """Declare `__shared__ float name[size]`, laid out after the previous declarations."""
        base = -(-self._shared_end // align) * align
        self._shared_end = base + size * FLOAT
        return SharedArray(name, size, holds, base)

    @contextmanager
    def branch(self, cond):
        """`if (cond) { ... }`: lanes failing `cond` are inactive inside; a warp with no lane left
        skips the body (its instructions are not executed)."""
        self._region.append(cond)
        try:
            yield
        finally:
            self._region.pop()

    def exit_if(self, cond) -> None:
        """`if (cond) return;`: those lanes are inactive from here on."""
        self._region.append(~cond)

    def sync(self) -> None:
        """`__syncthreads()`. Both interpretations run statement by statement for every thread,
        which is a legal schedule for a kernel that synchronizes correctly."""


# -- float4 values and compiled guards, shared by the models ---------------------------------------

def float4(x, y, z, w):
    """`make_float4(x, y, z, w)`: the value a width-16 store takes (last axis = 4 components).
    While tracing, the components are the Ghost stand-in, and so is the float4."""
    parts = (x, y, z, w)
    if any(isinstance(p, Ghost) for p in parts):
        return GHOST
    return np.stack(np.broadcast_arrays(*parts), axis=-1)


def lanes4(v):
    """(v.x, v.y, v.z, v.w) of a width-16 load: its last axis."""
    return [v[..., j] for j in range(4)]


@contextmanager
def epilogue_guard(k, cond, behind_exit: bool):
    """An epilogue `if (row < M && col < N) { C float4 load and store }` as SASS compiles it:
    predicated (@!P, executed by every warp: yields the lane predicate for `where=`) or, for the
    last float4 of the thread, after `@P EXIT` (a warp whose lanes all fail skips it: a branch)."""
    if behind_exit:
        with k.branch(cond):
            yield None
    else:
        yield cond
