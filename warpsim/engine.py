"""Entry points: analyze a launch (fast), enumerate it (brute force), or run it on real matrices.

Data flow: registry entry -> model -> TraceKernel records Sites -> fast.count_site per site ->
Rows grouped by (space, array, op) -> Analysis. The brute-force path runs the same model through
ExecKernel, block chunk by block chunk, and counts every warp instruction.

Limitations: a launch is two-dimensional (blockIdx.z and threadIdx.z are 0) and every matrix
holds 4-byte floats; sizes are checked (whole numbers >= 1, the kernel's alignment needs) but the
int32 indexing of the real kernels only warned about. A model that cannot be traced raises
warpsim.errors.ModelError naming its kernel and line. The brute force (`execute`, `gemm`) visits
every lane access: keep it to small sizes (about 10^7 accesses a second).
"""

from __future__ import annotations

import numpy as np

from warpsim.counts import Analysis, Row
from warpsim.errors import UsageError, model_errors
from warpsim.execute import ExecKernel
from warpsim.fast import count_site
from warpsim.registry import KernelSpec, get_kernel
from warpsim.trace import TraceKernel

INT32_MAX = 2**31 - 1
GRID_X_MAX = 2**31 - 1  # CUDA's gridDim limits
GRID_YZ_MAX = 65535
ROW_ORDER = {("global", "A"): 0, ("global", "B"): 1, ("global", "C"): 2, ("shared", "A"): 3, ("shared", "B"): 4}


def _check_size(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise UsageError(f"{name} must be a whole number, got {value!r}")
    if value < 1:
        raise UsageError(f"{name} must be at least 1, got {value}: matrix sizes are positive")
    return int(value)


def prepare(kernel: str, M, N, K, block=None) -> tuple[KernelSpec, tuple[int, int], tuple[int, int], list[str]]:
    """Validate a launch; return (spec, block, grid, warnings)."""
    M, N, K = (_check_size(n, v) for n, v in (("M", M), ("N", N), ("K", K)))
    spec = get_kernel(kernel)
    block = spec.check_block(block)
    spec.check_sizes(M, N, K)
    grid = spec.grid(M, N, block)
    warnings = []
    if grid[0] > GRID_X_MAX or grid[1] > GRID_YZ_MAX:
        warnings.append(f"grid {grid[0]}x{grid[1]} exceeds CUDA's limits (gridDim.x <= {GRID_X_MAX}, gridDim.y <= "
                        f"{GRID_YZ_MAX}): the real launch would fail; warpsim counts it anyway")
    largest = max(M * K, K * N, M * N)
    if largest > INT32_MAX:
        warnings.append(
            f"the CUDA kernel indexes with 32-bit int: an index up to {largest - 1} exceeds {INT32_MAX}, "
            "so the real kernel would overflow at this size; warpsim counts the intended (64-bit) addresses"
        )
    return spec, block, grid, warnings


def _sorted_rows(rows) -> list[Row]:
    return sorted(rows, key=lambda r: (ROW_ORDER.get((r.space, r.array), 9), r.array, r.op != "load"))


def _traced(spec: KernelSpec, M: int, N: int, K: int, block, grid) -> TraceKernel:
    k = TraceKernel(grid, block)
    with model_errors(spec):  # a model that cannot be traced names its kernel and line
        spec.model(k, M, N, K, 1.0, 1.0)
    return k


def trace(kernel: str, M, N, K, block=None) -> TraceKernel:
    """The kernel's model run once symbolically: its `sites` are its memory instructions."""
    spec, block, grid, _ = prepare(kernel, M, N, K, block)
    return _traced(spec, M, N, K, block, grid)


def analyze(kernel: str, M, N, K, block=None, by_line: bool = False) -> Analysis:
    """Exact counts for the whole launch, without enumerating it (see warpsim.fast): one row per
    (space, array, op), or with `by_line` one per .cu source line and (space, array, op)."""
    spec, block, grid, warnings = prepare(kernel, M, N, K, block)
    k = _traced(spec, M, N, K, block, grid)
    rows: dict[tuple, Row] = {}
    for site in k.sites:
        line = site.line if by_line else None
        row = Row(site.space, site.array, site.op, site.width, line=line)
        row = rows.setdefault(row.key, row)
        row.width = max(row.width, site.width)
        row.add(**count_site(site, k.threads))
    ordered = sorted(rows.values(), key=lambda r: r.line) if by_line else _sorted_rows(rows.values())
    return Analysis(spec.name, M, N, K, block, grid, ordered, warnings)


def _blocks(grid: tuple[int, int]) -> np.ndarray:
    gy, gx = np.meshgrid(np.arange(grid[1]), np.arange(grid[0]), indexing="ij")
    return np.stack([gx.ravel(), gy.ravel()], axis=1)


def execute(kernel: str, M, N, K, block=None, memory: dict[str, np.ndarray] | None = None,
            alpha: float = 1.0, beta: float = 1.0, chunk_threads: int = 1 << 16) -> Analysis:
    """Brute force: run every block, counting every warp instruction; with `memory` (flat float64
    arrays "A", "B", "C", row-major) it also computes C in place."""
    spec, block, grid, warnings = prepare(kernel, M, N, K, block)
    blocks = _blocks(grid)
    per_chunk = max(1, chunk_threads // (block[0] * block[1]))
    rows: dict[tuple, Row] = {}
    for lo in range(0, len(blocks), per_chunk):
        k = ExecKernel(grid, block, blocks[lo:lo + per_chunk], memory, rows)
        spec.model(k, M, N, K, alpha, beta)
    return Analysis(spec.name, M, N, K, block, grid, _sorted_rows(rows.values()), warnings)


def gemm(kernel: str, A: np.ndarray, B: np.ndarray, C: np.ndarray, alpha: float = 1.0, beta: float = 1.0,
         block=None) -> tuple[np.ndarray, Analysis]:
    """Run the model on real matrices: returns (the C it computed, the brute-force counts)."""
    M, K = A.shape
    N = B.shape[1]
    memory = {"A": np.array(A, dtype=np.float64).ravel(), "B": np.array(B, dtype=np.float64).ravel(),
              "C": np.array(C, dtype=np.float64).ravel()}
    counts = execute(kernel, M, N, K, block, memory, alpha, beta)
    return memory["C"].reshape(M, N), counts


# -- the same launches through the machine code (warpsim.sass) ------------------------------------

ENGINES = ("sass", "model")
#: the __shared__ arrays of the ladder, by the matrix they stage (the hand models name shared rows so)
SHARED_STAGES = {"As": "A", "Bs": "B"}


def sass_kernel(kernel: str, M, N, K, block=None):
    """A registered kernel's launch, as the SASS engine takes any kernel: its .cu, entry, grid,
    block and arguments from the registry (alpha and beta 1.0, each matrix its own buffer)."""
    from warpsim.sass.analyze import prepare as prepare_sass

    spec, block, grid, warnings = prepare(kernel, M, N, K, block)
    values = {"M": M, "N": N, "K": K, "alpha": 1.0, "beta": 1.0,
              "A": "float[M*K]", "B": "float[K*N]", "C": "float[M*N]"}
    k = prepare_sass(spec.cu_path, spec.entry, f"{grid[0]},{grid[1]}", f"{block[0]}x{block[1]}",
                     {name: values[name] for name in spec.args})
    k.launch.warnings[:0] = warnings
    return spec, k


def analyze_sass(kernel: str, M, N, K, block=None, by_line: bool = False) -> Analysis:
    """`analyze`, from the kernel's machine code instead of its hand model: the same rows, named
    the same (a shared row by the matrix its array stages), each with its opcode family."""
    from warpsim.sass.analyze import analyze_launch

    spec, k = sass_kernel(kernel, M, N, K, block)
    try:
        a = analyze_launch(k, by_line=by_line)
    except UsageError as e:
        if "wraps around" in str(e):
            raise UsageError(f"{e}; the kernel's 32-bit index arithmetic overflows at this size (the hand "
                             "model counts the intended addresses: --engine model)") from None
        raise
    for r in a.rows:
        if r.space == "shared":
            r.array = SHARED_STAGES.get(r.array, r.array)
    rows = sorted(a.rows, key=lambda r: r.line) if by_line else _sorted_rows(a.rows)
    return Analysis(spec.name, M, N, K, tuple(k.launch.block[:2]), tuple(k.launch.grid[:2]), rows,
                    list(k.launch.warnings), engine="sass")
