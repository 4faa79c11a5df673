"""What a cubin says about its kernels, read from the ELF (pyelftools): no CUDA needed.

Per entry point (an STT_FUNC symbol with its `.text.<name>` section):

    name / demangled   the mangled symbol and `cxxfilt`'s reading of it (`sgemm<32>(int, float*)`)
    params             (ordinal, offset, size) of every parameter, from `.nv.info.<name>`'s
                       EIATTR_KPARAM_INFO records; offsets are within the parameter block, which
                       starts at constant bank 0, offset `param_base` (EIATTR_PARAM_CBANK; 0x210
                       on sm_90)
    shared_bytes       static shared memory, `.nv.shared.<name>`'s size, the 1 KiB the sm_90
                       driver reserves at its start included (`SHARED_RESERVED`)
    registers          EIATTR_REGCOUNT of `.nv.info`
    constant2          the 32-bit words of `.nv.constant2.<name>` (constant bank 2: nvcc's jump
                       tables for a `switch`, function-relative pcs), None where a relocation
                       fills a word at load time
    shared_vars        `__shared__` variables in PTX declaration order with their sizes and
                       alignments, from the PTX text `-lineinfo` embeds (`.nv_debug_ptx_txt`)

`.nv.info` is a list of records `u8 format, u8 attribute, u16 value-or-size[, payload]`: format 4
(EIFMT_SVAL) has a payload of that size, the others carry their value in the u16.

Limitations: shared variables are laid out by ptxas; warpsim assumes declaration order, each at
its alignment, after the reserved 1 KiB, and checks that the sizes add up to the section's size
(`shared_layout`); a cubin built without `-lineinfo` has no PTX text, so its shared rows are
named by offset.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from warpsim.errors import UsageError

SHARED_RESERVED = 0x400  # bytes the sm_90 driver keeps at the start of every block's shared window
EIFMT_SVAL = 4
EIATTR_PARAM_CBANK = 0x0A
EIATTR_REGCOUNT = 0x2F
EIATTR_KPARAM_INFO = 0x17
EIATTR_MAX_THREADS = 0x05
EIATTR_REQNTID = 0x10


@dataclass(frozen=True)
class Param:
    ordinal: int  # position in the signature, from 0
    offset: int  # bytes into the parameter block
    size: int  # bytes


@dataclass(frozen=True)
class SharedVar:
    name: str  # as declared in the source (`As`), from the PTX symbol `_ZZ4kernE2As`
    size: int  # bytes
    align: int  # bytes
    offset: int = 0  # bytes into the block's shared window (SHARED_RESERVED included)


@dataclass(frozen=True)
class Function:
    name: str  # mangled
    demangled: str  # `void k<1>(float const*, int)`; the name itself for extern "C"
    params: tuple[Param, ...]
    param_base: int  # constant-bank offset of the parameter block
    shared_bytes: int
    registers: int
    shared_vars: tuple[SharedVar, ...] = ()
    ptx_param_types: tuple[str, ...] = ()  # `.u32`, `.f32`, `.u64`, ... per parameter (PTX)
    constant2: tuple[int | None, ...] = ()  # constant bank 2's words (jump tables); None: relocated

    @property
    def source_name(self) -> str:
        """The entry as written in the source: `transpose_tiled<1>`, `sgemm_naive`."""
        return _strip_signature(self.demangled)


@dataclass(frozen=True)
class Constant:
    """A `__constant__` variable: where it sits in constant bank 3, its bytes, and the bytes its
    initializer puts there when the module loads (zeros where it has none), which
    cudaMemcpyToSymbol may replace before a launch."""

    offset: int
    name: str  # the symbol (mangled where the variable is in a namespace)
    size: int
    initial: str = ""  # hex of the initial bytes
    element: int = 0  # bytes of one element (its PTX alignment: `.align 2 .b8 TAPS[8]` holds shorts); 0: unknown

    @property
    def source_name(self) -> str:
        """As written in the source: `cfg::STRIDE` for a variable in a namespace."""
        return demangle(self.name)

    @property
    def initial_bytes(self) -> bytes:
        return bytes.fromhex(self.initial) if self.initial else bytes(self.size)

    @property
    def element_width(self) -> int | None:
        """Bytes of one element where the PTX gives them (1, 2, 4 or 8, dividing the size), else None."""
        return self.element if self.element in (1, 2, 4, 8) and self.size % self.element == 0 else None

    def initial_text(self, dtype: str = "") -> str:
        """The initial bytes as the values `--arg NAME=...` takes: of the floating type `dtype`
        (numpy's '<f4', '<f8', '<f2') where the source declares one, else signed integers of the
        element's size (where the PTX gives it and it is 1, 2, 4 or 8 bytes), else of 4 bytes where
        they divide the size, else bytes."""
        data = self.initial_bytes
        if dtype:
            return ",".join(repr(float(v)) for v in np.frombuffer(data, dtype=dtype))
        width = self.element_width or (self.size if self.size in (1, 2, 4, 8) else 4 if self.size % 4 == 0 else 1)
        return ",".join(str(int.from_bytes(data[i:i + width], "little", signed=True))
                        for i in range(0, len(data), width))

    def pack(self, values: list, dtype: str = "") -> bytes:
        """The variable's bytes for `values`, little-endian, one an element: of the floating type
        `dtype` where the source declares one (numpy's '<f4', '<f8', '<f2'), else integers of the
        element's size where the PTX gives it, else of `size / len(values)` bytes (1, 2, 4 or 8); a
        ValueError says why they do not fit."""
        if dtype:
            width = np.dtype(dtype).itemsize
            count = self.size // width
            if len(values) != count:
                raise ValueError(f"it holds {count} element{'s' * (count != 1)} of {width} bytes, so give "
                                 f"{count} value{'s' * (count != 1)}, not {len(values)}")
            return np.asarray(values, dtype=dtype).tobytes()
        if self.element_width:
            width, count = self.element_width, self.size // self.element_width
            if len(values) != count:
                raise ValueError(f"it holds {count} element{'s' * (count != 1)} of {width} bytes, so give "
                                 f"{count} value{'s' * (count != 1)}, not {len(values)}")
        else:
            width, rest = divmod(self.size, len(values)) if values else (0, 1)
            if rest or width not in (1, 2, 4, 8):
                raise ValueError(f"{len(values)} values do not divide its {self.size} bytes into elements of 1, 2, "
                                 "4 or 8 bytes")
        out = b""
        for v in values:
            lo, hi = -(1 << (8 * width - 1)), 1 << (8 * width)
            if not lo <= v < hi:
                raise ValueError(f"{v} does not fit in {width} bytes")
            out += (v % hi).to_bytes(width, "little")
        return out


@dataclass(frozen=True)
class Cubin:
    path: Path
    functions: dict[str, Function] = field(default_factory=dict)
    ptx: str = ""
    constants: tuple[Constant, ...] = ()  # `__constant__` variables, by offset in bank 3
    externals: dict[int, str] = field(default_factory=dict)  # bank 4 offset -> the function whose address it holds

    def constant_at(self, offset: int) -> Constant | None:
        """The `__constant__` variable whose bytes hold constant bank 3's `offset`, or None."""
        return next((c for c in self.constants if c.offset <= offset < c.offset + max(c.size, 1)), None)

    def entry(self, name: str) -> Function:
        """An entry point by its mangled name, its demangled name, or as written in the source."""
        if name in self.functions:
            return self.functions[name]
        want = _normalise(name)
        hits = [f for f in self.functions.values()
                if _normalise(f.source_name) == want or _normalise(f.demangled) == want]
        if len(hits) == 1:
            return hits[0]
        listing = ", ".join(sorted(f.source_name for f in self.functions.values())) or "none"
        if not hits:
            raise UsageError(f"no kernel {name!r} in {self.path.name}; its entry points: {listing}")
        raise UsageError(f"{name!r} names {len(hits)} kernels in {self.path.name}; give one of: "
                         + ", ".join(f.name for f in hits))


def _normalise(name: str) -> str:
    """Spaces dropped, and integer literals' suffixes: the demangler writes `reduce<256u>` for the
    `reduce<256>` of a template over unsigned, `k<8l>` for one over long."""
    return re.sub(r"(?<![\w.])(\d+)(?:[uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)(?!\w)", r"\1", re.sub(r"\s+", "", name))


def _strip_signature(demangled: str) -> str:
    """`void k<1>(float const*, int)` -> `k<1>`: drop the return type and the parameter list."""
    text = demangled
    if text.endswith(")"):
        depth = 0
        for i in range(len(text) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(text[i], 0)
            if depth == 0:
                text = text[:i]
                break
    if text.startswith("void "):
        text = text[5:]
    return text.strip()


def demangle(name: str) -> str:
    if not name.startswith("_Z"):
        return name
    import cxxfilt

    try:
        return cxxfilt.demangle(name)
    except cxxfilt.InvalidName:
        return name


def _records(data: bytes) -> list[tuple[int, int, bytes]]:
    """(format, attribute, payload) records of an .nv.info section; payload is the u16 for
    non-SVAL formats."""
    out, i = [], 0
    while i + 4 <= len(data):
        fmt, attr = data[i], data[i + 1]
        value = int.from_bytes(data[i + 2:i + 4], "little")
        if fmt == EIFMT_SVAL:
            out.append((fmt, attr, data[i + 4:i + 4 + value]))
            i += 4 + value
        else:
            out.append((fmt, attr, data[i + 2:i + 4]))
            i += 4
    return out


def _u32(b: bytes, at: int) -> int:
    return int.from_bytes(b[at:at + 4], "little")


_PTX_ENTRY = re.compile(r"\.entry\s+(\S+)\s*\(([^)]*)\)")
_PTX_SHARED = re.compile(r"\.shared\s+\.align\s+(\d+)\s+\.b8\s+(\S+?)\[(\d+)\]")
_PTX_EXTERN_SHARED = re.compile(r"\.extern\s+\.shared\s+\.align\s+(\d+)\s+\.b8\s+(\S+?)\[\]")


def _ptx_functions(ptx: str) -> dict[str, tuple[list[str], list[SharedVar]]]:
    """Per entry of the PTX text: its parameter types and the shared variables declared in it
    (module-scope `.shared` declarations belong to every entry that follows them)."""
    out: dict[str, tuple[list[str], list[SharedVar]]] = {}
    module_shared: list[SharedVar] = []
    parts = re.split(r"(?=\.(?:visible|weak)\s+\.entry\s)", ptx)
    for part in parts:
        m = _PTX_ENTRY.search(part)
        body = part[m.end():] if m else part
        head = part[:m.start()] if m else part
        for decl in _PTX_SHARED.finditer(head):
            module_shared.append(SharedVar(_shared_name(decl[2]), int(decl[3]), int(decl[1])))
        if not m:
            continue
        types = re.findall(r"\.param\s+(\.\w+)", m[2])
        local = [SharedVar(_shared_name(d[2]), int(d[3]), int(d[1])) for d in _PTX_SHARED.finditer(body)]
        local += [SharedVar(_shared_name(d[2]), 0, int(d[1])) for d in _PTX_EXTERN_SHARED.finditer(body)]
        out[m[1]] = (types, module_shared + local)
    return out


def _shared_name(symbol: str) -> str:
    """`_ZZ10sgemm_smemE2As` (a function-local static) -> `As`; a module-scope name stays."""
    text = demangle(symbol)
    return text.rsplit("::", 1)[-1]


def shared_layout(variables: list[SharedVar], section_bytes: int) -> tuple[SharedVar, ...]:
    """Offsets of the shared variables (declaration order, each at its alignment, after the
    reserved 1 KiB). () when the sizes do not add up to the section: then rows are named by
    offset rather than guessed."""
    offset, placed = SHARED_RESERVED, []
    for v in variables:
        offset = -(-offset // v.align) * v.align
        placed.append(SharedVar(v.name, v.size, v.align, offset))
        offset += v.size
    static = [v for v in placed if v.size > 0]
    end = max((v.offset + v.size for v in static), default=SHARED_RESERVED)
    if -(-end // 16) * 16 != -(-section_bytes // 16) * 16 and static:
        return ()
    return tuple(placed)


CACHE_KIND = "cubin-info-6"  # the cache folder of read_cubin's facts; a new layout, a new name


def read_cubin(path: Path | str) -> Cubin:
    """Every entry point of a cubin; a UsageError when the file is not a CUDA ELF. Read once per
    build: the facts are cached by the cubin's content (toolchain.cached_json), so a cached run
    does not import the ELF reader."""
    from warpsim import toolchain

    path = Path(path)
    try:
        doc = toolchain.cached_json(path, CACHE_KIND, lambda: _to_json(_read_elf(path)))
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from e
    return _from_json(path, doc)


def subroutines(path: Path | str, function: str) -> dict[str, int]:
    """The subroutines nvcc placed in `function`'s code section (the slow paths of float division,
    reciprocal and square root: `$__internal_0_$__cuda_sm20_rcp_rn_f32_slowpath`), by name -> byte
    offset in the section, which is the pc a CALL to it jumps to. Read from the ELF symbol table
    only for code that calls (few kernels do), so it is not cached."""
    with _elf(path) as elf:
        symtab = elf.get_section_by_name(".symtab")
        index = next((i for i, s in enumerate(elf.iter_sections()) if s.name == f".text.{function}"), None)
        if symtab is None or index is None:
            return {}
        return {s.name: s["st_value"] for s in symtab.iter_symbols()
                if s["st_shndx"] == index and s["st_info"]["type"] == "STT_FUNC" and s.name != function}


@contextmanager
def _elf(path: Path | str):
    """The cubin at `path` as a pyelftools ELFFile; a UsageError when it cannot be read or is not ELF."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile

    try:
        with open(path, "rb") as f:
            yield ELFFile(f)
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from e
    except ELFError as e:
        raise UsageError(f"{path} is not a cubin ({e}): build it with nvcc -cubin") from e


def _to_json(cubin: Cubin) -> dict:
    return {"ptx": cubin.ptx, "functions": [asdict(f) for f in cubin.functions.values()],
            "constants": [asdict(c) for c in cubin.constants],
            "externals": {str(k): v for k, v in cubin.externals.items()}}


def _from_json(path: Path, doc: dict) -> Cubin:
    functions = {}
    for f in doc["functions"]:
        functions[f["name"]] = Function(**{
            **f, "params": tuple(Param(**p) for p in f["params"]),
            "shared_vars": tuple(SharedVar(**v) for v in f["shared_vars"]),
            "ptx_param_types": tuple(f["ptx_param_types"]), "constant2": tuple(f.get("constant2", ()))})
    return Cubin(path, functions, doc["ptx"], tuple(Constant(**c) for c in doc.get("constants", ())),
                 {int(k): v for k, v in doc.get("externals", {}).items()})


def _read_elf(path: Path) -> Cubin:
    with _elf(path) as elf:
        sections = {s.name: s for s in elf.iter_sections()}
        symtab = sections.get(".symtab")
        if symtab is None or not any(n.startswith(".text.") for n in sections):
            raise UsageError(f"{path} is not a cubin (no CUDA code sections): build it with nvcc -cubin")
        symbols = list(symtab.iter_symbols())
        ptx = sections[".nv_debug_ptx_txt"].data().decode("utf-8", "replace").replace("\x00", "\n") \
            if ".nv_debug_ptx_txt" in sections else ""
        ptx_funcs = _ptx_functions(ptx)
        regcount: dict[int, int] = {}
        if ".nv.info" in sections:
            for fmt, attr, payload in _records(sections[".nv.info"].data()):
                if attr == EIATTR_REGCOUNT and fmt == EIFMT_SVAL:
                    regcount[_u32(payload, 0)] = _u32(payload, 4)
        functions = {}
        for index, sym in enumerate(symbols):
            if sym["st_info"]["type"] != "STT_FUNC" or f".text.{sym.name}" not in sections:
                continue
            info = sections.get(f".nv.info.{sym.name}")
            params, base = [], 0x210
            for fmt, attr, payload in _records(info.data()) if info is not None else []:
                if attr == EIATTR_KPARAM_INFO:
                    word = _u32(payload, 8)
                    params.append(Param(ordinal=int.from_bytes(payload[4:6], "little"),
                                        offset=int.from_bytes(payload[6:8], "little"),
                                        size=(word >> 18) & 0x3FFF))
                elif attr == EIATTR_PARAM_CBANK:
                    base = _u32(payload, 4) & 0xFFFF
            shared = sections.get(f".nv.shared.{sym.name}")
            shared_bytes = shared["sh_size"] if shared is not None else 0
            types, variables = ptx_funcs.get(sym.name, ([], []))
            functions[sym.name] = Function(
                name=sym.name, demangled=demangle(sym.name),
                params=tuple(sorted(params, key=lambda p: p.ordinal)), param_base=base,
                shared_bytes=shared_bytes, registers=regcount.get(index, 0),
                shared_vars=shared_layout(variables, shared_bytes), ptx_param_types=tuple(types),
                constant2=_bank_words(sections, f".nv.constant2.{sym.name}"))
        bank3 = next((i for i, sec in enumerate(elf.iter_sections()) if sec.name == ".nv.constant3"), None)
        constants = []
        if bank3 is not None:
            section = elf.get_section(bank3)
            data = section.data() if section["sh_type"] != "SHT_NOBITS" else bytes(section["sh_size"])
            for sym in symbols:
                if sym["st_shndx"] == bank3 and sym["st_info"]["type"] == "STT_OBJECT":
                    at, size = sym["st_value"], sym["st_size"]
                    initial = data[at:at + size]
                    align = re.search(rf"\.const\s+\.align\s+(\d+)\s+\.\w+\s+{re.escape(sym.name)}\b", ptx)
                    constants.append(Constant(at, sym.name, size, initial.hex() if any(initial) else "",
                                              min(int(align[1]), 8) if align else 0))
        # the addresses of functions outside the code (vprintf, __assertfail, malloc) that calls
        # load from constant bank 4, filled when the module loads
        rela = sections.get(".rela.nv.constant4")
        table = elf.get_section(rela["sh_link"]) if rela is not None else None
        externals = {r["r_offset"]: table.get_symbol(r["r_info_sym"]).name for r in rela.iter_relocations()
                     if table.get_symbol(r["r_info_sym"])["st_info"]["type"] != "STT_OBJECT"} if rela else {}
    return Cubin(path, functions, ptx, tuple(sorted(constants, key=lambda c: c.offset)), externals)


def _bank_words(sections: dict, name: str) -> tuple[int | None, ...]:
    """A constant bank section's little-endian 32-bit words; None for each word a relocation
    (`.rela<name>`) fills when the module loads, whose value the file does not hold."""
    section = sections.get(name)
    if section is None:
        return ()
    data = section.data()
    words: list[int | None] = [_u32(data, at) for at in range(0, len(data) - 3, 4)]
    rela = sections.get(f".rela{name}")
    for r in rela.iter_relocations() if rela is not None else ():
        for at in range(r["r_offset"] // 4, min(len(words), (r["r_offset"] + 8 + 3) // 4)):
            words[at] = None
    return tuple(words)
