"""One launch to measure: a registered kernel, the sizes M, N, K and the block, checked once.

`run`, `bench` and the `python -m profiling.launch` child all start from a Problem, so a bad
kernel name, block or size is refused the same way everywhere, before anything is built or run.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim import registry


@dataclass(frozen=True)
class Problem:
    kernel: str
    M: int  # rows of A and C
    N: int  # columns of B and C
    K: int  # columns of A, rows of B
    block: tuple[int, int]  # (blockDim.x, blockDim.y)

    @classmethod
    def resolve(cls, kernel: str, M: int, N: int | None = None, K: int | None = None,
                block: tuple[int, int] | None = None) -> "Problem":
        """Check everything about a launch that can be checked without a GPU; N and K default to M.
        The checks are warpsim's own (`warpsim.engine.prepare`), so both CLIs refuse alike."""
        from warpsim.engine import GRID_X_MAX, GRID_YZ_MAX, prepare
        from warpsim.errors import UsageError

        N = M if N is None else N
        K = M if K is None else K
        _, block, grid, _ = prepare(kernel, M, N, K, block)
        if grid[0] > GRID_X_MAX or grid[1] > GRID_YZ_MAX:
            raise UsageError(f"{kernel} M={M} N={N} K={K}: grid {grid[0]}x{grid[1]} exceeds CUDA's limits "
                             f"(gridDim.x <= {GRID_X_MAX}, gridDim.y <= {GRID_YZ_MAX}); the GPU cannot launch it")
        return cls(kernel, M, N, K, tuple(block))

    @property
    def spec(self):
        return registry.get_kernel(self.kernel)

    @property
    def grid(self) -> tuple[int, int]:
        return tuple(self.spec.grid(self.M, self.N, self.block))

    @property
    def block_text(self) -> str:
        return f"{self.block[0]}x{self.block[1]}"

    @property
    def flops(self) -> int:
        return 2 * self.M * self.N * self.K  # one multiply and one add per (m, n, k)

    def __str__(self) -> str:
        return f"{self.kernel} M={self.M} N={self.N} K={self.K} block {self.block_text}"
