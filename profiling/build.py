"""The one build path: kernels/<name>.cu -> an nvcc cubin, cached by the source's sha256.

Running, profiling, benchmarking and reading SASS (`cuobjdump -sass <cubin>`) all use the cubin
this module returns, so what ncu measures is the machine code the SASS checks read. CuPy's NVRTC
(`RawModule(code=...)`) is never used: its compiler version need not be nvcc's.

The cache is the checkout's build/cubin/ (gitignored), or ~/.cache/warpsim/cubin/ where warpsim
is installed as a package (site-packages is no place to write).

Limitations: the cache key is the source bytes plus the nvcc flags, not the nvcc version; after
upgrading CUDA, delete the cache folder to rebuild.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from warpsim.errors import UsageError
from warpsim.files import replacing

REPO = Path(__file__).resolve().parent.parent
CHECKOUT = (REPO / "pyproject.toml").is_file()  # run from a clone (or an editable install), not a wheel
CACHE_DIR = REPO / "build" / "cubin" if CHECKOUT else Path.home() / ".cache" / "warpsim" / "cubin"


@dataclass(frozen=True)
class BuildOptions:
    arch: str = "sm_90"  # the H200 (compute capability 9.0)
    flags: tuple[str, ...] = ("-O3", "-lineinfo")  # -lineinfo: ncu's source page maps SASS to .cu lines
    cache_dir: Path = CACHE_DIR
    nvcc: str = "nvcc"


def source_sha256(cu_path: Path) -> str:
    """sha256 of a kernel source file, hex: the identity a trace is measured against."""
    try:
        return hashlib.sha256(Path(cu_path).read_bytes()).hexdigest()
    except OSError as e:
        raise UsageError(f"cannot read kernel source {cu_path}: {e.strerror}") from e


def nvcc_command(cu_path: Path, out: Path, options: BuildOptions) -> list[str]:
    return [options.nvcc, f"-arch={options.arch}", *options.flags, "-cubin", "-o", str(out), str(cu_path)]


def cubin_path(cu_path: Path, options: BuildOptions = BuildOptions()) -> Path:
    """Where the cubin of this exact source and these flags lives in the cache."""
    key = hashlib.sha256()
    key.update(Path(cu_path).read_bytes())
    key.update("\0".join([options.arch, *options.flags]).encode())
    return options.cache_dir / f"{Path(cu_path).stem}-{key.hexdigest()[:16]}.cubin"


def build_cubin(cu_path: Path, options: BuildOptions = BuildOptions(), timeout_s: float = 300) -> Path:
    """Compile `cu_path` with nvcc unless its cubin is cached; returns the cubin's path."""
    cu_path = Path(cu_path)
    if not cu_path.is_file():
        raise UsageError(f"kernel source {cu_path} not found")
    out = cubin_path(cu_path, options)
    if out.is_file():
        return out
    nvcc = shutil.which(options.nvcc)
    if nvcc is None:
        raise UsageError(
            f"{options.nvcc} not found on PATH: install the CUDA toolkit (13.0) or add its bin/ folder to PATH"
        )
    # nvcc writes to a temporary name in the cache folder; the rename makes the cubin appear whole.
    with replacing(out, force=True, make_parents=True, suffix=".tmp.cubin") as tmp:
        cmd = nvcc_command(cu_path, tmp, options)
        cmd[0] = nvcc
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired as e:
            raise UsageError(f"nvcc did not finish compiling {cu_path.name} in {timeout_s:g} s") from e
        if done.returncode != 0:
            first = (done.stderr or done.stdout).strip().splitlines()[:1] or ["(no output)"]
            raise UsageError(f"nvcc failed on {cu_path.name} (exit {done.returncode}): {first[0]}")
    return out


def current_sha256(kernel_names) -> dict[str, str]:
    """kernel name -> sha256 of its source now, for the registered kernels among `kernel_names`."""
    from warpsim import registry

    known = registry.kernels()
    return {name: source_sha256(known[name].cu_path)
            for name in sorted(set(kernel_names)) if name in known and Path(known[name].cu_path).is_file()}
