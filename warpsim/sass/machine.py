"""The SASS engine: run one entry point's machine code for a whole block of threads at once.

Two modes share every instruction's semantics:

    symbolic  the block's threads are numpy lanes, the block indices are launch dimensions
              (warpsim.symbolic.Sym), and each loop runs three times (warpsim.sass.loops): once to
              find how its registers change per iteration, once to find its trip count with a new
              dimension for the iteration, once to record. Every memory instruction becomes a
              `Site` (warpsim.trace) that warpsim.fast counts for every block and iteration.
    concrete  the brute-force reference: a chunk of blocks' threads are the lanes, block indices
              are numbers, loops just branch back; every executed memory instruction is tallied
              at once (warpsim.tally). Exact by enumeration, for small launches and tests.

Control flow follows the SIMT model as Volta and later run it: threads that branch apart
continue as separate paths and meet again where both reach (the path with the lowest pc runs
first, so they meet at the first pc they share, which is where BSSY/BSYNC put it); a warp executes
an instruction when at least one of its threads is on the path; `@P EXIT` removes threads.

Memory instructions, by opcode: LDG/STG (global), LD/ST (generic: global, or shared when the
address lies in the shared window), LDS/STS/LDSM (shared), LDGSTS (a global load and a shared
store), ATOMG/REDG/RED/ATOM (global atomics), ATOMS (shared), LDL/STL (local). Their rows are
named after the pointer parameter whose buffer the address lies in, or the `__shared__` variable.

A branch whose condition is data (the test for a divisor the fast reciprocal cannot take, before
the call to its slow path) runs both sides for all the path's threads up to where they meet
(Program.data_region); a register the two sides leave different is data (Opaque) from there on.
A side that reaches a memory access, a barrier or an EXIT is refused: which threads run it is
data. A loop whose trip count is data and that touches no memory (an escape-time loop) runs to a
fixed point (Program.data_loop): the registers it changes are data after it; one that touches
memory is refused.

Local memory keeps what the path stores at one address for every thread (`State.local`: a
register nvcc spilled, a per-thread array at an index decided by the launch), so an address
reloaded from it is followed; a local store at an address per lane makes every kept word it may
overwrite data.

Limitations: indirect jumps other than a switch's jump table (JMX, JMP) are refused; values in
global and shared memory are not tracked (a loaded value is Opaque, so an address computed from
loaded data is refused), except a global buffer whose contents are given and a block-uniform
word handed through shared memory (ops_memory._shared_words); the per-instruction semantics
cover the integer, predicate, move and control instructions nvcc emits for address arithmetic
(warpsim.sass.ops.DISPATCH, the one table; its handlers live in ops_int (integer, predicate,
move), ops_data (floating point and data) and ops_memory (memory and control)); an opcode
outside it is refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from warpsim import formula as F
from warpsim.sass import alu, isa
from warpsim.sass.ops import DATA_GUARD_OK, DISPATCH, NOT_FOLLOWED, op_opaque
from warpsim.sass.ops_int import data_of
from warpsim.sass.program import AROUND, CONTROL, UNSTEERABLE, Program
from warpsim.sass.state import (
    UNDEFINED,
    Path,
    State,
    as_formula,
    live_mask,
    merge,
    resolve,
    select,
)
from warpsim.sass.values import (
    EXTERNAL_ORIGIN,
    MASK32,
    EngineError,
    DataPredicate,
    Env,
    NotAffine,
    Opaque,
    Poison,
    PredPack,
    BLOCK_DIM,
    QUOTIENT,
    Select,
    SplitRequest,
    StrideRequest,
    Wraps,
    block_cuts,
    carry_cuts,
    bounds,
    const,
    data_in,
    decide,
    norm,
    pair,
    quotient_dim,
    poison_in,
    residues,
    same,
    split,
    unsigned,
)
from warpsim.symbolic import Sym


SHARED_WINDOW_HI = 0x00020000  # SR_SWINHI: generic addresses with this high word are shared memory
LOCAL_BASE = 0x00FFFC00  # c[0x0][0x28], the stack pointer's start (local memory offsets)


@dataclass(frozen=True)
class Buffer:
    name: str  # the pointer parameter
    base: int  # byte address
    nbytes: int | None = None  # declared size (--arg A=float[M*K]), for out-of-bounds warnings
    image: np.ndarray | None = field(default=None, compare=False)  # its given contents, bytes (None: data)


CONSTANT_ORIGIN = "the value of __constant__ "  # how an Opaque from a __constant__ variable begins


def _word(words: dict, at: int) -> int | None:
    """The 32-bit word at byte `at` of a constant bank held as words: a key of its own, or the
    bytes from `at` on of the aligned word that holds it (`LDC.U16 R4, c[0x3][0xa]`, a `short`
    array's second element); None where the bank does not hold it."""
    if at in words:
        return words[at]
    whole = words.get(at & ~3)
    return None if whole is None else whole >> (8 * (at & 3))


@dataclass(frozen=True)
class Launch:
    """What one launch fixes: the grid, the block, and constant bank 0 (parameters and launch
    fields), with the global buffers the pointer parameters point at."""

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    cbank: dict  # byte offset -> 32-bit word (int)
    buffers: tuple[Buffer, ...] = ()
    shared_vars: tuple = ()  # warpsim.sass.cubin.SharedVar, with offsets
    shared_window: int | None = None  # bytes of a block's shared window (static and dynamic); None: unchecked
    bank3: dict = field(default_factory=dict)  # constant bank 3: the words of the `__constant__` values given

    @property
    def threads(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]


@dataclass
class Access:
    """One memory instruction as executed on one path: what a recorder receives."""

    ins: isa.Instruction
    space: str  # global | shared | local
    op: str  # load | store | atomic
    width: int  # bytes per thread
    address: Sym  # byte address (global: absolute; shared: offset in the block's window)
    cond: F.Formula  # threads that reach it
    pred: F.Formula  # among those, threads not predicated off
    array: str
    env: Env


#: a Poison's reason for a register that holds one value on one path and another on the other, which
#: are not one affine value
CHOICE = "a value that differs between paths in a way the engine cannot follow"


class Machine:
    def __init__(self, program: Program, launch: Launch, recorder, blocks: np.ndarray | None = None,
                 ranges: dict | None = None, wide_cuts: bool = False, strides: bool = True):
        """`blocks` None: symbolic (block indices are dimensions, over `ranges`: axis -> (start,
        stop), default the whole grid); else an (n, 3) array of block indices whose threads all run
        at once (concrete). `wide_cuts`: cut the block range where a 64-bit value's high word or a
        shift's or LEA's bits past bit 32 change (a buffer past 4 GiB), for launches too large to
        run block by block (analyze.pieces). `strides`: ask for a block index to be split into its
        residue classes (StrideRequest) where a quotient of it by a constant needs it, and cut
        where a mask's kept bits change; without, such arithmetic is not affine."""
        self.program = program
        self.wide_cuts = wide_cuts
        self.strides = strides
        self.launch = launch
        self.record = recorder
        self.concrete = blocks is not None
        bx, by, bz = launch.block
        T = -(-launch.threads // 32) * 32  # a partial last warp is padded with threads that never run
        tid = np.arange(T, dtype=np.int64)
        exists = tid < launch.threads
        tid = np.where(exists, tid, 0)
        tx, ty, tz = tid % bx, (tid // bx) % by, tid // (bx * by)
        self.threads = T
        self.block_start: dict[str, int] = {}
        self.block_step: dict[str, int] = {}  # > 1: the piece is a residue class of that block index
        self.block_dims: set = set()
        self.reshaped = False  # a block index runs as quotient and remainder by a divisor (QUOTIENT)
        if self.concrete:
            n = len(blocks)
            self.tid = [np.tile(t, n) for t in (tx, ty, tz)]
            self.linear = np.tile(np.arange(T, dtype=np.int64), n)
            self.exists = np.tile(exists, n)
            self.ctaid = [const(np.repeat(np.asarray(blocks[:, i], dtype=np.int64), T)) for i in range(3)]
            self.env = Env({}, T * n)
        else:
            self.tid = [tx, ty, tz]
            self.linear = np.arange(T, dtype=np.int64)
            self.exists = exists
            extents = {}
            self.ctaid = []
            for i, axis in enumerate("xyz"):
                key = (ranges or {}).get(axis, (0, launch.grid[i]))  # (start, stop[, step]), or a QUOTIENT key
                if key[0] == QUOTIENT:  # blockIdx = D q + r: each a dimension of its own
                    _, divisor, q0, q1, r0, r1 = key
                    parts = {}
                    for name, lo, hi, coef in ((quotient_dim(axis), q0, q1, divisor),
                                               (f"{BLOCK_DIM}{axis}", r0, r1, 1)):
                        self.block_start[name], self.block_step[name] = lo, 1
                        if hi - lo > 1:
                            extents[name], parts[name] = hi - lo, coef
                    self.ctaid.append(Sym(parts, divisor * q0 + r0))
                    self.reshaped = True
                    continue
                blocks_in = range(*key)
                name = f"{BLOCK_DIM}{axis}"
                self.block_start[name] = blocks_in.start
                self.block_step[name] = blocks_in.step
                if len(blocks_in) > 1:
                    extents[name] = len(blocks_in)
                    self.ctaid.append(Sym({name: blocks_in.step}, blocks_in.start))
                else:
                    self.ctaid.append(const(blocks_in.start))
            self.block_dims = set(extents)
            # a piece that is a residue class of a block index (analyze.pieces) cuts off the class's
            # first blocks where a quotient's estimate is one less there (carry_cuts)
            # (so does a block index taken as quotient and remainder: the quotient's estimate is one less
            # where the remainder is small)
            self.wide_cuts = wide_cuts or self.reshaped or any(step > 1 for step in self.block_step.values())
            self.env = Env(extents, T)
        self.steps = 0
        self.index_floats = False  # floating point met a block or loop index (ops_data._note_indexed)
        self.float_data = None  # the data the last float instruction's operands held (ops_data._floats)
        self.context: list[set] = []  # formula keys known to hold (the conditions of enclosing loops)
        self.context_masks: list = []  # and their conditions of the threads alone
        self.live = None  # threads that matter to the instruction being executed (None: all)
        self.data_branches: list[isa.Instruction] = []  # the data branches whose sides are running
        self.given_by_name: dict[int, str] = {}  # pc -> what a condition there needs given (a __constant__)
        self.flat: set[int] = set()  # headers of loops run to a fixed point (data_loop), not by loops.run_loop
        self.exited: list[F.Formula] = []  # the threads each EXIT ended (a warp's convergence: BRA.DIV)
        self.shared_words: dict[int, tuple] = {}  # shared byte address -> (a block-uniform value, barriers then)
        self.barriers = 0  # block-wide barriers passed (ops_int.op_bar)
        self.shared_loop_reads: dict[int, set] = {}  # kept word -> bodies of the loops a load was handed it in
        self.loop_pcs = frozenset().union(*(loop.body for loop in program.loops.values()))

    # -- running ---------------------------------------------------------------------------------

    def run(self) -> None:
        """Execute the entry point from pc 0 with every thread of the block(s)."""
        start = Path(0, State(), F.Const(self.exists) if not self.exists.all() else F.TRUE)
        latches, exits = self.execute([start])
        if latches or exits:  # only a loop's run collects these
            raise EngineError("control left the function without EXIT")

    def execute(self, paths: list[Path], body: frozenset | None = None, header: int | None = None,
                stop: int | None = None):
        """Run paths (lowest pc first) until each exits the kernel, leaves `body`, branches
        back to `header` or reaches `stop`; returns (latch paths, exit paths): the paths at
        `header` from a back edge, or at `stop`, and the others."""
        from warpsim.sass import loops

        pending: dict[int, list[Path]] = {}
        for p in paths:
            pending.setdefault(p.pc, []).append(p)
        latches, exits = [], []
        while pending:
            pc = min(pending)
            group = pending.pop(pc)
            if pc == stop:
                latches += group
                continue
            if header is not None and pc == header:
                latches += [p for p in group if p.via_back_edge]
                group = [p for p in group if not p.via_back_edge]
                if not group:
                    continue
            if body is not None and pc not in body:
                exits += group
                continue
            path = merge(group)
            path.via_back_edge = False
            if not self.concrete and pc in self.program.loops and pc != header and pc not in self.flat:
                for out in loops.run_loop(self, path, self.program.loops[pc]):
                    pending.setdefault(out.pc, []).append(out)
                continue
            for nxt in self.step(path):
                if isinstance(nxt.cond, F.Const) and nxt.cond.all_false:
                    continue
                pending.setdefault(nxt.pc, []).append(nxt)
        return latches, exits

    def step(self, path: Path) -> list[Path]:
        ins = self.program.by_pc.get(path.pc)
        if ins is None:
            raise EngineError(f"execution ran past the end of the code at pc {path.pc:#x}")
        handler = DISPATCH.get(ins.opcode)
        if handler is None and ins.opcode in NOT_FOLLOWED:
            raise _located(f"{ins.name} ({NOT_FOLLOWED[ins.opcode]}) at {ins.where()}: warpsim does not follow "
                           "Hopper's asynchronous copies and warpgroup MMAs yet, so it cannot count this kernel "
                           "exactly")
        if handler is None:
            raise _located(f"the engine does not know the opcode {ins.name} at {ins.where()}: "
                           "it cannot count this kernel exactly (please report the kernel)")
        if self.data_branches and ins.opcode in UNSTEERABLE:
            first = self.data_branches[0]
            raise _data_steered(first, f"a side of it runs {ins.name} at pc {ins.pc:#x}"
                                + _math_table_hint(self.program, ins), self.given_by_name.get(first.pc))
        self.steps += 1
        try:
            guard = self.guard(path, ins)
        except DataPredicate as e:
            if getattr(e, "origin", "").startswith(CONSTANT_ORIGIN):  # a value the launch may give
                self.given_by_name.setdefault(ins.pc, e.origin)
            if ins.opcode in DATA_GUARD_OK:  # a data-guarded data instruction: its results are data
                op_opaque(self, ins, path, F.TRUE, set())
                path.pc += isa.INSTRUCTION_BYTES
                return [path]
            if ins.opcode == "BRA":
                return [self.data_branch(path, ins)]
            raise _data_steered(ins, given=self.given_by_name.get(ins.pc)) from None
        known = {c.key for c in F.conjuncts(path.cond)} | {c.key for c in F.conjuncts(guard)}
        known |= {path.cond.key, guard.key}
        for keys in self.context:
            known |= keys
        self.live = live_mask(path.cond, guard, self.context_masks)
        self.env.live = self.live
        try:
            out = handler(self, ins, path, guard, known)
        except DataPredicate:
            if ins.opcode in UNSTEERABLE or ins.opcode in CONTROL:
                raise
            op_opaque(self, ins, path, guard, known)  # a data predicate among its operands: data out
            out = None
        except SplitRequest as e:
            if self.strides or not isinstance(e, StrideRequest):
                if not hasattr(e, "where"):  # the instruction that asked (for a refusal, if the pieces are too many)
                    e.where = ins.where()
                raise
            err = _located(f"{e.why}, at {ins.where()}: warpsim cannot count this kernel exactly")
            err.affine, err.wraps = True, False
            raise err from None
        except NotAffine as e:
            err = _located(f"{e}, at {ins.where()}: warpsim cannot count this kernel exactly")
            err.affine = True  # the symbolic form failed; fewer symbolic block indices may not
            err.wraps = isinstance(e, Wraps)  # an index that overflows: not worth running block by block
            raise err from None
        except EngineError as e:
            if getattr(e, "located", False):  # raised by an instruction of a loop run inside this one
                raise
            err = _located(f"{e}, at {ins.where()}")
            err.enumerate = getattr(e, "enumerate", False)  # given contents: counted block by block
            raise err from None
        finally:
            self.env.live = None
        if out is None:
            path.pc += isa.INSTRUCTION_BYTES
            return [path]
        return out

    def data_branch(self, path: Path, ins: isa.Instruction) -> Path:
        """A branch whose condition is data: both sides run for all of `path`'s threads up to where
        they meet; what they leave different is data there."""
        region = self.program.data_region(ins.pc)
        if region == AROUND:
            looped = self.program.data_loop(ins.pc)
            if not isinstance(looped, str):
                return self.data_loop(path, ins, *looped)
            region = looped
        if isinstance(region, str):
            raise _data_steered(ins, region, self.given_by_name.get(ins.pc))
        meet, body = region
        ends = []
        self.data_branches.append(ins)
        try:
            for start in self.program.successors[ins.pc]:
                latches, exits = self.execute([Path(start, path.state.copy(), path.cond)], body=body)
                if latches or not exits or any(p.pc != meet for p in exits):
                    raise _located(f"the two sides of a branch computed from data, at {ins.where()}, do not meet "
                                   f"at pc {meet:#x}: warpsim cannot count this kernel exactly")
                ends.append(merge(exits).state)
        finally:
            self.data_branches.pop()
        return Path(meet, _join(ends, Opaque(f"a value chosen by the data branch at pc {ins.pc:#x}")), path.cond)

    MAX_FIXED_POINT = 16  # rounds of a data loop's fixed point: each makes at least one more register data

    def data_loop(self, path: Path, ins: isa.Instruction, loop, leave: int) -> Path:
        """A loop that goes round again as data decides, touching no memory: from the branch,
        both sides run for all of `path`'s threads, round the loop back to the branch or out of
        it, until the state at the branch stops changing (a register that changes becomes
        data); the state the loop leaves with joins every way out."""
        data = Opaque(f"a value a loop computed a data-dependent number of times (pc {loop.header:#x})")
        state, outs = path.state, []
        self.data_branches.append(ins)
        self.flat.add(loop.header)
        try:
            for _ in range(self.MAX_FIXED_POINT):
                around = []
                for start in self.program.successors[ins.pc]:
                    back, exits = self.execute([Path(start, state.copy(), path.cond)], body=loop.body, stop=ins.pc)
                    if any(p.pc != leave for p in exits):
                        raise _located(f"a loop whose trip count is computed from data, at {ins.where()}, leaves "
                                       "to several places: warpsim cannot count this kernel exactly")
                    outs += [p.state for p in exits]
                    around += [p.state for p in back]
                joined = _join([state, *around], data)
                if all(_same_state(joined, s) for s in around):
                    break
                state = joined
            else:
                raise _located(f"a loop whose trip count is computed from data, at {ins.where()}, does not settle: "
                               "warpsim cannot count this kernel exactly")
        finally:
            self.data_branches.pop()
            self.flat.discard(loop.header)
        if not outs:
            raise _located(f"a loop whose trip count is computed from data, at {ins.where()}, never ends")
        return Path(leave, _join(outs, data), path.cond)

    # -- operands ----------------------------------------------------------------------------------

    def guard(self, path: Path, ins: isa.Instruction) -> F.Formula:
        """Which threads execute `ins`: its guard, and for a branch its predicate operand too
        (`@!P0 BRA P1, target` branches where !P0 and P1: nvcc fuses a loop's `a && b` so)."""
        g = F.TRUE if ins.guard is None else decide(self.read_pred(path, ins.guard, set()), self.env)
        if ins.opcode == "BRA":
            for o in ins.operands:
                if isinstance(o, isa.Pred):
                    g = F.f_and(g, decide(self.read_pred(path, o, set()), self.env))
        return g

    def read_pred(self, path: Path, pred: isa.Pred, known: set):
        if pred.true:
            value = F.TRUE
        else:
            regs = path.state.p if pred.file == "P" else path.state.up
            value = as_formula(resolve(regs.get(pred.index, F.FALSE), known, self.live, self.decide))
        if not isinstance(value, F.Formula):
            data = data_in(value)
            if data is not None:
                e = DataPredicate(f"a condition computed from data ({data.origin}) steers control flow or "
                                  "predicates an access")
                e.origin = data.origin
                raise e
            poison = poison_in(value)
            raise EngineError("a predicate the engine could not follow"
                              + (f" ({poison.why})" if poison is not None else ""))
        return F.f_not(value) if pred.negated else value

    def reg(self, path: Path, r: isa.Reg, offset: int = 0):
        if r.zero:
            return const(0)
        regs = path.state.r if r.file == "R" else path.state.ur
        return regs.get(r.index + offset, UNDEFINED)

    def read(self, path: Path, op, known: set, offset: int = 0):
        """The value of a source operand (modifiers applied); `offset` reads the next register of a pair."""
        if isinstance(op, isa.Reg):
            v = resolve(self.reg(path, op, offset), known, self.live, self.decide)
            if isinstance(v, Sym):
                if op.abs:
                    v = alu.absolute(v, self.env)
                if op.neg:
                    v = -v
                if op.inv:
                    v = -v - 1
            return v
        if isinstance(op, isa.Imm):
            return const(op.value if not offset else (op.value >> 32 if op.value >= 0 else -1))
        if isinstance(op, isa.FImm):
            return alu.from_f32(np.float32(alu.fimm(op.text)))
        if isinstance(op, isa.Const):
            return self.cbank(path, op, known, offset)
        if isinstance(op, isa.SReg):
            return self.special(op.name)
        if isinstance(op, isa.Pred):
            return self.read_pred(path, op, known)
        raise EngineError(f"an operand the engine cannot read ({op})")

    def read_int(self, path: Path, op, known: set, offset: int = 0):
        """An integer operand, or the Opaque/Poison that makes the result data too."""
        v = self.read(path, op, known, offset)
        if isinstance(v, (Sym, Opaque, Poison)):
            return v
        if isinstance(v, Select):
            self.split_on(v)
            return Poison(CHOICE)
        if isinstance(v, PredPack):
            return v
        raise EngineError(f"expected an integer operand, got {type(v).__name__}")

    def split_on(self, v: Select) -> None:
        """Ask for the block range to be cut where the Select's condition changes (if it is one
        of block indices alone), so that each piece reads one side."""
        cut = block_cuts(v.cond, self.env, self.block_dims)
        if cut is not None:
            self.split_at(cut, "a value that depends on the block's side of an edge")

    def split_at(self, cut: tuple[str, list[int]], why: str, by_strides: int = 0) -> None:
        """Ask for the block index `cut[0]`'s range to be cut at `cut[1]` (indices from this
        piece's start, as block_cuts and carry_cuts give them). `by_strides`: a cut in place of
        that many residue classes (Machine's `strides`), which analyze.pieces may undo."""
        d = cut[0]
        request = SplitRequest(d, [self.block_start[d] + self.block_step[d] * c for c in cut[1]], why)
        request.by_strides = by_strides
        raise request

    def decide(self, f: F.Formula) -> F.Formula:
        return decide(f, self.env)

    def cbank(self, path: Path, op: isa.Const, known: set, offset: int = 0):
        """Bank 0: the launch's (parameters, dimensions); bank 2: the cubin's own words (a
        `switch`'s jump table); bank 3: the `__constant__` variables the launch gives values
        (`--arg NAME=VALUE`); any other bank, or a word the engine does not hold, is data."""
        if op.bank == 4:  # the addresses of functions outside the code, named for a call's refusal
            idx = self.read_int(path, op.index, known) if op.index is not None else const(0)
            at = {int(a) for a in np.ravel(alu.u32(idx) + op.offset)} if isinstance(idx, Sym) and not idx.coef else ()
            names = {self.program.cubin.externals.get(a) for a in at}
            return Opaque(f"{EXTERNAL_ORIGIN}{names.pop()}" if len(names) == 1 and None not in names
                          else "constant bank 4")
        if op.bank not in (0, 2, 3):
            return Opaque(f"constant bank {op.bank}")
        words = {0: self.launch.cbank, 2: self.program.bank2, 3: self.launch.bank3}[op.bank]
        at = op.offset + 4 * offset
        if op.index is not None:
            idx = self.read_int(path, op.index, known)
            if not isinstance(idx, Sym) or idx.coef:
                return Opaque("an indexed constant")
            where = alu.u32(idx) + at
            if op.bank != 0 and not all(_word(words, int(a)) is not None for a in np.ravel(where)[self.live_of(where)]):
                missing = next(int(a) for a in np.ravel(where)[self.live_of(where)] if _word(words, int(a)) is None)
                return self._unheld(op.bank, missing)
            got = np.vectorize(lambda a: _word(words, int(a)) or 0)(where)
            return norm(const(np.asarray(got, dtype=np.int64)))
        got = _word(words, at)
        if got is None:
            return self._unheld(op.bank, at)
        return norm(const(got))

    def _unheld(self, bank: int, at: int) -> Opaque:
        """Why a constant word is data: a `__constant__` variable the launch gives no value (by
        name, with its initializer as the value to give where the program keeps it), a bank-2
        word the cubin does not hold, a bank-0 word past the parameters."""
        if bank == 2:
            return Opaque("a constant bank 2 word the cubin does not hold")
        if bank != 3:
            return Opaque(f"constant c[{bank:#x}][{at:#x}]")
        held = self.launch.bank3
        inside = [v for v in map(self.program.cubin.constant_at, range(at, at + 4)) if v is not None]
        var = next((v for v in inside if any(w not in held for w in range(v.offset & ~3, v.offset + v.size, 4))),
                   inside[0] if inside else None)
        if var is None:
            return Opaque(f"the value of a __constant__ variable, c[0x3][{at:#x}]")
        return Opaque(f"{CONSTANT_ORIGIN}{var.source_name}, which the program may set with cudaMemcpyToSymbol "
                      f"before the launch; give it with --arg {var.source_name}={var.initial_text()}")

    def live_of(self, values) -> np.ndarray | slice:
        """Which entries of a per-thread array (or a scalar) belong to threads on the path now."""
        if not np.ndim(values) or self.live is None:
            return slice(None)
        return np.ravel(np.broadcast_to(self.live, np.shape(values)))

    def special(self, name: str):
        base = name.split(".")[0]
        if name in ("SR_TID.X", "SR_TID.Y", "SR_TID.Z"):
            return const(self.tid["XYZ".index(name[-1])])
        if name in ("SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z"):
            return self.ctaid["XYZ".index(name[-1])]
        if name == "SR_LANEID":
            return const(self.linear % 32)
        if name in ("SRZ", "SR_CgaCtaId"):
            return const(0)
        if name == "SR_SWINHI":
            return const(SHARED_WINDOW_HI)
        lane = self.linear % 32
        masks = {"SR_LTMASK": (1 << lane) - 1, "SR_LEMASK": (1 << (lane + 1)) - 1,
                 "SR_EQMASK": 1 << lane, "SR_GTMASK": MASK32 & ~((1 << (lane + 1)) - 1),
                 "SR_GEMASK": MASK32 & ~((1 << lane) - 1)}
        if base in masks:
            return norm(const(masks[base]))
        return Opaque(name)  # clocks, SM ids, timers: data

    def write(self, path: Path, r, value, guard: F.Formula) -> None:
        if isinstance(r, isa.Reg):
            if r.zero:
                return
            regs, key = (path.state.r if r.file == "R" else path.state.ur), r.index
        elif isinstance(r, isa.Pred):
            if r.true:
                return
            regs, key = (path.state.p if r.file == "P" else path.state.up), r.index
        else:
            raise EngineError(f"cannot write to {r}")
        if isinstance(value, Sym):
            value = norm(value)
        if not (isinstance(guard, F.Const) and guard.all_true):
            default = F.FALSE if isinstance(r, isa.Pred) else UNDEFINED
            value = select(guard, value, regs.get(key, default))
        regs[key] = value

    def split(self, value: Sym) -> tuple[Sym, Sym]:
        """A 64-bit value's two words (values.split); where the high word is not affine, the block
        range is cut where it changes (a buffer past 4 GiB; a residue class's first block)."""
        why = "a 64-bit value whose high word depends on the block's side of a 4 GiB edge"
        inner = residues(value)[1] if self.strides else value  # the part whose carries decide the high word
        try:
            return split(value, self.env, self.strides)
        except StrideRequest as e:  # a quotient: fewer pieces if the index has fewer quotients than classes
            self.cut_instead(carry_cuts(inner, self.env, self.block_dims), e, why)
            raise
        except NotAffine as e:
            error = e
        cut = carry_cuts(inner, self.env, self.block_dims) if self.wide_cuts else None
        if cut is not None:
            self.split_at(cut, why)
        raise error

    def cut_instead(self, cut: tuple[str, list[int]] | None, stride: StrideRequest, why: str) -> None:
        """Cut the block range where a quotient changes (carry_cuts) rather than split the index
        into residue classes, where that makes fewer pieces (`blockIdx.x / 1000` of 3,000 blocks)."""
        if self.strides and cut is not None and cut[0] == stride.dim and len(cut[1]) + 1 < stride.step:
            self.split_at(cut, why, by_strides=stride.step)

    def high_word(self, value: Sym) -> Sym:
        return self.split(value)[1]

    def write_pair(self, path: Path, r: isa.Reg, value, guard: F.Formula) -> None:
        """A 64-bit result into r and the register after it."""
        if isinstance(value, Sym):
            lo, hi = self.split(value)
        else:
            lo = hi = value
        self.write(path, r, lo, guard)
        if not r.zero:
            self.write(path, isa.Reg(r.file, r.index + 1), hi, guard)

    def read_pair(self, path: Path, op, known: set):
        """A 64-bit source: a register pair (Rn, Rn+1), or a 64-bit constant/immediate."""
        lo = self.read_int(path, op, known)
        hi = self.read_int(path, op, known, offset=1)
        if isinstance(op, isa.Reg) and op.zero:
            return const(0)
        if isinstance(lo, Sym) and isinstance(hi, Sym):
            if isinstance(op, isa.Imm):
                return const(op.value)
            return pair(lo, hi, self.env)
        return data_of(lo, hi)

    # -- memory ------------------------------------------------------------------------------------

    def address(self, path: Path, mem: isa.Mem, known: set) -> Sym:
        """The byte address of a memory operand: 64-bit register pairs (`R2.64`), 32-bit registers
        (unsigned offsets), uniform registers and the immediate, added."""
        total = const(mem.offset)
        for r in mem.regs:
            if r.sel == ".64":
                v = self.read_pair(path, isa.Reg(r.file, r.index), known)
            else:
                v = self.read_int(path, isa.Reg(r.file, r.index), known)
                if isinstance(v, Sym):
                    v = unsigned(v, self.env)
            if isinstance(v, Poison) and v.why == CHOICE and not self.concrete:
                # threads on two paths, each side affine in the block or loop indices but not alike
                # (a divergent call's result): one value per thread once the indices are numbers
                raise NotAffine(f"an address that is {CHOICE}")
            if not isinstance(v, Sym):
                origin = v.origin if isinstance(v, Opaque) else getattr(v, "why", "unknown")
                raise EngineError(f"an address computed from data ({origin}): the engine counts only "
                                  "addresses that are functions of the thread, block and loop indices")
            total = total + v
        return total

    def access(self, ins, path: Path, guard: F.Formula, space: str, op: str, width: int, address: Sym,
               lanes: F.Formula | None = None) -> None:
        """Hand one memory instruction to the recorder, named after the buffer it touches."""
        pred = guard if lanes is None else F.f_and(guard, lanes)
        if space == "generic":
            space, address = self.generic_space(address)
        array = self.array_of(space, address, width)
        if op != "load" and self.given(space, array) is not None:
            raise EngineError(f"{array}'s contents are given (--arg {array}=TYPE[COUNT]=EXPR) and the kernel writes "
                              "it: warpsim keeps the contents of buffers a kernel only reads; leave out '=EXPR'")
        self.record(Access(ins, space, op, width, address, path.cond, pred, array, self.env))
        return space, array

    def given(self, space: str, array: str) -> Buffer | None:
        """The buffer `array` names, where its contents are given (None: its values are data)."""
        if space != "global":
            return None
        return next((b for b in self.launch.buffers if b.name == array and b.image is not None), None)

    def given_words(self, ins, buffer: Buffer, address: Sym, width: int) -> list[Sym]:
        """What a load of `width` bytes a lane reads of a buffer whose contents are given: a value
        per destination register (a 4-byte word each; 1 and 2 bytes zero- or sign-extended). Run
        concretely only: the symbolic run hands the launch to the block-by-block one."""
        if not self.concrete:
            e = EngineError(f"{buffer.name}'s given contents decide what follows")
            e.enumerate = True
            raise e
        lanes = len(self.linear)
        live = np.ones(lanes, dtype=bool) if self.live is None else np.broadcast_to(self.live, (lanes,))
        offset = np.broadcast_to(np.asarray(address.thread, dtype=np.int64), (lanes,)) - buffer.base
        bad = live & ((offset < 0) | (offset + width > len(buffer.image)))
        if bad.any():
            at = int(offset[bad][0])
            raise EngineError(f"a load of {buffer.name} at byte {at:,}, outside its {len(buffer.image):,} bytes of "
                              "given contents (an index past the buffer)")
        raw = buffer.image[np.where(live, offset, 0)[:, None] + np.arange(width)].astype(np.int64)
        words = []
        for k in range(0, width, 4):
            part = raw[:, k:k + 4]
            value = (part << (8 * np.arange(part.shape[1]))).sum(axis=1)
            if width < 4 and {"S8", "S16"} & set(ins.mods):
                value = np.where(value >= 1 << (8 * width - 1), value - (1 << (8 * width)), value)
            words.append(norm(const(np.where(live, value, 0))))
        return words

    def check(self, pc: int, region: F.Formula, claim: F.Formula, message: str) -> None:
        """A claim the counting engine must verify over every block and thread of `region`:
        recorded as a site of space "check" whose live lanes are the violations."""
        ins = self.program.by_pc[pc]
        self.record(Access(ins, "check", "check", 4, const(0), F.f_and(region, F.f_not(claim)), F.TRUE,
                           message, self.env))

    def generic_space(self, address: Sym) -> tuple[str, Sym]:
        lo, hi = bounds(address, self.env)
        if lo >> 32 == SHARED_WINDOW_HI and hi >> 32 == SHARED_WINDOW_HI:
            return "shared", address - (SHARED_WINDOW_HI << 32)
        return "global", address

    def array_of(self, space: str, address: Sym, width: int) -> str:
        """The buffer or shared variable an access of `width` bytes a lane touches. A shared access
        must lie in the block's window: its static shared memory (the 1 KiB the driver reserves
        included) and the launch's dynamic shared memory after it. Past it is a kernel that takes
        dynamic shared memory (`extern __shared__`) launched without it, or an access out of
        bounds: refused, not counted."""
        lo, hi = bounds(address, self.env)
        if space == "global":
            for b in self.launch.buffers:
                if b.base - (1 << 28) <= lo and hi < b.base + (1 << 39):
                    return b.name
            raise EngineError(f"a global access at addresses [{lo:#x}, {hi:#x}] that lie in no pointer "
                              "parameter's buffer (a pointer computed from data, or far out of bounds)")
        if space == "shared":
            window = self.launch.shared_window
            if window is not None and hi + width > window:
                raise EngineError(f"a shared access at bytes [{lo:#x}, {hi + width:#x}) of the block's shared "
                                  f"window, which holds {window:,} (static, the reserved 1 KiB included, and "
                                  "dynamic): a kernel with `extern __shared__` memory needs --dynamic-shared BYTES "
                                  "enough for it (the launch's third <<<...>>> argument)")
            for v in self.launch.shared_vars:
                if v.offset <= lo and (hi < v.offset + v.size or v.size == 0):
                    return v.name
            return "shared" if not self.launch.shared_vars else f"shared+{lo:#x}"
        return space


def _join(states: list[State], data) -> State:
    """One state for several: what they all hold alike, and `data` wherever they differ."""
    out = states[0].copy()
    for other in states[1:]:
        for (_, mine), (_, theirs) in zip(out.files(), other.files()):
            for k in set(mine) | set(theirs):
                if not same(mine.get(k, UNDEFINED), theirs.get(k, UNDEFINED)):
                    mine[k] = data
    return out


def _same_state(a: State, b: State) -> bool:
    return all(same(x.get(k, UNDEFINED), y.get(k, UNDEFINED))
               for (_, x), (_, y) in zip(a.files(), b.files()) for k in set(x) | set(y))


def _math_table_hint(program: Program, ins: isa.Instruction) -> str:
    """Why a load on a data-decided path may be the math library's: nvcc's sinf/cosf/tanf reduce an
    argument of 105615 or more through a table in global memory, its address in constant bank 4."""
    if ins.opcode not in ("LDG", "LD") or not any(isinstance(o, isa.Const) and o.bank == 4
                                                  for i in program.by_pc.values() for o in i.operands):
        return ""
    return (" (a table of the math library: sinf, cosf, tanf and sincosf read one for arguments of 105615 "
            "or more; __sinf and the other intrinsics have none, nor a .cubin built with nvcc -use_fast_math)")


def _data_steered(ins: isa.Instruction, why: str = "", given: str | None = None) -> EngineError:
    """The refusal of a condition computed from data at `ins` (and why it could not be run both
    ways; `given`: the `__constant__` value it comes from, which the launch may give)."""
    return _located(f"a condition computed from data{f' ({given})' if given else ''} steers control flow or "
                    f"predicates an access, at "
                    f"{ins.where()}: {why + '; ' if why else ''}warpsim counts only accesses decided by the "
                    "thread, block and loop indices")


def _located(message: str) -> EngineError:
    """An EngineError that already names its instruction (outer instructions pass it on)."""
    e = EngineError(message)
    e.located = True
    return e
