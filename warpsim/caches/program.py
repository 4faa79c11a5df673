"""A launch's global memory instructions in program order, with where each one's bytes live.

Both front-ends give the same `warpsim.trace.Site`s; the cache model needs three things more:
the byte address of each array (hand models address each matrix from 0; machine code gives
absolute addresses), the blocks a machine-code site stands for (the SASS engine runs a launch in
pieces of block indices where an edge decides a value, and a piece's sites count its block
indices from the piece's first), and whether an access allocates in L1. `Program` holds them.

    hand model:   warpsim.engine.trace(kernel, M, N, K)  --> sites   (+ the cubin's resources)
    machine code: warpsim.sass.machine.Machine per piece --> sites, each with its piece
                  (a launch the engine cannot follow symbolically, run block by block:
                  every block's addresses, `Concrete`, an access per instruction and loop run)

Limitations: sites are kept in the order the front-end records them, which is program order
within a loop body and along the kernel (the order the cache model interleaves warps in). A
launch run block by block keeps an access per iteration of a loop (its k-th run in every thread),
so its tables grow with the iterations: refused past CONCRETE_BYTES.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warpsim.trace import Site

#: Where a hand model's matrices sit: 2**40 bytes apart, 2**28 past a 4 GiB boundary, as the
#: SASS engine places a launch's buffers (warpsim.sass.launch), so both engines see one layout.
BUFFER_STRIDE = 1 << 40
BUFFER_OFFSET = 1 << 28
HAND_MODEL_ARRAYS = ("A", "B", "C")


@dataclass(frozen=True, eq=False)
class Concrete:
    """An access in every block of a launch run block by block: per block (linear, x fastest)
    and thread, its byte address, whether the thread reaches it, and whether it touches memory
    (reached and not predicated off)."""

    address: np.ndarray  # (blocks, threads) int64
    reach: np.ndarray  # (blocks, threads) bool
    live: np.ndarray  # (blocks, threads) bool
    grid: tuple[int, int, int]

    def rows(self, values: dict) -> np.ndarray:
        """The blocks' rows for `values`' blockIdx.x, .y, .z (arrays of equal length)."""
        gx, gy, _ = self.grid
        return values["blockIdx.x"] + gx * (values["blockIdx.y"] + gy * values["blockIdx.z"])


@dataclass(frozen=True)
class Access:
    """One global memory instruction (one path through it) of a launch."""

    site: Site
    order: int  # position in program order
    base: int  # bytes added to the site's addresses
    blocks: tuple[tuple[int, int], ...]  # per axis x, y, z: the [start, stop) of block indices it is for
    l1: bool  # allocates in L1 (loads; not cp.async .BYPASS, not stores or atomics)
    concrete: Concrete | None = None  # every block's addresses, where the site's are not functions of them

    @property
    def array(self) -> str:
        return self.site.array

    @property
    def op(self) -> str:
        return self.site.op


@dataclass(frozen=True)
class Program:
    """The global accesses of one launch, and what occupancy needs to know of its kernel."""

    name: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    threads: int  # per block, padded to whole warps (the sites' thread parts have this length)
    accesses: tuple[Access, ...]
    registers: int  # per thread
    shared_bytes: int  # per block (static and dynamic)
    synchronized: bool = False  # a loop of the kernel holds a barrier (__syncthreads: BAR in the SASS)
    footprint_bytes: int | None = None  # bytes of the launch's arrays (None: a buffer's size is not declared)
    code_bytes: int = 0  # bytes of the kernel's machine code (its instructions), which DRAM delivers once
    local_sectors: tuple[int, int] = (0, 0)  # local memory's load and store sectors (LDL, STL), exact
    l1_invalidated: str = ""  # an instruction of the kernel that invalidates L1 (`l1_invalidations`)

    @property
    def blocks(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]

    def arrays(self) -> list[str]:
        seen: dict[str, None] = {}
        for a in self.accesses:
            seen.setdefault(a.array, None)
        return list(seen)


def _mods(kernel, site: Site) -> tuple[str, ...]:
    """The modifiers of a machine-code site's instruction (LDGSTS.BYPASS: .BYPASS)."""
    by_pc = kernel.program.by_pc
    return by_pc[site.pc].mods if site.pc in by_pc else ()


#: Load modifiers that keep a load out of L1 (it neither hits nor allocates there): cp.async's
#: .BYPASS, .NA (`ld.global.L1::no_allocate`) and .LU (`__ldlu`, last use: measured, blind batch 27,
#: 0 hits where plain loads of the same stencil hit 70% of their sectors). A strong load of GPU or system scope (`__ldcg`,
#: `ld.relaxed.gpu`, `ld.acquire.gpu`: .STRONG.GPU; `volatile`, `__ldcv`: .STRONG.SYS) must see
#: other SMs' stores, which an SM's L1 does not, so L1 does not serve it either. .STRONG.SM
#: (`__ldca`, `ld.relaxed.cta`), .EF (`__ldcs`: measured as plain, blind batch 27) and .EL
#: (`L1::evict_last`) are served as plain loads: what their eviction hints change is not modelled.
NO_L1 = frozenset({"BYPASS", "NA", "LU"})
NO_L1_SCOPES = frozenset({"GPU", "SYS"})


def _allocates(site: Site, mods: tuple[str, ...] = ()) -> bool:
    """Whether a load goes through L1 (`NO_L1`, `NO_L1_SCOPES`); stores and atomics never do."""
    strong = "STRONG" in mods and not NO_L1_SCOPES.isdisjoint(mods)
    return site.op == "load" and NO_L1.isdisjoint(mods) and not strong


def l1_invalidations(program) -> str:
    """The instruction that invalidates the SM's L1 where the machine code has one (CCTL.IVALL,
    after an `ld.acquire.gpu`, or `CCTL.IV`), else "": it drops lines other warps would hit,
    at moments the warps' timing decides."""
    for i in program.instructions:
        if i.opcode == "CCTL" and ("IVALL" in i.mods or "IV" in i.mods):
            return ".".join((i.opcode, *i.mods))
    return ""


def from_model(kernel: str, M: int, N: int, K: int, block=None) -> Program:
    """A registered kernel through its hand model; registers and shared memory from its cubin."""
    from warpsim.engine import sass_kernel, trace

    k = trace(kernel, M, N, K, block)
    _, machine = sass_kernel(kernel, M, N, K, block)
    function = machine.program.function
    base = {name: BUFFER_OFFSET + i * BUFFER_STRIDE for i, name in enumerate(HAND_MODEL_ARRAYS)}
    grid = (k.gridDim.x, k.gridDim.y, 1)
    accesses = tuple(Access(s, i, base[s.array], tuple((0, n) for n in grid), _allocates(s))
                     for i, s in enumerate(k.sites) if s.space == "global")
    return Program(kernel, grid, (k.blockDim.x, k.blockDim.y, 1), k.threads, accesses, function.registers,
                   function.shared_bytes, barrier_in_loop(machine.program), 4 * (M * K + K * N + M * N),
                   code_bytes(machine.program))


def from_machine_code(kernel, progress=None, concrete: "ConcreteRun | None" = None) -> Program:
    """Any kernel (a `warpsim.sass.analyze.Kernel`) through its machine code; `progress(done,
    total)` as blocks finish where the launch runs block by block. `concrete`: that run's
    accesses, recorded while the exact counts ran the same blocks (`warpsim.sass.analyze.
    analyze_launch(..., concrete=)`), so that the blocks run once for both."""
    from warpsim.errors import UsageError
    from warpsim.sass.analyze import NotSymbolic

    try:
        accesses, threads, local = _symbolic(kernel, strides=False)
    except NotSymbolic as refused:
        try:
            if concrete is None or not concrete.complete:
                concrete = _run_blocks(kernel, refused, progress)
            accesses, threads = concrete.accesses(kernel, refused), concrete.threads
            local = (concrete.local["load"], concrete.local["store"])
        except UsageError as cannot:  # too many blocks, or too many addresses, to run one by one
            try:  # a quotient of a block index by a constant: its residue classes, a piece each
                accesses, threads, local = _symbolic(kernel, strides=True)
            except UsageError:
                raise cannot from None
    function = kernel.program.function
    buffers = kernel.launch.launch(function.shared_vars).buffers
    sizes = [b.nbytes for b in buffers]
    footprint = sum(sizes) if sizes and None not in sizes else None
    return Program(kernel.name, tuple(kernel.launch.grid), tuple(kernel.launch.block), threads, tuple(accesses),
                   function.registers, kernel.launch.shared_bytes, barrier_in_loop(kernel.program), footprint,
                   code_bytes(kernel.program), local, l1_invalidations(kernel.program))


def _symbolic(kernel, strides: bool, quotients: bool = True) -> tuple[list[Access], int, tuple[int, int]]:
    """The launch's global accesses, each with its piece's block ranges; its threads a block; its
    local memory's load and store sectors. NotSymbolic where its pieces cannot follow it."""
    sites, threads = pieces(kernel, strides, quotients)
    accesses = [Access(s, i, 0, tuple(ranges[a] for a in "xyz"), _allocates(s, _mods(kernel, s)))
                for i, (s, ranges) in enumerate(sites) if s.space == "global"]
    return accesses, threads, _local_sectors([s for s, _ in sites if s.space == "local"], threads)


def _local_sectors(sites: list[Site], threads: int) -> tuple[int, int]:
    """The exact load and store sectors of a launch's local memory sites (LDL/STL: per-thread
    arrays and register spills), as `warpsim.fast.count_site` counts them: laid out by the
    hardware a 4-byte word per lane in turn (warpsim.coalescer.local)."""
    from warpsim.fast import count_site

    total = {"load": 0, "store": 0}
    for site in sites:
        total[site.op] += count_site(site, threads).get("sectors", 0)
    return total["load"], total["store"]


#: Bytes of the concrete tables a launch run block by block may take (address, reach and live per
#: block, thread and dynamic access: 10 bytes each); outer_flat at 4000x3999, 62,485 blocks of
#: three accesses, takes 480 MB, and its prediction 604 MB in all.
CONCRETE_BYTES = 1 << 29


class ConcreteRun:
    """The global accesses of a launch run block by block, as `warpsim.sass.analyze.run_blocks`
    reports them (`record`, then `finished`): per instruction and run (its k-th execution in
    each thread: a grid-stride loop's k-th element), every block's addresses, in the order they
    first run. Past `limit` bytes of tables it records nothing more (`overflow`: the accesses a
    thread it had reached), and `accesses` refuses the launch in one line."""

    def __init__(self, kernel, limit: int | None = None):
        self.grid = tuple(kernel.launch.grid)
        self.total = int(np.prod(self.grid))
        self.limit = CONCRETE_BYTES if limit is None else limit
        self.tables: dict[tuple, list] = {}  # (pc, run) -> [site, address, reach, live]
        self.runs: dict[tuple, int] = {}  # (pc, chunk) -> records so far
        self.overflow = 0
        self.threads: int | None = None  # a block's, once every block has run
        self.local = {"load": 0, "store": 0}  # local memory's sectors (LDL, STL), every block's

    @property
    def complete(self) -> bool:
        return self.threads is not None

    def record(self, a, n: int, lo: int, hi: int) -> None:
        from warpsim.sass import analyze

        if a.space == "local":
            self.local[a.op] += analyze.concrete_counts(a, n).get("sectors", 0)
        if a.space != "global" or self.overflow:
            return
        from warpsim.symbolic import Sym

        key = (a.ins.pc, self.runs.get((a.ins.pc, lo), 0))
        self.runs[(a.ins.pc, lo)] = key[1] + 1
        if key not in self.tables:
            shape = (self.total, n // (hi - lo))
            if (len(self.tables) + 1) * 10 * shape[0] * shape[1] > self.limit:
                self.overflow, self.tables = len(self.tables) + 1, {}
                return
            site = Site(a.space, a.array, a.op, a.width, a.ins.line or 0, Sym(), (), (),
                        tuple((f"blockIdx.{x}", g) for x, g in zip("xyz", self.grid) if g > 1), a.ins.pc,
                        a.ins.opcode)
            self.tables[key] = [site, np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=bool),
                                np.zeros(shape, dtype=bool)]
        for table, part in zip(self.tables[key][1:], analyze.concrete_lanes(a, n)):
            table[lo:hi] = part.reshape(hi - lo, -1)

    def finished(self, threads: int) -> None:
        self.threads = threads

    def accesses(self, kernel, refused) -> list[Access]:
        """The recorded run's accesses (`refused`: why the launch's accesses are not functions of
        its block indices, the NotSymbolic that sent it here)."""
        if self.overflow:
            raise self.overflowed(kernel, refused)
        return [Access(site, i, 0, tuple((0, g) for g in self.grid), _allocates(site, _mods(kernel, site)),
                       Concrete(address, reach, live, self.grid))
                for i, (site, address, reach, live) in enumerate(self.tables.values())]


    def overflowed(self, kernel, refused):
        """The one-line refusal of a run whose tables passed `limit`."""
        return _refusal(kernel, refused, f"run block by block, its {self.overflow:,} accesses a thread (a loop's "
                        f"iterations each one) would take more than {self.limit / 2**20:,.0f} MiB of addresses")


def _refusal(kernel, refused, detail: str):
    from warpsim.errors import UsageError

    return UsageError(f"{kernel.name}: the cache model follows a launch's accesses as functions of its block "
                      f"indices, and this launch's are not ({refused.reason(kernel.name)}); {detail}: drop --caches")


def _run_blocks(kernel, refused, progress=None) -> ConcreteRun:
    """Runs every block of a launch the SASS engine cannot follow symbolically (an address that
    divides by a parameter: bias_add's `b[i % N]`; `refused`, the NotSymbolic that says so;
    `warpsim.sass.analyze.run_blocks`, as many blocks as counting it block by block takes);
    refused past CONCRETE_BYTES of tables, as soon as they pass it."""
    from warpsim.sass import analyze

    run = ConcreteRun(kernel)
    if run.total > analyze.ENUMERATE_BLOCKS:
        raise _refusal(kernel, refused, f"its {run.total:,} blocks are too many to run one by one (at most "
                       f"{analyze.ENUMERATE_BLOCKS:,})") from None

    def record(a, n: int, lo: int, hi: int) -> None:
        run.record(a, n, lo, hi)
        if run.overflow:  # no need to run the rest
            raise run.overflowed(kernel, refused)

    # no limit in time: counting the launch block by block, within ENUMERATE_SECONDS, came first,
    # and the blocks (ENUMERATE_BLOCKS) and the tables (CONCRETE_BYTES) bound this run
    run.finished(analyze.run_blocks(kernel, record, progress=progress))
    return run


def code_bytes(program) -> int:
    """Bytes of an entry point's machine code: its instructions, 16 bytes each on sm_90, to the last."""
    from warpsim.sass.isa import INSTRUCTION_BYTES

    return max((i.pc for i in program.instructions), default=-INSTRUCTION_BYTES) + INSTRUCTION_BYTES


def barrier_in_loop(program) -> bool:
    """Whether a loop of the machine code waits at a barrier (BAR.SYNC: `__syncthreads()`)."""
    bars = [i.pc for i in program.instructions if i.opcode == "BAR"]
    return any(pc in loop.body for pc in bars for loop in program.loops.values())


def pieces(kernel, strides: bool = False, quotients: bool = True) -> tuple[list[tuple[Site, dict]], int]:
    """The sites of `warpsim.sass.analyze.trace`, each with the block ranges of its piece.

    Why not `trace` itself: a piece's sites count block indices from the piece's start and do
    not say where it is, which counting needs not but placing blocks in time does. `strides`: a
    quotient of a block index by a constant splits it into residue classes, a piece each, whose
    ranges are (start, stop, step), or takes it as quotient and remainder (a QUOTIENT key, which
    lanes.block_values reads; not without `quotients`); without, such a launch runs block by block, which
    from_machine_code takes first (every block's own addresses) and the classes only where it
    cannot (past ENUMERATE_BLOCKS blocks, or CONCRETE_BYTES of addresses)."""
    from warpsim.sass.analyze import pieces as sass_pieces

    found, threads = sass_pieces(kernel, strides=strides, quotients=quotients)
    return [(site, ranges) for ranges, sites in found for site in sites], threads
