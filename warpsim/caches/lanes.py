"""One access made concrete: lane addresses and masks at chosen blocks and iterations, and the
(line, sector mask) pairs each warp request asks L1 for.

`lanes` evaluates a `Site` the way `warpsim.fast.count_site` does for one representative, but at
the given values of its launch dimensions and with whole byte addresses (not modulo 128): the
address is `base + sum(coef[d] * value[d]) + thread part`, the lanes that reach the instruction
and are not predicated off come from its condition formulas. `requests` turns (n, 32) addresses
into the distinct 128-byte lines each warp request touches, with a 4-bit mask of its sectors.

Limitations: an access is taken to lie in the sector of its first byte (true of every aligned
access of up to 32 bytes, which is all that nvcc emits for these kernels).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from warpsim import formula as F
from warpsim.fast import as_formula, count_site
from warpsim.sass.values import QUOTIENT, quotient_dim
from warpsim.tally import tally

SECTOR = 32
SECTORS_PER_LINE = 4
NONE = np.iinfo(np.int64).max


class QuotientBlocks(Sequence):
    """The blocks of a piece's axis taken as quotient and remainder (warpsim.sass.values.QUOTIENT):
    D q + r for q in [q0, q1), r in [r0, r1), in that order; a sequence of block indices as a
    range is one."""

    def __init__(self, key: tuple):
        _, self.divisor, self.q0, self.q1, self.r0, self.r1 = key
        self.width = self.r1 - self.r0

    def __len__(self) -> int:
        return (self.q1 - self.q0) * self.width

    def __getitem__(self, i: int) -> int:
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        q, r = divmod(i % len(self), self.width)
        return self.divisor * (self.q0 + q) + self.r0 + r

    def __contains__(self, b) -> bool:
        q, r = divmod(int(b), self.divisor)
        return self.q0 <= q < self.q1 and self.r0 <= r < self.r1

    def array(self) -> np.ndarray:
        q = np.arange(self.q0, self.q1, dtype=np.int64)[:, None]
        return (self.divisor * q + np.arange(self.r0, self.r1, dtype=np.int64)[None, :]).ravel()


def axis_blocks(key: tuple) -> range | QuotientBlocks:
    """The block indices of a piece's key along one axis: (start, stop[, step]) or a QUOTIENT key."""
    return QuotientBlocks(key) if key[0] == QUOTIENT else range(*key)


def axis_array(key: tuple) -> np.ndarray:
    blocks = axis_blocks(key)
    return blocks.array() if isinstance(blocks, QuotientBlocks) else np.arange(blocks.start, blocks.stop, blocks.step)


def axis_extents(axis: str, key: tuple) -> dict[str, int]:
    """The dimensions a piece's key gives a block axis, with their extents (a QUOTIENT key two)."""
    if key[0] == QUOTIENT:
        _, _, q0, q1, r0, r1 = key
        return {quotient_dim(axis): q1 - q0, f"blockIdx.{axis}": r1 - r0}
    return {f"blockIdx.{axis}": len(range(*key))}


def block_values(access, bx: np.ndarray, by: np.ndarray, bz: np.ndarray) -> tuple[dict, np.ndarray]:
    """The values of the site's block dimensions for blocks (bx, by, bz), and which of the blocks
    the site is for (its piece of the launch). A piece that is a residue class of a block index,
    range(start, stop, step), names its blocks by their place in it, (b - start) // step, as the
    SASS engine's pieces count them (warpsim.sass.machine: blockIdx = start + step q); one whose
    axis is taken as quotient and remainder, D q + r, by q - q0 and r - r0."""
    values, inside = {}, np.ones(len(bx), dtype=bool)
    for axis, b, blocks in zip("xyz", (bx, by, bz), access.blocks):
        if blocks[0] == QUOTIENT:
            _, divisor, q0, q1, r0, r1 = blocks
            q, r = np.divmod(b, divisor)
            inside &= (q >= q0) & (q < q1) & (r >= r0) & (r < r1)
            values[quotient_dim(axis)], values[f"blockIdx.{axis}"] = q - q0, r - r0
            continue
        r = range(*blocks)
        inside &= (b >= r.start) & (b < r.stop)
        if r.step > 1:
            inside &= (b - r.start) % r.step == 0
        values[f"blockIdx.{axis}"] = (b - r.start) // r.step
    return values, inside


def lanes(access, threads: int, values: dict[str, np.ndarray], g: int) -> tuple[np.ndarray, np.ndarray]:
    """(g, threads) int64 byte addresses and bool live lanes of one access at g points, `values`
    giving each launch dimension of the site (g,) values (a concrete access: its blocks' rows)."""
    if access.concrete is not None:
        rows = access.concrete.rows(values)
        return access.base + access.concrete.address[rows], access.concrete.live[rows]
    site = access.site
    shift = access.base + affine(site.address.coef.items(), values, g)
    thread = np.broadcast_to(np.asarray(site.address.thread, dtype=np.int64), (threads,))
    addr = shift[:, None] + thread[None, :]
    return addr, passing([as_formula(site.region), as_formula(site.predicate)], values, g, threads)


CONCRETE_WARPS = 1 << 15  # warps of a concrete access tallied at once (memory: a few MB a column)


def count(access, threads: int) -> dict[str, int]:
    """The access's exact counters over the launch, as `warpsim.fast.count_site` gives them (a
    concrete access: tallied over every block's warps, as the brute force counts them)."""
    c = access.concrete
    if c is None:
        return count_site(access.site, threads)
    address, live, reach = (t.reshape(-1, 32) for t in (c.address, c.live, c.reach))
    total: dict[str, int] = {}
    for lo in range(0, len(address), CONCRETE_WARPS):
        part = slice(lo, lo + CONCRETE_WARPS)
        counts = tally(access.site.space, access.site.width, address[part], live[part], reach[part].any(axis=1),
                       np.ones(len(address[part]), dtype=np.int64), access.site.op)
        for name, v in counts.items():
            total[name] = total.get(name, 0) + v
    return total


def affine(coef, values: dict[str, np.ndarray], g: int, skip: str | None = None) -> np.ndarray:
    """(g,) int64: sum of c * values[d] over the (d, c) pairs of `coef`, but dimension `skip`."""
    s = np.zeros(g, dtype=np.int64)
    for d, c in coef:
        if d != skip:
            s += np.int64(c) * values[d]
    return s


def passing(formulas, values: dict[str, np.ndarray], g: int, threads: int) -> np.ndarray:
    """(g, threads) bool: the lanes for which every formula holds at the g points `values` give."""
    holds = {}
    for f in formulas:
        for atom in F.atoms(f):
            if atom.key not in holds:
                holds[atom.key] = atom.holds(affine(atom.coef, values, g))
    live = np.ones((g, threads), dtype=bool)
    for f in formulas:
        live &= F.evaluate(f, holds, (g, threads))
    return live


def requests(addr: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per warp request (a row of 32 lanes): the distinct lines it touches. Returns (row, line,
    sector mask) arrays, rows in order and lines ascending within a row; rows with no live lane
    give nothing."""
    sectors = np.where(live, addr // SECTOR, NONE)
    sectors.sort(axis=1)
    fresh = np.ones(sectors.shape, dtype=bool)
    fresh[:, 1:] = sectors[:, 1:] != sectors[:, :-1]
    fresh &= sectors != NONE
    row, col = np.nonzero(fresh)
    sector = sectors[row, col]
    line = sector // SECTORS_PER_LINE
    bit = (np.uint8(1) << (sector % SECTORS_PER_LINE).astype(np.uint8)).astype(np.uint8)
    if len(line) == 0:
        return row, line, bit
    start = np.ones(len(line), dtype=bool)
    start[1:] = (row[1:] != row[:-1]) | (line[1:] != line[:-1])
    first = np.flatnonzero(start)
    return row[first], line[first], np.bitwise_or.reduceat(bit, first)
