"""What each kernel of `kernels/catalog.toml` should compute, in plain numpy: the check of a launch.

`REFERENCES["file:entry"](arrays, scalars)` takes the launch's inputs, `arrays` (parameter name ->
flat numpy array of the buffer's type, as it was before the launch) and `scalars` (parameter name
-> int or float, one `sizes` table of the catalog), and returns the expected contents of the
buffers the kernel writes, by parameter name, flat, of the buffer's type. Sums run in float64.

Buffer types map to numpy by `NUMPY_DTYPES`; a `float2[n]` buffer is 2n float32 values, x and y
interleaved (`LANES`). `close()` compares a result with its reference by the `TOLERANCES` of its
buffer type (or of its entry, `ENTRY_TOLERANCES`), as `numpy.allclose` does.

Limitations: the TF32 references round A and B to TF32 the way `__float_to_tf32` does
(cvt.rna: to nearest, ties away from zero) but sum in float64, and the tensor cores' own
accumulation order and rounding are not modelled: their tolerance is wider. The kernels' float
sums run in a different order than numpy's, so no float check is bitwise.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

Arrays = dict[str, np.ndarray]
Scalars = dict[str, int | float | list]  # a __constant__ variable given: its values, a list
Reference = Callable[[Arrays, Scalars], Arrays]

NUMPY_DTYPES = {"float": np.float32, "double": np.float64, "half": np.float16, "float2": np.float32, "int": np.int32,
                "uint8_t": np.uint8}
LANES = {"float2": 2}  # numpy values per element of the buffer type; 1 where not listed

# (rtol, atol) for numpy.allclose(result, reference): float sums of up to 2048 products of
# values in [-1, 1) drift by a few 1e-5; half results carry half's own rounding (2^-11 relative).
TOLERANCES = {
    "float": (1e-4, 1e-3),
    "float2": (1e-6, 1e-6),  # one multiply-add per element
    "double": (1e-10, 1e-10),
    "half": (2e-3, 1e-2),
}
#: integer element types: their arithmetic is checked bit for bit
INTEGERS = ("int", "unsigned", "char", "short", "long", "int2", "int4", "uint2", "uint4", "short2", "char4", "uchar4",
            "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t")
TOLERANCES.update(dict.fromkeys(INTEGERS, (0.0, 0.0)))
TOLERANCES.update({"__half": TOLERANCES["half"], "half2": TOLERANCES["half"], "__half2": TOLERANCES["half"]})
#: CUDA's vector types (char1 to double4, warpsim.sass.launch.VECTOR_TYPES): their scalar's tolerance
TOLERANCES.update({f"{base}{n}": TOLERANCES.get(base, (0.0, 0.0)) for base in (
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong", "float", "double")
    for n in (1, 2, 3, 4)})
ENTRY_TOLERANCES = {  # tensor-core accumulation, not float64 (see Limitations)
    "wmma.cu:wmma_tf32_global": (1e-3, 1e-2),
    "wmma.cu:wmma_tf32_smem": (1e-3, 1e-2),
    "wmma.cu:wmma_half_smem": (1e-3, 1e-2),
    # n float32 atomic adds to one word, in whatever order the warps arrive: up to 100,003 values
    # in [-1, 1) whose sum drifts by a few hundred float32 roundings of its running value
    **dict.fromkeys(("atomics.cu:f32_one", "atomics.cu:f32_two", "atomics.cu:f32_eight", "atomics.cu:f32_old",
                     "atomics2.cu:uneven", "atomics2.cu:mixed", "textbook.cu:cg_reduce"), (1e-3, 0.1)),
    # a float32 sum of up to 40,000 forces of magnitude up to 0.4 (eps2 = 1), rsqrtf's 2 ulp each
    "textbook.cu:nbody": (1e-3, 1e-2),
}


def close(key: str, buffer_type: str, result: np.ndarray, expected: np.ndarray) -> bool:
    """True when `result` matches `expected` within the entry's or the buffer type's tolerance."""
    if key not in ENTRY_TOLERANCES and buffer_type not in TOLERANCES:
        raise ValueError(f"no tolerance for {buffer_type} buffers (profiling.reference.TOLERANCES)")
    rtol, atol = ENTRY_TOLERANCES.get(key) or TOLERANCES[buffer_type]
    return bool(np.allclose(result.astype(np.float64), expected.astype(np.float64), rtol=rtol, atol=atol))


def _matrix(a: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The first rows*cols values of a flat buffer as a float64 row-major rows x cols matrix."""
    return a[: rows * cols].astype(np.float64).reshape(rows, cols)


def _tf32(a: np.ndarray) -> np.ndarray:
    """float32 values rounded to TF32 (10 mantissa bits), to nearest, ties away from zero."""
    bits = a.astype(np.float32).view(np.uint32)
    return ((bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32)


def _gemm(A: np.ndarray, B: np.ndarray, C: np.ndarray, s: Scalars, out_dtype) -> Arrays:
    """C = alpha * A * B + beta * C, row-major, A M x K, B K x N."""
    M, N, K = s["M"], s["N"], s["K"]
    c = s["alpha"] * (_matrix(A, M, K) @ _matrix(B, K, N)) + s["beta"] * _matrix(C, M, N)
    return {"C": c.reshape(-1).astype(out_dtype)}


def transpose(a: Arrays, s: Scalars) -> Arrays:
    return {"out": _matrix(a["in"], s["M"], s["N"]).T.reshape(-1).astype(np.float32)}


def gemv(a: Arrays, s: Scalars) -> Arrays:
    y = _matrix(a["A"], s["M"], s["N"]) @ a["x"].astype(np.float64)
    return {"y": y.astype(np.float32)}


def sgemm_bt(a: Arrays, s: Scalars) -> Arrays:
    M, N, K = s["M"], s["N"], s["K"]
    c = s["alpha"] * (_matrix(a["A"], M, K) @ _matrix(a["B"], N, K).T) + s["beta"] * _matrix(a["C"], M, N)
    return {"C": c.reshape(-1).astype(np.float32)}


def trmm_lower(a: Arrays, s: Scalars) -> Arrays:
    M, N = s["M"], s["N"]
    c = np.tril(_matrix(a["L"], M, M)) @ _matrix(a["B"], M, N)  # the upper part of L is never read
    return {"C": c.reshape(-1).astype(np.float32)}


def axpy_float2(a: Arrays, s: Scalars) -> Arrays:
    y = s["a"] * a["x"].astype(np.float64) + a["y"].astype(np.float64)
    return {"y": y.astype(np.float32)}


def sgemm(a: Arrays, s: Scalars) -> Arrays:
    return _gemm(a["A"], a["B"], a["C"], s, np.float32)


def hgemm(a: Arrays, s: Scalars) -> Arrays:
    return _gemm(a["A"], a["B"], a["C"], s, np.float16)


def dgemm(a: Arrays, s: Scalars) -> Arrays:
    return _gemm(a["A"], a["B"], a["C"], s, np.float64)


def wmma_tf32(a: Arrays, s: Scalars) -> Arrays:
    return _gemm(_tf32(a["A"]), _tf32(a["B"]), a["C"], s, np.float32)


def wmma_half(a: Arrays, s: Scalars) -> Arrays:
    return _gemm(a["A"], a["B"], a["C"], s, np.float32)  # half inputs, float C


def sgemm_splitk(a: Arrays, s: Scalars) -> Arrays:
    M, N, K = s["M"], s["N"], s["K"]
    c = _matrix(a["C"], M, N) + s["alpha"] * (_matrix(a["A"], M, K) @ _matrix(a["B"], K, N))
    return {"C": c.reshape(-1).astype(np.float32)}


def sgemm_batched(a: Arrays, s: Scalars) -> Arrays:
    M, N, K, batch = s["M"], s["N"], s["K"], s["batch"]
    A = a["A"].astype(np.float64).reshape(batch, M, K)
    B = a["B"].astype(np.float64).reshape(batch, K, N)
    C = a["C"].astype(np.float64).reshape(batch, M, N)
    return {"C": (s["alpha"] * (A @ B) + s["beta"] * C).reshape(-1).astype(np.float32)}


def stencil5(a: Arrays, s: Scalars) -> Arrays:
    M, N = s["M"], s["N"]
    x, out = _matrix(a["in"], M, N), _matrix(a["out"], M, N)
    if M > 2 and N > 2:
        out[1:-1, 1:-1] = 0.2 * (x[1:-1, 1:-1] + x[1:-1, :-2] + x[1:-1, 2:] + x[:-2, 1:-1] + x[2:, 1:-1])
    return {"out": out.reshape(-1).astype(np.float32)}


def softmax(a: Arrays, s: Scalars) -> Arrays:
    x = _matrix(a["x"], s["M"], s["N"])
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"y": (e / e.sum(axis=1, keepdims=True)).reshape(-1).astype(np.float32)}


def row_sum(a: Arrays, s: Scalars) -> Arrays:
    return {"y": _matrix(a["x"], s["M"], s["N"]).sum(axis=1).astype(np.float32)}


def conv1d(R: int) -> Reference:
    def ref(a: Arrays, s: Scalars) -> Arrays:
        n = s["n"]
        x = np.concatenate([np.zeros(R), a["x"][:n].astype(np.float64), np.zeros(R)])
        w = a["w"][: 2 * R + 1].astype(np.float64)
        y = sum(w[k] * x[k:k + n] for k in range(2 * R + 1))
        return {"y": y.astype(np.float32)}
    return ref


def ratio(a: Arrays, s: Scalars) -> Arrays:
    return {"y": (a["x"].astype(np.float32) / a["d"].astype(np.float32)).astype(np.float32)}


def halvings(a: Arrays, s: Scalars) -> Arrays:
    v = a["x"].astype(np.float32).copy()
    k = np.zeros(len(v), dtype=np.int32)
    while (v > 1).any():  # halving is exact in float32, so the count is too
        more = v > 1
        v[more] *= np.float32(0.5)
        k[more] += 1
    return {"y": k}


def layernorm(a: Arrays, s: Scalars) -> Arrays:
    x = _matrix(a["x"], s["M"], s["N"])
    mean = x.mean(axis=1, keepdims=True)
    var = (x * x).mean(axis=1, keepdims=True) - mean * mean  # as the kernel: E[x^2] - E[x]^2
    y = (x - mean) / np.sqrt(var + s["eps"]) * a["g"].astype(np.float64) + a["b"].astype(np.float64)
    return {"y": y.reshape(-1).astype(np.float32)}


def stencil7(a: Arrays, s: Scalars) -> Arrays:
    X, Y, Z = s["X"], s["Y"], s["Z"]
    u = a["in"].astype(np.float64).reshape(Z, Y, X)
    out = a["out"].astype(np.float64).reshape(Z, Y, X).copy()
    if X > 2 and Y > 2 and Z > 2:
        c = u[1:-1, 1:-1, 1:-1]
        nb = (u[1:-1, 1:-1, :-2] + u[1:-1, 1:-1, 2:] + u[1:-1, :-2, 1:-1] + u[1:-1, 2:, 1:-1]
              + u[:-2, 1:-1, 1:-1] + u[2:, 1:-1, 1:-1])
        out[1:-1, 1:-1, 1:-1] = c + 0.1 * (nb - 6 * c)
    return {"out": out.reshape(-1).astype(np.float32)}


def stencil2d(a: Arrays, s: Scalars) -> Arrays:
    W, H = s["W"], s["H"]
    u, out = _matrix(a["in"], H, W), _matrix(a["out"], H, W)
    if W > 2 and H > 2:
        out[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return {"out": out.reshape(-1).astype(np.float32)}


def saxpy(a: Arrays, s: Scalars) -> Arrays:
    n = s["n"]
    return {"y": (s["a"] * a["x"][:n].astype(np.float64) + a["y"][:n].astype(np.float64)).astype(np.float32)}


def batched_gemv(a: Arrays, s: Scalars) -> Arrays:
    B, M, N = s["B"], s["M"], s["N"]
    A = a["A"][: B * M * N].astype(np.float64).reshape(B, M, N)
    x = a["x"][: B * N].astype(np.float64).reshape(B, N, 1)
    return {"y": (A @ x).reshape(-1).astype(np.float32)}


def bias_add(a: Arrays, s: Scalars) -> Arrays:
    M, N = s["M"], s["N"]
    return {"y": (_matrix(a["x"], M, N) + a["b"][:N].astype(np.float64)).reshape(-1).astype(np.float32)}


def row_scale(a: Arrays, s: Scalars) -> Arrays:
    M, N = s["M"], s["N"]
    return {"y": (_matrix(a["x"], M, N) * a["s"][:M].astype(np.float64)[:, None]).reshape(-1).astype(np.float32)}


def outer_flat(a: Arrays, s: Scalars) -> Arrays:
    M, N = s["M"], s["N"]
    return {"y": np.outer(a["a"][:M].astype(np.float64), a["b"][:N].astype(np.float64)).reshape(-1).astype(np.float32)}


def roll(a: Arrays, s: Scalars) -> Arrays:
    n = s["n"]
    return {"y": np.roll(a["x"][:n], -(s["shift"] % n))}


def gray_u8(a: Arrays, s: Scalars) -> Arrays:
    n = s["W"] * s["H"]
    r, g, b = (a["rgb"][: 3 * n].astype(np.uint32).reshape(n, 3).T)
    return {"g": ((77 * r + 150 * g + 29 * b) >> 8).astype(np.uint8)}


def blur3_u8(a: Arrays, s: Scalars) -> Arrays:
    W, H = s["W"], s["H"]
    img = np.pad(a["in"][: W * H].astype(np.uint32).reshape(H, W), 1, mode="edge")  # clamped neighbours
    total = sum(img[dy:dy + H, dx:dx + W] for dy in range(3) for dx in range(3))
    return {"out": (total // 9).reshape(-1).astype(np.uint8)}


def col_sum(a: Arrays, s: Scalars) -> Arrays:
    return {"s": _matrix(a["a"], s["M"], s["N"]).sum(axis=0).astype(np.float32)}


def reverse_dyn(a: Arrays, s: Scalars) -> Arrays:
    n, chunk = s["n"], s["chunk"]
    src = np.append(a["in"][:n], np.zeros(-(-n // chunk) * chunk - n, dtype=np.float32))  # past n: 0
    return {"out": src.reshape(-1, chunk)[:, ::-1].reshape(-1)[:n].copy()}


def row_sum_dyn(a: Arrays, s: Scalars) -> Arrays:
    return {"s": _matrix(a["a"], s["M"], s["N"]).sum(axis=1).astype(np.float32)}


def _stored_at(src: np.ndarray, inverse: int, j, i: np.ndarray) -> np.ndarray:
    """Thread i's v[j] after `v[(m t + i) mod P] = src[t, i]` for t = 0 .. P-1 (src: P rows): m t
    covers every residue once, so v[j] is src[t, i] for t = m^-1 (j - i) mod P (`inverse` = m^-1)."""
    return src[(inverse * (j - i)) % src.shape[0], i]


def scatter_local(a: Arrays, s: Scalars) -> Arrays:
    # v[(7 t + i) mod 32] = in[t n + i] (23 = 7^-1 mod 32)
    n, k = s["n"], s["k"]
    i = np.arange(n)
    src = _matrix(a["in"], 32, n)
    return {"out": (_stored_at(src, 23, k % 32, i) + _stored_at(src, 23, (i + k) % 32, i)).astype(np.float32)}


def stack_sum(a: Arrays, s: Scalars) -> Arrays:
    return {"out": _matrix(a["in"], 24, s["n"]).sum(axis=0).astype(np.float32)}


def ticket(a: Arrays, s: Scalars) -> Arrays:
    # the counters each gain one per thread of theirs; the old values each thread gets depend on
    # the order the atomics land in, so `out` is not checked
    hits = np.bincount(np.arange(s["n"]) % 64, minlength=64)
    return {"counters": (a["counters"][:64].astype(np.int64) + hits).astype(np.int32)}


def double_stack(a: Arrays, s: Scalars) -> Arrays:
    # v[(5 t + i) mod 16] = in[t n + i] (13 = 5^-1 mod 16)
    n, k = s["n"], s["k"]
    i = np.arange(n)
    src = _matrix(a["in"], 16, n)
    return {"out": _stored_at(src, 13, k % 16, i) * _stored_at(src, 13, (i + k) % 16, i)}


def byte_shuffle(a: Arrays, s: Scalars) -> Arrays:
    # h[(5 t + i) mod 64] = in[t n + i] (13 = 5^-1 mod 64)
    n, k = s["n"], s["k"]
    i = np.arange(n)
    src = a["in"][: 64 * n].reshape(64, n)
    return {"out": _stored_at(src, 13, k % 64, i) ^ _stored_at(src, 13, (i + k) % 64, i)}


def spill(a: Arrays, s: Scalars) -> Arrays:
    # the kernel's updates in its order, in place (acc[j] reads acc[j + 7] and acc[j + 13] as they
    # stand, already updated for the indices that wrapped round)
    acc = _matrix(a["in"], 48, s["n"])
    for _ in range(s["steps"]):
        for j in range(48):
            acc[j] = 0.5 * acc[j] * acc[(j + 7) % 48] + 0.5 * acc[(j + 13) % 48]
    return {"out": acc.sum(axis=0).astype(np.float32)}


def gather(a: Arrays, s: Scalars) -> Arrays:
    n = s["n"]
    return {"y": a["x"][a["perm"][:n]]}


def spmv_csr(a: Arrays, s: Scalars) -> Arrays:
    rows = s["rows"]
    ptr, col = a["row_ptr"].astype(np.int64), a["col"].astype(np.int64)
    products = a["val"].astype(np.float64) * a["x"].astype(np.float64)[col]
    sums = np.add.reduceat(np.append(products, 0.0), ptr[:rows]) * (ptr[1:rows + 1] > ptr[:rows])
    return {"y": sums.astype(np.float32)}


def histogram(a: Arrays, s: Scalars) -> Arrays:
    keys = a["keys"][: s["n"]].astype(np.int64) & 1023
    return {"counts": (a["counts"][:1024].astype(np.int64) + np.bincount(keys, minlength=1024)).astype(np.int32)}


def count_from(a: Arrays, s: Scalars) -> Arrays:
    i = np.arange(s["n"])
    return {"count": a["count"][:1].astype(np.int64) + np.count_nonzero(i % 32 >= s["lane0"])}


def ballot_count(a: Arrays, s: Scalars) -> Arrays:
    return {"out": a["out"][:1].astype(np.int64) + np.count_nonzero(a["x"][: s["n"]] > 0)}


def shared_hist(a: Arrays, s: Scalars) -> Arrays:
    keys = (a["keys"][: s["n"]].astype(np.int64) << s["shift"]) & 255
    return {"bins": a["bins"][:256].astype(np.int64) + np.bincount(keys, minlength=256)}


def max_abs(a: Arrays, s: Scalars) -> Arrays:
    bits = np.abs(a["x"][: s["n"]].astype(np.float32)).view(np.int32)
    return {"m": np.maximum(a["m"][:1], bits.max(initial=np.iinfo(np.int32).min))}


def match_stride(a: Arrays, s: Scalars) -> Arrays:
    i = np.arange(s["n"])
    y = a["y"].copy()
    y[i * (1 << s["s"]) + 31] = 1.0  # 2^s lanes of a warp share i >> s (s <= 5)
    return {"y": y}


def block_votes(a: Arrays, s: Scalars) -> Arrays:
    n, y = s["n"], a["y"].copy()
    i = np.arange(n)
    last = n - n % 256  # the first index of a ragged last block (n itself if there is none)
    y[2 * i[:last]] = 1.0
    y[i[last:] * ((n % 256) // 128) + 7] = 1.0
    return {"y": y}


def claim(a: Arrays, s: Scalars) -> Arrays:
    # each flag is swapped once, by its own thread: won[i] is the flag as it was
    flags = a["flags"][: s["n"]]
    return {"won": flags.copy(), "flags": np.where(flags == 0, 1, flags).astype(np.int32)}


def act(a: Arrays, s: Scalars) -> Arrays:
    n, mode, y = s["n"], s["mode"], a["y"].copy()
    x = a["x"][:n].astype(np.float32)
    i = np.arange(n)
    cases = {0: (i, x), 1: (i, np.maximum(x, 0)), 2: (2 * i, x * np.float32(0.5)), 3: (i, x * x),
             4: (n - 1 - i, x), 5: (i, -x), 6: (i + 1, x + np.float32(1))}
    if mode in cases:
        at, v = cases[mode]
        y[at] = v
    return {"y": y}


def in_loop(a: Arrays, s: Scalars) -> Arrays:
    n, k, mode, x = s["n"], s["k"], s["mode"], a["x"].astype(np.float64)
    i, total = np.arange(n), np.zeros(n)
    for j in range(k):
        total += {0: lambda: x[j * n + i], 1: lambda: x[i * k + j], 2: lambda: -np.full(n, x[j]),
                  3: lambda: x[(j * n + i) // 2], 4: lambda: np.ones(n), 5: lambda: x[i]}.get(mode, lambda: 0)()
    return {"y": total.astype(np.float32)}


def _cases7(x: np.ndarray, y: np.ndarray, n: int, case: np.ndarray) -> np.ndarray:
    """switch.cu's seven cases (and the default, -1) per thread, by the case each thread takes."""
    i, y = np.arange(n), y.copy()
    for c, (at, v) in {0: (i, x[i]), 1: (i, x[2 * i]), 2: (i, x[i + 5]), 3: (n + 4 * i, np.ones(n)),
                       4: (i, np.full(n, 2.0)), 5: (i, x[n - 1 - i]), 6: (5 * n + i + 9, x[3 * i]),
                       7: (i, np.full(n, -1.0))}.items():
        take = case == c
        y[at[take]] = v[take]
    return y


def by_warp(a: Arrays, s: Scalars) -> Arrays:
    n = s["n"]
    return {"y": _cases7(a["x"], a["y"], n, (np.arange(n) % 256) >> 5)}


def by_step(a: Arrays, s: Scalars) -> Arrays:
    n = s["n"]
    return {"y": _cases7(a["x"], a["y"], n, (np.arange(n) // s["step"]) % 7)}


def dsum(a: Arrays, s: Scalars) -> Arrays:
    return {"s": a["s"][:1] + a["x"][: s["n"]].astype(np.float64).sum()}


def shfl8(a: Arrays, s: Scalars) -> Arrays:
    n = s["n"]
    x = np.append(a["x"][:n].astype(np.float64), np.zeros(-n % 8))  # lanes past n add 0
    return {"y": x.reshape(-1, 8).sum(axis=1).astype(np.float32)}


def norm3(a: Arrays, s: Scalars) -> Arrays:
    p = a["p"][: 3 * s["n"]].astype(np.float64).reshape(-1, 3)
    return {"r": np.sqrt((p * p).sum(axis=1)).astype(np.float32)}


def invert(a: Arrays, s: Scalars) -> Arrays:
    p = a["p"][: 4 * s["n"]].reshape(-1, 4).copy()
    p[:, :3] = 255 - p[:, :3]
    return {"q": p.reshape(-1)}


def offsets(a: Arrays, s: Scalars) -> Arrays:
    n, x, y = s["n"], a["x"].astype(np.float64), a["y"].copy()
    i = np.arange(2, n - 2)
    y[i] = sum(x[i + d] for d in s["OFF"])
    return {"y": y}


def strided(a: Arrays, s: Scalars) -> Arrays:
    (stride,), (base,) = s["cfg::STRIDE"], s["BASE"]
    return {"y": a["x"][base + np.arange(s["n"]) * stride]}


def taps(a: Arrays, s: Scalars) -> Arrays:
    i, x = np.arange(s["n"]), a["x"].astype(np.float64)
    return {"y": sum(x[4 * i + t] for t in s["TAPS"]).astype(np.float32)}


def rows(a: Arrays, s: Scalars) -> Arrays:
    n, (cols,) = s["n"], s["NCOLS"]
    return {"y": a["x"][: n * cols].astype(np.float64).reshape(n, cols).sum(axis=1).astype(np.float32)}


def axpy_struct(a: Arrays, s: Scalars) -> Arrays:
    i = np.arange(s["p.n"])
    y = a["p.y"].astype(np.float64)
    y[i] = s["p.a"] * a["p.x"][i * s["p.stride"]].astype(np.float64) + y[i]
    return {"p.y": y.astype(np.float32)}


def copy_layout(a: Arrays, s: Scalars) -> Arrays:
    i = np.arange(s["s.rows"] * s["s.cols"])
    r, c = i // s["s.cols"], i % s["s.cols"]
    return {"out": a["in"][r * s["s.ld"] + c if s["layout"] == 0 else c * s["s.ld"] + r]}


def conv_rows(a: Arrays, s: Scalars) -> Arrays:
    """kernels/halo.cu: each row of imageW floats (rows `pitch` apart) convolved with the 17 weights
    of c_Kernel, zeros beyond the row's ends; the pitch's gap is left as it was."""
    W, H, pitch, R = s["imageW"], s["imageH"], s["pitch"], 8
    src = np.zeros((H, W + 2 * R))
    src[:, R:R + W] = a["d_Src"][: H * pitch].reshape(H, pitch)[:, :W]
    w = np.asarray(s.get("c_Kernel", [0.0] * (2 * R + 1)), dtype=np.float64)
    rows = sum(w[R - j] * src[:, R + j:R + j + W] for j in range(-R, R + 1))
    out = a["d_Dst"].copy()
    out[: H * pitch].reshape(H, pitch)[:, :W] = rows
    return {"d_Dst": out}


def conv_cols(a: Arrays, s: Scalars) -> Arrays:
    """kernels/textbook.cu: each column of the imageH x imageW image (rows `pitch` apart) convolved
    with the 17 weights of c_Kernel, zeros above and below; the pitch's gap is left as it was."""
    W, H, pitch, R = s["imageW"], s["imageH"], s["pitch"], 8
    src = np.zeros((H + 2 * R, W))
    src[R:R + H] = a["d_Src"][: H * pitch].reshape(H, pitch)[:, :W]
    w = np.asarray(s.get("c_Kernel", [0.0] * (2 * R + 1)), dtype=np.float64)
    out = a["d_Dst"].copy()
    out[: H * pitch].reshape(H, pitch)[:, :W] = sum(w[R - j] * src[R + j:R + j + H] for j in range(-R, R + 1))
    return {"d_Dst": out}


def conv2d_tiled(a: Arrays, s: Scalars) -> Arrays:
    """kernels/textbook.cu: out = in correlated with the 5x5 mask M, zeros beyond the edges."""
    W, H = s["width"], s["height"]
    src = np.zeros((H + 4, W + 4))
    src[2:2 + H, 2:2 + W] = _matrix(a["in"], H, W)
    m = np.asarray(s.get("M", [0.0] * 25), dtype=np.float64).reshape(5, 5)
    out = sum(m[i, j] * src[i:i + H, j:j + W] for i in range(5) for j in range(5))
    return {"out": out.reshape(-1).astype(np.float32)}


def transpose_diag(a: Arrays, s: Scalars) -> Arrays:
    W, H = s["width"], s["height"]
    return {"odata": a["idata"][: W * H].reshape(H, W).T.reshape(-1).copy()}


def prescan(a: Arrays, s: Scalars) -> Arrays:
    """kernels/textbook.cu: each block's n values scanned, exclusive (its first output 0)."""
    n = s["n"]
    x = a["g_idata"].astype(np.float64).reshape(-1, n)
    return {"g_odata": (np.cumsum(x, axis=1) - x).reshape(-1).astype(np.float32)}


def nbody(a: Arrays, s: Scalars) -> Arrays:
    """kernels/textbook.cu: each body's sum over all bodies j of m_j d / (|d|^2 + eps2)^(3/2),
    d = p_j - p_i (x, y, z, mass as float4); the fourth lane 0."""
    p = a["pos"].astype(np.float64).reshape(-1, 4)[: s["n"]]
    d = p[None, :, :3] - p[:, None, :3]
    inv = ((d * d).sum(axis=2) + s["eps2"]) ** -1.5
    acc = np.zeros((s["n"], 4))
    acc[:, :3] = (p[None, :, 3, None] * d * inv[:, :, None]).sum(axis=1)
    return {"acc": acc.reshape(-1).astype(np.float32)}


def _scaled(i: np.ndarray, scale: float, offset: float = 0.0) -> np.ndarray:
    """float32(i + offset) * scale as the GPU rounds it: `(i + offset) * scale - offset` in one
    FFMA where offset is nonzero (exact in float64 at image sizes, then rounded once)."""
    t = (i.astype(np.float32) + np.float32(offset)).astype(np.float64)
    if offset:
        return (t * np.float64(np.float32(scale)) - offset).astype(np.float32)
    return i.astype(np.float32) * np.float32(scale)


def resize_nearest(a: Arrays, s: Scalars) -> Arrays:
    """kernels/images.cu: dst[y, x] = src[min((int)(y sy), sh - 1), min((int)(x sx), sw - 1)]."""
    u = np.minimum(_scaled(np.arange(s["dw"]), s["sx"]).astype(np.int64), s["sw"] - 1)
    v = np.minimum(_scaled(np.arange(s["dh"]), s["sy"]).astype(np.int64), s["sh"] - 1)
    return {"dst": _matrix(a["src"], s["sh"], s["sw"])[np.ix_(v, u)].reshape(-1).copy()}


def resize_u8(a: Arrays, s: Scalars) -> Arrays:
    """kernels/images.cu: resize_nearest of bytes, the coordinates rounded to nearest even."""
    u = np.minimum(np.rint(_scaled(np.arange(s["dw"]), s["sx"])).astype(np.int64), s["sw"] - 1)
    v = np.minimum(np.rint(_scaled(np.arange(s["dh"]), s["sy"])).astype(np.int64), s["sh"] - 1)
    return {"dst": _matrix(a["src"], s["sh"], s["sw"])[np.ix_(v, u)].reshape(-1).copy()}


def resize_bilinear(a: Arrays, s: Scalars) -> Arrays:
    """kernels/images.cu: each output the bilinear blend of the four inputs around ((x + 0.5) sx -
    0.5, (y + 0.5) sy - 0.5), the taps clamped to the image."""
    def taps(n_out, scale, n_in):
        f = _scaled(np.arange(n_out), scale, 0.5).astype(np.float64)
        g = np.floor(f)
        lo = np.clip(g.astype(np.int64), 0, n_in - 1)
        return lo, np.clip(g.astype(np.int64) + 1, 0, n_in - 1), f - g
    x0, x1, ax = taps(s["dw"], s["sx"], s["sw"])
    y0, y1, ay = taps(s["dh"], s["sy"], s["sh"])
    src = _matrix(a["src"], s["sh"], s["sw"]).astype(np.float64)
    top = (1 - ax) * src[np.ix_(y0, x0)] + ax * src[np.ix_(y0, x1)]
    bottom = (1 - ax) * src[np.ix_(y1, x0)] + ax * src[np.ix_(y1, x1)]
    return {"dst": ((1 - ay)[:, None] * top + ay[:, None] * bottom).reshape(-1).astype(np.float32)}


def downsample(a: Arrays, s: Scalars) -> Arrays:
    """kernels/images.cu: each output step times the sum of its row's inputs at
    min((int)((x + k step) scale), sw - 1), k < taps (x + k step one FFMA, rounded once)."""
    x = np.arange(s["dw"], dtype=np.float64)
    src = _matrix(a["src"], s["h"], s["sw"]).astype(np.float64)
    acc = np.zeros((s["h"], s["dw"]))
    for k in range(s["taps"]):
        t = (k * np.float64(np.float32(s["step"])) + x).astype(np.float32)
        acc += src[:, np.minimum((t * np.float32(s["scale"])).astype(np.int64), s["sw"] - 1)]
    return {"dst": (acc * np.float32(s["step"])).reshape(-1).astype(np.float32)}


def _divided(num: np.ndarray, den: float) -> np.ndarray:
    """float32 num / den, correctly rounded (as nvcc's division gives it): the float64 quotient of
    the two float32s rounded to float32, double rounding being innocuous for division."""
    return (num.astype(np.float32).astype(np.float64) / np.float64(np.float32(den))).astype(np.float32)


def _exact_fma64(x: np.ndarray, s: float, c: float) -> np.ndarray:
    """x * s + c rounded once to a double (DFMA), element by element with exact rationals."""
    from fractions import Fraction
    return np.array([float(Fraction(int(v)) * Fraction(s) + Fraction(c)) for v in x], dtype=np.float64)


def resize_div(a: Arrays, s: Scalars) -> Arrays:
    """kernels/coords.cu: dst[y, x] = src[min((int)((y + 0.5f) / scale_y), sh - 1), min((int)((x + 0.5f)
    / scale_x), sw - 1)]."""
    u = np.minimum(_divided(np.arange(s["dw"]) + 0.5, s["scale_x"]).astype(np.int64), s["sw"] - 1)
    v = np.minimum(_divided(np.arange(s["dh"]) + 0.5, s["scale_y"]).astype(np.int64), s["sh"] - 1)
    return {"dst": _matrix(a["src"], s["sh"], s["sw"])[np.ix_(v, u)].reshape(-1).astype(np.float32)}


def resize_double(a: Arrays, s: Scalars) -> Arrays:
    """kernels/coords.cu: u = (int)(x * sx + 0.25) in doubles (one DFMA), v = (int)(y * 1.5), clamped."""
    u = np.minimum(_exact_fma64(np.arange(s["dw"]), s["sx"], 0.25).astype(np.int64), s["sw"] - 1)
    v = np.minimum((np.arange(s["dh"]) * 1.5).astype(np.int64), s["sh"] - 1)
    return {"dst": _matrix(a["src"], s["sh"], s["sw"])[np.ix_(v, u)].reshape(-1).astype(np.float32)}


def taps_div(a: Arrays, s: Scalars) -> Arrays:
    """kernels/coords.cu: each output the sum of its row's inputs at min((int)((x taps + k) / width),
    sw - 1), k < taps."""
    x = np.arange(s["dw"])
    src = _matrix(a["src"], s["h"], s["sw"])
    acc = np.zeros((s["h"], s["dw"]))
    for k in range(s["taps"]):
        acc += src[:, np.minimum(_divided(x * s["taps"] + k, s["width"]).astype(np.int64), s["sw"] - 1)]
    return {"dst": acc.reshape(-1).astype(np.float32)}


def tri_row(a: Arrays, s: Scalars) -> Arrays:
    """kernels/coords.cu: y[k] = x[(int)((sqrtf(8k + 1) - 1) * 0.5)], 8k + 1 one FFMA (rounded once)
    and sqrtf correctly rounded (float64's root rounded to float32)."""
    v = (8.0 * np.arange(s["n"], dtype=np.float64) + 1.0).astype(np.float32)
    root = np.sqrt(v.astype(np.float64)).astype(np.float32)
    return {"y": a["x"][((root - np.float32(1)) * np.float32(0.5)).astype(np.int64)].copy()}


def _pixel_offsets(s: Scalars) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's y - cy and x - cx, (h, w)."""
    return np.meshgrid(np.arange(s["h"]) - s["cy"], np.arange(s["w"]) - s["cx"], indexing="ij")


def radial(a: Arrays, s: Scalars) -> Arrays:
    """kernels/coords.cu: img[y, x] = profile[(int)sqrtf(float((x - cx)^2 + (y - cy)^2))]."""
    dy, dx = _pixel_offsets(s)
    d2 = (dx * dx + dy * dy).astype(np.float32)
    return {"img": a["profile"][np.sqrt(d2.astype(np.float64)).astype(np.float32).astype(np.int64)].reshape(-1)}


def _truncated(v: np.ndarray) -> np.ndarray:
    """(int) of float32 values as cvt.rzi gives it: toward zero, a NaN to 0."""
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(v), 0, np.trunc(np.nan_to_num(v))).astype(np.int64)


def octant(a: Arrays, s: Scalars) -> Arrays:
    """kernels/slowpaths.cu: img[y, x] = table[(int)(min(|dx|, |dy|) / max(|dx|, |dy|) * (n - 1))], the
    quotient IEEE's (0 / 0 at the centre a NaN, read at 0)."""
    dy, dx = (v.astype(np.float32) for v in _pixel_offsets(s))
    steep = np.abs(dy) > np.abs(dx)
    hi, lo = np.where(steep, np.abs(dy), np.abs(dx)), np.where(steep, np.abs(dx), np.abs(dy))
    with np.errstate(invalid="ignore"):
        t = _truncated(lo / hi * np.float32(s["n"] - 1))
    return {"img": a["table"][t].reshape(-1)}


def slope(a: Arrays, s: Scalars) -> Arrays:
    """kernels/slowpaths.cu: img[y, x] = table[(int)((fminf(fmaxf(dy / dx, -lim), lim) + lim) * (bins / lim))],
    +-inf on the centre's column and NaN at the centre, which fmaxf drops."""
    dy, dx = (v.astype(np.float32) for v in _pixel_offsets(s))
    lim = np.float32(s["lim"])
    with np.errstate(divide="ignore", invalid="ignore"):
        q = dy / dx
    t = _truncated((np.fmin(np.fmax(q, -lim), lim) + lim) * (np.float32(s["bins"]) / lim))
    return {"img": a["table"][t].reshape(-1)}


def hemisphere(a: Arrays, s: Scalars) -> Arrays:
    """kernels/slowpaths.cu: img[y, x] = height[(int)sqrtf(r^2 - dx^2 - dy^2)], a NaN outside the disc
    read at 0."""
    dy, dx = _pixel_offsets(s)
    v = (s["r"] ** 2 - dx * dx - dy * dy).astype(np.float32)
    with np.errstate(invalid="ignore"):
        t = _truncated(np.sqrt(v.astype(np.float64)).astype(np.float32))
    return {"img": a["height"][t].reshape(-1)}


def tiny_ratio(a: Arrays, s: Scalars) -> Arrays:
    """kernels/slowpaths.cu: out[i] = table[min((int)(p / q), cap - 1)], p = (i % m + 1) a and
    q = (i / m + 1) b below float's normal range (float32's gradual underflow)."""
    i = np.arange(s["n"])
    p = (i % s["m"] + 1).astype(np.float32) * np.float32(s["a"])
    q = (i // s["m"] + 1).astype(np.float32) * np.float32(s["b"])
    return {"out": a["table"][np.minimum(_truncated(p / q), s["cap"] - 1)]}


def resize_inv(a: Arrays, s: Scalars) -> Arrays:
    """kernels/slowpaths.cu: dst[y, x] = src[y, min((int)(x * (1.0f / scale)), sw - 1)]."""
    inv = np.float32(1) / np.float32(s["scale"])
    u = np.minimum(_truncated(np.arange(s["dw"]).astype(np.float32) * inv), s["sw"] - 1)
    return {"dst": _matrix(a["src"], s["h"], s["sw"])[:, u].reshape(-1)}


def inverse(a: Arrays, s: Scalars) -> Arrays:
    """kernels/slowpaths.cu: out[i] = table[(int)(fminf(fmaxf(k / (i - c) , -k), k) + k)], the
    reciprocal rounded once and then scaled (1 / 0 = inf at i = c)."""
    k = np.float32(s["k"])
    with np.errstate(divide="ignore"):
        r = np.float32(1) / (np.arange(s["n"]) - s["c"]).astype(np.float32)
    return {"out": a["table"][_truncated(np.fmin(np.fmax(r * k, -k), k) + k)]}


def shift(a: Arrays, s: Scalars) -> Arrays:
    """kernels/clamps.cu: y[i] = x[max(min(i - c, m - 1), 0)]."""
    return {"y": a["x"][np.clip(np.arange(s["n"]) - s["c"], 0, s["m"] - 1)]}


def blur3(a: Arrays, s: Scalars) -> Arrays:
    """kernels/clamps.cu: the mean of the 3x3 taps, each clamped to the image's edge."""
    w, h, src = s["w"], s["h"], _matrix(a["src"], s["h"], s["w"]).astype(np.float64)
    acc = sum(src[np.clip(np.arange(h) + dy, 0, h - 1)][:, np.clip(np.arange(w) + dx, 0, w - 1)]
              for dy in (-1, 0, 1) for dx in (-1, 0, 1))
    return {"dst": (acc / 9.0).reshape(-1).astype(np.float32)}


def taps_edge(a: Arrays, s: Scalars) -> Arrays:
    """kernels/clamps.cu: the sum of each row's taps at x + k - taps / 2, clamped to the row."""
    w, src = s["w"], _matrix(a["src"], s["h"], s["w"]).astype(np.float64)
    acc = sum(src[:, np.clip(np.arange(w) + k - s["taps"] // 2, 0, w - 1)] for k in range(s["taps"]))
    return {"dst": acc.reshape(-1).astype(np.float32)}


def doubled(a: Arrays, s: Scalars) -> Arrays:
    return {"y": (2 * a["x"]).astype(np.float32)}


def copied(a: Arrays, s: Scalars) -> Arrays:
    return {"y": a["x"].copy()}


def cg_reduce(a: Arrays, s: Scalars) -> Arrays:
    return {"out": np.array([float(a["out"][0]) + a["x"][: s["n"]].astype(np.float64).sum()], dtype=np.float32)}


def _added_at(a: Arrays, s: Scalars, buffer: str, word) -> np.ndarray:
    """`buffer` after atomicAdd(&buffer[word(i)], x[i]) for i < n (float64 sums)."""
    out = a[buffer].astype(np.float64).copy()
    np.add.at(out, word(np.arange(s["n"])), a["x"][: s["n"]].astype(np.float64))
    return out.astype(a[buffer].dtype)


def f32_one(a: Arrays, s: Scalars) -> Arrays:
    return {"s": _added_at(a, s, "s", lambda i: 0 * i)}


def f32_two(a: Arrays, s: Scalars) -> Arrays:
    return {"s": _added_at(a, s, "s", lambda i: i & 1)}


def f32_eight(a: Arrays, s: Scalars) -> Arrays:
    return {"s": _added_at(a, s, "s", lambda i: 8 * (i & 7))}


def f64_two(a: Arrays, s: Scalars) -> Arrays:
    return {"d": _added_at(a, s, "d", lambda i: i & 1)}


def u64_one(a: Arrays, s: Scalars) -> Arrays:
    k = a["k"][: s["n"]].astype(np.uint32).astype(np.uint64)
    return {"c": a["c"][:1].astype(np.uint64) + k.sum(dtype=np.uint64)}


def uneven(a: Arrays, s: Scalars) -> Arrays:
    return {"s": _added_at(a, s, "s", lambda i: (i % 3 != 0).astype(np.int64))}


def mixed(a: Arrays, s: Scalars) -> Arrays:
    lane = lambda i: i % 256 % 32  # noqa: E731 (threadIdx.x & 31 with blocks of 256)
    return {"s": _added_at(a, s, "s", lambda i: np.where(lane(i) < 24, 0, lane(i) + 8))}


def h2_bins(a: Arrays, s: Scalars) -> Arrays:
    # each thread adds (1, 1) to word i & 15: both halves of a word gain its count of threads
    counts = np.bincount(np.arange(s["n"]) & 15, minlength=16).astype(np.float64)
    return {"s": (a["s"][:32].astype(np.float64) + np.repeat(counts, 2)).astype(np.float16)}


def scale_gs(a: Arrays, s: Scalars) -> Arrays:
    M, N = s["M"], s["N"]
    return {"y": (_matrix(a["x"], M, N) * a["s"][:N].astype(np.float64)).reshape(-1).astype(np.float32)}


def gather_gs(a: Arrays, s: Scalars) -> Arrays:
    M, N = s["M"], s["N"]
    return {"y": _matrix(a["x"], M, s["ld"])[:, :N].reshape(-1).astype(np.float32)}


def roll2d_gs(a: Arrays, s: Scalars) -> Arrays:
    M, N = s["M"], s["N"]
    x = a["x"][: M * N].reshape(M, N)
    return {"y": np.roll(np.roll(x, -(s["dy"] % M), axis=0), -(s["dx"] % N), axis=1).reshape(-1)}


REFERENCES: dict[str, Reference] = {
    "stencil.cu:stencil5": stencil5,
    "layernorm.cu:layernorm_warp": layernorm,
    "stencil3d.cu:stencil7": stencil7,
    "iterate.cu:ratio": ratio,
    "iterate.cu:halvings": halvings,
    "softmax.cu:softmax_warp": softmax,
    "reduce.cu:row_sum": row_sum,
    "conv1d.cu:conv1d_smem<3>": conv1d(3),
    "conv1d.cu:conv1d_smem<8>": conv1d(8),
    "transpose.cu:transpose_naive": transpose,
    "transpose.cu:transpose_tiled<0>": transpose,
    "transpose.cu:transpose_tiled<1>": transpose,
    "gemv.cu:gemv_row": gemv,
    "gemv.cu:gemv_warp": gemv,
    "gemm_bt.cu:sgemm_bt": sgemm_bt,
    "trmm.cu:trmm_lower": trmm_lower,
    "trmm.cu:trmm_lower_coalesced": trmm_lower,
    "axpy_float2.cu:axpy_float2": axpy_float2,
    "hgemm_naive.cu:hgemm_naive": hgemm,
    "dgemm_smem.cu:dgemm_smem": dgemm,
    "gemm_cp_async.cu:sgemm_cp_async": sgemm,
    "gemm_cp_async.cu:sgemm_cp_async_vec4": sgemm,
    "wmma.cu:wmma_tf32_global": wmma_tf32,
    "wmma.cu:wmma_tf32_smem": wmma_tf32,
    "wmma.cu:wmma_half_smem": wmma_half,
    "splitk.cu:sgemm_splitk": sgemm_splitk,
    "batched.cu:sgemm_batched": sgemm_batched,
    "idioms.cu:stencil2d": stencil2d,
    "idioms.cu:saxpy_gs": saxpy,
    "idioms.cu:transpose_pad": transpose,
    "idioms.cu:batched_gemv": batched_gemv,
    "idioms.cu:bias_add": bias_add,
    "flat.cu:row_scale": row_scale,
    "flat.cu:outer_flat": outer_flat,
    "flat.cu:transpose_flat": transpose,
    "flat.cu:roll": roll,
    "pixels.cu:gray_u8": gray_u8,
    "pixels.cu:blur3_u8": blur3_u8,
    "pixels.cu:col_sum": col_sum,
    "dynshared.cu:reverse_dyn": reverse_dyn,
    "dynshared.cu:row_sum_dyn": row_sum_dyn,
    "dynshared.cu:transpose_dyn": transpose,
    "local.cu:scatter_local": scatter_local,
    "local.cu:stack_sum": stack_sum,
    "local.cu:ticket": ticket,
    "spill.cu:double_stack": double_stack,
    "spill.cu:byte_shuffle": byte_shuffle,
    "spill.cu:spill": spill,
    "sparse.cu:gather": gather,
    "sparse.cu:spmv_csr": spmv_csr,
    "sparse.cu:histogram": histogram,
    "votes.cu:count_from": count_from,
    "votes.cu:ballot_count": ballot_count,
    "votes.cu:shared_hist": shared_hist,
    "votes.cu:max_abs": max_abs,
    "votes.cu:match_stride": match_stride,
    "votes.cu:block_votes": block_votes,
    "votes.cu:claim": claim,
    "switch.cu:act": act,
    "switch.cu:in_loop": in_loop,
    "switch.cu:by_warp": by_warp,
    "switch.cu:by_step": by_step,
    "userland.cu:dsum": dsum,
    "userland.cu:shfl8": shfl8,
    "userland.cu:norm3": norm3,
    "userland.cu:invert": invert,
    "atomics.cu:f32_one": f32_one,
    "atomics.cu:f32_two": f32_two,
    "atomics.cu:f32_eight": f32_eight,
    "atomics.cu:f64_two": f64_two,
    "atomics.cu:u64_one": u64_one,
    "atomics.cu:f32_old": f32_one,  # its old values o[i] depend on the order the atomics ran: only s is checked
    "atomics2.cu:uneven": uneven,
    "atomics2.cu:mixed": mixed,
    "halfatomic.cu:h2_bins": h2_bins,
    "constants.cu:offsets": offsets,
    "constants.cu:strided": strided,
    "constants.cu:taps": taps,
    "constants.cu:rows": rows,
    "params.cu:axpy_struct": axpy_struct,
    "params.cu:copy_layout": copy_layout,
    "halo.cu:conv_rows": conv_rows,
    "textbook.cu:conv_cols": conv_cols,
    "textbook.cu:conv2d_tiled": conv2d_tiled,
    "textbook.cu:transpose_diag": transpose_diag,
    "textbook.cu:prescan": prescan,
    "textbook.cu:nbody": nbody,
    "textbook.cu:calls": doubled,
    "textbook.cu:ptx_nc": copied,
    "textbook.cu:cg_reduce": cg_reduce,
    "images.cu:resize_nearest": resize_nearest,
    "images.cu:resize_bilinear": resize_bilinear,
    "images.cu:resize_u8": resize_u8,
    "images.cu:downsample": downsample,
    "coords.cu:resize_div": resize_div,
    "coords.cu:resize_double": resize_double,
    "coords.cu:taps_div": taps_div,
    "coords.cu:tri_row": tri_row,
    "coords.cu:radial": radial,
    **{f"slowpaths.cu:{f.__name__}": f for f in (octant, slope, hemisphere, tiny_ratio, resize_inv, inverse)},
    **{f"clamps.cu:{f.__name__}": f for f in (shift, blur3, taps_edge)},
    "gridstride.cu:scale_gs": scale_gs,
    "gridstride.cu:gather_gs": gather_gs,
    "gridstride.cu:roll2d_gs": roll2d_gs,
}
