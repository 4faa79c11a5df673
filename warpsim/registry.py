"""One registry of kernels, read by the simulator (models) and by the GPU runs (CUDA sources).

Each entry ties a `kernels/<name>.cu` entry point to the warpsim model that mirrors it, with the
launch configuration both sides use: block shape, grid rule and the CUDA argument order.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from warpsim.errors import UsageError

#: The CUDA sources: the checkout's top-level kernels/, which a wheel carries as warpsim/kernels/.
_PACKAGE = Path(__file__).resolve().parent
KERNEL_DIR = _PACKAGE / "kernels" if (_PACKAGE / "kernels").is_dir() else _PACKAGE.parent / "kernels"


_BLOCK = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_block(text: str | None) -> tuple[int, int] | None:
    """'32x32' -> (blockDim.x, blockDim.y); None stays None (the kernel's default). Both CLIs use it."""
    if text is None:
        return None
    match = _BLOCK.match(text)
    if not match:
        raise UsageError(f"block {text!r} is not BXxBY: --block must look like 32x32 (x by y threads) or 16x16")
    return (int(match.group(1)), int(match.group(2)))


def _block_pair(block) -> tuple[int, int]:
    """(bx, by) as two ints, or a UsageError (not the TypeError or ValueError of unpacking)."""
    try:
        bx, by = block
        if isinstance(bx, bool) or isinstance(by, bool):
            raise TypeError
        return operator.index(bx), operator.index(by)
    except (TypeError, ValueError):
        raise UsageError(f"block {block!r} is not two whole numbers (blockDim.x, blockDim.y): "
                         "give e.g. (32, 8) or '32x8'") from None


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class KernelSpec:
    name: str
    entry: str  # the extern "C" symbol in kernels/<name>.cu (also ncu's kernel-name filter)
    model: Callable  # warpsim.models.<name>.kernel(k, M, N, K, block)
    default_block: tuple[int, int]  # (blockDim.x, blockDim.y)
    tile: Callable[[tuple[int, int]], tuple[int, int]]  # block -> (columns, rows) of C per block
    args: tuple[str, ...]  # CUDA argument order: names among M N K alpha beta A B C
    summary: str
    block_fixed: bool = True  # only default_block is accepted (the .cu hard-codes it)
    reads_c: bool = True  # C is read (beta*C) as well as written
    multiple_of: dict[str, int] = field(default_factory=dict)  # e.g. {"K": 4}: alignment needs

    @property
    def cu_path(self) -> Path:
        return KERNEL_DIR / f"{self.name}.cu"

    def grid(self, M: int, N: int, block: tuple[int, int]) -> tuple[int, int]:
        cols, rows = self.tile(block)
        return (ceil_div(N, cols), ceil_div(M, rows))

    def check_block(self, block: tuple[int, int] | str | None) -> tuple[int, int]:
        """The block to launch with, given as (bx, by) or 'BXxBY'; a UsageError says why a
        requested one cannot be used."""
        if block is None:
            return self.default_block
        block = bx, by = _block_pair(parse_block(block) if isinstance(block, str) else block)
        if bx < 1 or by < 1:
            raise UsageError(f"block {bx}x{by}: both sides must be positive, e.g. --block 32x32")
        if self.block_fixed and block != self.default_block:
            d = self.default_block
            raise UsageError(
                f"kernel {self.name} is compiled for block {d[0]}x{d[1]} only; drop --block or use {d[0]}x{d[1]}"
            )
        if bx * by > 1024:
            raise UsageError(f"block {bx}x{by} has {bx * by} threads; CUDA allows at most 1024 per block")
        if (bx * by) % 32:
            raise UsageError(
                f"block {bx}x{by} has {bx * by} threads, not a multiple of 32 (one warp); pick e.g. 32x8 or 16x16"
            )
        return (bx, by)

    def check_sizes(self, M: int, N: int, K: int) -> None:
        sizes = {"M": M, "N": N, "K": K}
        for dim, mult in self.multiple_of.items():
            if sizes[dim] % mult:
                raise UsageError(
                    f"kernel {self.name} needs {dim} to be a multiple of {mult} (16-byte float4 loads); "
                    f"got {dim}={sizes[dim]}: pad the matrix or use another kernel"
                )


def _load() -> dict[str, KernelSpec]:
    from warpsim.models import LADDER

    return {spec.name: spec for spec in LADDER}


_KERNELS: dict[str, KernelSpec] | None = None


def kernels() -> dict[str, KernelSpec]:
    global _KERNELS
    if _KERNELS is None:
        _KERNELS = _load()
    return _KERNELS


def get_kernel(name: str) -> KernelSpec:
    known = kernels()
    if not isinstance(name, str) or name not in known:
        raise UsageError(f"unknown kernel {name!r}; known kernels: {', '.join(known)}")
    return known[name]
