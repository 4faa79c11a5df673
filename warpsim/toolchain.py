"""The one CUDA toolchain: a `.cu` file -> an nvcc cubin (cached), and the tools that read cubins.

Running, profiling, benchmarking and the SASS engine all use the cubin `build_cubin` returns, so
what ncu measures is the machine code warpsim reads. CuPy's NVRTC (`RawModule(code=...)`) is
never used: its compiler need not be nvcc's.

The compiler is pinned (`NVCC_RELEASE`): the same source compiled by another release gives other
machine code (seen: nvcc 13.5 emits 11,262 instructions where 13.0 emits 11,378 for one file).
`find_nvcc` takes, in order, the nvcc of the PyPI wheel `nvidia-cuda-nvcc` that pyproject.toml
pins, then an nvcc on PATH or in /usr/local/cuda of the same release; any other release is
refused with the command that installs the right one. nvdisasm and cuobjdump come from their
PyPI wheels (or PATH): they only read the cubin, so their release does not change what is read.

A cubin is a function of what its cache key holds: the source bytes (with the files it includes
in quotes) and path, the flags and the release. ptxas would also write each source file's modification
time into the cubin's line table, so a fresh checkout compiled byte-different cubins of the same
machine code; nvcc compiles to PTX first, and the PTX's `.file` directives are given a fixed time
(`pin_file_dates`) before ptxas runs. A header found through `-I` or the system paths is not part
of the key (delete the cache folder after editing one).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from warpsim.errors import UsageError

NVCC_RELEASE = "13.0"  # the H200's nvcc (V13.0.88), pinned in pyproject.toml
ARCH = "sm_90"  # the H200 (compute capability 9.0)
FLAGS = ("-O3", "-lineinfo")  # -lineinfo: ncu's source page and warpsim's rows map SASS to .cu lines
INSTALL = ("pip install 'nvidia-cuda-nvcc==13.0.88' 'nvidia-nvvm==13.0.88' 'nvidia-cuda-crt==13.0.88' "
           "'nvidia-cuda-runtime==13.0.88' 'nvidia-cuda-cccl==13.0.85'")


def default_cache_dir() -> Path:
    """$WARPSIM_CACHE, else $XDG_CACHE_HOME/warpsim, else ~/.cache/warpsim: cubins and listings."""
    if os.environ.get("WARPSIM_CACHE"):
        return Path(os.environ["WARPSIM_CACHE"])
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "warpsim"


@dataclass(frozen=True)
class BuildOptions:
    arch: str = ARCH
    flags: tuple[str, ...] = FLAGS
    cache_dir: Path | None = None  # None: default_cache_dir()/cubin
    nvcc: str | None = None  # an explicit nvcc; None: find_nvcc()

    @property
    def cubin_dir(self) -> Path:
        return self.cache_dir if self.cache_dir is not None else default_cache_dir() / "cubin"


def _wheel_bin(name: str) -> Path | None:
    """`name` in the bin/ folder of an nvidia-cuda-* wheel (nvidia/cu13/bin), if installed."""
    try:
        import nvidia  # the namespace package of NVIDIA's wheels
    except ImportError:
        return None
    for root in getattr(nvidia, "__path__", []):
        for candidate in sorted(Path(root).glob(f"cu*/bin/{name}")):
            if os.access(candidate, os.X_OK):
                return candidate
    return None


def nvcc_release(nvcc: Path | str) -> str:
    """'13.0' from `nvcc --version` ('Cuda compilation tools, release 13.0, V13.0.88'); '' if unknown."""
    try:
        out = subprocess.run([str(nvcc), "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    m = re.search(r"release (\d+\.\d+)", out)
    return m[1] if m else ""


def find_nvcc() -> Path:
    """The pinned nvcc: the wheel's, else one on PATH or in /usr/local/cuda of release NVCC_RELEASE."""
    wheel = _wheel_bin("nvcc")
    if wheel is not None:
        return wheel
    seen = []
    for candidate in (shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and Path(candidate).exists():
            release = nvcc_release(candidate)
            if release == NVCC_RELEASE:
                return Path(candidate)
            seen.append(f"{candidate} is release {release or '?'}")
    found = f" ({'; '.join(seen)})" if seen else ""
    raise UsageError(f"nvcc {NVCC_RELEASE} not found{found}: {INSTALL}")


def find_tool(name: str) -> Path:
    """`nvdisasm` or `cuobjdump`: from its PyPI wheel, else on PATH."""
    found = _wheel_bin(name) or shutil.which(name)
    if found:
        return Path(found)
    raise UsageError(f"{name} not found: pip install nvidia-cuda-{name} (or put the CUDA toolkit's bin/ on PATH)")


_LOCAL_INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


def source_bytes(cu_path: Path | str) -> bytes:
    """A kernel source as it compiles: the file's bytes, then each file it includes with quotes
    (found beside the file that includes it, as nvcc looks first), transitively, each once, with
    its name. A file without such includes is its bytes alone, so its identity is its sha256."""
    cu_path = Path(cu_path)
    try:
        out = [cu_path.read_bytes()]
    except OSError as e:
        raise UsageError(f"cannot read kernel source {cu_path}: {e.strerror}") from e
    seen, todo = {cu_path.resolve()}, [(cu_path, out[0])]
    while todo:
        path, text = todo.pop(0)
        for name in _LOCAL_INCLUDE.findall(text):
            inc = (path.parent / name.decode("utf-8", "replace")).resolve()
            if inc in seen or not inc.is_file():
                continue  # a system or -I header: not part of the identity
            seen.add(inc)
            body = inc.read_bytes()
            out.append(b"\0" + name + b"\0" + body)
            todo.append((inc, body))
    return b"".join(out)


def source_sha256(cu_path: Path | str) -> str:
    """sha256 of a kernel source as it compiles (`source_bytes`: the file, and the files it
    includes with quotes), hex: the identity a trace is measured against."""
    return hashlib.sha256(source_bytes(cu_path)).hexdigest()


def nvcc_command(nvcc: Path | str, source: Path, out: Path, options: BuildOptions, output: str = "-cubin") -> list[str]:
    """nvcc's arguments: `source` (a .cu, or its PTX) to `output` (-cubin, -ptx) at `out`."""
    return [str(nvcc), f"-arch={options.arch}", *options.flags, output, "-o", str(out), str(source)]


#: A PTX `.file` directive that names its file but no time and size; ptxas then reads the file's
#: modification time off the disk and writes it into the cubin.
_UNDATED_FILE = re.compile(r'^([ \t]*\.file[ \t]+\d+[ \t]+"(?:[^"\\]|\\.)*")[ \t]*$', re.MULTILINE)


def pin_file_dates(ptx: str) -> str:
    """The PTX with each undated `.file` given time 1 and size 0: the cubin ptxas makes of it is the
    same whenever the source was last touched (the machine code is the same either way)."""
    return _UNDATED_FILE.sub(lambda m: m.group(1) + ", 1, 0", ptx)


def cubin_path(cu_path: Path | str, options: BuildOptions = BuildOptions()) -> Path:
    """Where the cubin of this exact source, at this path, with these flags and the pinned release
    lives in the cache (the cubin's line table names the source's path: a copy of the source
    elsewhere, a fresh checkout in another folder, compiles a cubin of its own)."""
    key = hashlib.sha256(source_bytes(cu_path))  # a header it includes changes the cubin too
    key.update("\0".join([NVCC_RELEASE, options.arch, *options.flags, "pinned-file-dates",
                          str(Path(cu_path).resolve())]).encode())
    return options.cubin_dir / f"{Path(cu_path).stem}-{key.hexdigest()[:16]}.cubin"


def _first_error(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    errors = [ln for ln in lines if " error" in ln or ln.startswith("error") or "fatal" in ln]
    return (errors or lines or ["(no output)"])[0]


def build_cubin(cu_path: Path | str, options: BuildOptions = BuildOptions(), timeout_s: float = 300) -> Path:
    """Compile `cu_path` with the pinned nvcc unless its cubin is cached; returns the cubin's path.
    A compile error is a UsageError with nvcc's first error line."""
    cu_path = Path(cu_path)
    if not cu_path.is_file():
        raise UsageError(f"kernel source {cu_path} not found")
    out = cubin_path(cu_path, options)
    if out.is_file():
        return out
    nvcc = Path(options.nvcc) if options.nvcc else find_nvcc()
    if options.nvcc and shutil.which(options.nvcc) is None and not Path(options.nvcc).exists():
        raise UsageError(f"{options.nvcc} not found: {INSTALL}")
    from warpsim.files import replacing

    # .cu -> PTX (its file dates pinned) -> cubin; nvcc writes the cubin to a temporary name in the
    # cache folder, and the rename makes it appear whole.
    with replacing(out, force=True, make_parents=True, suffix=".tmp.cubin") as tmp, \
            tempfile.TemporaryDirectory(prefix="warpsim-ptx-") as scratch:
        ptx = Path(scratch) / f"{cu_path.stem}.ptx"
        _nvcc(nvcc_command(nvcc, cu_path, ptx, options, "-ptx"), cu_path, timeout_s)
        ptx.write_text(pin_file_dates(ptx.read_text()))
        _nvcc(nvcc_command(nvcc, ptx, tmp, options), cu_path, timeout_s)
    return out


def _nvcc(command: list[str], cu_path: Path, timeout_s: float) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as e:
        raise UsageError(f"nvcc did not finish compiling {cu_path.name} in {timeout_s:g} s") from e
    if done.returncode != 0:
        raise UsageError(f"nvcc failed on {cu_path.name} (exit {done.returncode}): "
                         f"{_first_error(done.stderr or done.stdout)}")


def _run_tool(name: str, args: list[str], cubin: Path | str) -> str:
    done = subprocess.run([str(find_tool(name)), *args, str(cubin)], capture_output=True, text=True)
    if done.returncode != 0:
        raise UsageError(f"{name} failed on {Path(cubin).name}: {_first_error(done.stderr or done.stdout)}")
    return done.stdout


def cached_json(source: Path | str, kind: str, make):
    """`make()`'s JSON document for a file, cached under the cache folder by the file's content
    (`KIND/SHA.json`): disassembly and cubin facts are read once per build, not once per run. An
    unreadable cache entry is made again; a read-only cache folder just makes it every time."""
    digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()[:24]
    cache = default_cache_dir() / kind / f"{digest}.json"
    if cache.is_file():
        try:
            return json.loads(cache.read_text())
        except (OSError, json.JSONDecodeError):
            pass
    doc = make()
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(doc))
        tmp.replace(cache)
    except OSError:
        pass
    return doc


def disassemble(cubin: Path | str) -> str:
    """nvdisasm's text listing of the cubin's code, each run of instructions under its source line."""
    return _run_tool("nvdisasm", ["--print-line-info", "--print-code"], cubin)


def disassemble_json(cubin: Path | str) -> list:
    """nvdisasm's JSON (`-json --print-line-info`): [header, [functions...], {directories, files}]."""
    text = _run_tool("nvdisasm", ["-json", "--print-line-info"], cubin)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"nvdisasm's JSON for {Path(cubin).name} does not parse ({e}); "
                         "pip install 'nvidia-cuda-nvdisasm==13.5.37'") from e


def resource_usage_text(cubin: Path | str) -> str:
    """`cuobjdump --dump-resource-usage`: registers, stack, shared and local bytes per kernel."""
    return _run_tool("cuobjdump", ["--dump-resource-usage"], cubin)
