"""One entry point of a cubin, ready to execute: its instructions, control-flow graph and loops.

`load(cubin, entry)` disassembles the cubin once (nvdisasm's JSON, cached beside the cubin) and
returns a `Program`: the instruction list by pc, each instruction's successors, and the natural
loops (a branch to a pc at or before its own is a back edge; the loop is its header and every
instruction that reaches the branch without passing the header). Only code reachable from pc 0
is analysed (nvcc ends every function with a `BRA` to itself that nothing reaches).

Calls: nvcc places the slow paths of float division, reciprocal and square root as subroutines
after the kernel's code, in its section (`CALL.REL.NOINC` there, `RET.REL.NODEC R10` back). A
call's successor in the graph is the instruction after it (the call returns there); `callees`
maps each CALL to its subroutine's pc, whose code is analysed from there, and a loop that calls
holds the subroutine's code in its body.

`data_region(pc)`: for a branch whose condition is data (the slow path's test of a divisor), the
pc where its two sides meet again (the first pc after it that every path from it reaches) and
every pc in between, the subroutines they call included: the engine runs both sides for all the
path's threads and keeps what they agree on (warpsim.sass.machine). `data_loop(pc)`: where such
a branch decides whether a loop goes round again (a trip count computed from data), the loop and
the one pc it leaves to, when the loop touches no memory: the engine runs it to a fixed point.

A `switch` nvcc compiles to a jump table (`BRX R6, -0x160`, R6 loaded from constant bank 2) has
the pcs its own table's words name as its successors (the table starts where the LDC that wrote
R6 reads, and ends where the next one starts); the engine follows the one each thread's word gives.

Limitations: JMX and JMP are refused by the engine, not here; a loop entered other than through
its header (irreducible flow) is refused when reached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from warpsim import toolchain
from warpsim.errors import UsageError
from warpsim.sass import isa
from warpsim.sass.cubin import Cubin, Function, read_cubin, subroutines

CONTROL = {"BRA", "EXIT", "RET", "BRX", "JMX", "JMP", "CALL", "KILL"}
#: Why a data branch has no region: it decides whether a loop that holds it goes round again.
AROUND = "it decides whether a loop that holds it goes round again (a trip count computed from data)"
#: nvcc's slow paths of the IEEE float operations (`$__internal_2_$__cuda_sm3x_div_rn_noftz_f32_slowpath`),
#: whose result is the correctly rounded one, as PTX's div.rn, rcp.rn and sqrt.rn are, whatever the
#: hardware's seed (docs/SASS.md, "The IEEE slow paths")
IEEE_SLOW_PATH = re.compile(r"__cuda_sm\w*?_(div|rcp|sqrt)_rn_(?:noftz_)?f32_slowpath$")
#: What code that data steers may not run (a side of a data branch, a loop of data-decided length):
#: memory instructions and barriers, whose threads would not be known, and exits.
UNSTEERABLE = {"LDG", "LD", "LDS", "LDL", "LDSM", "STG", "ST", "STS", "STL", "LDGSTS", "REDG", "RED", "ATOMG",
               "ATOM", "ATOMS", "BAR", "EXIT", "KILL"}


@dataclass(frozen=True)
class Loop:
    header: int  # pc of the loop's first instruction (the target of its back edges)
    latches: tuple[int, ...]  # pcs of the back-edge branches
    body: frozenset[int]  # every pc of the loop, header and latches included


@dataclass
class Program:
    function: Function
    instructions: list[isa.Instruction]
    cubin: Cubin
    by_pc: dict[int, isa.Instruction] = field(default_factory=dict)
    successors: dict[int, tuple[int, ...]] = field(default_factory=dict)
    loops: dict[int, Loop] = field(default_factory=dict)  # header pc -> loop
    callees: dict[int, int] = field(default_factory=dict)  # CALL pc -> the subroutine's first pc
    ieee: dict[int, str] = field(default_factory=dict)  # pc -> "div", "rcp" or "sqrt": in that IEEE slow path
    bank2: dict[int, int] = field(default_factory=dict)  # constant bank 2: byte offset -> word (relocated left out)

    def __post_init__(self):
        self.by_pc = {i.pc: i for i in self.instructions}
        self.bank2 = {4 * i: w for i, w in enumerate(self.function.constant2) if w is not None}
        tables = _jump_tables(self.instructions, self.function.constant2)
        self.successors = {i.pc: _successors(i, self.by_pc, tables.get(i.pc, ())) for i in self.instructions}
        calls = [i for i in self.instructions if i.opcode == "CALL"]
        slow_paths = {}
        if calls:
            subs = subroutines(self.cubin.path, self.function.name)
            for i in calls:
                name = next((o.text for o in i.operands if isinstance(o, isa.Other)), None)
                if subs.get(name) in self.by_pc:
                    self.callees[i.pc] = subs[name]
                    kind = IEEE_SLOW_PATH.search(name)
                    if kind:
                        slow_paths[subs[name]] = kind.group(1)
        reachable = _reachable(self.successors, [0, *self.callees.values()])
        self.successors = {pc: s for pc, s in self.successors.items() if pc in reachable}
        for start, kind in slow_paths.items():
            body = _reachable(self.successors, [start])
            if not any(self.by_pc[pc].opcode in UNSTEERABLE | {"CALL"} for pc in body):
                self.ieee.update(dict.fromkeys(body, kind))
        self.loops = {h: self._with_callees(loop) for h, loop in _natural_loops(self.successors).items()}
        self._regions: dict[int, tuple[int, frozenset[int]] | str] = {}

    def _called(self, pcs) -> set[int]:
        """The code of every subroutine that the instructions at `pcs` call, transitively."""
        out: set[int] = set()
        todo = [self.callees[pc] for pc in pcs if pc in self.callees]
        while todo:
            body = _reachable(self.successors, [todo.pop()]) - out
            out |= body
            todo += [self.callees[pc] for pc in body if pc in self.callees]
        return out

    def _with_callees(self, loop: Loop) -> Loop:
        called = self._called(loop.body)
        return Loop(loop.header, loop.latches, loop.body | called) if called else loop

    def data_region(self, pc: int) -> tuple[int, frozenset[int]] | str:
        """(the pc where the two sides of the branch at `pc` meet, every pc between) or, where
        there is none, why: a side leaves the kernel or its subroutine, or goes round a loop that
        holds the branch (a loop whose trip count is data)."""
        if pc not in self._regions:
            self._regions[pc] = self._data_region(pc)
        return self._regions[pc]

    def data_loop(self, pc: int) -> tuple[Loop, int] | str:
        """For a branch whose condition is data and decides whether a loop goes round again:
        (the innermost loop that holds it, the one pc the loop leaves to), or why not: the loop
        touches memory, waits at a barrier or exits, or leaves to several places."""
        holding = [loop for loop in self.loops.values() if pc in loop.body]
        if not holding:
            return "it decides no loop"
        loop = min(holding, key=lambda lp: len(lp.body))
        touching = sorted(self.by_pc[q].name for q in loop.body if self.by_pc[q].opcode in UNSTEERABLE)
        if touching:
            return f"{AROUND}, and the loop runs {touching[0]}"
        leaves = {s for q in loop.body for s in self.successors.get(q, ()) if s not in loop.body}
        if len(leaves) != 1:
            return f"{AROUND}, and the loop leaves to several places"
        return loop, leaves.pop()

    def _data_region(self, pc: int):
        around = {h for h, loop in self.loops.items() if pc in loop.body}
        starts = self.successors.get(pc, ())

        def walk(stop: int | None):  # pcs reached from the sides before `stop`; None if one escapes
            seen, todo = set(), list(starts)
            while todo:
                q = todo.pop()
                if q == stop or q in seen:
                    continue
                ins = self.by_pc.get(q)
                if q in around or ins is None or ins.opcode in ("EXIT", "RET", "KILL") or not self.successors.get(q):
                    return None
                seen.add(q)
                todo.extend(self.successors[q])
            return seen

        sides = [_reachable(self.successors, [s]) for s in starts]
        if len(sides) != 2:
            return "a branch with one side"
        for stop in sorted(q for q in sides[0] & sides[1] if q > pc)[:256]:
            inside = walk(stop)
            if inside is not None:
                return stop, frozenset(inside | self._called(inside))
        if any(h in sides[0] | sides[1] for h in around):
            return AROUND
        return "its sides do not meet again before the kernel exits"

    @property
    def name(self) -> str:
        return self.function.source_name


def _successors(ins: isa.Instruction, by_pc: dict[int, isa.Instruction], table=()) -> tuple[int, ...]:
    nxt = ins.pc + isa.INSTRUCTION_BYTES
    fall = (nxt,) if nxt in by_pc else ()
    unconditional = ins.guard is None or (ins.guard.true and not ins.guard.negated)
    if ins.opcode == "BRX":  # `BRX R6, -0x160` goes to R6 + the next pc - 0x160, R6 a word of its
        # jump table in constant bank 2 (which word, the engine reads): every word that is a pc
        offset = nxt + next(o.pc for o in ins.operands if isinstance(o, isa.Target))
        targets = tuple(sorted({w + offset for w in table if w is not None and w + offset in by_pc}))
        return targets if unconditional else targets + fall
    if ins.opcode == "BRA":  # a predicate operand (`BRA P1, target`) is a condition too
        unconditional &= all(o.true and not o.negated for o in ins.operands if isinstance(o, isa.Pred))
        targets = tuple(o.pc for o in ins.operands if isinstance(o, isa.Target))
        return targets if unconditional else targets + fall
    if ins.opcode in ("EXIT", "RET", "KILL"):
        return () if unconditional else fall
    return fall


def _jump_tables(instructions: list[isa.Instruction], words: tuple) -> dict[int, tuple]:
    """Per BRX, the words of its jump table: from the offset of the `LDC Rn, c[0x2][Ri+offset]` that
    last wrote its register up to the next table's (or the bank's end); every word where no such
    LDC precedes it."""
    loads = {i.pc: i.operands[1].offset for i in instructions if i.opcode == "LDC" and len(i.operands) > 1
             and isinstance(i.operands[1], isa.Const) and i.operands[1].bank == 2}
    starts = sorted({*loads.values(), 4 * len(words)})
    tables = {}
    for k, ins in enumerate(instructions):
        if ins.opcode != "BRX":
            continue
        reg = next(o for o in ins.operands if isinstance(o, isa.Reg))
        writer = next((w for w in reversed(instructions[:k]) if w.operands and w.operands[0] == reg), None)
        if writer is None or writer.pc not in loads:
            tables[ins.pc] = words
            continue
        first = loads[writer.pc]
        end = next(s for s in starts if s > first) if first < 4 * len(words) else first
        tables[ins.pc] = words[first // 4:end // 4]
    return tables


def _reachable(successors: dict[int, tuple[int, ...]], roots=(0,)) -> set[int]:
    seen, stack = set(), list(roots)
    while stack:
        pc = stack.pop()
        if pc in seen or pc not in successors:
            continue
        seen.add(pc)
        stack.extend(successors[pc])
    return seen


def _natural_loops(successors: dict[int, tuple[int, ...]]) -> dict[int, Loop]:
    preds: dict[int, list[int]] = {}
    for pc, succ in successors.items():
        for s in succ:
            preds.setdefault(s, []).append(pc)
    latches: dict[int, list[int]] = {}
    for pc, succ in successors.items():
        for s in succ:
            if s <= pc:
                latches.setdefault(s, []).append(pc)
    loops = {}
    for header, ls in latches.items():
        body, stack = {header}, list(ls)
        while stack:
            pc = stack.pop()
            if pc in body:
                continue
            body.add(pc)
            stack.extend(preds.get(pc, []))
        loops[header] = Loop(header, tuple(sorted(ls)), frozenset(body))
    return loops


def _listing(cubin: Path) -> list:
    """nvdisasm's JSON of a cubin, cached by the cubin's content (toolchain.cached_json)."""
    return toolchain.cached_json(cubin, "listing", lambda: toolchain.disassemble_json(cubin))


def load(cubin_path: Path | str, entry: str) -> Program:
    """The Program of `entry` (mangled, demangled, or as written in the source) in a cubin."""
    cubin_path = Path(cubin_path)
    cubin = read_cubin(cubin_path)
    function = cubin.entry(entry)
    doc = _listing(cubin_path)
    files = isa.source_files(doc)
    for fn in doc[1] if len(doc) > 1 else []:
        if fn.get("function-name") == function.name:
            return Program(function, isa.parse_function(fn, files), cubin)
    raise UsageError(f"nvdisasm lists no code for {function.name} in {cubin_path.name}")
