"""Any kernel, exact from its machine code: a launch -> the same `Analysis` the hand models give.

    source (.cu) --toolchain--> cubin --program--> instructions, loops
    launch (grid, block, --arg) --------------------> constant bank, buffers
    machine (symbolic) --> one Site per memory instruction --fast.count_site--> rows

`analyze_launch` is the fast path (any size, exact); `brute_force` runs the same machine code
concretely for every block (the reference the fast path is tested against; small launches).
Where the fast path cannot follow a launch symbolically (arithmetic not affine in a block index
that takes more than MAX_PIECES values, a 32-bit value that wraps inside the launch), a launch of
at most ENUMERATE_BLOCKS blocks is counted by the brute force instead, with a warning that says
so and a progress callback; anything else is refused. Data-dependent addresses are refused
either way (the engine keeps no values in memory).
Rows are per (space, array, op): `array` is the pointer parameter's name or the `__shared__`
variable's; `by_line` gives one row per source line, `by_pc` one per SASS instruction.
"""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from warpsim import toolchain
from warpsim.counts import Analysis, Row
from warpsim.errors import UsageError
from warpsim.fast import count_site
from warpsim.sass import launch as L
from warpsim.sass.machine import Access, Machine
from warpsim.sass.program import Program, load
from warpsim.sass.values import QUOTIENT, EngineError, SplitRequest, StrideRequest, quotient_dim
from warpsim.tally import tally
from warpsim.trace import Site

SPACE_ORDER = {"global": 0, "shared": 1, "local": 2}


@dataclass
class Kernel:
    """A compiled entry point and one launch of it."""

    program: Program
    launch: L.KernelLaunch
    source_path: Path | None  # the .cu, when known
    cubin_path: Path

    @property
    def name(self) -> str:
        return self.program.name


def compile_kernel(path: Path | str, entry: str | None) -> tuple[Program, Path | None, Path]:
    """A `.cu` (compiled with the pinned nvcc, cached) or a `.cubin`, and its entry point; with
    no entry given, the file's only kernel."""
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    if path.suffix == ".cubin":
        cubin, source = path, None
    elif path.suffix in (".cu", ".cuh"):
        cubin, source = toolchain.build_cubin(path), path
    else:
        raise UsageError(f"{path.name}: give a CUDA source (.cu) or a cubin (.cubin)")
    if entry is None:
        from warpsim.sass.cubin import read_cubin

        functions = read_cubin(cubin).functions
        if len(functions) != 1:
            names = ", ".join(sorted(f.source_name for f in functions.values()))
            raise UsageError(f"{path.name} has {len(functions)} kernels; pick one with --entry ({names})")
        entry = next(iter(functions))
    program = load(cubin, entry)
    if source is None:  # a cubin's line table names its source; use it for parameter names
        files = {i.file for i in program.instructions if i.file}
        candidates = [Path(f) for f in files if Path(f).is_file() and Path(f).suffix in (".cu", ".cuh")]
        source = candidates[0] if len(candidates) == 1 else None
    return program, source, cubin


def prepare(path, entry, grid: str, block: str, args: list[str] | dict, source: Path | str | None = None,
            param_names: list[str] | None = None, dynamic_shared: str | None = None) -> Kernel:
    """Compile (or read) the kernel and bind one launch; every refusal is one UsageError.
    `source` names the .cu whose signature names a cubin's parameters (default: the one the
    cubin's line table names, where that file exists); `dynamic_shared`: bytes of dynamic shared
    memory per block, an integer expression of the scalar arguments."""
    program, found, cubin = compile_kernel(path, entry)
    source = Path(source) if source is not None else found
    text = L.read_source(source)
    params, warnings = L.resolve_params(program.function, text, param_names)
    texts = args if isinstance(args, dict) else L.parse_args(list(args))
    bound = L.bind(program.function, params, {k: str(v) for k, v in texts.items()}, grid, block, warnings,
                   dynamic_shared, program.cubin.constants, text)
    return Kernel(program, bound, source, cubin)


def _site(access: Access) -> Site:
    ins = access.ins
    return Site(access.space, access.array, access.op, access.width, ins.line or 0, access.address,
                access.cond, access.pred, tuple(access.env.extents.items()), ins.pc, ins.opcode)


MAX_PIECES = 64
ENUMERATE_BLOCKS = 1 << 20  # the largest launch counted block by block when the fast path cannot
ENUMERATE_SECONDS = 120.0  # ... and the longest it may take, projected from its first blocks
#: Seconds of running before the projection is trusted (or a hundredth of the limit, if less): a
#: first chunk of 8 blocks on a loaded machine (the first to warm the engine) projected
#: outer_flat's 62,485 blocks past ENUMERATE_SECONDS, where they take 10 s.
PROJECT_AFTER = 1.0


def why(refusal: UsageError, kernel: str) -> str:
    """A refusal's reason, without the kernel's name before it and the verdict after it."""
    return re.sub(r"[:;] warpsim cannot count this (launch|kernel) exactly$", "",
                  str(refusal).removeprefix(f"{kernel}: "))


class NotSymbolic(UsageError):
    """The fast path cannot count this launch; running every block concretely still can."""

    def reason(self, kernel: str) -> str:
        return why(self, kernel)


def trace(kernel: Kernel, few: bool = False) -> tuple[list[Site], int]:
    """Run the machine code symbolically: one Site per memory instruction (per path through it).
    `few`: see `pieces`."""
    found, threads = pieces(kernel, few=few)
    return [site for _, sites in found for site in sites], threads


#: A launch is cut where a 64-bit value's high word changes (a buffer past 4 GiB) only where it cannot
#: be counted otherwise: refused, or of more blocks than this (too many to run block by block). The
#: others keep their ways (a block index run value by value, or block by block), whose cache figures
#: the committed blind predictions were made with
WIDE_CUTS_FROM = ENUMERATE_BLOCKS


def pieces(kernel: Kernel, wide: bool | None = None, strides: bool = True, few: bool = False,
           quotients: bool = True) -> tuple[list[tuple[dict, list[Site]]], int]:
    """The launch's pieces, each its block ranges (axis: (start, stop)) with the sites it gives.

    A value that depends on which side of an edge a block lies (a `min(., K)` clamp on the last
    block, a guard that only some lanes of the first blocks pass) splits that block index's range
    there and each piece runs on its own, so that each is decided; at most MAX_PIECES pieces. A
    piece's sites count block indices from the piece's start: the ranges say where it lies.
    `wide` (None: where the launch is refused without, or has more than WIDE_CUTS_FROM blocks and
    would be run block by block): also cut where a 64-bit value's high word changes (Machine's
    wide_cuts). `strides`: a quotient or remainder of a block index by a constant splits the
    index into its residue classes, a piece each (range(start, stop, step)); without, it runs
    each value apart (if few) or is refused as not symbolic. `few`: refuse (NotSymbolic, marked
    `slow`) residue classes that make pieces of fewer than BLOCKS_A_PIECE blocks on average, or
    whose pieces take longer than a quarter of what running block by block is projected to take
    (block_by_block_seconds): block by block counts those sooner. Where residue classes led the
    pieces to a stop, the launch is taken as it was before them (value by value, or refused as
    not symbolic), so that they never lose a launch. `quotients` (with `strides`): where that
    makes fewer pieces than the residue classes of a contiguous range (or their cuts are too
    many), the index is taken as quotient and remainder by the divisor (values.QUOTIENT), a
    dimension each, so that both are affine: a piece for the whole rows of quotients, and one for
    each partial row at an end. Where that leads to a stop, the launch is taken in residue
    classes, as without `quotients`."""
    try:
        return _wide_or_not(kernel, wide, strides, few, strides and quotients)
    except (NotSymbolic, UsageError) as refused:
        if getattr(refused, "reshaped", False):
            return pieces(kernel, wide, strides, few, quotients=False)
        if not getattr(refused, "strided", False):
            raise
        try:
            return _wide_or_not(kernel, wide, False, few, False)
        except NotSymbolic:
            if getattr(refused, "slow", False):  # quicker block by block, but counted if that is too slow
                raise refused from None
            raise


def _wide_or_not(kernel: Kernel, wide: bool | None, strides: bool, few: bool, quotients: bool):
    if wide is not None:
        return _pieces(kernel, wide, strides, few, quotients)
    try:
        return _pieces(kernel, False, strides, few, quotients)
    except (NotSymbolic, UsageError) as refused:
        if isinstance(refused, NotSymbolic) and int(np.prod(kernel.launch.grid)) <= WIDE_CUTS_FROM:
            raise
        try:
            return _pieces(kernel, True, strides, few, quotients)
        except (NotSymbolic, UsageError) as wider:
            refused.reshaped = getattr(refused, "reshaped", False) or getattr(wider, "reshaped", False)
            raise refused from None


def _pieces(kernel: Kernel, wide: bool, strides: bool = True, few: bool = False,
            quotients: bool = False) -> tuple[list[tuple[dict, list[Site]]], int]:
    done: list[tuple[dict, list[Site]]] = []
    launch = kernel.launch.launch(kernel.program.function.shared_vars)
    blocks_in_all = int(np.prod(launch.grid))
    full = {axis: (0, n) for axis, n in zip("xyz", launch.grid)}
    todo, threads, limit, split_why = [full], 0, MAX_PIECES, ""
    reshaped = False  # a block index taken as quotient and remainder (QUOTIENT keys)
    deadline = None  # where running block by block is possible and the pieces are split: when to give up
    try:
        while todo:
            if few and limit == MAX_STRIDED_PIECES:
                if deadline is None:
                    deadline = time.perf_counter() + block_by_block_seconds(kernel) / 4  # a first chunk projects high
                if time.perf_counter() > deadline:
                    refusal = NotSymbolic(f"{kernel.name}: {split_why}; its {len(done) + len(todo):,} pieces of blocks "
                                          f"take longer than a quarter of what running it block by block would")
                    refusal.slow = True
                    raise refusal
            ranges = todo.pop()
            found: list[Site] = []
            m = Machine(kernel.program, launch, lambda a: found.append(_site(a)), ranges=ranges, wide_cuts=wide,
                        strides=strides)
            threads = m.threads
            try:
                m.run()
            except StrideRequest as request:
                # a quotient or remainder of a block index by a constant: one piece per residue class
                axis = request.dim[-1]
                if ranges[axis][0] == QUOTIENT:  # a second division: the launch is taken in residue classes
                    raise NotSymbolic(f"{kernel.name}: {request.why}, of a block index already taken as quotient "
                                      f"and remainder, at {request.where}: warpsim cannot count this launch exactly")
                blocks = range(*ranges[axis])
                classes = [_key(blocks[j::request.step]) for j in range(request.step)]
                rows = _quotient_keys(blocks, request.step) if quotients and blocks.step == 1 else classes
                if len(rows) < len(classes):  # fewer pieces as quotient and remainder, each a dimension of its own
                    classes, reshaped = rows, True
                total = len(done) + len(todo) + len(classes)
                if total <= MAX_STRIDED_PIECES:
                    split_why = _strided(kernel, request, total, blocks_in_all, few)
                    limit = MAX_STRIDED_PIECES
                    todo += [{**ranges, axis: c} for c in classes]
                    continue
                error = EngineError(f"{request.why}; its {request.step:,} residue classes would make more "
                                    f"than {MAX_STRIDED_PIECES} pieces, at {request.where}: warpsim cannot count "
                                    "this kernel exactly")
                error.affine = True
            except SplitRequest as split:
                axis = split.dim[-1]
                key = ranges[axis]
                part = (2 if split.dim == quotient_dim(axis) else 4) if key[0] == QUOTIENT else None
                blocks = range(*key) if part is None else range(key[part], key[part + 1])
                cuts = sorted({c for c in split.cuts if c in blocks and c != blocks.start})
                step = getattr(split, "by_strides", 0)
                if step and cuts:  # in place of residue classes: as they are
                    limit = MAX_STRIDED_PIECES
                    if quotients and len(todo) + len(cuts) + 1 > limit and step > 1 and part is None \
                            and blocks.step == 1:  # too many quotients too: the index as quotient and remainder
                        parts, reshaped = _quotient_keys(blocks, step), True
                        split_why = _strided(kernel, split, len(done) + len(todo) + len(parts), blocks_in_all, few)
                        todo += [{**ranges, axis: part_key} for part_key in parts]
                        continue
                    split_why = _strided(kernel, split, len(done) + len(todo) + len(cuts) + 1, blocks_in_all, few)
                if not cuts or len(todo) + len(cuts) + 1 > limit:
                    raise NotSymbolic(f"{kernel.name}: {split}: warpsim cannot count this launch exactly") from None
                bounds = [blocks.start, *cuts, blocks.stop]
                todo += [{**ranges, axis: _key(range(lo, hi, blocks.step)) if part is None
                          else key[:part] + (lo, hi) + key[part + 2:]} for lo, hi in itertools.pairwise(bounds)]
                continue
            except EngineError as e:
                error = e
            else:
                done.append((ranges, found))
                continue
            todo += _values_apart(kernel, error, m.index_floats, ranges, len(todo), limit)
    except (NotSymbolic, UsageError) as refused:
        refused.strided = limit == MAX_STRIDED_PIECES  # residue classes (or cuts in their place): retried without
        refused.reshaped = reshaped  # ... and quotient and remainder first: retried in residue classes
        raise
    return done, threads


#: The most pieces a launch is cut into once a block index is split into residue classes (a
#: quotient by a constant H gives H classes, and a class's first block may be cut off)
MAX_STRIDED_PIECES = 256
#: The fewest blocks a piece holds on average, where the launch could run block by block instead:
#: a symbolic run of one piece costs about what a chunk of blocks run concretely costs (Triton's
#: grouped order of 1,024 blocks of a small GEMM: 129 pieces took 33 s, block by block 10 s)
BLOCKS_A_PIECE = 16


def block_by_block_seconds(kernel: Kernel) -> float:
    """About how long running every block would take (brute_force), projected from its first
    few blocks (as many as brute_force's first chunk); inf where it cannot run them."""
    total = int(np.prod(kernel.launch.grid))
    if total > ENUMERATE_BLOCKS:
        return float("inf")
    launch, threads, blocks, edges = _chunks(kernel)
    first = edges[1]
    n = first * threads
    start = time.perf_counter()
    try:
        Machine(kernel.program, launch, lambda a: a.space != "check" and concrete_counts(a, n),
                blocks=blocks[:first]).run()
    except EngineError:
        return float("inf")
    return (time.perf_counter() - start) * total / first


def _strided(kernel: Kernel, request: SplitRequest, total: int, blocks: int, few: bool) -> str:
    """Why the launch is in residue classes (or pieces in their place), for a refusal; where
    running block by block is quicker (`few`, and pieces of fewer than BLOCKS_A_PIECE blocks on
    average), the refusal that sends it there (NotSymbolic, marked `slow`)."""
    why = f"{request.why}, at {getattr(request, 'where', 'an instruction')}"
    if few and total * BLOCKS_A_PIECE > blocks:
        refusal = NotSymbolic(f"{kernel.name}: {why}; its block index split makes {total:,} pieces of "
                              f"{blocks / total:,.1f} blocks on average")
        refusal.slow = True
        raise refusal
    return why


def _key(blocks: range) -> tuple:
    """A piece's block range as kept in its ranges: (start, stop), or (start, stop, step) for a
    residue class (a Machine reads either as range(*key))."""
    return (blocks.start, blocks.stop) if blocks.step == 1 else (blocks.start, blocks.stop, blocks.step)


def _quotient_keys(blocks: range, divisor: int) -> list[tuple]:
    """The blocks of a contiguous range as QUOTIENT keys by `divisor` (values.QUOTIENT): the whole
    rows of quotients, and the partial rows at either end, each a key of its own."""
    (q0, r0), (q1, r1) = divmod(blocks.start, divisor), divmod(blocks.stop, divisor)
    if q0 == q1:
        return [(QUOTIENT, divisor, q0, q0 + 1, r0, r1)]
    keys = [(QUOTIENT, divisor, q0, q0 + 1, r0, divisor)] if r0 else []
    if q1 > q0 + (r0 > 0):
        keys.append((QUOTIENT, divisor, q0 + (r0 > 0), q1, 0, divisor))
    if r1:
        keys.append((QUOTIENT, divisor, q1, q1 + 1, 0, r1))
    return keys


def _values_apart(kernel: Kernel, e: EngineError, index_floats: bool, ranges: dict, pending: int,
                  limit: int) -> list[dict]:
    """The pieces that run each value of a block index apart, where the symbolic run of `ranges`
    stopped with `e` (`index_floats`: after floating point met a block or loop index); else the
    refusal: NotSymbolic where running block by block may count it."""
    if index_floats and not getattr(e, "wraps", False):
        # floating point on a block or loop index (`(int)(x * scale)`) is exact once the
        # indices are numbers: the block-by-block run computes it, or says why not
        why = re.sub(r"computed from data \(([^)]*)\)(: the engine counts only addresses that are functions of "
                     r"the thread, block and loop indices)?", r"computed in floating point from the block or "
                     r"loop indices (\1)", str(e))
        why = re.sub(r"a condition computed from data steers (.*?)(; warpsim counts only accesses decided by "
                     r"the thread, block and loop indices)?$", r"a condition computed in floating point from "
                     r"the block or loop indices steers \1", why)
        refusal = NotSymbolic(f"{kernel.name}: {why}")
        refusal.given = True
        raise refusal from None
    if getattr(e, "enumerate", False):  # values a launch gives decide what follows
        refusal = NotSymbolic(f"{kernel.name}: {e}")
        refusal.given = True  # the block-by-block run is the count itself: its refusal is the one
        raise refusal from None
    # arithmetic that is not affine in a block index (a remainder of it, say) is affine in
    # the others once that index is a number: run each of its values apart, if few
    axis = _smallest_block_axis(ranges) if getattr(e, "affine", False) else None
    if axis is None:
        raise UsageError(f"{kernel.name}: {e}") from None
    blocks = range(*ranges[axis])
    if pending + len(blocks) > limit:
        refusal = UsageError if getattr(e, "wraps", False) else NotSymbolic  # an overflow stays refused
        raise refusal(f"{kernel.name}: {e}") from None
    return [{**ranges, axis: (v, v + 1)} for v in blocks]


def _smallest_block_axis(ranges: dict) -> str | None:
    """The block axis of the piece with the fewest values but more than one (None: none left)."""
    axes = [(len(range(*key)), axis) for axis, key in ranges.items()
            if key[0] != QUOTIENT and len(range(*key)) > 1]
    return min(axes)[1] if axes else None


def _row_key(space, array, op, kind, line, pc, by_line, by_pc):
    if by_pc:
        return (pc, space, array, op, kind)
    if by_line:
        return (line, space, array, op, kind)
    return (space, array, op, kind)


def _rows(items, by_line: bool, by_pc: bool) -> list[Row]:
    rows: dict[tuple, Row] = {}
    for (space, array, op, width, line, pc, kind), counts in items:
        key = _row_key(space, array, op, kind, line, pc, by_line, by_pc)
        row = rows.get(key)
        if row is None:
            row = Row(space, array, op, width, line=line if (by_line or by_pc) else None, kind=kind)
            if by_pc:
                row.pc = pc
            rows[key] = row
        row.width = max(row.width, width)
        row.add(**counts)
    ordered = sorted(rows.values(), key=lambda r: (r.pc or 0 if by_pc else (r.line or 0) if by_line else 0,
                                                    SPACE_ORDER.get(r.space, 9), r.array, r.op, r.kind or ""))
    return ordered


def analysis(kernel: Kernel, rows: list[Row], engine: str) -> Analysis:
    k = kernel.launch
    get = k.scalars.get
    params = {**k.scalars, **{name: c.text for name, c in k.constants.items()}}  # __constant__ values as given
    return Analysis(kernel.name, get("M"), get("N"), get("K"), k.block, k.grid, rows, list(k.warnings),
                    params=params, source=str(kernel.source_path) if kernel.source_path else None, engine=engine)


def analyze_launch(kernel: Kernel, by_line: bool = False, by_pc: bool = False,
                   enumerate_blocks: int = ENUMERATE_BLOCKS, enumerate_seconds: float = ENUMERATE_SECONDS,
                   progress=None, concrete=None) -> Analysis:
    """Exact counts for the whole launch, without enumerating it; where that cannot be done
    symbolically, by running each block (launches of at most `enumerate_blocks` blocks that its
    first blocks project to finish within `enumerate_seconds`; `progress(done, total)` is called
    as blocks finish, and `concrete` (a `warpsim.caches.program.ConcreteRun`) records the run's
    global accesses for the cache model)."""
    blocks = int(np.prod(kernel.launch.grid))
    try:
        items = _symbolic_items(kernel, few=blocks <= enumerate_blocks)
    except NotSymbolic as refused:
        reason = refused.reason(kernel.name)
        if blocks > enumerate_blocks:
            raise UsageError(f"{kernel.name}: {reason}; its {blocks:,} blocks are too many to run one by one "
                             f"(at most {enumerate_blocks:,}): warpsim cannot count this launch exactly") from None
        try:
            a = brute_force(kernel, by_line, by_pc, max_blocks=enumerate_blocks, progress=progress,
                            max_seconds=enumerate_seconds, concrete=concrete)
        except TooLong as e:
            if getattr(refused, "slow", False):  # many small pieces still beat too long a run
                return analysis(kernel, _rows(_symbolic_items(kernel, few=False), by_line, by_pc), "sass")
            raise UsageError(f"{kernel.name}: {reason}; {e}: warpsim cannot count this launch exactly") from None
        except UsageError as e:
            if getattr(refused, "given", False):
                raise e from None
            # both ways stopped: the block-by-block run's reason is the one that decides, the
            # symbolic one says why it was tried
            then = why(e, kernel.name)
            if then == reason:
                raise refused from None
            raise UsageError(f"{kernel.name}: {then} (tried block by block because {reason}): warpsim "
                             "cannot count this kernel exactly") from None
        a.warnings.append(f"counted by running each of its {blocks:,} blocks (exact, not symbolic): {reason}")
        a.engine = "sass"
        return a
    return analysis(kernel, _rows(items, by_line, by_pc), "sass")


def _symbolic_items(kernel: Kernel, few: bool) -> list[tuple[tuple, dict]]:
    """Each site's counts, keyed as `_rows` takes them, from the symbolic run (`trace`)."""
    sites, threads = trace(kernel, few)
    items = []
    for s in sites:
        counts = count_site(s, threads)
        if s.space == "check":
            if counts.get("violations"):
                raise NotSymbolic(f"{kernel.name}: {s.array}; warpsim cannot count this launch exactly")
            continue
        items.append(((s.space, s.array, s.op, s.width, s.line, s.pc, s.kind), counts))
    return items


class TooLong(UsageError):
    """Running every block would take longer than allowed (projected from the first chunk)."""


def brute_force(kernel: Kernel, by_line: bool = False, by_pc: bool = False, chunk_threads: int = 1 << 15,
                max_blocks: int = ENUMERATE_BLOCKS, progress=None, max_seconds: float | None = None,
                concrete=None) -> Analysis:
    """Every block, every iteration, every thread executed concretely (the reference);
    `progress(done, total)` after each chunk of blocks; `max_seconds`: refuse (TooLong) when the
    first chunk projects the whole run past it; `concrete`: told of every access (`record(access,
    n, lo, hi)`) and, once every block has run, of a block's threads (`finished(threads)`)."""
    items = []

    def record(a: Access, n: int, lo: int, hi: int) -> None:
        if concrete is not None:
            concrete.record(a, n, lo, hi)
        if a.space == "check":
            return  # concrete runs follow every thread: nothing to prove
        key = (a.space, a.array, a.op, a.width, a.ins.line or 0, a.ins.pc, a.ins.opcode)
        items.append((key, concrete_counts(a, n)))

    threads = run_blocks(kernel, record, chunk_threads, max_blocks, progress, max_seconds)
    if concrete is not None:
        concrete.finished(threads)
    return analysis(kernel, _rows(items, by_line, by_pc), "brute force")


def run_blocks(kernel: Kernel, record, chunk_threads: int = 1 << 15, max_blocks: int = ENUMERATE_BLOCKS,
               progress=None, max_seconds: float | None = None) -> int:
    """Run every block concretely, in chunks of blocks in linear order (x fastest):
    `record(access, n, lo, hi)` for each memory access of the chunk of blocks [lo, hi), whose
    n threads (hi - lo blocks of whole warps) its address and conditions give. Returns the
    threads of a block (padded to whole warps)."""
    total = int(np.prod(kernel.launch.grid))
    if total > max_blocks:
        raise UsageError(f"brute force is for small launches: {total} blocks > {max_blocks}")
    launch, threads, blocks, edges = _chunks(kernel, chunk_threads)
    start = time.perf_counter()
    for lo, hi in zip(edges[:-1], edges[1:]):
        n = (hi - lo) * threads
        m = Machine(kernel.program, launch, lambda a, lo=lo, hi=hi, n=n: record(a, n, lo, hi), blocks=blocks[lo:hi])
        try:
            m.run()
        except EngineError as e:
            raise UsageError(f"{kernel.name}: {e}") from None
        elapsed = time.perf_counter() - start
        trusted = max_seconds is not None and elapsed >= min(PROJECT_AFTER, max_seconds / 100)
        if trusted and hi < total and elapsed * total / hi > max_seconds:
            raise TooLong(f"running its {total:,} blocks one by one would take about {elapsed * total / hi:,.0f} s "
                          f"(its first {hi:,} took {elapsed:.1f} s; the limit is {max_seconds:,.0f} s)")
        if progress is not None:
            progress(hi, total)
    return threads


def _chunks(kernel: Kernel, chunk_threads: int = 1 << 15) -> tuple:
    """What running every block takes: the launch (its shared variables placed), a block's threads
    (whole warps), every block's (x, y, z) in linear order (x fastest), and the edges of the chunks
    of about `chunk_threads` threads run_blocks runs them in, the first a sixteenth of the others,
    so that a run too long to finish is refused after a moment (block_by_block_seconds times it)."""
    gx, gy, gz = kernel.launch.grid
    z, y, x = np.meshgrid(np.arange(gz), np.arange(gy), np.arange(gx), indexing="ij")
    blocks = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)
    launch = kernel.launch.launch(kernel.program.function.shared_vars)
    threads = -(-launch.threads // 32) * 32
    per = max(1, chunk_threads // threads)
    return launch, threads, blocks, [0, *range(max(1, per // 16), len(blocks), per), len(blocks)]


def concrete_lanes(a: Access, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An access of a concrete run's n threads: (n,) byte addresses, whether each thread reaches
    the instruction, and whether it touches memory (reached and not predicated off)."""
    reach = _mask(a.cond, n)
    return np.broadcast_to(np.asarray(a.address.thread, dtype=np.int64), (n,)), reach, reach & _mask(a.pred, n)


def concrete_counts(a: Access, n: int) -> dict[str, int]:
    """An access of a concrete run's n threads, counted (warpsim.tally): its n / 32 warps once each."""
    addr, reach, live = concrete_lanes(a, n)
    return tally(a.space, a.width, addr.reshape(-1, 32), live.reshape(-1, 32), reach.reshape(-1, 32).any(axis=1),
                 np.ones(n // 32, dtype=np.int64), a.op)


def _mask(f, n: int) -> np.ndarray:
    from warpsim import formula as F

    if not isinstance(f, F.Const):
        raise EngineError("a condition left symbolic in the concrete run")
    return np.broadcast_to(np.asarray(f.mask, dtype=bool), (n,))
