"""Memory and control instructions: each access handed to the machine's recorder; branches split
paths, EXIT removes threads, CALL enters a subroutine of the kernel's section and RET returns to
the address its register holds (one pc for every thread); a switch's BRX goes to the pc its jump
table gives each thread; JMX and JMP are refused.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from warpsim import formula as F
from warpsim.sass import alu, isa
from warpsim.sass.state import UNDEFINED, Path, select
from warpsim.sass.values import (
    EXTERNAL_ORIGIN,
    EngineError,
    NotAffine,
    Opaque,
    Select,
    bounds,
)
from warpsim.symbolic import Sym

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
    """LDG/LD/LDS/LDL: one access, destinations become data (an LDL of words the path stored at
    one address for every thread gets them back: a register spill reloaded)."""
    space = {"LDG": "global", "LD": "generic", "LDS": "shared", "LDL": "local"}[ins.opcode]
    dst, mem = ins.operands[0], ins.operands[1]
    width = _width(ins)
    address = m.address(path, mem, known)
    space, array = m.access(ins, path, guard, space, "load", width, address)
    if isinstance(dst, isa.Reg):
        given = m.given(space, array)
        words = m.given_words(ins, given, address, width) if given is not None else None
        at = _one_address(m, address) if space == "local" and width >= 4 else None
        shared = _shared_words(m, ins, path, address, width) if space == "shared" and words is None else None
        for k in range(_dest_count(width)):
            data = Opaque(f"{ins.opcode} at pc {ins.pc:#x}")
            value = data if at is None else _kept(path.state.local.get(at + 4 * k, UNDEFINED), data)
            value = shared[k] if shared is not None else value
            m.write(path, isa.Reg(dst.file, dst.index + k), value if words is None else words[k], guard)


# -- a block-uniform word shared through shared memory --------------------------------------------------
#
# `if (threadIdx.x == 0) s = n - base; __syncthreads(); ... s ...`: a value one thread (or threads
# that agree) stores at one shared address and every thread reads back after a barrier (CUB's
# guarded BlockStore shares its count of valid items so). Kept per word (m.shared_words: byte
# address -> (value, the barrier count at the store)) where the store is outside every loop and
# data branch, of whole words, at one address, by threads a condition of the thread indices picks
# with at least one in every block, and of one value per block; handed back to a load of that
# word outside data branches after a block-wide barrier. Any other write that may touch a kept
# word (a store at addresses that differ by thread, in a loop, of part of a word; an atomic, a
# cp.async, a generic store) forgets it, and a load that is not handed a word reads data.
#
# A load inside a loop is handed the word too (a tile loop that reads its bound back after each
# barrier). The symbolic run executes a loop's body three times, not once per iteration, so there
# a write inside that loop that forgets a word one of its loads was handed refuses the symbolic
# count (the read may have been handed a value that a later iteration's write changes); the
# block-by-block run, which goes round every iteration, just reads data from then on.


def _in_loop_or_data_branch(m, ins) -> bool:
    return ins.pc in m.loop_pcs or bool(m.data_branches)


def _shared_words(m, ins, path, address: Sym, width: int) -> list | None:
    """The kept words a shared load reads back (None: data, as any other load)."""
    at = _one_address(m, address)
    if at is None or width < 4 or m.data_branches:
        return None
    kept = [m.shared_words.get(at + 4 * k) for k in range(width // 4)]
    if any(w is None or w[1] >= m.barriers for w in kept):
        return None
    if not m.concrete and ins.pc in m.loop_pcs:
        bodies = [loop.body for loop in m.program.loops.values() if ins.pc in loop.body]
        for k in range(width // 4):
            m.shared_loop_reads.setdefault(at + 4 * k, set()).update(bodies)
    return [value for value, _ in kept]


def _forget(m, ins, words) -> None:
    """A write that may touch the kept `words` (byte addresses): they are data from here on."""
    for at in list(words):
        if any(ins.pc in body for body in m.shared_loop_reads.get(at, ())):
            e = EngineError(f"a shared word a load in this loop was handed (at {at:#x}) may be written again "
                            "in the loop: its value per iteration is followed only block by block")
            e.enumerate = True  # the block-by-block run goes round every iteration: its count is exact
            raise e
        del m.shared_words[at]


def _shared_store(m, ins, path, guard, known, address: Sym, width: int, resolved: str) -> None:
    """A write to shared memory (`resolved`: the space the access resolved to; `generic`: not
    known): keeps the words of a store of one block-uniform value at one address, forgets the
    kept words it may overwrite otherwise."""
    if resolved not in ("shared", "generic"):
        return
    on = m.decide(F.f_and(path.cond, guard))
    if isinstance(on, F.Const) and on.all_false:
        return  # no thread stores (`@P STS` where P holds for none here): nothing is overwritten
    at = _one_address(m, address) if ins.opcode == "STS" and isinstance(address, Sym) else None
    values = _uniform_store(m, ins, path, known, on, at, width) if at is not None else None
    if values is not None:
        for k, value in enumerate(values):
            m.shared_words[at + 4 * k] = (value, m.barriers)
    elif resolved == "generic" or not isinstance(address, Sym):
        _forget(m, ins, m.shared_words)
    elif m.shared_words:
        lo, hi = bounds(address, m.env)
        _forget(m, ins, [k for k in m.shared_words if lo - 4 < k < hi + width])


def _uniform_store(m, ins, path, known, on: F.Formula, at: int, width: int) -> list | None:
    """The per-block values of a store of whole words at the one address `at` by the threads `on`
    (the path's and the guard's condition, decided) that agree, at least one in every block; None
    where it is not one."""
    if width < 4 or _in_loop_or_data_branch(m, ins):
        return None
    if not isinstance(on, F.Const):  # (a condition a block index decides: not kept)
        return None
    rows = (np.broadcast_to(np.asarray(on.mask, dtype=bool), m.linear.shape) & m.exists).reshape(-1, m.threads)
    if not rows.any(axis=1).all():
        return None
    src = ins.operands[1]
    values = []
    for k in range(width // 4):
        try:  # (a value the engine cannot read here is not kept: nothing else about the store changes)
            v = m.read(path, src, known, k) if isinstance(src, isa.Reg) else None
        except EngineError:
            return None
        if not isinstance(v, Sym):
            return None
        t = np.broadcast_to(np.asarray(v.thread, dtype=np.int64), m.linear.shape).reshape(-1, m.threads)
        first = t[np.arange(len(t)), rows.argmax(axis=1)]
        if not (np.where(rows, t, first[:, None]) == first[:, None]).all():
            return None
        values.append(Sym(dict(v.coef), np.repeat(first, m.threads) if len(first) > 1 else int(first[0])))
    return values


def _one_address(m, address: Sym) -> int | None:
    """The byte address every thread that matters gives (None: it differs by thread, block or
    loop iteration)."""
    if address.coef:
        return None
    t = np.asarray(address.thread)
    if t.ndim and m.live is not None:
        t = t[np.broadcast_to(m.live, t.shape)]
    return int(t.flat[0]) if t.size and np.all(t == t.flat[0]) else None


def _kept(value, data):
    """A local word as a register gets it back: what was never stored there is data."""
    if value is UNDEFINED:
        return data
    if isinstance(value, Select):
        return Select(value.cond, _kept(value.then, data), _kept(value.other, data))
    return value


def _store_local(m, ins, path, guard, address: Sym, width: int) -> None:
    """STL: the words it stores at one address for every thread are kept (as registers are: a
    guarded store selects); a store at addresses that differ by thread makes every kept word it
    may overwrite data, and so does a store of less than a word."""
    words = path.state.local
    at = _one_address(m, address)
    if at is None or width < 4:
        lo, hi = bounds(address, m.env)
        for k in [k for k in words if lo - 4 < k < hi + width]:
            words[k] = Opaque(f"{ins.opcode} at pc {ins.pc:#x}")
        return
    src = ins.operands[1]
    for k in range(width // 4):
        value = m.reg(path, src, k) if isinstance(src, isa.Reg) else Opaque(ins.opcode)
        if not (isinstance(guard, F.Const) and guard.all_true):
            value = select(guard, value, words.get(at + 4 * k, UNDEFINED))
        words[at + 4 * k] = value


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
    resolved, _ = m.access(ins, path, guard, space, "store", _width(ins), address)
    if space == "local":
        _store_local(m, ins, path, guard, address, _width(ins))
    _shared_store(m, ins, path, guard, known, address, _width(ins), resolved)


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
    shared = m.address(path, dst_mem, known)
    m.access(ins, path, guard, "shared", "store", width, shared)
    _shared_store(m, ins, path, guard, known, shared, width, "shared")


def op_atomic(m, ins, path, guard, known):
    """REDG/RED (no result), ATOMG/ATOM/ATOMS (a result register first)."""
    ops = list(ins.operands)
    mem_index = next(i for i, o in enumerate(ops) if isinstance(o, isa.Mem))
    mem = ops[mem_index]
    space = "shared" if ins.opcode == "ATOMS" else "generic" if ins.opcode in ("ATOM", "RED") else "global"
    width = _width(ins)
    if space != "shared" and "E" in ins.mods and [r.sel for r in mem.regs if r.file == "R"] == [""]:
        # nvdisasm prints ATOMG.E.CAS's and ATOM.E.CAS's 64-bit address pair as `[R2]`, without the
        # `.64` of the others
        mem = isa.Mem(tuple(replace(r, sel=".64") if r.file == "R" else r for r in mem.regs), mem.offset, mem.desc)
    address = m.address(path, mem, known)
    resolved, _ = m.access(ins, path, guard, space, "atomic", width, address)
    _shared_store(m, ins, path, guard, known, address, width, resolved)
    for o in ops[:mem_index]:
        if isinstance(o, isa.Pred) and ins.opcode == "ATOM" and resolved == "global":
            # a generic atomic the hardware has no shared form of (atomicAdd on __half2): its
            # predicate says it was done, as it is on a global address; nvcc emulates it after
            # `@P0 EXIT` for a shared or local one (QSPC, then a compare-and-swap loop)
            m.write(path, o, F.TRUE, guard)
        elif isinstance(o, (isa.Reg, isa.Pred)):
            m.write(path, o, Opaque(ins.opcode), guard)


# -- control -----------------------------------------------------------------------------------------

def _split(path, guard, target: int, fall: int, back: bool = False) -> list[Path]:
    """The threads of `path` the guard holds for go to `target` (`back`: a back edge), the
    others to `fall`."""
    if isinstance(guard, F.Const) and guard.all_true:
        return [Path(target, path.state, path.cond, back)]
    return [Path(target, path.state.copy(), F.f_and(path.cond, guard), back),
            Path(fall, path.state, F.f_and(path.cond, F.f_not(guard)))]


def op_bra(m, ins, path, guard, known):
    target = next(o.pc for o in ins.operands if isinstance(o, isa.Target))
    if set(ins.mods) & {"DIV", "CONV"}:
        return _bra_convergence(m, ins, path, guard, known, target)
    return _split(path, guard, target, ins.pc + isa.INSTRUCTION_BYTES, back=target <= ins.pc)


def _bra_convergence(m, ins, path, guard, known, target: int) -> list[Path]:
    """`BRA.DIV mask, target` branches where the threads of `mask` that still run in the warp are
    not all at this instruction (the warp has diverged), `BRA.CONV` where they are. nvcc puts
    one before a warp collective (`__shfl_sync`, CUB's warp scans, a named barrier): the fall
    through (BRA.DIV) or the target (BRA.CONV) does it on a converged warp, the other way is a
    slow path of the same effect (WARPSYNC.COLLECTIVE ... ENDCOLLECTIVE). A warp is converged
    here when every thread of the mask that exists and has not exited is on this path: that way
    is taken; where a warp's threads are split between paths, or a data branch makes who is on
    the path unknown, the kernel is refused."""
    if m.data_branches:
        raise EngineError(f"{ins.name} (a branch on whether the warp has diverged) inside a branch computed "
                          f"from data, where which threads run it is not known")
    if not (isinstance(guard, F.Const) and guard.all_true):
        raise EngineError(f"{ins.name} (a branch on whether the warp has diverged) under a guard")
    mask_op = next(o for o in ins.operands if isinstance(o, isa.Reg))
    mask = m.read_int(path, mask_op, known)
    if not (isinstance(mask, Sym) and not mask.coef and np.ndim(mask.thread) == 0):
        raise EngineError(f"{ins.name}: a thread mask that is not one number for the warp")
    on = _warp_mask(m, path.cond)
    exited = _lane_mask(m, F.f_or(*m.exited)) if m.exited else np.zeros(m.linear.shape, dtype=bool)
    if on is None or exited is None:
        raise EngineError(f"{ins.name} (a branch on whether the warp has diverged) where which threads run it "
                          f"depends on a loop index")
    member = ((int(mask.thread) & 0xFFFFFFFF) >> (m.linear % 32)) & 1 == 1
    running = (m.exists & ~exited & member).reshape(-1, 32)
    on = on.reshape(-1, 32)
    split = on.any(axis=1) & (running & ~on).any(axis=1)
    if split.any():
        warp = int(np.flatnonzero(split)[0]) % (m.threads // 32)
        raise EngineError(f"{ins.name} (a warp collective's check that the warp has converged) in warp {warp} of "
                          f"a block, whose threads are split between paths there: warpsim follows a collective "
                          f"only on a converged warp")
    converged = "CONV" in ins.mods
    to = target if converged else ins.pc + isa.INSTRUCTION_BYTES
    return [Path(to, path.state, path.cond, converged and target <= ins.pc)]


def _warp_mask(m, f: F.Formula) -> np.ndarray | None:
    """A path's condition as a bool per thread, as far as it may split a warp: a conjunct the same
    for every thread of each warp (a loop's or a block's condition) cannot, and is left out (the
    mask then holds more threads than the path where it is false, which can only refuse more)."""
    out = np.ones(m.linear.shape, dtype=bool)
    for c in F.conjuncts(f):
        if not isinstance(c, F.Const) and _warp_uniform(m, c):
            continue
        mask = _lane_mask(m, c)
        if mask is None:
            return None
        out &= mask
    return out


def _warp_uniform(m, f: F.Formula) -> bool:
    """Whether every atom of `f` has the same thread part on every thread of each warp."""
    if isinstance(f, F.Const):
        return False
    if isinstance(f, (F.Lt, F.Eq)):
        t = np.broadcast_to(np.asarray(f.thread), m.linear.shape).reshape(-1, 32)
        return bool((t == t[:, :1]).all())
    return all(_warp_uniform(m, c) for c in getattr(f, "children", (getattr(f, "child", None),)) if c is not None)


def _lane_mask(m, f: F.Formula) -> np.ndarray | None:
    """A condition as a bool per thread of `m.linear`, the block's side of an edge cut as
    `_lanes` cuts it; None where a loop index decides it."""
    from warpsim.sass.ops_int import _lanes

    f = _lanes(m, f)
    if not isinstance(f, F.Const):
        return None
    return np.broadcast_to(np.asarray(f.mask, dtype=bool), m.linear.shape)


def op_exit(m, ins, path, guard, known):
    m.exited.append(F.f_and(path.cond, guard))  # threads gone from their warp (_bra_convergence)
    if isinstance(guard, F.Const) and guard.all_true:
        return []
    return [Path(ins.pc + isa.INSTRUCTION_BYTES, path.state, F.f_and(path.cond, F.f_not(guard)))]


def op_call(m, ins, path, guard, known):
    """CALL: the callee runs to its return before the caller's other paths go on, as if it stood at
    the call: a subroutine lies after the kernel's code, and run lowest pc first among the caller's
    paths, a path that did not call would pass the BSYNC where the warp waits for the one that
    did (a divergent `__noinline__` call, sqrtf's slow path), and each would make its own request."""
    target = m.program.callees.get(ins.pc)
    if target is None:
        raise EngineError("a call to code the engine cannot find in the kernel's section")
    back = ins.pc + isa.INSTRUCTION_BYTES
    callee, *stay = _split(path, guard, target, back)
    returned, left = m.execute([callee], stop=back)
    if left:
        raise EngineError(f"a call at pc {ins.pc:#x} whose callee leaves other than by returning to it")
    return returned + stay


def op_ret(m, ins, path, guard, known):
    reg = next(o for o in ins.operands if isinstance(o, isa.Reg))
    to = m.read_int(path, reg, known)
    pcs = np.unique(np.ravel(to.thread)[m.live_of(to.thread)]) if isinstance(to, Sym) and not to.coef else ()
    if len(pcs) != 1 or int(pcs[0]) not in m.program.by_pc:
        raise EngineError(f"a return to an address the engine cannot follow ({reg} holds no single pc)")
    return _split(path, guard, int(pcs[0]), ins.pc + isa.INSTRUCTION_BYTES)


def op_brx(m, ins, path, guard, known):
    """`BRX R6, -0x160`: to pc R6 + the next pc - 0x160, R6 a word of the jump table nvcc puts in
    constant bank 2 for a `switch` (function-relative pcs). The threads go to each pc their
    register holds. A register the block or loop index decides is counted block by block (the
    machine raises NotAffine); one data decides is refused."""
    reg = next(o for o in ins.operands if isinstance(o, isa.Reg))
    base = ins.pc + isa.INSTRUCTION_BYTES + next(o.pc for o in ins.operands if isinstance(o, isa.Target))
    to = m.read_int(path, reg, known)
    if isinstance(to, Sym) and to.coef:  # counted block by block, where the block is a number
        raise NotAffine("a switch's jump (BRX) to a case that the block or loop index decides")
    if not isinstance(to, Sym):
        raise EngineError("a switch's jump (BRX) to a case that data decides")
    pcs = (alu.u32(to) + base) & 0xFFFFFFFF
    targets = np.unique(np.ravel(pcs)[m.live_of(pcs)])
    lost = [int(t) for t in targets if int(t) not in m.program.successors.get(ins.pc, ())]
    if lost:
        raise EngineError(f"a switch's jump (BRX) to pc {lost[0]:#x}, which is no case of its jump table")
    stay = F.f_not(guard) if not (isinstance(guard, F.Const) and guard.all_true) else None
    out = [Path(ins.pc + isa.INSTRUCTION_BYTES, path.state.copy(), F.f_and(path.cond, stay))] if stay else []
    for t in map(int, targets):
        which = guard if not np.ndim(pcs) else F.f_and(guard, F.Const(pcs == t))
        out.append(Path(t, path.state.copy(), F.f_and(path.cond, which), t <= ins.pc))
    return out


def op_refuse(m, ins, path, guard, known):
    raise EngineError(f"{ins.opcode} (an indirect branch) is not supported")


#: what a call outside the kernel's code is, by the function it calls (the cubin's bank-4 relocations)
EXTERNAL_CALLS = {
    "vprintf": "a printf (a call to vprintf, outside the kernel's code, whose memory traffic the cubin does not "
               "hold): analyze the kernel without it",
    "__assertfail": "an assert whose condition does not hold in every thread of this launch (its __assertfail "
                    "stops the launch on the GPU): check the launch's sizes, or analyze the kernel without it",
    "malloc": "a device-side malloc (its heap lies outside the kernel's code and the launch): analyze the kernel "
              "without it",
    "free": "a device-side free (its heap lies outside the kernel's code and the launch): analyze the kernel "
            "without it",
}


def op_external(m, ins, path, guard, known):
    """LEPC: the return address of a call outside the kernel's code (printf's vprintf, an assert's
    __assertfail, malloc), named where the cubin's relocations name the address it calls."""
    code = m.program.instructions
    at = next(k for k, i in enumerate(code) if i.pc == ins.pc)
    call = next((i for i in code[at + 1:at + 4] if i.opcode == "CALL"), None)
    reg = next((o for o in call.operands if isinstance(o, isa.Reg)), None) if call is not None else None
    value = m.read(path, reg, known) if reg is not None else None
    origin = getattr(value, "origin", "")
    name = origin.removeprefix(EXTERNAL_ORIGIN) if origin.startswith(EXTERNAL_ORIGIN) else None
    if name in EXTERNAL_CALLS:
        raise EngineError(EXTERNAL_CALLS[name])
    raise EngineError(f"a call to {name or 'a function'} outside the kernel's code (printf's vprintf, malloc, ...), "
                      "whose memory traffic the cubin does not hold: analyze the kernel without it")


def op_trap(m, ins, path, guard, known):
    """BPT.TRAP: a thread that reaches it aborts the launch (`__trap()`; cooperative groups' grid
    sync in a launch that is not cooperative). Refused where some thread of the launch does; a
    breakpoint (BPT.INT, a debugger's) is not run on a launch warpsim counts."""
    if "TRAP" not in ins.mods:
        raise EngineError(f"a debugger's breakpoint ({ins.name})")
    if not (isinstance(guard, F.Const) and guard.all_false):
        raise EngineError("a __trap() that some threads of this launch reach (or cooperative groups' grid sync "
                          "in a launch that is not cooperative, which traps): the GPU aborts the launch there, "
                          "so there is nothing to count")
    return [Path(ins.pc + isa.INSTRUCTION_BYTES, path.state, path.cond)]


def op_nop(m, ins, path, guard, known):
    """Barriers, fences, convergence markers and hints: no address, no state the engine keeps."""
    return None
