"""A user's launch of any kernel: its source or cubin, entry point, grid, block and arguments.

    warpsim analyze kernels/transpose.cu --entry 'transpose_tiled<1>' --block 32x8 \\
        --grid 'cdiv(N,32),cdiv(M,32)' --arg M=1000 --arg N=1030

Parameters are named as in the kernel's signature, read from the `.cu` source (a `.cubin` is read
with the source its line table names, when that file exists, else its parameters are `p0`,
`p1`, ...). Types come from the demangled name (C++ entries) or the source (extern "C"), sizes
from the cubin. Every scalar parameter needs `--arg NAME=VALUE` (an int, or a float); every pointer
parameter is its own 256-byte-aligned buffer, as cudaMalloc gives, unless `--arg NAME=TYPE[COUNT]`
declares its element type and count (for out-of-bounds warnings). `--grid` items are integer
expressions over the scalar arguments with + - * // % ( ) and cdiv(a, b).

An integer buffer's contents may be given, `--arg NAME=TYPE[COUNT]=EXPR`: EXPR, an expression of
the same kind over the element index `i` and the scalar arguments, is element i's value
(`--arg perm='int[n]=(i*7919)%n'`, a permutation; `--arg rows='int[M+1]=i*8'`, a CSR matrix of 8
entries a row). A kernel that computes addresses from them (a gather, a CSR row loop, a
histogram's bins) is then counted exactly, block by block (warpsim.sass.machine), where without
them its addresses are data and refused; the GPU run (`profile run`) fills the buffer the same way.
Real data no expression writes (a random permutation, a sparse matrix's columns) comes from a file:
`--arg perm='int[n]=@perm.npy'`, a numpy.save file of integers (any shape, C order); `profile run`
copies it under traces/ by its digest and pins it there (`@PATH#DIGEST`), so a trace reads the
data that ran or refuses.

The buffers sit 2**40 bytes apart, each 2**28 bytes past a 4 GiB boundary: 256-byte aligned (so
sector and line counts are those of any cudaMalloc'd buffer), and a buffer of up to 3.75 GiB never
has its address's high word change, so 64-bit pointer arithmetic stays affine.

A `__constant__` variable whose value decides an address or a branch is given the same way, as
cudaMemcpyToSymbol would set it: `--arg OFF=-2,-1,0,1,2` (one integer expression an element, the
element's size from the PTX), `--arg cfg::STRIDE=2` (one in a namespace); without it such a kernel
is refused, the message naming the variable and its initial value. A `__constant__` read only as
data (a filter's weights) needs nothing.

A structure passed by value is laid out as C does from its definition in the `.cu` (each field
at its alignment, the size rounded to the largest or to its `__align__`), checked against the
cubin's size, and each field is a parameter of its own: `--arg p.n=1000 --arg p.x='float[p.n]'`
(`p.n` usable in --grid and the counts). An enum parameter is its integer.

Limitations: a structure with an array, a nested structure or a vector field is refused (saying
which field); `blockDim`-dependent code paths are handled (blockDim is in the constant bank),
textures and surfaces are not.
"""

from __future__ import annotations

import ast
import hashlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from warpsim.errors import UsageError
from warpsim.sass.cubin import SHARED_RESERVED, Constant, Function
from warpsim.sass.machine import Buffer, Launch

BUFFER_STRIDE = 1 << 40
BUFFER_OFFSET = 1 << 28
ELEMENT_BYTES = {"float": 4, "double": 8, "half": 2, "__half": 2, "int": 4, "unsigned": 4, "char": 1, "short": 2,
                 "long": 8, "bfloat16": 2, "__nv_bfloat16": 2, "uint8_t": 1, "int8_t": 1, "int32_t": 4, "uint32_t": 4,
                 "int64_t": 8, "uint64_t": 8, "int16_t": 2, "uint16_t": 2, "half2": 4, "__half2": 4, "bfloat162": 4,
                 "__nv_bfloat162": 4}
#: CUDA's vector types, `char1` to `double4` (`uchar3`: 3 bytes): name -> (its scalar's numpy type, lanes)
VECTOR_TYPES = {f"{base}{n}": (scalar, n) for base, scalar in (
    ("char", "int8"), ("uchar", "uint8"), ("short", "int16"), ("ushort", "uint16"), ("int", "int32"),
    ("uint", "uint32"), ("long", "int64"), ("ulong", "uint64"), ("longlong", "int64"), ("ulonglong", "uint64"),
    ("float", "float32"), ("double", "float64")) for n in (1, 2, 3, 4)}
ELEMENT_BYTES.update({name: {"int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4,
                             "float32": 4}.get(scalar, 8) * n for name, (scalar, n) in VECTOR_TYPES.items()})
FLOAT_TYPES = {"float", "double", "half", "__half", "__nv_bfloat16", "bfloat16"}


@dataclass(frozen=True)
class Param:
    name: str
    ctype: str  # as written (`const float *`, `int`)
    size: int  # bytes, from the cubin
    offset: int  # bytes into the parameter block
    struct: str | None = None  # the structure parameter this is a field of (its name is `struct.field`)
    struct_at: tuple[int, int] = (0, 0)  # that structure's offset and size in the parameter block
    struct_why: str | None = None  # a structure passed by value that is not laid out: why

    @property
    def pointer(self) -> bool:
        return "*" in self.ctype

    @property
    def base_type(self) -> str:
        words = [w for w in re.split(r"[\s*&]+", self.ctype)
                 if w and w not in ("const", "volatile", "__restrict__", "restrict", "struct", "signed")]
        return " ".join(words) or "int"

    @property
    def is_float(self) -> bool:
        return not self.pointer and self.base_type in FLOAT_TYPES

    @property
    def is_struct(self) -> bool:
        """A structure passed by value: neither a pointer nor a scalar type warpsim knows."""
        if self.pointer or self.base_type in ELEMENT_BYTES or self.base_type in FIELD_TYPES:
            return False
        return self.size > 8 or self.base_type.split()[-1] not in (
            "int", "long", "short", "char", "unsigned", "size_t", "bool", "int32_t", "uint32_t", "int64_t",
            "uint64_t", "cudaTextureObject_t", "cudaSurfaceObject_t")


@dataclass(frozen=True)
class GivenConstant:
    """A `__constant__` variable's value as the launch gives it (`--arg NAME=V[,V...]`)."""

    var: Constant
    values: tuple  # ints, or floats where the source declares a floating type
    text: str  # as given, spaces dropped
    dtype: str = ""  # numpy's '<f4', '<f8' or '<f2' where the source declares float, double or half

    @property
    def data(self) -> bytes:
        return self.var.pack(list(self.values), self.dtype)


@dataclass
class KernelLaunch:
    """Everything a launch fixes, resolved: the parameters with their values and the buffers."""

    function: Function
    params: list[Param]
    scalars: dict  # name -> int | float
    buffers: dict  # pointer name -> (element type, count) or None
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    warnings: list[str] = field(default_factory=list)
    dynamic_shared: int = 0  # bytes of dynamic shared memory per block (the launch's third <<<...>>> argument)
    contents: dict = field(default_factory=dict)  # pointer name -> its given values (`--arg NAME=TYPE[COUNT]=EXPR`)
    contents_text: dict = field(default_factory=dict)  # pointer name -> that EXPR, as given (spaces dropped)
    constants: dict = field(default_factory=dict)  # `__constant__` name as given -> GivenConstant

    @property
    def shared_bytes(self) -> int:
        """A block's shared memory: static (the reserved 1 KiB included), then dynamic, 16-aligned."""
        static = self.function.shared_bytes
        return -(-static // 16) * 16 + self.dynamic_shared if self.dynamic_shared else static

    def launch(self, shared_vars=()) -> Launch:
        raw: dict[int, int] = {}  # constant bank 0, byte by byte

        def put(at: int, value: int, size: int) -> None:
            for k in range(size):
                raw[at + k] = (value >> (8 * k)) & 0xFF

        for i, axis in enumerate(self.block):
            put(0x0 + 4 * i, axis, 4)
        for i, axis in enumerate(self.grid):
            put(0xC + 4 * i, axis, 4)
        put(0x28, 0x00FFFC00, 4)  # the stack pointer (local memory)
        base = self.function.param_base
        buffers = []
        for p in self.params:
            at = base + p.offset
            if p.pointer:
                address = self.address_of(p.name)
                put(at, address, 8)
                decl = self.buffers.get(p.name)
                nbytes = ELEMENT_BYTES.get(decl[0], 4) * decl[1] if decl else None
                given = self.contents.get(p.name)
                buffers.append(Buffer(p.name, address, nbytes, None if given is None else given.view(np.uint8)))
                continue
            put(at, _bits(p, self.scalars[p.name]), p.size)
        # whole words, a structure's padding and a small parameter's unused bytes zero
        cbank = {w: int.from_bytes(bytes(raw.get(w + k, 0) for k in range(4)), "little")
                 for w in sorted({a & ~3 for a in raw})}
        return Launch(self.grid, self.block, cbank, tuple(buffers), tuple(shared_vars), self.shared_bytes,
                      self.bank3())

    def bank3(self) -> dict:
        """Constant bank 3's words that the given `__constant__` values fill whole."""
        given = {c.var.offset + k: b for c in self.constants.values() for k, b in enumerate(c.data)}
        return {w: int.from_bytes(bytes(given[w + k] for k in range(4)), "little")
                for w in sorted({a & ~3 for a in given}) if all(w + k in given for k in range(4))}

    def address_of(self, name: str) -> int:
        pointers = [p.name for p in self.params if p.pointer]
        return (pointers.index(name) + 1) * BUFFER_STRIDE + BUFFER_OFFSET


def _bits(p: Param, value) -> int:
    """A scalar argument as the bytes the kernel reads (little-endian integer)."""
    t = p.base_type
    if p.is_float:
        if p.size == 8:
            return int(np.array(value, dtype=np.float64).view(np.uint64))
        if p.size == 2 or t in ("half", "__half"):
            return int(np.array(value, dtype=np.float16).view(np.uint16))
        return int(np.array(value, dtype=np.float32).view(np.uint32))
    v = int(value)
    return v & ((1 << (8 * p.size)) - 1)


# -- signatures ---------------------------------------------------------------------------------------

def _split_top(text: str, sep: str = ",", angles: bool = True) -> list[str]:
    """`text` split at each `sep` outside brackets, and outside a template's <...> where `angles`
    (a declaration; not an expression, whose << and >> are shifts)."""
    opening, closing = ("<([{", ">)]}") if angles else ("([{", ")]}")
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def source_signature(source: str, name: str) -> list[tuple[str, str]] | None:
    """(type, name) of each parameter of the `__global__` function `name` (template arguments
    dropped) in a CUDA source, or None if it is not found there."""
    base = name.split("<")[0].strip()
    text = _strip_comments(source)
    for m in re.finditer(r"__global__[^;{]*?\b" + re.escape(base) + r"\s*\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        inside = text[m.end():i - 1].strip()
        if inside in ("", "void"):
            return []
        params = []
        for part in _split_top(inside):
            part = part.split("=")[0].strip()
            mm = re.match(r"^(.*?)([A-Za-z_]\w*)\s*(\[[^\]]*\])?$", part)
            if not mm:
                return None
            ctype = mm[1].strip() + (" *" if mm[3] else "")
            params.append((ctype, mm[2]))
        return params
    return None


def demangled_types(demangled: str) -> list[str] | None:
    """Parameter types of a demangled C++ signature (`void k<1>(int, float const*)`), or None."""
    if not demangled.endswith(")") or "(" not in demangled:
        return None
    depth = 0
    for i in range(len(demangled) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(demangled[i], 0)
        if depth == 0:
            inside = demangled[i + 1:-1]
            return [] if inside.strip() in ("", "void") else _split_top(inside)
    return None


#: (size, alignment) of the scalar and vector types a structure parameter's fields may have
FIELD_TYPES = {
    **{t: (1, 1) for t in ("char", "signed char", "unsigned char", "bool", "int8_t", "uint8_t")},
    **{t: (2, 2) for t in ("short", "unsigned short", "short int", "int16_t", "uint16_t", "half", "__half",
                           "__nv_bfloat16")},
    **{t: (4, 4) for t in ("int", "unsigned", "unsigned int", "signed", "int32_t", "uint32_t", "float")},
    **{t: (8, 8) for t in ("long", "unsigned long", "long long", "unsigned long long", "size_t", "ptrdiff_t",
                           "int64_t", "uint64_t", "double")},
}


def _field_layout(ctype: str) -> tuple[int, int] | None:
    """(size, alignment) of a structure field's type: a pointer, or one of FIELD_TYPES; None else."""
    words = [w for w in re.split(r"[\s&]+", ctype.replace("*", " * ")) if w and w not in
             ("const", "volatile", "__restrict__", "restrict", "struct")]
    return (8, 8) if "*" in words else FIELD_TYPES.get(" ".join(words))


def struct_fields(source: str, name: str) -> tuple[int, list[tuple[str, str]]] | str:
    """The alignment `struct name { ... }` (or `typedef struct { ... } name`) declares in a CUDA
    source (`__align__(16)`; 1 where it declares none) and (type, name) of each of its fields, in
    order; or why it cannot be a structure warpsim lays out (not found, an array, a nested
    structure, a type it does not know)."""
    text = _strip_comments(source)
    m = (re.search(r"\b(?:struct|class)\s+(?:__align__\s*\(\s*\d+\s*\)\s*|alignas\s*\(\s*\d+\s*\)\s*)?"
                   + re.escape(name) + r"\s*\{", text)
         or re.search(r"\btypedef\s+struct\s*\w*\s*\{(?=[^{}]*\}\s*" + re.escape(name) + r"\s*;)", text))
    if m is None:
        return f"its definition (struct {name} {{ ... }}) is not in the source"
    body = text[m.end():text.index("}", m.end())]
    aligned = re.search(r"(?:__align__|alignas)\s*\(\s*(\d+)", m[0])
    fields = []
    for decl in (d.strip() for d in body.split(";")):
        if not decl:
            continue
        if "(" in decl or "{" in decl:
            return f"struct {name} has a member that is not a plain field ({decl.split(chr(10))[0].strip()})"
        first, *more = _split_top(decl)
        mm = re.match(r"^(.*?)([A-Za-z_]\w*)\s*(\[[^\]]*\])?$", first)
        if mm is None:
            return f"struct {name} has a member warpsim cannot read ({decl!r})"
        base = mm[1].replace("*", " ").strip()  # `float *a, *b`: each declarator its own stars
        others = [re.match(r"^(\**)\s*([A-Za-z_]\w*)\s*(\[[^\]]*\])?$", d.strip()) for d in more]
        if not all(others):
            return f"struct {name} has a member warpsim cannot read ({decl!r})"
        for ctype, member, array in [(mm[1].strip(), mm[2], mm[3])] + [
                (f"{base} {m[1]}".strip(), m[2], m[3]) for m in others]:
            if array:
                return f"struct {name}'s field {member} is an array (give its elements fields of their own)"
            if _field_layout(ctype) is None:
                return f"struct {name}'s field {member} is `{ctype}`, a type warpsim does not lay out " \
                       "(it takes pointers, integers and floats)"
            fields.append((ctype, member))
    return (int(aligned[1]) if aligned else 1), fields


def _expand_struct(p: Param, source: str | None) -> tuple[list[Param], str | None]:
    """A structure passed by value as its fields, each a parameter named `p.field` at its own
    offset (C's layout: each field at its alignment, the size rounded to the largest); or
    ([p], why not) where the source does not define it as warpsim can lay out, or the layout's
    size is not the cubin's."""
    if source is None:
        return [p], "there is no source to read its definition from"
    found = struct_fields(source, p.base_type.split("::")[-1])
    if isinstance(found, str):
        return [p], found
    widest, fields = found
    out, at = [], 0
    for ctype, name in fields:
        size, align = _field_layout(ctype)
        at = -(-at // align) * align
        out.append(Param(f"{p.name}.{name}", ctype, size, p.offset + at, struct=p.name,
                         struct_at=(p.offset, p.size)))
        at, widest = at + size, max(widest, align)
    total = -(-at // widest) * widest
    if total != p.size:
        return [p], f"its fields, laid out as C does, take {total} bytes where the cubin's parameter takes {p.size}"
    return out, None


def resolve_params(function: Function, source: str | None, names: list[str] | None = None
                   ) -> tuple[list[Param], list[str]]:
    """The entry point's parameters, named from the source (or by `names`, as a trace keeps
    them); (params, warnings)."""
    warnings = []
    sig = source_signature(source, function.source_name) if source else None
    if names is not None and len(names) == len(function.params):
        types = demangled_types(function.demangled)
        kept = [t for t, _ in sig] if sig is not None and len(sig) == len(names) else None
        sig = [((types[i] if types else kept[i] if kept else ""), n) for i, n in enumerate(names)]
    types = demangled_types(function.demangled)
    n = len(function.params)
    if sig is not None and len(sig) != n:
        warnings.append(f"the source's signature of {function.source_name} has {len(sig)} parameters, "
                        f"the cubin {n}: parameters are named p0..p{n - 1}")
        sig = None
    if sig is None and source is not None and not warnings:
        warnings.append(f"{function.source_name}'s signature was not found in the source: "
                        f"parameters are named p0..p{n - 1}")
    params = []
    for i, cp in enumerate(function.params):
        ctype = types[i] if types and len(types) == n else (sig[i][0] if sig else "")
        if not ctype:
            ptx = function.ptx_param_types[i] if i < len(function.ptx_param_types) else ""
            ctype = {".f32": "float", ".f64": "double", ".u64": "void *"}.get(ptx, "int")
        if sig is not None and not types:
            ctype = sig[i][0]
        name = sig[i][1] if sig else f"p{i}"
        param = Param(name, ctype, cp.size, cp.offset)
        if param.is_struct and source and cp.size <= 8 and re.search(
                r"\benum\s+(?:class\s+|struct\s+)?" + re.escape(param.base_type.split("::")[-1]) + r"\b", source):
            param = Param(name, "long" if cp.size == 8 else "int", cp.size, cp.offset)  # an enum: its integer
        if param.is_struct:
            fields, why = _expand_struct(param, source)
            if why is not None:
                param = Param(name, ctype, cp.size, cp.offset, struct_why=why)
            params += fields if why is None else [param]
            continue
        params.append(param)
    return params, warnings


# -- expressions ----------------------------------------------------------------------------------------

_ALLOWED = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Attribute, ast.Call, ast.Load,
            ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.USub, ast.UAdd, ast.LShift, ast.RShift,
            ast.BitAnd, ast.BitOr, ast.BitXor)
#: what an integer expression may hold, as refusals say it
SYNTAX = "integers, argument names, + - * // % << >> & | ^ ( ), cdiv(a, b), min and max"
FUNCTIONS = {"cdiv": 2, "min": None, "max": None}  # None: two arguments or more
OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
             ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b, ast.LShift: lambda a, b: a << b,
             ast.RShift: lambda a, b: a >> b, ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b,
             ast.BitXor: lambda a, b: a ^ b}


def eval_int(text: str, names: dict, what: str) -> int:
    """An integer expression over `names` (SYNTAX): C's integer operators, `//` for `/`, with
    Python's integers (no 32-bit wrap) and floors (for // and % of negative values)."""
    return int(evaluate(text, names, what))


def evaluate(text: str, names: dict, what: str):
    """`eval_int` where a name may also stand for an int64 array (a buffer's element index `i`):
    an int, or an array of them (numpy's // and % floor as Python's do)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise UsageError(f"{what} {text!r} does not parse: use {SYNTAX}, e.g. 'cdiv(N,32)'") from None
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise UsageError(f"{what} {text!r}: {type(node).__name__} is not allowed (only {SYNTAX})")
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            arity = FUNCTIONS.get(name, -1)
            if arity == -1 or node.keywords or (len(node.args) != arity if arity else len(node.args) < 2):
                raise UsageError(f"{what} {text!r}: the functions are cdiv(a, b), min(a, b, ...) and "
                                 f"max(a, b, ...), not {ast.unparse(node)}")
        if isinstance(node, ast.Constant) and (not isinstance(node.value, int) or isinstance(node.value, bool)):
            raise UsageError(f"{what} {text!r}: {node.value!r} is not an integer")

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Attribute):  # a field of a structure parameter, `p.n`
            node = ast.Name(id=ast.unparse(node))
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in FUNCTIONS:
                raise UsageError(f"{what} {text!r}: {node.id} is a function, e.g. {node.id}(a, b)")
            if node.id not in names:
                known = ", ".join(sorted(names)) or "none"
                raise UsageError(f"{what} {text!r} names {node.id!r}, which is not a scalar argument "
                                 f"(the scalar arguments: {known})")
            v = names[node.id]
            if not isinstance(v, (int, np.ndarray)):
                raise UsageError(f"{what} {text!r}: {node.id} is not an integer argument")
            return v
        if isinstance(node, ast.UnaryOp):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.Call):
            args = [ev(a) for a in node.args]
            if node.func.id != "cdiv":
                pick = np.minimum if node.func.id == "min" else np.maximum
                out = args[0]
                for v in args[1:]:
                    out = pick(out, v) if isinstance(out, np.ndarray) or isinstance(v, np.ndarray) else \
                        (min if node.func.id == "min" else max)(out, v)
                return out
            a, b = args
            if np.any(np.asarray(b) == 0):
                raise UsageError(f"{what} {text!r}: cdiv by zero")
            return -(-a // b)
        a, b = ev(node.left), ev(node.right)
        if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and np.any(np.asarray(b) == 0):
            raise UsageError(f"{what} {text!r}: division by zero")
        if isinstance(node.op, (ast.LShift, ast.RShift)) and np.any((np.asarray(b) < 0) | (np.asarray(b) > 63)):
            raise UsageError(f"{what} {text!r}: a shift by {ast.unparse(node.right)} (0 to 63 bits)")
        return OPERATORS[type(node.op)](a, b)

    return ev(tree)


#: Element types whose contents a launch may give (`--arg NAME=TYPE[COUNT]=EXPR`): integers, the
#: indices a kernel computes addresses from (numpy's type for each).
CONTENT_TYPES = {"int": np.int32, "int32_t": np.int32, "unsigned": np.uint32, "uint32_t": np.uint32,
                 "short": np.int16, "char": np.int8, "int8_t": np.int8, "uint8_t": np.uint8, "long": np.int64,
                 "int64_t": np.int64}
INDEX = "i"  # the element index in a contents expression


def contents(name: str, kind: str, count: int, text: str, ints: dict) -> np.ndarray:
    """The values of a buffer whose contents the launch gives, as the element type: `text`, an
    integer expression of the element index `i` and the integer arguments, at i = 0 .. count-1;
    or `@PATH`, a .npy file's integers (`numpy.save`; any shape, read in C order, as cudaMemcpy
    copies a C-contiguous array), `@PATH#DIGEST` where the file's sha256 must begin with DIGEST
    (what a trace records, `file_digest`)."""
    what = f"--arg {name}={kind}[...]={text}:"
    if kind not in CONTENT_TYPES:
        raise UsageError(f"{what} contents are given for integer buffers only (the indices addresses are "
                         f"computed from: {', '.join(sorted(CONTENT_TYPES))}); leave out '={text}'")
    if count > MAX_CONTENTS:
        raise UsageError(f"{what} {count:,} elements: warpsim keeps given contents of up to {MAX_CONTENTS:,}")
    if text.startswith(FILE_MARK):
        values = _file_contents(what, text, kind, count)
    else:
        if INDEX in ints:
            raise UsageError(f"{what} the element index {INDEX!r} is also a scalar argument's name; rename it")
        values = np.broadcast_to(np.asarray(evaluate(text, {**ints, INDEX: np.arange(count, dtype=np.int64)},
                                                     f"--arg {name}"), dtype=np.int64), (count,))
    info = np.iinfo(CONTENT_TYPES[kind])
    bad = np.flatnonzero((values < info.min) | (values > info.max))
    if len(bad):
        raise UsageError(f"{what} element {bad[0]} is {values[bad[0]]}, outside {kind}'s range "
                         f"[{info.min}, {info.max}]")
    return values.astype(CONTENT_TYPES[kind])


FILE_MARK = "@"  # `--arg perm='int[n]=@perm.npy'`: the contents are a file's
NPY_MAGIC = b"\x93NUMPY"  # how every .npy file begins (numpy.lib.format)
DIGEST_MARK = "#"  # `@perm.npy#1a2b3c4d5e6f7a8b`: ... whose sha256 begins so


def file_reference(text: str) -> tuple[Path, str] | None:
    """A buffer argument's contents file: `TYPE[COUNT]=@PATH[#DIGEST]`, or the contents alone
    (`@PATH[#DIGEST]`) -> (PATH, DIGEST or ''); None for any other argument."""
    text = str(text).replace(" ", "")
    if not text.startswith(FILE_MARK):
        decl, sep, text = text.partition("]=")
        if not sep or not text.startswith(FILE_MARK):
            return None
    path, _, digest = text.removeprefix(FILE_MARK).partition(DIGEST_MARK)
    return Path(path), digest


def with_file(text: str, path: Path | str, digest: str = "") -> str:
    """`text` (an argument or contents `file_reference` reads) naming `path` and `digest` instead."""
    text = str(text).replace(" ", "")
    head = "" if text.startswith(FILE_MARK) else text.partition("]=")[0] + "]="
    return f"{head}{FILE_MARK}{path}" + (f"{DIGEST_MARK}{digest}" if digest else "")


def file_digest(path: Path | str) -> str:
    """The first 16 hex digits of a file's sha256, as `@PATH#DIGEST` pins it."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def _file_contents(what: str, text: str, kind: str, count: int) -> np.ndarray:
    """A `@PATH[#DIGEST]` buffer's values, as int64, checked: a .npy of integers, `count` of them."""
    path, digest = file_reference(text)
    if not path.is_file():
        raise UsageError(f"{what} there is no file {path}; give a .npy file written by numpy.save")
    data = path.read_bytes()  # read once: hashed, checked and parsed from memory
    if digest and not hashlib.sha256(data).hexdigest().startswith(digest.lower()):
        raise UsageError(f"{what} {path} is not the file recorded (its sha256 does not begin {digest}): "
                         "restore that file, or give the launch without the digest")
    if not data.startswith(NPY_MAGIC):
        kind_of = "an .npz archive" if data.startswith(b"PK") else "not a .npy file"
        raise UsageError(f"{what} {path} is {kind_of}; give one array's .npy, written by numpy.save")
    try:
        values = np.load(io.BytesIO(data), allow_pickle=False)
    except (OSError, ValueError, EOFError) as e:  # Python objects (pickled), a truncated file
        raise UsageError(f"{what} {path}: numpy cannot read it without pickle ({e}); save an integer array") \
            from None
    if values.dtype.kind not in "iu":
        raise UsageError(f"{what} {path} holds {values.dtype} values; contents are integers (the indices "
                         f"addresses are computed from): save them as integers")
    if values.size != count:
        raise UsageError(f"{what} {path} holds {values.size:,} elements where {kind}[{count:,}] is declared; "
                         "declare its size, or give the file of that size")
    values = values.reshape(-1)
    if values.dtype == np.uint64 and len(values) and values.max() > np.iinfo(np.int64).max:
        big = int(np.flatnonzero(values > np.iinfo(np.int64).max)[0])
        raise UsageError(f"{what} element {big} is {values[big]}, outside {kind}'s range")
    return values.astype(np.int64)


MAX_CONTENTS = 1 << 28  # elements of a buffer's given contents (1 GiB of int32)


def parse_dim3(text: str, names: dict, what: str) -> tuple[int, int, int]:
    """'32x8', '256', '32x8x1' (block) or 'cdiv(N,32),cdiv(M,32)' (grid) -> (x, y, z)."""
    sep = "," if "," in text or what == "--grid" else "x"
    items = _split_top(text, sep, angles=False) if sep == "," else [t.strip() for t in re.split(r"[xX]", text)]
    if not 1 <= len(items) <= 3 or any(not i for i in items):
        raise UsageError(f"{what} {text!r} must have one to three items, e.g. --block 32x8 or "
                         "--grid 'cdiv(N,32),cdiv(M,32)'")
    values = [eval_int(i, names, what) for i in items]
    while len(values) < 3:
        values.append(1)
    if any(v < 1 for v in values):
        raise UsageError(f"{what} {text!r} gives {tuple(values)}: every side must be at least 1")
    return tuple(values)


#: `cfg::STRIDE`: a __constant__ in a namespace; `p.n`: a field of a structure parameter
_ARG = re.compile(r"^\s*([A-Za-z_][\w:.]*)\s*=\s*(.+?)\s*$")
_DECL = re.compile(r"^([A-Za-z_]\w*)\s*\[(.+)\]$")


def parse_args(texts: list[str]) -> dict[str, str]:
    out = {}
    for t in texts:
        m = _ARG.match(t)
        if not m:
            raise UsageError(f"--arg {t!r} must be NAME=VALUE (e.g. --arg M=1024) or NAME=TYPE[COUNT] "
                             "(e.g. --arg A='float[M*K]')")
        if m[1] in out:
            raise UsageError(f"--arg {m[1]} is given twice")
        out[m[1]] = m[2]
    return out


def _scalar(p: Param, text: str):
    try:
        if p.is_float:
            return float(text)
        return int(text, 0)
    except ValueError:
        kind = "a number" if p.is_float else "an integer"
        raise UsageError(f"--arg {p.name}={text}: {p.name} is `{p.ctype}`, so its value must be {kind}") from None


#: The most shared memory a block may take on sm_90, static and dynamic (227 KiB; a block past
#: 48 KiB of dynamic shared memory opts in with cudaFuncAttributeMaxDynamicSharedMemorySize).
MAX_SHARED_PER_BLOCK = 227 * 1024


def bind(function: Function, params: list[Param], args: dict[str, str], grid: str, block: str,
         warnings: list[str], dynamic_shared: str | None = None, constants: tuple[Constant, ...] = (),
         source: str | None = None) -> KernelLaunch:
    """Check the arguments against the signature and evaluate the launch (`dynamic_shared`: an
    integer expression of the scalar arguments, bytes of dynamic shared memory per block;
    `constants`: the module's `__constant__` variables, which `--arg NAME=VALUE[,VALUE...]` may
    give values as cudaMemcpyToSymbol would; `source`, the .cu's text, tells which of them are
    float, double or half)."""
    signature = ", ".join(f"{p.ctype} {p.name}".strip() for p in params)
    names = {p.name for p in params}
    by_name = {name: c for c in constants for name in (c.name, c.source_name)}
    unknown = sorted(set(args) - names - set(by_name))
    if unknown:
        known = f"; its __constant__ variables: {', '.join(c.source_name for c in constants)}" if constants else ""
        raise UsageError(f"--arg {unknown[0]}: {function.source_name} has no parameter of that name; "
                         f"its signature: ({signature}){known}")
    scalars, buffers, given_text = {}, {}, {}
    for p in params:
        text = args.get(p.name)
        if p.pointer:
            if text is None:
                buffers[p.name] = None
                continue
            decl, _, given = text.replace(" ", "").partition("]=")
            m = _DECL.match(decl + "]" if given else decl)
            if not m or (given == "" and "]=" in text.replace(" ", "")):
                raise UsageError(f"--arg {p.name}={text}: {p.name} is a pointer; give TYPE[COUNT], "
                                 f"e.g. --arg {p.name}='float[M*K]', TYPE[COUNT]=CONTENTS, e.g. "
                                 f"--arg {p.name}='int[n]=(i*7)%n', or leave it out")
            buffers[p.name] = (m[1], m[2])
            if given:
                given_text[p.name] = given
            continue
        if p.base_type in ("cudaTextureObject_t", "cudaSurfaceObject_t"):
            kind = p.base_type.removeprefix("cuda").removesuffix("Object_t").lower()
            raise UsageError(f"parameter {p.name} is a {kind} object: its fetches go through the texture path, "
                             "which warpsim does not count (it counts global, shared and local accesses); read the "
                             "array through a pointer instead")
        if p.is_struct:
            raise UsageError(f"parameter {p.name} is `{p.ctype}` ({p.size} bytes), a structure by value, and "
                             f"{p.struct_why or 'warpsim cannot lay it out'}: warpsim takes structures of "
                             "pointers, integers and floats it finds defined in the .cu, each field given as "
                             f"--arg {p.name}.FIELD=VALUE")
        if text is None:
            raise UsageError(f"--arg {p.name}=VALUE is missing; {function.source_name}'s signature: ({signature})")
        scalars[p.name] = _scalar(p, text)
    ints = {k: v for k, v in scalars.items() if isinstance(v, int)}
    given_constants = {}
    for name in sorted(set(args) & set(by_name) - names):
        var = by_name[name]
        dtype = constant_dtype(source, var.source_name)
        given_constants[name] = GivenConstant(var, _constant_values(var, name, args[name], ints, dtype),
                                              args[name].replace(" ", ""), dtype)
    for name, decl in list(buffers.items()):
        if decl is not None:
            kind, count = decl
            if kind not in ELEMENT_BYTES:
                raise UsageError(f"--arg {name}={kind}[{count}]: unknown element type {kind!r} "
                                 f"(known: {', '.join(sorted(set(ELEMENT_BYTES) - set(VECTOR_TYPES)))} and "
                                 "CUDA's vector types char1 to double4); an array of structures "
                                 f"is declared in bytes, e.g. {name}='uint8_t[12*({count})]' for structures of "
                                 "12 bytes")
            buffers[name] = (kind, eval_int(count, ints, f"--arg {name}"))
    given = {name: contents(name, buffers[name][0], buffers[name][1], text, ints) for name, text in given_text.items()}
    g = parse_dim3(grid, ints, "--grid")
    b = parse_dim3(block, ints, "--block")
    threads = b[0] * b[1] * b[2]
    if threads > 1024:
        raise UsageError(f"--block {block} has {threads} threads; CUDA allows at most 1024 per block")
    if b[2] > 64:
        raise UsageError(f"--block {block}: blockDim.z is at most 64")
    if g[0] > 2**31 - 1 or g[1] > 65535 or g[2] > 65535:
        warnings.append(f"grid {g[0]}x{g[1]}x{g[2]} exceeds CUDA's limits (x < 2^31, y and z <= 65535): "
                        "the real launch would fail; warpsim counts it anyway")
    dynamic = eval_int(dynamic_shared, ints, "--dynamic-shared") if dynamic_shared is not None else 0
    static = function.shared_bytes - SHARED_RESERVED
    if dynamic < 0 or dynamic + static > MAX_SHARED_PER_BLOCK:
        raise UsageError(f"--dynamic-shared {dynamic_shared} = {dynamic:,} bytes: a block takes 0 to "
                         f"{MAX_SHARED_PER_BLOCK - static:,} bytes of dynamic shared memory beside its "
                         f"{static:,} static ones on sm_90")
    return KernelLaunch(function, params, scalars, buffers, g, b, warnings, dynamic, given, given_text,
                        given_constants)


FLOAT_DTYPES = {"float": "<f4", "double": "<f8", "half": "<f2", "__half": "<f2"}


def constant_dtype(source: str | None, name: str) -> str:
    """numpy's dtype of a `__constant__` variable the source declares float, double or half
    (`__constant__ float c_Kernel[17];`), else "" (its values are integers)."""
    if not source:
        return ""
    base = re.escape(name.split("::")[-1])
    m = re.search(r"__constant__\s+((?:[A-Za-z_]\w*\s+)+?)" + base + r"\s*[\[;=]", _strip_comments(source))
    words = [w for w in m[1].split() if w not in ("const", "static", "__device__", "volatile")] if m else []
    return FLOAT_DTYPES.get(" ".join(words), "")


def _constant_values(var: Constant, name: str, text: str, ints: dict, dtype: str = "") -> tuple:
    """`--arg NAME=V[,V...]` for a `__constant__` variable: integer expressions of the scalar
    arguments, one an element, or numbers where it is float, double or half (`dtype`);
    Constant.pack checks that they fill it."""
    items = _split_top(text, ",", angles=False)
    if dtype:
        try:
            values = tuple(float(item) for item in items)
        except ValueError:
            raise UsageError(f"--arg {name}={text}: __constant__ {name} holds floating values; give numbers, "
                             f"e.g. --arg {name}={var.initial_text(dtype)}") from None
    else:
        values = tuple(eval_int(item, ints, f"--arg {name}") for item in items)
    try:
        var.pack(list(values), dtype)
    except ValueError as e:
        raise UsageError(f"--arg {name}={text}: __constant__ {name} takes {var.size} bytes; {e} (its initial "
                         f"value: --arg {name}={var.initial_text(dtype)})") from None
    return values


def read_source(path: Path | None) -> str | None:
    if path is None or not Path(path).is_file():
        return None
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
