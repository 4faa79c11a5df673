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

Limitations: calls (CALL/RET) and indirect branches are refused; values in memory are not
tracked (a loaded value is Opaque, so an address computed from loaded data is refused); the
per-instruction semantics cover the integer, predicate, move and control instructions nvcc
emits for address arithmetic (see DISPATCH); an opcode outside it is refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from warpsim import formula as F
from warpsim.sass import alu, isa
from warpsim.sass.program import Program
from warpsim.sass.state import UNDEFINED, Path, State, as_formula, const_part, live_mask, merge, resolve, select
from warpsim.sass.values import (
    MASK32, OPAQUE, TWO32, EngineError, Env, NotAffine, Opaque, Poison, PredPack, Select, SplitRequest, block_cuts,
    bounds, const, decide, norm, pair, signed, split, unsigned,
)
from warpsim.symbolic import Sym

class DataPredicate(EngineError):
    """A predicate computed from data (a float comparison, a loaded value)."""


SHARED_WINDOW_HI = 0x00020000  # SR_SWINHI: generic addresses with this high word are shared memory
LOCAL_BASE = 0x00FFFC00  # c[0x0][0x28], the stack pointer's start (local memory offsets)


@dataclass(frozen=True)
class Buffer:
    name: str  # the pointer parameter
    base: int  # byte address
    nbytes: int | None = None  # declared size (--arg A=float[M*K]), for out-of-bounds warnings


@dataclass(frozen=True)
class Launch:
    """What one launch fixes: the grid, the block, and constant bank 0 (parameters and launch
    fields), with the global buffers the pointer parameters point at."""

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    cbank: dict  # byte offset -> 32-bit word (int)
    buffers: tuple[Buffer, ...] = ()
    shared_vars: tuple = ()  # warpsim.sass.cubin.SharedVar, with offsets

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


class Machine:
    def __init__(self, program: Program, launch: Launch, recorder, blocks: np.ndarray | None = None,
                 ranges: dict | None = None):
        """`blocks` None: symbolic (block indices are dimensions, over `ranges`: axis -> (start,
        stop), default the whole grid); else an (n, 3) array of block indices whose threads all run
        at once (concrete)."""
        self.program = program
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
        self.block_dims: set = set()
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
                start, stop = (ranges or {}).get(axis, (0, launch.grid[i]))
                name = f"blockIdx.{axis}"
                self.block_start[name] = start
                if stop - start > 1:
                    extents[name] = stop - start
                    self.ctaid.append(Sym({name: 1}, start))
                else:
                    self.ctaid.append(const(start))
            self.block_dims = set(extents)
            self.env = Env(extents, T)
        self.steps = 0
        self.context: list[set] = []  # formula keys known to hold (the conditions of enclosing loops)
        self.context_masks: list = []  # and their conditions of the threads alone
        self.live = None  # threads that matter to the instruction being executed (None: all)

    # -- running ---------------------------------------------------------------------------------

    def run(self) -> None:
        """Execute the entry point from pc 0 with every thread of the block(s)."""
        start = Path(0, State(), F.Const(self.exists) if not self.exists.all() else F.TRUE)
        latches, exits = self.execute([start])
        if latches or exits:  # only a loop's run collects these
            raise EngineError("control left the function without EXIT")

    def execute(self, paths: list[Path], body: frozenset | None = None, header: int | None = None):
        """Run paths (lowest pc first) until each exits the kernel, leaves `body`, or branches
        back to `header`; returns (latch paths, exit paths)."""
        from warpsim.sass import loops

        pending: dict[int, list[Path]] = {}
        for p in paths:
            pending.setdefault(p.pc, []).append(p)
        latches, exits = [], []
        while pending:
            pc = min(pending)
            group = pending.pop(pc)
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
            if not self.concrete and pc in self.program.loops and pc != header:
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
        if handler is None:
            raise _located(f"the engine does not know the opcode {ins.name} at {ins.where()}: "
                           "it cannot count this kernel exactly (please report the kernel)")
        self.steps += 1
        try:
            guard = self.guard(path, ins)
        except DataPredicate:
            if ins.opcode in DATA_GUARD_OK:  # a data-guarded data instruction: its results are data
                op_opaque(self, ins, path, F.TRUE, set())
                path.pc += isa.INSTRUCTION_BYTES
                return [path]
            raise _located(f"a condition computed from data steers control flow or predicates an "
                           f"access, at {ins.where()}: warpsim counts only accesses decided by the "
                           "thread, block and loop indices") from None
        known = {c.key for c in F.conjuncts(path.cond)} | {c.key for c in F.conjuncts(guard)}
        known |= {path.cond.key, guard.key}
        for keys in self.context:
            known |= keys
        self.live = live_mask(path.cond, guard, self.context_masks)
        self.env.live = self.live
        try:
            out = handler(self, ins, path, guard, known)
        except SplitRequest:
            raise
        except NotAffine as e:
            err = _located(f"{e}, at {ins.where()}: warpsim cannot count this kernel exactly")
            err.affine = True  # the symbolic form failed; fewer symbolic block indices may not
            raise err from None
        except EngineError as e:
            if getattr(e, "located", False):  # raised by an instruction of a loop run inside this one
                raise
            raise _located(f"{e}, at {ins.where()}") from None
        finally:
            self.env.live = None
        if out is None:
            path.pc += isa.INSTRUCTION_BYTES
            return [path]
        return out

    # -- operands ----------------------------------------------------------------------------------

    def guard(self, path: Path, ins: isa.Instruction) -> F.Formula:
        if ins.guard is None:
            return F.TRUE
        return decide(self.read_pred(path, ins.guard, set()), self.env)

    def read_pred(self, path: Path, pred: isa.Pred, known: set):
        if pred.true:
            value = F.TRUE
        else:
            regs = path.state.p if pred.file == "P" else path.state.up
            value = as_formula(resolve(regs.get(pred.index, F.FALSE), known, self.live, self.decide))
        if not isinstance(value, F.Formula):
            if isinstance(value, Opaque):
                raise DataPredicate(f"a condition computed from data ({value.origin}) steers control flow or "
                                    "predicates an access")
            raise EngineError(f"a predicate the engine could not follow ({getattr(value, 'why', value)})")
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
            return Poison("a value that differs between paths in a way the engine cannot follow")
        if isinstance(v, PredPack):
            return v
        raise EngineError(f"expected an integer operand, got {type(v).__name__}")

    def split_on(self, v: Select) -> None:
        """Ask for the block range to be cut where the Select's condition changes (if it is one
        of block indices alone), so that each piece reads one side."""
        cut = block_cuts(v.cond, self.env, self.block_dims)
        if cut is not None:
            raise SplitRequest(cut[0], [c + self.block_start[cut[0]] for c in cut[1]],
                               "a value that depends on the block's side of an edge")

    def decide(self, f: F.Formula) -> F.Formula:
        return decide(f, self.env)

    def cbank(self, path: Path, op: isa.Const, known: set, offset: int = 0):
        if op.bank != 0:
            return Opaque(f"constant bank {op.bank}")
        at = op.offset + 4 * offset
        if op.index is not None:
            idx = self.read_int(path, op.index, known)
            if not isinstance(idx, Sym) or idx.coef:
                return Opaque("an indexed constant")
            words = np.vectorize(lambda a: self.launch.cbank.get(int(a), 0))(alu.u32(idx) + at)
            return norm(const(np.asarray(words, dtype=np.int64)))
        if at not in self.launch.cbank:
            return Opaque(f"constant c[0x0][{at:#x}]")
        return norm(const(self.launch.cbank[at]))

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

    def write_pair(self, path: Path, r: isa.Reg, value, guard: F.Formula) -> None:
        """A 64-bit result into r and the register after it."""
        if isinstance(value, Sym):
            lo, hi = split(value, self.env)
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
        return _data(lo, hi)

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
        array = self.array_of(space, address)
        self.record(Access(ins, space, op, width, address, path.cond, pred, array, self.env))

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

    def array_of(self, space: str, address: Sym) -> str:
        lo, hi = bounds(address, self.env)
        if space == "global":
            for b in self.launch.buffers:
                if b.base - (1 << 28) <= lo and hi < b.base + (1 << 39):
                    return b.name
            raise EngineError(f"a global access at addresses [{lo:#x}, {hi:#x}] that lie in no pointer "
                              "parameter's buffer (a pointer computed from data, or far out of bounds)")
        if space == "shared":
            for v in self.launch.shared_vars:
                if v.offset <= lo and (hi < v.offset + v.size or v.size == 0):
                    return v.name
            return "shared" if not self.launch.shared_vars else f"shared+{lo:#x}"
        return space


def _located(message: str) -> EngineError:
    """An EngineError that already names its instruction (outer instructions pass it on)."""
    e = EngineError(message)
    e.located = True
    return e


def _data(*values):
    for v in values:
        if isinstance(v, Poison):
            return v
    for v in values:
        if isinstance(v, Opaque):
            return v
    return Poison("a value the engine could not follow")


# -- instruction semantics -------------------------------------------------------------------------
# Each handler gets (machine, instruction, path, guard formula, known formula keys) and either
# updates the path's state and returns None (fall through) or returns the successor paths.

def _dst_preds(ops) -> tuple[list[isa.Pred], list]:
    """Leading predicate destinations (carry-outs, ISETP's pair) and the rest."""
    out = []
    i = 0
    while i < len(ops) and isinstance(ops[i], isa.Pred):
        out.append(ops[i])
        i += 1
    return out, list(ops[i:])


def _ints(m: Machine, path, ops, known):
    return [m.read_int(path, o, known) for o in ops]


def _all_int(values) -> bool:
    return all(isinstance(v, Sym) for v in values)


def op_mov(m, ins, path, guard, known):
    dst, src = ins.operands[0], ins.operands[1]
    m.write(path, dst, m.read(path, src, known), guard)


def op_s2r(m, ins, path, guard, known):
    m.write(path, ins.operands[0], m.read(path, ins.operands[1], known), guard)


def op_cs2r(m, ins, path, guard, known):
    v = m.read(path, ins.operands[1], known)
    width = 64 if "32" not in ins.mods else 32
    if width == 64:
        m.write_pair(path, ins.operands[0], v if isinstance(v, Sym) else OPAQUE, guard)
    else:
        m.write(path, ins.operands[0], v, guard)


def op_ldc(m, ins, path, guard, known):
    dst, src = ins.operands[0], ins.operands[1]
    if "64" in ins.mods:
        lo = m.read(path, src, known)
        hi = m.read(path, src, known, offset=1)
        m.write(path, dst, lo, guard)
        m.write(path, isa.Reg(dst.file, dst.index + 1), hi, guard)
    else:
        v = m.read(path, src, known)
        if isinstance(v, Sym) and any(x in ins.mods for x in ("U8", "S8", "U16", "S16")):
            bits = 8 if "8" in "".join(ins.mods) else 16
            v = alu.sign_extend(v, bits, any(x.startswith("S") for x in ins.mods))
        m.write(path, dst, v, guard)


def op_iadd3(m, ins, path, guard, known):
    dst, rest = ins.operands[0], list(ins.operands[1:])
    carries_out, rest = _dst_preds(rest)
    srcs, carries_in = rest[:3], rest[3:]
    values = _ints(m, path, srcs, known)
    if not _all_int(values):
        m.write(path, dst, _data(*values), guard)
        for p in carries_out:
            m.write(path, p, F.FALSE, guard)
        return
    total = values[0] + values[1] + values[2]
    cin = [m.read_pred(path, p, known) for p in carries_in if isinstance(p, isa.Pred)]
    for c in cin:
        total = total + _bit(c)
    if any(not p.true for p in carries_out):
        carry = _carry_count(m, srcs, values, cin)
        for k, p in enumerate(carries_out):
            m.write(path, p, _carry_bit(carry, k), guard)
    m.write(path, dst, total, guard)


def _bit(c: F.Formula) -> Sym:
    if isinstance(c, F.Const):
        return const(np.asarray(c.mask, dtype=np.int64)) if not isinstance(c.mask, bool) else const(int(c.mask))
    raise NotAffine("a carry that depends on block or loop indices")


def _contribution(m, op, v: Sym) -> Sym:
    """What an operand adds to the 32-bit sum's carry chain (v is its value, modifiers applied):
    u(x) for x, 2**32 - u(x) for -x and 2**32 - 1 - u(x) for ~x, since the hardware adds ~x + 1
    and ~x (so -0 carries)."""
    if isinstance(op, isa.Reg) and op.neg:
        return const(TWO32) - unsigned(-v, m.env)
    if isinstance(op, isa.Reg) and op.inv:
        return const(TWO32 - 1) - unsigned(-v - 1, m.env)
    return unsigned(v, m.env)


def _carry_count(m, srcs, values, cin) -> Sym:
    total = const(0)
    for op, v in zip(srcs, values):
        total = total + _contribution(m, op, v)
    for c in cin:
        total = total + _bit(c)
    return _carries(m, total)


def _carries(m, total: Sym) -> Sym:
    """floor(total / 2**32) of a sum of unsigned 32-bit parts: the carries out of bit 31."""
    if not total.coef:
        return const(np.asarray(total.thread, dtype=np.int64) >> 32)
    lo, hi = bounds(total, m.env)
    if lo >> 32 != hi >> 32:
        raise NotAffine("a carry between 32-bit halves that differs across blocks or iterations "
                        "(a 64-bit value crosses a 4 GiB boundary)")
    return const(lo >> 32)


def _carry_bit(carry: Sym, k: int) -> F.Formula:
    t = np.asarray(carry.thread, dtype=np.int64)
    return F.Const(((t >> k) & 1).astype(bool)) if t.ndim else F.Const(bool((int(t) >> k) & 1))


def op_imad(m, ins, path, guard, known):
    mods = set(ins.mods)
    dst, rest = ins.operands[0], list(ins.operands[1:])
    carries_out, rest = _dst_preds(rest)
    a_op, b_op, c_op = rest[0], rest[1], rest[2]
    carries_in = [o for o in rest[3:] if isinstance(o, isa.Pred)]
    is_signed = "U32" not in mods
    if "WIDE" in mods:
        a, b = m.read_int(path, a_op, known), m.read_int(path, b_op, known)
        c = m.read_pair(path, c_op, known)
        if not _all_int([a, b, c]):
            m.write_pair(path, dst, _data(a, b, c), guard)
            return
        m.write_pair(path, dst, alu.mul_wide(a, b, m.env, is_signed) + c, guard)
        return
    if "MOV" in mods:  # IMAD.MOV d, RZ, RZ, c: a move, which copies a Select as it is
        m.write(path, dst, m.read(path, c_op, known), guard)
        return
    if "HI" in mods:
        # IMAD.HI d, a, b, c: the high half of a*b + (c+1:c), c's register pair as a 64-bit addend
        # (nvcc's integer division zeroes c and puts its estimate in c+1 to add it this way)
        a, b = m.read_int(path, a_op, known), m.read_int(path, b_op, known)
        c = m.read_pair(path, c_op, known)
        if not _all_int([a, b, c]):
            m.write(path, dst, _data(a, b, c), guard)
            return
        m.write(path, dst, alu.mul_hi_add(a, b, c, is_signed), guard)
        return
    a, b, c = _ints(m, path, [a_op, b_op, c_op], known)
    if not _all_int([a, b, c]):
        m.write(path, dst, _data(a, b, c), guard)
        return
    if "SHL" in mods:
        result = alu.mul(a, b)
    elif "IADD" in mods:
        result = a * 1 + c if _is_one(b) else alu.mul(a, b) + c
    else:
        result = alu.mul(a, b) + c
    for p in carries_in:
        result = result + _bit(m.read_pred(path, p, known))
    if any(not p.true for p in carries_out):
        raise NotAffine("IMAD with a carry-out")
    m.write(path, dst, result, guard)


def _is_zero(v: Sym) -> bool:
    return not v.coef and np.all(np.asarray(v.thread) == 0)


def _is_one(v: Sym) -> bool:
    return not v.coef and np.all(np.asarray(v.thread) == 1)


def op_lea(m, ins, path, guard, known):
    mods = set(ins.mods)
    dst, rest = ins.operands[0], list(ins.operands[1:])
    carries_out, rest = _dst_preds(rest)
    carries_in = [o for o in rest if isinstance(o, isa.Pred)]
    rest = [o for o in rest if not isinstance(o, isa.Pred)]
    shift = rest[-1].value if isinstance(rest[-1], isa.Imm) else None
    if shift is None:
        raise EngineError("LEA with a shift amount in a register")
    cin = [m.read_pred(path, p, known) for p in carries_in]
    if "HI" in mods:
        # LEA.HI d, a, b, c, s: d = b + hi32((c:a) << s); LEA.HI.SX32 d, a, b, s: c is a's sign
        a, b = m.read_int(path, rest[0], known), m.read_int(path, rest[1], known)
        c = m.read_int(path, rest[2], known) if len(rest) == 4 else None
        if not _all_int([a, b] + ([c] if c is not None else [])):
            m.write(path, dst, _data(a, b, c if c is not None else a), guard)
            return
        if any(not p.true for p in carries_out):
            raise NotAffine("LEA.HI with a carry-out")
        result = b + _hi_of_shift(m, a, c, shift)
        for cbit in cin:
            result = result + _bit(cbit)
        m.write(path, dst, result, guard)
        return
    a, b = m.read_int(path, rest[0], known), m.read_int(path, rest[1], known)
    if not _all_int([a, b]):
        m.write(path, dst, _data(a, b), guard)
        for p in carries_out:
            m.write(path, p, F.FALSE, guard)
        return
    shifted = alu.shl(a, shift)
    if any(not p.true for p in carries_out):
        low = unsigned(shifted, m.env) if shifted.coef else const(alu.u32(shifted))
        total = low + unsigned(b, m.env)
        for cbit in cin:
            total = total + _bit(cbit)
        carry = _carries(m, total)
        for k, p in enumerate(carries_out):
            m.write(path, p, _carry_bit(carry, k), guard)
    result = shifted + b
    for cbit in cin:
        result = result + _bit(cbit)
    m.write(path, dst, result, guard)


def _hi_of_shift(m, a: Sym, c: Sym | None, s: int) -> Sym:
    """hi32(X << s) = floor(X / 2**(32 - s)), X = (c:a), or a sign-extended when c is None."""
    if alu.thread_only(a, *([c] if c is not None else [])):
        if c is None:
            x = alu.i32(a)
            return const((x >> (32 - s)) & MASK32) if s < 32 else const(x & MASK32)
        x = (alu.u32(c).astype(np.uint64) << np.uint64(32)) | alu.u32(a).astype(np.uint64)
        return const(((x >> np.uint64(32 - s)) & np.uint64(MASK32)).astype(np.int64))
    from warpsim.sass.values import floor_div_pow2

    x = signed(a, m.env) if c is None else pair(a, c, m.env)
    return floor_div_pow2(x, 32 - s, m.env)


def op_lop3(m, ins, path, guard, known):
    ops = list(ins.operands)
    pdst = ops.pop(0) if isinstance(ops[0], isa.Pred) else None
    dst = ops.pop(0)
    a_op, b_op, c_op, lut_op = ops[0], ops[1], ops[2], ops[3]
    lut = lut_op.value & 0xFF
    a, b, c = _ints(m, path, [a_op, b_op, c_op], known)
    if isinstance(a, PredPack) and isinstance(b, Sym) and isinstance(c, Sym) and lut == 0xC0:
        result = _test_bits(a, b, c)
    elif not _all_int([a, b, c]):
        result = _data(a, b, c)
    else:
        result = alu.lop3(a, b, c, lut)
    m.write(path, dst, result, guard)
    if pdst is not None and not pdst.true:
        m.write(path, pdst, _nonzero(m, result), guard)


def _test_bits(pack: PredPack, mask: Sym, c: Sym):
    """P2R's packed predicates ANDed with one bit: that bit's predicate, as a PredPack."""
    if mask.coef or c.coef or np.any(np.asarray(c.thread) != 0):
        return Poison("bit operations on packed predicates")
    bits = int(np.asarray(mask.thread).flat[0]) & MASK32
    if bits == 0 or bits & (bits - 1) or bits.bit_length() - 1 not in pack.bits:
        return Poison("bit operations on packed predicates")
    return PredPack(const(0), {bits.bit_length() - 1: pack.bits[bits.bit_length() - 1]})


def _nonzero(m, v) -> F.Formula | Poison:
    if isinstance(v, PredPack):
        if isinstance(v.base, Sym) and not v.base.coef and np.all(alu.u32(v.base) == 0) and len(v.bits) == 1:
            return next(iter(v.bits.values()))
        return Poison("a test of packed predicates")
    if isinstance(v, Sym):
        return F.f_not(_compare(m, v, const(0), "EQ", False))
    if isinstance(v, Opaque):
        return v
    return Poison("a test of a value the engine could not follow")


def op_shf(m, ins, path, guard, known):
    mods = set(ins.mods)
    dst, a_op, s_op, c_op = ins.operands[:4]
    a, s, c = _ints(m, path, [a_op, s_op, c_op], known)
    if not _all_int([a, s, c]):
        m.write(path, dst, _data(a, s, c), guard)
        return
    amount = alu.shift_amount(s)
    if not isinstance(amount, int):
        if not alu.thread_only(a, c):
            raise NotAffine("a shift by an amount that differs per thread of a block/loop-dependent value")
    is_signed = "S32" in mods or "S64" in mods
    wide64 = "U64" in mods or "S64" in mods
    left = "L" in mods
    hi_result = "HI" in mods
    if alu.thread_only(a, c):
        lo = alu.u32(a).astype(np.uint64)
        hiw = alu.u32(c)
        amt = np.asarray(amount, dtype=np.int64) & (63 if wide64 else 31) if "W" not in mods else np.asarray(amount) & 31
        amt = np.minimum(np.asarray(amount, dtype=np.int64), 64 if wide64 else 32)
        if is_signed:
            x = (np.where(hiw & (1 << 31), hiw - TWO32, hiw).astype(np.int64) << 32) | lo.astype(np.int64)
            y = (x << amt) if left else (x >> np.minimum(amt, 63))
            y = y.astype(np.int64)
        else:
            x = (hiw.astype(np.uint64) << np.uint64(32)) | lo
            au = amt.astype(np.uint64)
            y = np.where(amt >= 64, np.uint64(0), (x << au) if left else (x >> np.minimum(au, np.uint64(63))))
            y = y.view(np.int64) if isinstance(y, np.ndarray) else np.int64(y)
        y = np.asarray(y, dtype=np.int64)
        out = (y >> 32) & MASK32 if hi_result else y & MASK32
        m.write(path, dst, const(out), guard)
        return
    if not isinstance(amount, int):
        raise NotAffine("a per-thread shift of a block/loop-dependent value")
    hi_part = signed(c, m.env) if is_signed else unsigned(c, m.env)
    x = hi_part * TWO32 + unsigned(a, m.env)
    if left:
        y = x * (1 << amount)
    else:
        from warpsim.sass.values import floor_div_pow2

        y = floor_div_pow2(x, amount, m.env)
    if hi_result:
        if not y.coef:
            out = const((np.asarray(y.thread, dtype=np.int64) >> 32) & MASK32)
        else:
            lo_b, hi_b = bounds(y, m.env)
            if lo_b >> 32 != hi_b >> 32:
                from warpsim.sass.values import floor_div_pow2

                out = floor_div_pow2(y, 32, m.env)
            else:
                out = const(lo_b >> 32)
    else:
        out = y
    m.write(path, dst, out, guard)


def op_shl_shr(m, ins, path, guard, known):
    dst, a_op, s_op = ins.operands[:3]
    a, s = _ints(m, path, [a_op, s_op], known)
    if not _all_int([a, s]):
        m.write(path, dst, _data(a, s), guard)
        return
    amount = alu.shift_amount(s)
    if ins.opcode in ("SHL", "USHL"):
        out = alu.shl(a, amount) if isinstance(amount, int) else const(alu.u32(a) << amount)
    else:
        is_signed = "U32" not in ins.mods
        if isinstance(amount, int):
            out = alu.shr(a, amount, m.env, is_signed)
        else:
            out = const((alu.i32(a) if is_signed else alu.u32(a)) >> amount)
    m.write(path, dst, out, guard)


def _compare(m, a: Sym, b: Sym, cmp: str, is_unsigned: bool) -> F.Formula:
    ext = unsigned if is_unsigned else signed
    d = ext(a, m.env) - ext(b, m.env)
    coef, t = d.coef, d.thread
    if cmp == "LT":
        return F.lt(coef, t)
    if cmp == "LE":
        return F.lt(coef, np.asarray(t) - 1)
    if cmp == "GT":
        return F.lt({k: -v for k, v in coef.items()}, -np.asarray(t))
    if cmp == "GE":
        return F.lt({k: -v for k, v in coef.items()}, -np.asarray(t) - 1)
    if cmp == "EQ":
        return F.eq(coef, t)
    if cmp == "NE":
        return F.f_not(F.eq(coef, t))
    if cmp == "T":
        return F.TRUE
    if cmp == "F":
        return F.FALSE
    raise EngineError(f"comparison {cmp}")


_BOOL = {"AND": F.f_and, "OR": F.f_or, "XOR": F.f_xor}


def op_isetp(m, ins, path, guard, known):
    mods = list(ins.mods)
    cmp = mods[0]
    is_unsigned = "U32" in mods
    logic = next((x for x in mods if x in _BOOL), "AND")
    ex = "EX" in mods
    ops = list(ins.operands)
    p_out, q_out, a_op, b_op = ops[0], ops[1], ops[2], ops[3]
    c_in = m.read_pred(path, ops[4], known) if len(ops) > 4 else F.TRUE
    a, b = m.read_int(path, a_op, known), m.read_int(path, b_op, known)
    if isinstance(a, PredPack) and cmp in ("EQ", "NE") and not ex and isinstance(b, Sym) and _is_zero(b):
        nonzero = _nonzero(m, a)  # P2R's packed predicate, tested: the predicate itself
        if isinstance(nonzero, F.Formula):
            c = nonzero if cmp == "NE" else F.f_not(nonzero)
            m.write(path, p_out, _BOOL[logic](c, c_in), guard)
            m.write(path, q_out, _BOOL[logic](F.f_not(c), c_in), guard)
            return
    if not _all_int([a, b]):
        value = _data(a, b)
        m.write(path, p_out, value, guard)
        m.write(path, q_out, value, guard)
        return
    if ex:
        # the high halves of a 64-bit comparison; ops[5] holds the low halves' comparison
        low = m.read_pred(path, ops[5], known)
        strict = {"GE": "GT", "GT": "GT", "LE": "LT", "LT": "LT"}.get(cmp)
        equal = _compare(m, a, b, "EQ", True)
        if cmp in ("EQ",):
            c = F.f_and(equal, low)
        elif cmp == "NE":
            c = F.f_or(F.f_not(equal), low)
        else:
            c = F.f_or(_compare(m, a, b, strict, is_unsigned), F.f_and(equal, low))
    else:
        c = _compare(m, a, b, cmp, is_unsigned)
    combine = _BOOL[logic]
    m.write(path, p_out, combine(c, c_in), guard)
    m.write(path, q_out, combine(F.f_not(c), c_in), guard)


def _lut_formula(lut: int, a: F.Formula, b: F.Formula, c: F.Formula) -> F.Formula:
    terms = []
    for i in range(8):
        if lut >> i & 1:
            terms.append(F.f_and(a if i & 4 else F.f_not(a), b if i & 2 else F.f_not(b), c if i & 1 else F.f_not(c)))
    return F.f_or(*terms) if terms else F.FALSE


def op_plop3(m, ins, path, guard, known):
    ops = list(ins.operands)
    p_out, q_out = ops[0], ops[1]
    a, b, c = (m.read_pred(path, o, known) for o in ops[2:5])
    lut = ops[5].value & 0xFF
    lut2 = ops[6].value & 0xFF if len(ops) > 6 else 0
    m.write(path, p_out, _lut_formula(lut, a, b, c), guard)
    m.write(path, q_out, _lut_formula(lut2, a, b, c), guard)


def op_sel(m, ins, path, guard, known):
    dst, a_op, b_op, p_op = ins.operands[:4]
    cond = m.read_pred(path, p_op, known)
    a, b = m.read(path, a_op, known), m.read(path, b_op, known)
    m.write(path, dst, select(cond, a, b), guard)


def op_imnmx(m, ins, path, guard, known):
    dst, a_op, b_op, p_op = ins.operands[:4]
    a, b = m.read_int(path, a_op, known), m.read_int(path, b_op, known)
    want_min = m.read_pred(path, p_op, known)
    if not _all_int([a, b]):
        m.write(path, dst, _data(a, b), guard)
        return
    less = _compare(m, a, b, "LT", "U32" in ins.mods)
    is_min = want_min.all_true if isinstance(want_min, F.Const) and (want_min.all_true or want_min.all_false) else None
    if is_min is None:
        raise NotAffine("IMNMX whose min/max choice differs per thread")
    result = select(less, a, b) if is_min else select(less, b, a)
    m.write(path, dst, result, guard)


def op_vimnmx(m, ins, path, guard, known):
    """VIMNMX d, a, b, P (sm_90): min where P is true, max where it is false."""
    op_imnmx(m, ins, path, guard, known)


def op_viadd(m, ins, path, guard, known):
    dst, a_op, b_op = ins.operands[:3]
    a, b = m.read_int(path, a_op, known), m.read_int(path, b_op, known)
    m.write(path, dst, a + b if _all_int([a, b]) else _data(a, b), guard)


def op_viaddmnmx(m, ins, path, guard, known):
    """VIADDMNMX d, a, b, c, P: min(a + b, c) where P is true, max where it is false."""
    dst, a_op, b_op, c_op, p_op = ins.operands[:5]
    a, b, c = _ints(m, path, [a_op, b_op, c_op], known)
    if not _all_int([a, b, c]):
        m.write(path, dst, _data(a, b, c), guard)
        return
    s = a + b
    want_min = m.read_pred(path, p_op, known)
    if not (isinstance(want_min, F.Const) and (want_min.all_true or want_min.all_false)):
        raise NotAffine("VIADDMNMX whose min/max choice differs per thread")
    less = _compare(m, s, c, "LT", "U32" in ins.mods)
    m.write(path, dst, select(less, s, c) if want_min.all_true else select(less, c, s), guard)


def op_iabs(m, ins, path, guard, known):
    dst, a_op = ins.operands[:2]
    a = m.read_int(path, a_op, known)
    m.write(path, dst, alu.absolute(a, m.env) if isinstance(a, Sym) else a, guard)


def op_unary_bits(m, ins, path, guard, known):
    dst, a_op = ins.operands[0], ins.operands[-1]
    a = m.read_int(path, a_op, known)
    if not isinstance(a, Sym):
        m.write(path, dst, a, guard)
        return
    if ins.opcode == "POPC":
        out = alu.popc(a)
    elif ins.opcode == "FLO":
        out = alu.flo(a, "U32" not in ins.mods, "SH" in ins.mods)
    else:
        out = alu.brev(a)
    m.write(path, dst, out, guard)


def op_prmt(m, ins, path, guard, known):
    dst, a_op, s_op, b_op = ins.operands[:4]
    a, s, b = _ints(m, path, [a_op, s_op, b_op], known)
    m.write(path, dst, alu.prmt(a, s, b) if all(isinstance(v, Sym) and not v.coef for v in (a, s, b))
            else _data(a, s, b) if not _all_int([a, s, b]) else Opaque("PRMT"), guard)


def op_bmsk(m, ins, path, guard, known):
    dst, a_op, b_op = ins.operands[:3]
    a, b = _ints(m, path, [a_op, b_op], known)
    m.write(path, dst, alu.bmsk(a, b) if _all_int([a, b]) else _data(a, b), guard)


def op_i2i(m, ins, path, guard, known):
    dst, a_op = ins.operands[0], ins.operands[-1]
    a = m.read_int(path, a_op, known)
    kind = next((x for x in ins.mods if x in ("U8", "S8", "U16", "S16", "U32", "S32")), "S32")
    if isinstance(a, Sym) and kind in ("U8", "S8", "U16", "S16"):
        a = alu.sign_extend(a, int(kind[1:]), kind.startswith("S"))
    m.write(path, dst, a, guard)


def op_p2r(m, ins, path, guard, known):
    dst, _pr, base_op, mask_op = ins.operands[:4]
    mask = mask_op.value & 0x7F
    base = m.read_int(path, base_op, known)
    bits = {i: m.read_pred(path, isa.Pred("P", i), known) for i in range(7) if mask >> i & 1}
    if isinstance(base, Sym) and not base.coef and all(isinstance(f, F.Const) for f in bits.values()):
        value = alu.u32(base) & ~mask
        for i, f in bits.items():
            value = value | (np.asarray(f.mask, dtype=np.int64) << i)
        m.write(path, dst, const(value), guard)
        return
    m.write(path, dst, PredPack(base, bits), guard)


def op_r2p(m, ins, path, guard, known):
    _pr, src_op, mask_op = ins.operands[:3]
    mask = mask_op.value & 0x7F
    src = m.read_int(path, src_op, known)
    for i in range(7):
        if not mask >> i & 1:
            continue
        if isinstance(src, PredPack):
            value = src.bits.get(i, Poison("R2P of a bit P2R did not pack"))
        elif isinstance(src, Sym) and not src.coef:
            value = F.Const(((alu.u32(src) >> i) & 1).astype(bool))
        else:
            value = _data(src) if not isinstance(src, Sym) else Poison("R2P of a block/loop-dependent value")
        m.write(path, isa.Pred("P", i), value, guard)


def op_shfl(m, ins, path, guard, known):
    """SHFL.{IDX,UP,DOWN,BFLY} Pd, d, a, b(lane/delta), c(clamp/segment mask)."""
    ops = list(ins.operands)
    p_out, dst, a_op, b_op, c_op = ops[:5]
    a, b, c = _ints(m, path, [a_op, b_op, c_op], known)
    mode = ins.mods[0]
    if not (isinstance(b, Sym) and not b.coef and isinstance(c, Sym) and not c.coef):
        m.write(path, dst, OPAQUE, guard)
        m.write(path, p_out, Poison("SHFL lane arithmetic"), guard)
        return
    lane = m.linear % 32
    warp_base = m.linear - lane
    bval, cval = alu.u32(b) & 31, alu.u32(c)
    clamp, seg = cval & 31, (cval >> 8) & 31
    min_lane = lane & seg
    max_lane = min_lane | (clamp & ~seg)
    if mode == "IDX":
        src = min_lane | (bval & ~seg)
        ok = src <= max_lane
    elif mode == "UP":
        src = lane - bval
        ok = src >= min_lane
    elif mode == "DOWN":
        src = lane + bval
        ok = src <= max_lane
    else:
        src = lane ^ bval
        ok = src <= max_lane
    src = np.where(ok, src, lane)
    index = warp_base + src
    if isinstance(a, Sym):
        value = Sym(a.coef, np.asarray(np.broadcast_to(a.thread, m.linear.shape))[index])
    else:
        value = a
    m.write(path, dst, value, guard)
    m.write(path, p_out, F.Const(np.asarray(ok, dtype=bool)), guard)


def op_vote(m, ins, path, guard, known):
    ops = list(ins.operands)
    mode = ins.mods[0]
    if isinstance(ops[0], isa.Reg):
        dst, p_out, p_in = ops[0], ops[1], ops[2]
    else:
        dst, p_out, p_in = None, ops[0], ops[1]
    cond = m.read_pred(path, p_in, known)
    active = path.cond
    if not (isinstance(cond, F.Const) and isinstance(active, F.Const)):
        if dst is not None:
            m.write(path, dst, Opaque("VOTE"), guard)
        m.write(path, p_out, Poison("VOTE of a block/loop-dependent condition"), guard)
        return
    n = len(m.linear)
    c = np.broadcast_to(np.asarray(cond.mask, dtype=bool), (n,)) & np.broadcast_to(np.asarray(active.mask), (n,))
    lanes = (m.linear % 32)
    ballot = np.bitwise_or.reduceat((c.astype(np.int64) << lanes), np.arange(0, n, 32))
    ballot = np.repeat(ballot, 32)
    act = np.repeat(np.bitwise_or.reduceat(np.broadcast_to(np.asarray(active.mask), (n,)).astype(np.int64) << lanes,
                                           np.arange(0, n, 32)), 32)
    if mode == "ANY":
        p = ballot != 0
    elif mode == "ALL":
        p = ballot == act
    else:  # EQ
        p = (ballot == 0) | (ballot == act)
    if dst is not None:
        m.write(path, dst, norm(const(ballot)), guard)
    m.write(path, p_out, F.Const(p), guard)


# -- floating point on constants ----------------------------------------------------------------------

def _fp_inputs(m, path, ops, known):
    vals = [m.read(path, o, known) for o in ops]
    if all(isinstance(v, Sym) and not v.coef for v in vals):
        return vals
    return None


def op_fp(m, ins, path, guard, known):
    """FADD/FMUL/FFMA/FMNMX/FSEL and friends: computed when every input is a constant of the
    threads alone, else the result is data."""
    dst = ins.operands[0]
    srcs = [o for o in ins.operands[1:]]
    vals = _fp_inputs(m, path, [o for o in srcs if not isinstance(o, isa.Pred)], known)
    if vals is None or ins.opcode not in _FP:
        m.write(path, dst, Opaque(ins.opcode), guard)
        return
    m.write(path, dst, _FP[ins.opcode](m, ins, path, known, vals), guard)


def _fneg(op, x):
    if isinstance(op, isa.Reg) and op.abs:
        x = np.abs(x)
    return x


def _fvals(ins, vals):
    ops = [o for o in ins.operands[1:] if not isinstance(o, isa.Pred)]
    out = []
    for o, v in zip(ops, vals):
        # the engine applied integer negation; undo it for floats and negate the float instead
        raw = v
        if isinstance(o, isa.Reg) and o.neg:
            raw = -v
        if isinstance(o, isa.Reg) and o.inv:
            raw = -v - 1
        x = alu.f32(raw)
        if isinstance(o, isa.Reg) and o.abs:
            x = np.abs(x)
        if isinstance(o, isa.Reg) and o.neg:
            x = -x
        out.append(x.astype(np.float32))
    return out


_FP = {
    "FADD": lambda m, ins, p, k, v: alu.from_f32(_fvals(ins, v)[0] + _fvals(ins, v)[1]),
    "FMUL": lambda m, ins, p, k, v: alu.from_f32(_fvals(ins, v)[0] * _fvals(ins, v)[1]),
    "FFMA": lambda m, ins, p, k, v: alu.from_f32(
        (_fvals(ins, v)[0].astype(np.float64) * _fvals(ins, v)[1] + _fvals(ins, v)[2]).astype(np.float32)),
}


def op_fsel(m, ins, path, guard, known):
    dst, a_op, b_op, p_op = ins.operands[:4]
    cond = m.read_pred(path, p_op, known)
    a, b = m.read(path, a_op, known), m.read(path, b_op, known)
    m.write(path, dst, select(cond, a, b), guard)


def op_mufu(m, ins, path, guard, known):
    dst, a_op = ins.operands[:2]
    vals = _fp_inputs(m, path, [a_op], known)
    if vals is None or ins.mods[0] != "RCP":
        m.write(path, dst, Opaque(f"MUFU.{ins.mods[0]}"), guard)
        return
    x = _fvals(ins, vals)[0]
    with np.errstate(divide="ignore"):
        m.write(path, dst, alu.from_f32(np.float32(1.0) / x), guard)


def op_i2f(m, ins, path, guard, known):
    dst, a_op = ins.operands[0], ins.operands[-1]
    a = m.read_int(path, a_op, known)
    mods = set(ins.mods)
    if not (isinstance(a, Sym) and not a.coef) or "F64" in mods or "F16" in mods:
        m.write(path, dst, Opaque("I2F"), guard)
        return
    rounding = next((r for r in ("RP", "RM", "RZ") if r in mods), "RN")
    m.write(path, dst, alu.from_f32(alu.i2f(a, "U32" not in mods, rounding)), guard)


def op_f2i(m, ins, path, guard, known):
    dst, a_op = ins.operands[0], ins.operands[-1]
    a = m.read(path, a_op, known)
    mods = set(ins.mods)
    if not (isinstance(a, Sym) and not a.coef) or "F64" in mods or "F16" in mods or "64" in mods:
        m.write(path, dst, Opaque("F2I"), guard)
        return
    rounding = next((r for r in ("TRUNC", "FLOOR", "CEIL") if r in mods), "RN")
    bits = alu.f2i(alu.f32(a), "U32" not in mods, 32, rounding)
    m.write(path, dst, norm(const(bits)), guard)


def op_hfma2(m, ins, path, guard, known):
    """HFMA2(.MMA) d, a, b, c_hi, c_lo: with a and b zero (nvcc's way to put a constant in a
    register: `HFMA2.MMA R5, -RZ, RZ, 0, 5.96e-08` is 1), the result is c's two halves exactly."""
    ops = list(ins.operands)
    dst, a_op, b_op = ops[0], ops[1], ops[2]
    rest = ops[3:]
    zero = all(isinstance(o, isa.Reg) and o.zero for o in (a_op, b_op))
    if zero and len(rest) == 2 and all(isinstance(o, (isa.Imm, isa.FImm)) for o in rest):
        halves = [alu.f16_bits(float(o.value) if isinstance(o, isa.Imm) else alu.fimm(o.text)) for o in rest]
        m.write(path, dst, norm(const((halves[0] << 16) | halves[1])), guard)
        return
    m.write(path, dst, Opaque(ins.opcode), guard)


def op_fsetp(m, ins, path, guard, known):
    ops = list(ins.operands)
    p_out, q_out = ops[0], ops[1]
    vals = _fp_inputs(m, path, [ops[2], ops[3]], known)
    cmp = ins.mods[0]
    logic = next((x for x in ins.mods if x in _BOOL), "AND")
    c_in = m.read_pred(path, ops[4], known) if len(ops) > 4 else F.TRUE
    if vals is None:
        m.write(path, p_out, Opaque("FSETP"), guard)
        m.write(path, q_out, Opaque("FSETP"), guard)
        return
    x, y = (alu.f32(v).astype(np.float64) for v in vals)
    table = {"LT": x < y, "LE": x <= y, "GT": x > y, "GE": x >= y, "EQ": x == y, "NE": (x != y) & ~np.isnan(x + y),
             "NEU": x != y, "LTU": ~(x >= y), "LEU": ~(x > y), "GTU": ~(x <= y), "GEU": ~(x < y), "EQU": ~(x != y),
             "NAN": np.isnan(x + y), "NUM": ~np.isnan(x + y), "T": np.ones_like(x, bool), "F": np.zeros_like(x, bool)}
    c = F.Const(table[cmp])
    m.write(path, p_out, _BOOL[logic](c, c_in), guard)
    m.write(path, q_out, _BOOL[logic](F.f_not(c), c_in), guard)


def op_opaque(m, ins, path, guard, known):
    """Data only (floating point, tensor cores, conversions of data): destinations become Opaque
    (the first operand, and the predicates right after it: ISETP's pair, IADD3's carries)."""
    ops = list(ins.operands)
    dests = ops[:1] + [o for o in ops[1:3] if isinstance(o, isa.Pred)][: (2 if isinstance(ops[0], isa.Pred) else 2)]
    for o in dests:
        if isinstance(o, isa.Reg):
            m.write(path, o, Opaque(ins.opcode), guard)
            for k in range(1, _dest_regs(ins)):
                m.write(path, isa.Reg(o.file, o.index + k), Opaque(ins.opcode), guard)
        elif isinstance(o, isa.Pred):
            m.write(path, o, Opaque(ins.opcode), guard)


def _dest_regs(ins) -> int:
    """How many registers an instruction writes from its first destination on."""
    mods = set(ins.mods)
    if ins.opcode in ("HMMA", "IMMA", "DMMA", "HGMMA"):
        return 4
    if "F64" in mods or ins.opcode in ("DADD", "DMUL", "DFMA", "DMNMX"):
        return 2
    return 1


def op_nop(m, ins, path, guard, known):
    return None


# Instructions whose results are data whatever their guard: under a data predicate they make data.
DATA_GUARD_OK = {"FADD", "FMUL", "FFMA", "FMNMX", "FSEL", "FSETP", "MUFU", "I2F", "F2I", "F2F", "F2FP", "FRND",
                 "HFMA2", "HADD2", "HMUL2", "HSET2", "HSETP2", "HMNMX2", "DADD", "DMUL", "DFMA", "DSETP", "DMNMX",
                 "MOV", "SEL", "IMAD", "IADD3", "LOP3", "SHF", "PRMT", "VIADD"}


# -- memory ------------------------------------------------------------------------------------------

def _width(ins) -> int:
    mods = set(ins.mods)
    for suffix, w in (("128", 16), ("64", 8), ("U16", 2), ("S16", 2), ("U8", 1), ("S8", 1)):
        if suffix in mods:
            return w
    return 4


def _dest_count(width: int) -> int:
    return max(1, width // 4)


def op_load(m, ins, path, guard, known):
    """LDG/LD/LDS/LDL: one access, destinations become data."""
    space = {"LDG": "global", "LD": "generic", "LDS": "shared", "LDL": "local"}[ins.opcode]
    dst, mem = ins.operands[0], ins.operands[1]
    width = _width(ins)
    address = m.address(path, mem, known)
    m.access(ins, path, guard, space, "load", width, address)
    if isinstance(dst, isa.Reg):
        for k in range(_dest_count(width)):
            m.write(path, isa.Reg(dst.file, dst.index + k), Opaque(f"{ins.opcode} at pc {ins.pc:#x}"), guard)


def op_ldsm(m, ins, path, guard, known):
    """LDSM.16.{M88,MT88}.{1,2,4}: lanes 8i..8i+7 give the row addresses of matrix i (16 bytes each)."""
    dst, mem = ins.operands[0], ins.operands[1]
    count = int(next((x for x in ins.mods if x in ("1", "2", "4")), "1"))
    address = m.address(path, mem, known)
    lanes = F.Const((m.linear % 32) < 8 * count)
    m.access(ins, path, guard, "shared", "load", 16, address, lanes)
    for k in range(count):
        m.write(path, isa.Reg(dst.file, dst.index + k), Opaque("LDSM"), guard)


def op_store(m, ins, path, guard, known):
    space = {"STG": "global", "ST": "generic", "STS": "shared", "STL": "local"}[ins.opcode]
    mem = ins.operands[0]
    address = m.address(path, mem, known)
    m.access(ins, path, guard, space, "store", _width(ins), address)


def op_ldgsts(m, ins, path, guard, known):
    """LDGSTS [shared], [global][, P]: cp.async. The trailing predicate (`!PT` in the zero-fill
    form) says whether the global side is read; the shared side is always written."""
    dst_mem, src_mem = ins.operands[0], ins.operands[1]
    width = _width(ins)
    src_ok = F.TRUE
    if len(ins.operands) > 2 and isinstance(ins.operands[2], isa.Pred):
        src_ok = m.read_pred(path, ins.operands[2], known)
    if not (isinstance(src_ok, F.Const) and src_ok.all_false):
        m.access(ins, path, guard, "global", "load", width, m.address(path, src_mem, known), src_ok)
    # (the zero-fill form reads no global memory: the compiler need not even have set its address)
    m.access(ins, path, guard, "shared", "store", width, m.address(path, dst_mem, known))


def op_atomic(m, ins, path, guard, known):
    """REDG/RED (no result), ATOMG/ATOM/ATOMS (a result register first)."""
    ops = list(ins.operands)
    mem_index = next(i for i, o in enumerate(ops) if isinstance(o, isa.Mem))
    mem = ops[mem_index]
    space = "shared" if ins.opcode == "ATOMS" else "generic" if ins.opcode in ("ATOM", "RED") else "global"
    width = _width(ins)
    address = m.address(path, mem, known)
    m.access(ins, path, guard, space, "atomic", width, address)
    for o in ops[:mem_index]:
        if isinstance(o, isa.Reg):
            m.write(path, o, Opaque(ins.opcode), guard)
        elif isinstance(o, isa.Pred):
            m.write(path, o, Opaque(ins.opcode), guard)


# -- control -----------------------------------------------------------------------------------------

def op_bra(m, ins, path, guard, known):
    target = next(o.pc for o in ins.operands if isinstance(o, isa.Target))
    taken = F.f_and(path.cond, guard)
    back = target <= ins.pc
    if isinstance(guard, F.Const) and guard.all_true:
        return [Path(target, path.state, path.cond, back)]
    stay = F.f_and(path.cond, F.f_not(guard))
    out = [Path(target, path.state.copy(), taken, back)]
    out.append(Path(ins.pc + isa.INSTRUCTION_BYTES, path.state, stay))
    return out


def op_exit(m, ins, path, guard, known):
    if isinstance(guard, F.Const) and guard.all_true:
        return []
    return [Path(ins.pc + isa.INSTRUCTION_BYTES, path.state, F.f_and(path.cond, F.f_not(guard)))]


def op_refuse(m, ins, path, guard, known):
    raise EngineError(f"{ins.opcode} (a call or an indirect branch) is not supported")


DISPATCH = {
    "MOV": op_mov, "UMOV": op_mov, "MOV32I": op_mov, "R2UR": op_mov, "S2R": op_s2r, "S2UR": op_s2r,
    "CS2R": op_cs2r, "LDC": op_ldc, "ULDC": op_ldc,
    "IADD3": op_iadd3, "UIADD3": op_iadd3, "IMAD": op_imad, "UIMAD": op_imad,
    "LEA": op_lea, "ULEA": op_lea, "LOP3": op_lop3, "ULOP3": op_lop3,
    "SHF": op_shf, "USHF": op_shf, "SHL": op_shl_shr, "SHR": op_shl_shr, "USHL": op_shl_shr, "USHR": op_shl_shr,
    "ISETP": op_isetp, "UISETP": op_isetp, "PLOP3": op_plop3, "UPLOP3": op_plop3,
    "SEL": op_sel, "USEL": op_sel, "IMNMX": op_imnmx, "VIMNMX": op_vimnmx, "VIADD": op_viadd,
    "VIADDMNMX": op_viaddmnmx, "IABS": op_iabs, "POPC": op_unary_bits, "UPOPC": op_unary_bits,
    "FLO": op_unary_bits, "UFLO": op_unary_bits, "BREV": op_unary_bits, "UBREV": op_unary_bits,
    "PRMT": op_prmt, "UPRMT": op_prmt, "BMSK": op_bmsk, "UBMSK": op_bmsk, "I2I": op_i2i, "I2IP": op_opaque,
    "P2R": op_p2r, "R2P": op_r2p, "SHFL": op_shfl, "VOTE": op_vote, "VOTEU": op_vote,
    "FADD": op_fp, "FMUL": op_fp, "FFMA": op_fp, "FMNMX": op_opaque, "FSEL": op_fsel, "FSETP": op_fsetp,
    "MUFU": op_mufu, "I2F": op_i2f, "F2I": op_f2i, "HFMA2": op_hfma2,
    "F2F": op_opaque, "F2FP": op_opaque, "FRND": op_opaque, "FCHK": op_opaque, "HADD2": op_opaque,
    "HMUL2": op_opaque, "HSET2": op_opaque, "HSETP2": op_opaque, "HMNMX2": op_opaque, "DADD": op_opaque,
    "DMUL": op_opaque, "DFMA": op_opaque, "DSETP": op_opaque, "DMNMX": op_opaque, "HMMA": op_opaque,
    "IMMA": op_opaque, "DMMA": op_opaque, "FSWZADD": op_opaque, "IDP": op_opaque, "IDP4A": op_opaque,
    "LDG": op_load, "LD": op_load, "LDS": op_load, "LDL": op_load, "LDSM": op_ldsm,
    "STG": op_store, "ST": op_store, "STS": op_store, "STL": op_store, "LDGSTS": op_ldgsts,
    "REDG": op_atomic, "RED": op_atomic, "ATOMG": op_atomic, "ATOM": op_atomic, "ATOMS": op_atomic,
    "BRA": op_bra, "EXIT": op_exit,
    "NOP": op_nop, "BAR": op_nop, "BSSY": op_nop, "BSYNC": op_nop, "BREAK": op_nop, "WARPSYNC": op_nop,
    "DEPBAR": op_nop, "LDGDEPBAR": op_nop, "MEMBAR": op_nop, "FENCE": op_nop, "CCTL": op_nop, "ERRBAR": op_nop,
    "YIELD": op_nop, "NANOSLEEP": op_nop, "ARRIVES": op_nop, "PMTRIG": op_nop,
    "CALL": op_refuse, "RET": op_refuse, "BRX": op_refuse, "JMX": op_refuse, "JMP": op_refuse,
}
