"""nvdisasm's JSON -> warpsim's instruction records: one `Instruction` per SASS instruction.

    /*0240*/  @!P0 LDG.E.128 R4, desc[UR6][R26.64+0x10] ;     (line 14 of naive.cu)
    -> Instruction(pc=0x240, guard=Pred("P", 0, negated=True), opcode="LDG",
                   mods=("E", "128"), operands=(Reg R4, Mem(desc=UR6, regs=[R26.64], offset=0x10)),
                   line=14, file="naive.cu")

Operands keep what the engine needs: register kind and number (RZ/URZ are number 255/63 and
read as zero), negation `-R5`, bitwise not `~R5`, absolute value `|R5|`, the half/byte selector
and `.64` pair suffix, immediates (integers, and floats as printed), constant-bank references
`c[bank][offset]` (with an optional register index), memory references `[R2.64+UR4+0x10]`,
special registers `SR_TID.X`, branch targets (function-relative byte offsets) and barriers.
`.reuse` (a register-cache hint) is dropped.

Limitations: instructions are 16 bytes (sm_70 and later); an operand the parser does not know
is kept as `Other(text)` and the engine refuses the instruction if it must read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warpsim.errors import UsageError

INSTRUCTION_BYTES = 16
RZ = 255  # R255 reads as zero
URZ = 63  # UR63 reads as zero
PT = 7  # P7 / UP7 read as true


@dataclass(frozen=True)
class Reg:
    file: str  # "R" or "UR"
    index: int
    neg: bool = False  # -R5
    inv: bool = False  # ~R5
    abs: bool = False  # |R5|
    sel: str = ""  # ".64" pair, ".H0"/".H1" half, ".B0".."B3" byte, ".X4" scaled index, ...

    @property
    def zero(self) -> bool:
        return self.index == (RZ if self.file == "R" else URZ)

    def __str__(self) -> str:
        name = f"{self.file}Z" if self.zero else f"{self.file}{self.index}"
        return f"{'-' if self.neg else ''}{'~' if self.inv else ''}{name}{self.sel}"


@dataclass(frozen=True)
class Pred:
    file: str  # "P" or "UP"
    index: int  # 7: PT/UPT
    negated: bool = False

    @property
    def true(self) -> bool:
        return self.index == PT

    def __str__(self) -> str:
        name = f"{self.file}T" if self.true else f"{self.file}{self.index}"
        return ("!" if self.negated else "") + name


@dataclass(frozen=True)
class Imm:
    value: int  # as a 32-bit pattern's integer value (negative immediates stay negative)


@dataclass(frozen=True)
class FImm:
    text: str  # a floating-point immediate, as printed (`5.9604644775390625e-08`, `+INF`)


@dataclass(frozen=True)
class Const:
    bank: int
    offset: int
    index: Reg | None = None  # c[0x0][R2+0x10]


@dataclass(frozen=True)
class Mem:
    regs: tuple[Reg, ...]  # registers added to form the address (R2.64, UR4, ...)
    offset: int = 0  # immediate byte offset
    desc: Reg | None = None  # desc[URx]: the memory descriptor (cache policy), not an address


@dataclass(frozen=True)
class SReg:
    name: str  # SR_TID.X, SR_CTAID.Y, SR_LANEID, SRZ, ...


@dataclass(frozen=True)
class Target:
    pc: int  # function-relative byte offset


@dataclass(frozen=True)
class Other:
    text: str


Operand = Reg | Pred | Imm | FImm | Const | Mem | SReg | Target | Other


@dataclass(frozen=True)
class Instruction:
    pc: int  # function-relative byte offset
    opcode: str  # "IMAD"
    mods: tuple[str, ...]  # ("WIDE", "U32")
    operands: tuple[Operand, ...]
    guard: Pred | None = None  # @P0 / @!UP1; None: always executes
    line: int | None = None  # source line (from -lineinfo)
    file: str = ""  # source file of that line
    text: str = field(default="", compare=False)  # as printed, for messages

    @property
    def name(self) -> str:
        return ".".join((self.opcode, *self.mods))

    def where(self) -> str:
        """`pc 0x240 (LDG.E.128 R4, [R26.64+0x10]), line 14`, for messages (a header's line names
        the header: `line 3427 of cuda_fp16.hpp`, where nvcc inlined a library function)."""
        header = f" of {self.file.rsplit('/', 1)[-1]}" if self.file and not self.file.endswith(".cu") else ""
        loc = f", line {self.line}{header}" if self.line else ""
        return f"pc {self.pc:#x} ({self.text.strip()}){loc}"


_REG = re.compile(r"^(?P<neg>-)?(?P<inv>~)?(?P<abs>\|)?(?P<file>UR|R)(?P<idx>\d+|Z)(?P<sel>(?:\.[A-Z0-9]+)*)\|?$")
_PRED = re.compile(r"^(?P<neg>!)?(?P<file>UP|P)(?P<idx>\d|T)$")
_CONST = re.compile(r"^c\[(0x[0-9a-f]+|\d+)\]\[(?P<body>[^\]]+)\]$")
_INT = re.compile(r"^[-+]?(0x[0-9a-fA-F]+|\d+)$")
_FLOAT = re.compile(r"^[-+]?(\d+\.\d*(e[-+]?\d+)?|\d+e[-+]?\d+|INF|QNAN|NAN)$", re.IGNORECASE)


BRANCHES = frozenset({"BRA", "BSSY", "CALL", "JMP", "BREAK", "BPT", "JMX", "BRX", "RET", "WARPSYNC"})


def _split_operands(text: str) -> list[str]:
    """Split at commas that are not inside [...] or {...}."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def parse_reg(text: str) -> Reg | None:
    text = text.replace(".reuse", "")
    m = _REG.match(text)
    if not m:
        return None
    file = m["file"]
    index = (RZ if file == "R" else URZ) if m["idx"] == "Z" else int(m["idx"])
    return Reg(file, index, neg=bool(m["neg"]), inv=bool(m["inv"]), abs=bool(m["abs"]), sel=m["sel"] or "")


def parse_pred(text: str) -> Pred | None:
    m = _PRED.match(text)
    if not m:
        return None
    return Pred(m["file"], PT if m["idx"] == "T" else int(m["idx"]), negated=bool(m["neg"]))


def _parse_address(body: str) -> tuple[list[Reg], int] | None:
    regs, offset = [], 0
    for term in re.findall(r"[-+]?[^-+]+", body.replace(" ", "")):
        sign = -1 if term.startswith("-") else 1
        term = term.lstrip("+-")
        if _INT.match(term):
            offset += sign * int(term, 0)
            continue
        reg = parse_reg(term)
        if reg is None or sign < 0:
            return None
        regs.append(reg)
    return regs, offset


def parse_operand(text: str) -> Operand:
    text = text.strip()
    if (reg := parse_reg(text)) is not None:
        return reg
    if (pred := parse_pred(text)) is not None:
        return pred
    if _INT.match(text):
        return Imm(int(text, 0))
    if _FLOAT.match(text):
        return FImm(text)
    if m := _CONST.match(text):
        parsed = _parse_address(m["body"])
        if parsed is not None and len(parsed[0]) <= 1:
            return Const(int(m[1], 0), parsed[1], parsed[0][0] if parsed[0] else None)
    m = re.match(r"^(?:desc\[(?P<desc>[^\]]+)\])?\[(?P<body>[^\]]*)\]$", text)
    if m:
        parsed = _parse_address(m["body"])
        if parsed is not None:
            desc = parse_reg(m["desc"]) if m["desc"] else None
            return Mem(tuple(parsed[0]), parsed[1], desc)
    if text.startswith("SR"):
        return SReg(text)
    return Other(text)


def parse_instruction(pc: int, raw: dict, line: int | None, file: str) -> Instruction:
    """One record of nvdisasm's JSON (`{"predicate": "@!P0", "opcode": "LDG.E", "operands": ...}`)."""
    name = raw["opcode"]
    opcode, *mods = name.split(".")
    texts = _split_operands(raw.get("operands", ""))
    predicate = raw.get("predicate", "")
    if predicate and not predicate.startswith("@"):
        # nvdisasm's JSON files P2R's and R2P's `PR` (all predicates) under "predicate"
        texts.insert(1 if opcode == "P2R" else 0, predicate)
        predicate = ""
    operands = tuple(parse_operand(t) for t in texts)
    if opcode in BRANCHES:  # nvdisasm's JSON gives targets as function-relative offsets
        operands = tuple(Target(o.value) if isinstance(o, Imm) else o for o in operands)
    guard = None
    if predicate:
        guard = parse_pred(predicate.lstrip("@"))
        if guard is None:
            raise UsageError(f"pc {pc:#x}: unreadable guard {predicate!r}")
    text = f"{predicate} {name} {', '.join(texts)}".strip()
    return Instruction(pc, opcode, tuple(mods), operands, guard, line, file, text)


def parse_function(fn: dict, files: list[str]) -> list[Instruction]:
    """The instructions of one function of nvdisasm's JSON, each with its source line; a run of
    instructions without `source-line` belongs to the line last named (as in the text listing)."""
    out, line, file = [], None, ""
    start = int(fn.get("start", 0))
    for i, raw in enumerate(fn["sass-instructions"]):
        if "source-line" in raw:
            line = int(raw["source-line"])
            fid = int(raw.get("source-file-id", 0))
            file = files[fid] if 0 <= fid < len(files) else ""
        out.append(parse_instruction(i * INSTRUCTION_BYTES, raw, line, file))
    del start  # branch targets are function-relative, as the pcs here
    return out


def source_files(doc: list) -> list[str]:
    """The file table of nvdisasm's JSON (its last element: directories and files)."""
    table = doc[2] if len(doc) > 2 and isinstance(doc[2], dict) else {}
    dirs = table.get("directories", [])
    out = []
    for f in table.get("files", []):
        d = f.get("dir-idx")
        out.append(f"{dirs[d]}/{f['file']}" if d is not None and 0 <= d < len(dirs) else f.get("file", ""))
    return out
