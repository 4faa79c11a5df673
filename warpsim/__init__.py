"""warpsim: replay a CUDA kernel's address stream warp by warp and count its memory traffic.

    import warpsim
    a = warpsim.analyze("naive", M=4096)         # N and K default to M; block to the kernel's
    a.row("global", "A", "load").sectors         # 68719476736: exact, a Python int
    a.frame()                                    # pandas: kernel, M, N, K, block, grid, every counter
    warpsim.kernels()                            # the registered kernel names
    warpsim.analyze_file("kernels/transpose.cu", entry="transpose_tiled<1>", block="32x8",
                         grid="cdiv(N,32),cdiv(M,32)", M=1000, N=1030)   # any kernel

Bad arguments raise `warpsim.UsageError` (warpsim.errors): its message says what to do. Importing
warpsim is cheap; numpy and the models load on the first analysis, pandas on the first frame().
"""

from __future__ import annotations

from warpsim.errors import ModelError, UsageError

__version__ = "0.1.0"
__all__ = ["analyze", "analyze_file", "kernels", "UsageError", "ModelError", "__version__"]


def analyze(kernel: str, M: int, N: int | None = None, K: int | None = None, block=None,
            by_line: bool = False, engine: str = "sass"):
    """Exact counts of one launch of `kernel` (see `warpsim.kernels()`): a warpsim.counts.Analysis.

    M, N, K: C is MxN, A MxK, B KxN (N and K default to M). `block`: (bx, by) or 'BXxBY'
    (default: the kernel's). `by_line`: one row per .cu source line instead of per array.
    `engine`: "sass" counts the machine code nvcc emits, "model" the hand-written model.
    Raises UsageError for a bad argument.
    """
    from warpsim import engine as engines

    run = {"sass": engines.analyze_sass, "model": engines.analyze}.get(engine)
    if run is None:
        raise UsageError(f"engine {engine!r}: use 'sass' (the machine code) or 'model' (the hand model)")
    return run(kernel, M, M if N is None else N, M if K is None else K, block, by_line=by_line)


def analyze_file(path, grid: str, block: str, entry: str | None = None, by_line: bool = False, **args):
    """Exact counts of one launch of any kernel, from its .cu (compiled with the pinned nvcc) or
    .cubin: `grid` and `block` as on the command line, one keyword per scalar parameter (and
    `NAME="float[COUNT]"` to declare a pointer's buffer). Raises UsageError for a bad argument."""
    from warpsim.sass.analyze import analyze_launch, prepare

    return analyze_launch(prepare(path, entry, grid, block, {k: str(v) for k, v in args.items()}), by_line=by_line)


def kernels() -> list[str]:
    """The names of the registered kernels."""
    from warpsim import registry

    return list(registry.kernels())
