"""Symbolic interpretation of a model: run it once and record each memory instruction as a `Site`.

Block indices and runtime-loop counters are symbols (launch dimensions); thread indices are
concrete int64 arrays over the block's threads. A runtime loop's body therefore runs once, and
each Python-level (unrolled) repetition records its own site, as the compiler emits its own
instruction for each unrolled copy.

Limitations: only what a model declares is traced (the machine code's own front-end,
warpsim.sass, reads what the compiler emitted); a loop name is one dimension, so a model may not
nest a loop inside itself; block and thread indices are two-dimensional.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warpsim.program import FLOAT, Dim3, Kernel, SharedArray
from warpsim.symbolic import GHOST, Atom, Cond, Sym


@dataclass(frozen=True)
class Site:
    """One memory instruction of the kernel, for every block and loop iteration at once."""

    space: str  # "global" | "shared"
    array: str  # the matrix the access belongs to: "A", "B" or "C"
    op: str  # "load" | "store"
    width: int  # bytes per lane
    line: int  # source line in kernels/<name>.cu
    address: Sym  # byte address (within the array / within the block's shared memory)
    region: tuple[Atom, ...]  # lanes that reach the instruction (a formula for machine-code sites)
    predicate: tuple[Atom, ...]  # lanes, among those, whose access is not predicated off (likewise)
    dims: tuple[tuple[str, int], ...]  # launch dimensions in scope and their extents
    pc: int | None = None  # the SASS instruction (machine-code sites; hand models have none)
    kind: str | None = None  # its opcode family (LDG, LDS, LDGSTS, ...; machine code only)


def _atoms(cond) -> tuple[Atom, ...]:
    if cond is None:
        return ()
    if not isinstance(cond, Cond):
        raise TypeError(f"expected a symbolic condition, got {type(cond).__name__}")
    return cond.atoms


class TraceKernel(Kernel):
    def __init__(self, grid: tuple[int, int], block: tuple[int, int]):
        super().__init__(grid, block)
        tid = np.arange(self.threads, dtype=np.int64)
        self.threadIdx = Dim3(Sym(None, tid % block[0]), Sym(None, tid // block[0]))
        self.blockIdx = Dim3(Sym({"blockIdx.x": 1}), Sym({"blockIdx.y": 1}))
        self._dims: list[tuple[str, int]] = [("blockIdx.x", grid[0]), ("blockIdx.y", grid[1])]
        self.sites: list[Site] = []

    def range(self, name: str, start: int, stop: int, step: int = 1):
        """`for (name = start; name < stop; name += step)`, a loop the compiler keeps: one symbol."""
        count = max(0, -(-(stop - start) // step))
        if any(d == name for d, _ in self._dims):
            raise ValueError(f"loop name {name!r} is already in use")
        if count == 0:
            return
        self._dims.append((name, count))
        try:
            yield Sym({name: step}, start)
        finally:
            self._dims.pop()

    def range_cycle(self, name: str, start: int, stop: int, step: int, period: int):
        """A runtime loop whose body also uses `iteration % period` (e.g. the stage of a double
        buffer): yields (counter, phase). Traced as `period` launch dimensions, one per phase,
        each affine: iteration p + period*j has counter start + step*(p + period*j)."""
        count = max(0, -(-(stop - start) // step))
        for p in range(min(period, count)):
            dim = f"{name}%{period}={p}"
            self._dims.append((dim, len(range(p, count, period))))
            try:
                yield Sym({dim: step * period}, start + step * p), p
            finally:
                self._dims.pop()

    def _record(self, space, array, op, index, width, line, where) -> None:
        if isinstance(array, SharedArray):
            address = Sym(None, array.base) + index * FLOAT
            matrix = array.holds
        else:
            address = index * FLOAT
            matrix = array
        if not isinstance(address, Sym):
            address = Sym(None, address)
        region = tuple(a for c in self._region for a in _atoms(c))
        self.sites.append(Site(space, matrix, op, width, line, address, region, _atoms(where),
                               tuple(self._dims)))

    def load(self, array, index, *, line: int, width: int = 4, where=None):
        space = "shared" if isinstance(array, SharedArray) else "global"
        self._record(space, array, "load", index, width, line, where)
        return GHOST

    def store(self, array, index, value, *, line: int, width: int = 4, where=None) -> None:
        space = "shared" if isinstance(array, SharedArray) else "global"
        self._record(space, array, "store", index, width, line, where)
