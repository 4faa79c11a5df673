"""Launch plans: any kernel's launches, resolved where nvcc runs, replayed where the GPU is.

A plan is JSON, one entry per launch:

    {"id": "transpose/transpose_tiled_1__M97_N61", "source": "kernels/transpose.cu",
     "entry": "transpose_tiled<1>", "mangled": "_Z15transpose_tiledILi1EEviiPKfPf",
     "cubin": "traces/sass/transpose/transpose-1a2b3c4d5e6f7a8b.cubin", "cubin_sha256": "...",
     "source_sha256": "...", "grid": [2, 4, 1], "block": [32, 8, 1],
     "grid_text": "cdiv(N,32),cdiv(M,32)", "block_text": "32x8", "args": {"M": "97", "N": "61"},
     "params": [{"name": "M", "kind": "int", "size": 4, "value": 97},
                {"name": "in", "kind": "pointer", "dtype": "float32", "count": 5917}, ...],
     "per_array": true, "reference": "transpose.cu:transpose_tiled<1>"}

`build` resolves a launch with warpsim's own front-end (the cubin of the pinned nvcc, the
parameters of the signature, the grid expressions) and copies the cubin under traces/, so the
trace that ncu's numbers become keeps the machine code that ran; the GPU side (profiling.launch)
needs nothing but CuPy to replay it. Every pointer parameter must be declared (TYPE[COUNT]):
the replay allocates and fills it with random data of that type, or, for an index buffer whose
contents the launch gives (TYPE[COUNT]=EXPR, the param's "contents"), with the values warpsim
counted from (warpsim.sass.launch.contents: the same expression, evaluated alike). A
`__constant__` variable the launch gives a value (`--arg OFF=-2,-1,0,1,2`) is the entry's
"constants" (symbol, values, bytes), which the replay copies in as cudaMemcpyToSymbol would.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from warpsim.errors import UsageError
from warpsim.sass.launch import VECTOR_TYPES
from warpsim.toolchain import source_sha256

REPO = Path(__file__).resolve().parent.parent
SASS_TRACES = "sass"  # traces/sass/<source stem>/<launch>.json
DTYPES = {"float": "float32", "double": "float64", "half": "float16", "__half": "float16", "int": "int32",
          "unsigned": "uint32", "char": "int8", "short": "int16", "long": "int64", "uint8_t": "uint8", "int8_t": "int8",
          "int32_t": "int32", "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64", "int16_t": "int16",
          "uint16_t": "uint16", "half2": "float16", "__half2": "float16", "bfloat162": "uint16",
          "__nv_bfloat162": "uint16"}
#: vector types: scalars per element
LANES = {"half2": 2, "__half2": 2, "bfloat162": 2, "__nv_bfloat162": 2}
for _name, (_scalar, _lanes) in VECTOR_TYPES.items():  # char1 to double4, as the engine sizes them
    DTYPES[_name], LANES[_name] = _scalar, _lanes


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def launch_id(source: Path, entry: str, args: dict) -> str:
    """`stem/entry__` and the scalar arguments, then each contents file's name (`TYPE[COUNT]=@PATH`:
    launches that differ only in the data they are given are traces of their own)."""
    from warpsim.sass.launch import file_reference

    scalars = "_".join(f"{_slug(k)}{_slug(str(v).replace('-', 'm'))}" for k, v in args.items() if "[" not in str(v))
    files = "".join(f"_{_slug(k)}-{_slug(ref[0].stem)}" for k, v in args.items() if (ref := file_reference(v)))
    return f"{Path(source).stem}/{_slug(entry)}__{scalars}{files}"


def _relative(path: Path) -> str:
    path = Path(path).resolve()
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def _in_struct(p) -> dict:
    """A field of a structure passed by value: the structure's name, offset and size and the
    field's offset in it, for the GPU run to pack the structure (profiling.launch)."""
    if p.struct is None:
        return {}
    base, size = p.struct_at
    return {"struct": p.struct, "struct_size": size, "field_offset": p.offset - base}


def _pin_files(args: dict, folder: Path) -> dict:
    """Buffer contents given as a file (`TYPE[COUNT]=@PATH`) copied into `folder` under their
    digest, the argument rewritten to that copy and pinned (`@COPY#DIGEST`): the trace keeps the
    data that ran, and its launch reads that data again or refuses (warpsim.sass.launch.contents)."""
    from warpsim.sass.launch import file_digest, file_reference, with_file

    pinned = {}
    for name, text in args.items():
        ref = file_reference(text)
        if ref and ref[0].is_file() and not ref[1]:  # a file not there, or one pinned already: contents() says
            digest = file_digest(ref[0])
            copy = folder / f"{ref[0].stem}-{digest}{ref[0].suffix}"
            if not copy.exists():
                folder.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(ref[0], copy)
            text = with_file(text, copy.resolve(), digest)
        pinned[name] = text
    return pinned


def _portable(text: str) -> str:
    """A pinned contents file (`...@/checkout/traces/...#DIGEST`) named from the checkout, as the
    plan's cubin is: the GPU run and `profile compare` find it there."""
    from warpsim.sass.launch import file_reference, with_file

    ref = file_reference(text)
    return with_file(text, _relative(ref[0]), ref[1]) if ref and ref[1] else text


def build(source: Path | str, entry: str, grid: str, block: str, args: dict, traces_dir: Path,
          per_array: bool = False, reference: str | None = None, dynamic_shared: str | None = None) -> dict:
    """One launch of any kernel, resolved (a UsageError says what is missing); copies its cubin
    into traces_dir/sass/<stem>/. `dynamic_shared`: bytes of dynamic shared memory per block, an
    integer expression of the scalar arguments (the entry keeps it, and its value)."""
    from warpsim.sass.analyze import prepare

    args = _pin_files({k: str(v) for k, v in args.items()}, Path(traces_dir) / SASS_TRACES / Path(source).stem)
    kernel = prepare(source, entry, grid, block, args, dynamic_shared=dynamic_shared)
    k = kernel.launch
    params = []
    for p in k.params:
        if p.pointer:
            decl = k.buffers.get(p.name)
            if decl is None:
                raise UsageError(f"pointer parameter {p.name} has no size: declare it, e.g. "
                                 f"--arg {p.name}='float[COUNT]', so the GPU run can allocate it")
            kind, count = decl
            given = k.contents_text.get(p.name)  # contents the launch gives
            params.append({"name": p.name, "kind": "pointer", "type": kind, "dtype": DTYPES.get(kind, "float32"),
                           "count": int(count) * LANES.get(kind, 1), **({"contents": _portable(given)} if given else {}),
                           **_in_struct(p)})
        else:
            params.append({"name": p.name, "kind": "float" if p.is_float else "int", "size": p.size,
                           "value": k.scalars[p.name], **_in_struct(p)})
    data = Path(kernel.cubin_path).read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    stem = Path(source).stem
    folder = Path(traces_dir) / SASS_TRACES / stem
    folder.mkdir(parents=True, exist_ok=True)
    cubin = folder / f"{stem}-{sha[:16]}.cubin"
    if not cubin.exists():
        shutil.copyfile(kernel.cubin_path, cubin)
    shared = {"dynamic_shared_text": dynamic_shared, "dynamic_shared": k.dynamic_shared} if dynamic_shared else {}
    # `__constant__` values the launch gives: the GPU run sets them as cudaMemcpyToSymbol would
    constants = {"constants": [{"name": name, "symbol": c.var.name, "values": list(c.values), "bytes": c.data.hex()}
                               for name, c in k.constants.items()]} if k.constants else {}
    return {
        "id": launch_id(Path(source), entry, args), "source": _relative(Path(source)), "entry": entry,
        "mangled": kernel.program.function.name, "cubin": _relative(cubin), "cubin_sha256": sha,
        "source_sha256": source_sha256(source),
        "grid": list(k.grid), "block": list(k.block), "grid_text": grid, "block_text": block,
        "args": {key: _portable(v) for key, v in args.items()}, "params": params, "per_array": per_array,
        "reference": reference, **shared, **constants,
    }


def _from_folder(text: str, folder: Path) -> str:
    """A catalog buffer's contents file (`TYPE[COUNT]=@PATH`) named from the catalog's folder."""
    from warpsim.sass.launch import file_reference, with_file

    ref = file_reference(text)
    return with_file(text, Path(folder) / ref[0], ref[1]) if ref and not ref[0].is_absolute() else text


def from_catalog(catalog: Path | str, traces_dir: Path, kernels_dir: Path | None = None) -> list[dict]:
    """Every launch of kernels/catalog.toml (every size; per_array at its per_array index)."""
    catalog = Path(catalog)
    try:
        entries = tomllib.loads(catalog.read_text())["kernel"]
    except (OSError, tomllib.TOMLDecodeError, KeyError) as e:
        raise UsageError(f"{catalog} is not a kernel catalog ({e})") from e
    folder = kernels_dir or catalog.parent
    launches = []
    for e in entries:
        for i, size in enumerate(e["sizes"]):
            args = {**size, **{name: _from_folder(text, folder) for name, text in e.get("buffers", {}).items()}}
            launches.append(build(folder / e["file"], e["entry"], e["grid"], e["block"], args, traces_dir,
                                  per_array=(i == e.get("per_array", -1)), reference=f"{e['file']}:{e['entry']}",
                                  dynamic_shared=e.get("dynamic_shared")))
    return launches


def save(launches: list[dict], path: Path | str) -> Path:
    path = Path(path)
    path.write_text(json.dumps({"schema": 1, "launches": launches}, indent=1) + "\n")
    return path


def load(path: Path | str) -> list[dict]:
    try:
        data = json.loads(Path(path).read_text())
        return list(data["launches"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as e:
        raise UsageError(f"{path} is not a launch plan ({e})") from e


@dataclass(frozen=True)
class PlanLaunch:
    """A plan entry, for the GPU side (no warpsim front-end needed)."""

    entry: dict

    @property
    def id(self) -> str:
        return self.entry["id"]

    root = REPO  # where the plan's relative paths (its cubin, its contents files) start

    def cubin(self, root: Path = REPO) -> Path:
        return Path(root) / self.entry["cubin"]
