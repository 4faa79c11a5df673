"""Launching a kernel on the GPU: the only module that imports CuPy.

The cubin comes from `warpsim.toolchain` (the pinned nvcc), loaded with `cupy.RawModule(path=...)`. Inputs are
seeded uniform random floats in [-1, 1); C is poisoned with NaN where the kernel only writes it,
so an element it never wrote shows up. The result is checked against a float64 reference,
`alpha * A @ B + beta * C0`, computed by cuBLAS DGEMM: relative Frobenius error below 1e-5.

Child entry point, the process ncu wraps (one launch, no warm-up, checked after the launch):

    python -m profiling.launch KERNEL M N K BX BY

It prints `profiling.launch: ok ...` and exits 0, or prints `profiling.launch: FAILED: <why>`
and exits 3.

Limitations: one GPU (device 0); matrices are float32, row-major, densely packed (lda = K,
ldb = ldc = N); the reference runs on the same GPU, so a broken device would fool it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from warpsim.sass.launch import contents, file_reference, with_file
from warpsim.toolchain import BuildOptions, build_cubin
from profiling.problem import Problem
from warpsim.errors import UsageError

try:
    import cupy as cp
except ImportError:  # importing profiling works without CuPy; using this module does not
    cp = None

NEED_CUPY = "CuPy with a CUDA GPU is needed: pip install 'warpsim[gpu]' on a machine with an NVIDIA GPU"
ALPHA = 1.5  # exact in float32, and not 1, so a kernel that drops alpha fails the check
BETA = -0.5  # exact in float32, and not 0, so a kernel that drops beta*C fails the check
TOLERANCE = 1e-5  # relative Frobenius error; float32 sums of K terms drift by about eps*sqrt(K)
MARK_OK = "profiling.launch: ok"
MARK_FAIL = "profiling.launch: FAILED: "


def require_cupy():
    """The cupy module, once a CUDA GPU is known to be there; a UsageError says what is missing."""
    if cp is None:
        raise UsageError(NEED_CUPY)
    try:
        count = cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # CUDARuntimeError without a driver, RuntimeError without libcuda
        raise UsageError(f"{NEED_CUPY} (CUDA says: {e})") from e
    if count < 1:
        raise UsageError(f"{NEED_CUPY} (no CUDA device is visible)")
    return cp


def load_function(problem: Problem, options: BuildOptions = BuildOptions()):
    """The kernel's entry point from its nvcc cubin, ready to launch."""
    cupy = require_cupy()
    cubin = build_cubin(problem.spec.cu_path, options)
    try:
        return cupy.RawModule(path=str(cubin)).get_function(problem.spec.entry)
    except Exception as e:  # CUDADriverError: wrong architecture, missing symbol
        raise UsageError(f"cannot load {problem.spec.entry} from {cubin.name}: {e}") from e


@dataclass
class Operands:
    """Device matrices, `sets` independent copies stacked on axis 0 (bench rotates through them)."""

    A: object  # (sets, M, K) float32
    B: object  # (sets, K, N) float32
    C: object  # (sets, M, N) float32: random where the kernel reads C, NaN where it only writes it
    C0: object | None  # copy of C before any launch (sets == 1 only), for the reference

    @property
    def sets(self) -> int:
        return int(self.A.shape[0])

    @property
    def bytes_per_set(self) -> int:
        return int(self.A[0].nbytes + self.B[0].nbytes + self.C[0].nbytes)


def make_operands(problem: Problem, seed: int = 0, sets: int = 1) -> Operands:
    cupy = require_cupy()
    M, N, K = problem.M, problem.N, problem.K
    rng = np.random.default_rng(seed)

    def uniform(*shape):  # [-1, 1): never all zeros, mean 0 so a dropped term shows
        return (rng.random(shape, dtype=np.float32) * 2 - 1).astype(np.float32)

    A = cupy.asarray(uniform(sets, M, K))
    B = cupy.asarray(uniform(sets, K, N))
    if problem.spec.reads_c:
        C = cupy.asarray(uniform(sets, M, N))
    else:
        C = cupy.asarray(np.full((sets, M, N), np.nan, dtype=np.float32))  # a copy, no CuPy kernel
    C0 = C.copy() if sets == 1 else None
    return Operands(A, B, C, C0)


def kernel_args(problem: Problem, ops: Operands, i: int = 0) -> tuple:
    """The kernel's arguments, in its CUDA order, for input set i."""
    values = {
        "M": np.int32(problem.M), "N": np.int32(problem.N), "K": np.int32(problem.K),
        "alpha": np.float32(ALPHA), "beta": np.float32(BETA),
        "A": ops.A[i], "B": ops.B[i], "C": ops.C[i],
    }
    return tuple(values[name] for name in problem.spec.args)


def launch(function, problem: Problem, ops: Operands, i: int = 0) -> None:
    """One asynchronous launch on input set i, grid and block from the registry."""
    gx, gy = problem.grid
    bx, by = problem.block
    function((gx, gy, 1), (bx, by, 1), kernel_args(problem, ops, i))


def check(problem: Problem, ops: Operands) -> float:
    """Relative Frobenius error of C (set 0) against float64; a UsageError when it is wrong."""
    cupy = require_cupy()
    spec = problem.spec
    C = ops.C[0]
    if not spec.reads_c:
        unwritten = int(cupy.isnan(C).sum())
        if unwritten:
            raise UsageError(
                f"{problem}: {unwritten} of {C.size} elements of C were never written (still NaN)"
            )
    alpha = ALPHA if "alpha" in spec.args else 1.0
    ref = alpha * (ops.A[0].astype(cupy.float64) @ ops.B[0].astype(cupy.float64))
    if spec.reads_c:
        beta = BETA if "beta" in spec.args else 1.0
        ref += beta * ops.C0[0].astype(cupy.float64)
    err = float(cupy.linalg.norm(C.astype(cupy.float64) - ref) / cupy.linalg.norm(ref))
    if not err < TOLERANCE:  # also catches NaN
        raise UsageError(f"{problem}: wrong result, relative Frobenius error {err:.3g} >= {TOLERANCE:g}")
    return err


def run_checked(problem: Problem, seed: int = 0) -> float:
    """Load, launch once (no warm-up: this is the launch ncu profiles), then check."""
    function = load_function(problem)
    ops = make_operands(problem, seed)
    launch(function, problem, ops)
    require_cupy().cuda.Device().synchronize()
    return check(problem, ops)


USAGE = ("usage: python -m profiling.launch KERNEL M N K BX BY\n"
         "       python -m profiling.launch --plan PLAN.json [ID ...]")


# -- any kernel: replay a launch plan (profiling.plan) --------------------------------------------

def _fill(rng, dtype: str, count: int) -> np.ndarray:
    """Random values of a buffer's type: floats in [-1, 1), integers in [0, 100)."""
    if dtype.startswith("float"):
        return (rng.random(count) * 2 - 1).astype(dtype)
    return rng.integers(0, 100, count).astype(dtype)


def _scalar(p: dict):
    if p["kind"] == "int":
        return {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}[p["size"]](p["value"])
    return {2: np.float16, 4: np.float32, 8: np.float64}[p["size"]](p["value"])


def _pack_structs(params: list[dict], args: list) -> list:
    """The arguments with each structure passed by value packed from its fields' (consecutive
    plan params with its name): a numpy structured scalar of the structure's size, each field at
    the offset warpsim laid it (a pointer as its device address), which CuPy passes as one
    argument of that many bytes."""
    out, i = [], 0
    while i < len(params):
        name = params[i].get("struct")
        if name is None:
            out.append(args[i])
            i += 1
            continue
        j = i
        while j < len(params) and params[j].get("struct") == name:
            j += 1
        fields = params[i:j]
        formats = [np.uint64 if f["kind"] == "pointer" else np.dtype(type(_scalar(f))) for f in fields]
        dtype = np.dtype({"names": [f["name"].split(".", 1)[1] for f in fields], "formats": formats,
                          "offsets": [f["field_offset"] for f in fields], "itemsize": fields[0]["struct_size"]},
                         align=True)
        record = np.zeros((), dtype=dtype)
        for f, value in zip(fields, args[i:j]):
            record[f["name"].split(".", 1)[1]] = value.data.ptr if f["kind"] == "pointer" else value
        out.append(record[()])
        i = j
    return out


def _rooted(text: str, root: Path) -> str:
    """Contents read from a file the plan pinned (`@PATH#DIGEST`, PATH from the checkout), the
    path made absolute, whatever folder the replay runs in."""
    ref = file_reference(text)
    return with_file(text, Path(root) / ref[0], ref[1]) if ref and not ref[0].is_absolute() else text


def replay(entry: dict, modules: dict, seed: int = 0) -> str | None:
    """Launch one plan entry once (its cubin loaded with CuPy, its buffers random) and check it
    against its numpy reference when there is one; returns why it is wrong, or None."""
    from profiling import reference
    from profiling.plan import PlanLaunch

    cupy = require_cupy()
    launch = PlanLaunch(entry)
    path = str(launch.cubin())
    if path not in modules:
        modules[path] = cupy.RawModule(path=path)
    try:
        function = modules[path].get_function(entry["mangled"])
    except Exception as e:  # CUDADriverError: wrong architecture, missing symbol
        return f"cannot load {entry['mangled']} from {path}: {e}"
    for c in entry.get("constants", ()):  # as cudaMemcpyToSymbol would (warpsim.sass.launch.bind)
        data = np.frombuffer(bytes.fromhex(c["bytes"]), dtype=np.uint8)
        modules[path].get_global(c["symbol"]).copy_from_host(data.ctypes.data, data.nbytes)
    rng = np.random.default_rng(seed)
    host, args = {}, []
    ints = {p["name"]: p["value"] for p in entry["params"] if p["kind"] == "int"}
    devices = {}
    for p in entry["params"]:
        if p["kind"] == "pointer":
            host[p["name"]] = _fill(rng, p["dtype"], p["count"])
            if p.get("contents"):  # the values warpsim was given too (warpsim.sass.launch.contents)
                host[p["name"]] = contents(p["name"], p["type"], p["count"], _rooted(p["contents"], launch.root), ints)
            devices[p["name"]] = cupy.asarray(host[p["name"]])
            args.append(devices[p["name"]])
        else:
            args.append(_scalar(p))
    args = _pack_structs(entry["params"], args)
    shared = int(entry.get("dynamic_shared", 0))
    if shared > 48 * 1024:  # past 48 KiB a kernel opts in to its dynamic shared memory
        function.max_dynamic_shared_size_bytes = shared
    function(tuple(entry["grid"]), tuple(entry["block"]), tuple(args), shared_mem=shared)
    cupy.cuda.Device().synchronize()
    check = reference.REFERENCES.get(entry.get("reference") or "")
    if check is None:
        return None
    scalars = {p["name"]: p["value"] for p in entry["params"] if p["kind"] != "pointer"}
    scalars.update({c["name"]: c["values"] for c in entry.get("constants", ())})
    types = {p["name"]: p.get("type", "float") for p in entry["params"] if p["kind"] == "pointer"}
    expected = check(host, scalars)
    for (name, want), dev in ((item, devices[item[0]]) for item in expected.items()):
        got = cupy.asnumpy(dev)
        if not reference.close(entry["reference"], types.get(name, "float"), got, want):
            return f"{name} differs from the numpy reference"
    return None


def run_plan(plan_path: str, ids: list[str]) -> int:
    from profiling import plan

    entries = [e for e in plan.load(plan_path) if not ids or e["id"] in ids]
    if not entries:
        print(f"{MARK_FAIL}no launch of {plan_path} matches {ids}", file=sys.stderr, flush=True)
        return 3
    modules: dict = {}
    failed = 0
    for entry in entries:
        why = replay(entry, modules)
        if why is None:
            print(f"{MARK_OK} {entry['id']}", flush=True)
        else:
            failed += 1
            print(f"{MARK_FAIL}{entry['id']}: {why}", file=sys.stderr, flush=True)
    return 3 if failed else 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--plan"] and len(args) >= 2:
        try:
            return run_plan(args[1], args[2:])
        except UsageError as e:
            print(f"{MARK_FAIL}{e}", file=sys.stderr, flush=True)
            return 3
    if len(args) != 6 or not all(a.isdigit() for a in args[1:]):
        print(USAGE, file=sys.stderr)
        return 2
    kernel, (M, N, K, bx, by) = args[0], map(int, args[1:])
    try:
        problem = Problem.resolve(kernel, M, N, K, (bx, by))
        err = run_checked(problem)
    except UsageError as e:
        print(f"{MARK_FAIL}{e}", file=sys.stderr, flush=True)
        return 3
    print(f"{MARK_OK} {problem}: relative error {err:.2e}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
