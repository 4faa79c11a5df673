"""One entry point of a cubin, ready to execute: its instructions, control-flow graph and loops.

`load(cubin, entry)` disassembles the cubin once (nvdisasm's JSON, cached beside the cubin) and
returns a `Program`: the instruction list by pc, each instruction's successors, and the natural
loops (a branch to a pc at or before its own is a back edge; the loop is its header and every
instruction that reaches the branch without passing the header). Only code reachable from pc 0
is analysed (nvcc ends every function with a `BRA` to itself that nothing reaches).

Limitations: indirect branches (BRX, JMX) and calls (CALL, RET) are refused by the engine, not
here; a loop entered other than through its header (irreducible flow) is refused when reached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from warpsim import toolchain
from warpsim.errors import UsageError
from warpsim.sass import isa
from warpsim.sass.cubin import Cubin, Function, read_cubin

CONTROL = {"BRA", "EXIT", "RET", "BRX", "JMX", "JMP", "CALL", "KILL"}


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

    def __post_init__(self):
        self.by_pc = {i.pc: i for i in self.instructions}
        self.successors = {i.pc: _successors(i, self.by_pc) for i in self.instructions}
        reachable = _reachable(self.successors)
        self.successors = {pc: s for pc, s in self.successors.items() if pc in reachable}
        self.loops = _natural_loops(self.successors)

    @property
    def name(self) -> str:
        return self.function.source_name


def _successors(ins: isa.Instruction, by_pc: dict[int, isa.Instruction]) -> tuple[int, ...]:
    nxt = ins.pc + isa.INSTRUCTION_BYTES
    fall = (nxt,) if nxt in by_pc else ()
    unconditional = ins.guard is None or (ins.guard.true and not ins.guard.negated)
    if ins.opcode == "BRA":
        targets = tuple(o.pc for o in ins.operands if isinstance(o, isa.Target))
        return targets if unconditional else targets + fall
    if ins.opcode in ("EXIT", "RET", "KILL"):
        return () if unconditional else fall
    return fall


def _reachable(successors: dict[int, tuple[int, ...]]) -> set[int]:
    seen, stack = set(), [0]
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
