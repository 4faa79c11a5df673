"""The numpy references (profiling.reference) of kernels/idioms.cu, flat.cu, gridstride.cu, local.cu,
spill.cu, sparse.cu, votes.cu, switch.cu, userland.cu, atomics.cu, constants.cu, params.cu, halo.cu,
textbook.cu, images.cu, coords.cu, slowpaths.cu and clamps.cu against the kernels' own loops, written
out per thread as the .cu reads, at small odd sizes:
what a GPU run is checked by."""

from __future__ import annotations

import math

import numpy as np
import pytest

from profiling import reference
from profiling.reference import REFERENCES

RNG = np.random.default_rng(7)


def _f(n: int) -> np.ndarray:
    return RNG.uniform(-1, 1, n).astype(np.float32)


def _per_thread(entry: str, a: dict, s: dict) -> dict:
    """Each thread of the kernel, one at a time (float64 sums)."""
    if entry == "stencil2d":
        W, H, u, out = s["W"], s["H"], a["in"].astype(np.float64), a["out"].astype(np.float64).copy()
        for y in range(1, H - 1):
            for x in range(1, W - 1):
                i = y * W + x
                out[i] = 0.25 * (u[i - W] + u[i + W] + u[i - 1] + u[i + 1])
        return {"out": out}
    if entry == "saxpy_gs":
        return {"y": [s["a"] * float(a["x"][i]) + float(a["y"][i]) for i in range(s["n"])]}
    if entry == "transpose_pad":
        M, N = s["M"], s["N"]
        out = np.zeros(M * N)
        for r in range(M):
            for c in range(N):
                out[c * M + r] = a["in"][r * N + c]
        return {"out": out}
    if entry == "batched_gemv":
        B, M, N = s["B"], s["M"], s["N"]
        return {"y": [sum(float(a["A"][b * M * N + r * N + j]) * float(a["x"][b * N + j]) for j in range(N))
                      for b in range(B) for r in range(M)]}
    if entry == "bias_add":
        return {"y": [float(a["x"][i]) + float(a["b"][i % s["N"]]) for i in range(s["M"] * s["N"])]}
    if entry == "row_scale":
        return {"y": [float(a["x"][i]) * float(a["s"][i // s["N"]]) for i in range(s["M"] * s["N"])]}
    if entry == "outer_flat":
        return {"y": [float(a["a"][i // s["N"]]) * float(a["b"][i % s["N"]]) for i in range(s["M"] * s["N"])]}
    if entry == "transpose_flat":
        M, N = s["M"], s["N"]
        out = np.zeros(M * N)
        for i in range(M * N):
            out[(i % N) * M + i // N] = a["in"][i]
        return {"out": out}
    if entry == "roll":
        return {"y": [float(a["x"][(i + s["shift"]) % s["n"]]) for i in range(s["n"])]}
    if entry in ("scatter_local", "double_stack", "byte_shuffle"):  # v[(m t + i) mod P] = in[t n + i]
        P, m = {"scatter_local": (32, 7), "double_stack": (16, 5), "byte_shuffle": (64, 5)}[entry]
        out = []
        for i in range(s["n"]):
            v = [0] * P
            for t in range(P):
                v[(m * t + i) % P] = a["in"][t * s["n"] + i]
            j, k = (i + s["k"]) % P, s["k"] % P
            out.append(v[k] ^ v[j] if entry == "byte_shuffle" else v[k] * v[j] if entry == "double_stack"
                       else float(v[k]) + float(v[j]))
        return {"out": out}
    if entry == "spill":
        out = []
        for i in range(s["n"]):
            acc = [float(a["in"][j * s["n"] + i]) for j in range(48)]
            for _ in range(s["steps"]):
                for j in range(48):
                    acc[j] = 0.5 * acc[j] * acc[(j + 7) % 48] + 0.5 * acc[(j + 13) % 48]
            out.append(sum(acc))
        return {"out": out}
    if entry == "gather":
        return {"y": [a["x"][a["perm"][i]] for i in range(s["n"])]}
    if entry == "spmv_csr":
        ptr = a["row_ptr"]
        return {"y": [sum(float(a["val"][j]) * float(a["x"][a["col"][j]]) for j in range(ptr[r], ptr[r + 1]))
                      for r in range(s["rows"])]}
    if entry == "histogram":
        counts = a["counts"].astype(np.int64).copy()
        for i in range(s["n"]):
            counts[a["keys"][i] & 1023] += 1
        return {"counts": counts}
    if entry in ("count_from", "ballot_count", "shared_hist"):  # the atomics one thread at a time
        out = {"count_from": ("count", 1), "ballot_count": ("out", 1), "shared_hist": ("bins", 256)}[entry]
        total = a[out[0]][: out[1]].astype(np.int64).copy()
        for i in range(s["n"]):
            if entry == "count_from" and i % 32 >= s["lane0"]:
                total[0] += 1
            elif entry == "ballot_count" and a["x"][i] > 0:
                total[0] += 1
            elif entry == "shared_hist":
                total[(int(a["keys"][i]) << s["shift"]) & 255] += 1
        return {out[0]: total}
    if entry == "max_abs":
        return {"m": [max([int(a["m"][0])] + [int(np.abs(a["x"][i:i + 1]).view(np.int32)[0]) for i in range(s["n"])])]}
    if entry == "match_stride":  # lane l's match: the lanes of its warp with the same i >> s
        y = a["y"].copy()
        for i in range(s["n"]):
            warp = range(i - i % 32, i - i % 32 + 32)
            y[i * sum(1 for j in warp if j >> s["s"] == i >> s["s"]) + max(j % 32 for j in warp)] = 1.0
        return {"y": y}
    if entry == "block_votes":
        y = a["y"].copy()
        for i in range(s["n"]):
            block = range(i - i % 256, i - i % 256 + 256)
            count, any_out = sum(1 for j in block if j < s["n"]), any(j >= s["n"] for j in block)
            y[i * (count // 128) + 7 * any_out] = 1.0
        return {"y": y}
    if entry == "claim":
        flags, won = a["flags"].copy(), []
        for i in range(s["n"]):
            won.append(flags[i])
            flags[i] = 1 if flags[i] == 0 else flags[i]
        return {"won": won, "flags": flags}
    if entry == "axpy_struct":
        y = a["p.y"].astype(np.float64).copy()
        for i in range(s["p.n"]):
            y[i] = s["p.a"] * float(a["p.x"][i * s["p.stride"]]) + y[i]
        return {"p.y": y}
    if entry == "copy_layout":
        out = []
        for i in range(s["s.rows"] * s["s.cols"]):
            r, c = i // s["s.cols"], i % s["s.cols"]
            out.append(a["in"][r * s["s.ld"] + c] if s["layout"] == 0 else a["in"][c * s["s.ld"] + r])
        return {"out": out}
    if entry in ("offsets", "strided", "taps", "rows"):  # kernels/constants.cu, as its loops read
        n, x, y = s["n"], a["x"], a["y"].astype(np.float64).copy()
        for i in range(n):
            if entry == "offsets":
                if 2 <= i < n - 2:
                    y[i] = sum(float(x[i + s["OFF"][k]]) for k in range(5))
            elif entry == "strided":
                y[i] = x[s["BASE"][0] + i * s["cfg::STRIDE"][0]]
            elif entry == "taps":
                y[i] = sum(float(x[4 * i + s["TAPS"][k]]) for k in range(4))
            else:
                y[i] = sum(float(x[i * s["NCOLS"][0] + j]) for j in range(s["NCOLS"][0]))
        return {"y": y}
    M, N = s.get("M"), s.get("N")
    if entry == "scale_gs":
        return {"y": [float(a["x"][i]) * float(a["s"][i % N]) for i in range(M * N)]}
    if entry == "gather_gs":
        return {"y": [float(a["x"][(i // N) * s["ld"] + i % N]) for i in range(M * N)]}
    if entry == "roll2d_gs":
        return {"y": [float(a["x"][((i // N + s["dy"]) % M) * N + (i % N + s["dx"]) % N]) for i in range(M * N)]}
    if entry in ("act", "by_warp", "by_step"):  # kernels/switch.cu, a case a thread
        n, x, y = s["n"], a["x"], a["y"].astype(np.float64).copy()
        for i in range(n):
            if entry == "act":
                v, mode = float(x[i]), s["mode"]
                at, value = {0: (i, v), 1: (i, max(v, 0.0)), 2: (2 * i, v * 0.5), 3: (i, v * v), 4: (n - 1 - i, v),
                             5: (i, -v), 6: (i + 1, v + 1)}.get(mode, (None, None))
            else:
                case = (i % 256) // 32 if entry == "by_warp" else (i // s["step"]) % 7
                at, value = [(i, x[i]), (i, x[2 * i]), (i, x[i + 5]), (n + 4 * i, 1.0), (i, 2.0), (i, x[n - 1 - i]),
                             (5 * n + i + 9, x[3 * i]), (i, -1.0)][case]
            if at is not None:
                y[at] = value
        return {"y": y}
    if entry == "in_loop":
        n, k, x = s["n"], s["k"], a["x"]
        return {"y": [sum(float(x[j * n + i]) for j in range(k)) if s["mode"] == 0 else
                      sum(float(x[i * k + j]) for j in range(k)) for i in range(n)]}
    if entry == "dsum":
        return {"s": [float(a["s"][0]) + sum(float(v) for v in a["x"][: s["n"]])]}
    if entry == "shfl8":
        n = s["n"]
        return {"y": [sum(float(a["x"][i + d]) for d in range(8) if i + d < n) for i in range(0, n, 8)]}
    if entry == "conv_rows":  # kernels/halo.cu: a thread's 8 outputs, from its tile row and halos
        W, pitch, w = s["imageW"], s["pitch"], s["c_Kernel"]
        src, out = a["d_Src"], a["d_Dst"].astype(np.float64).copy()
        for y in range(s["imageH"]):
            for x in range(W):
                row = [float(src[y * pitch + x + j]) if 0 <= x + j < W else 0.0 for j in range(-8, 9)]
                out[y * pitch + x] = sum(w[8 - j] * row[j + 8] for j in range(-8, 9))
        return {"d_Dst": out}
    if entry in ("conv_cols", "conv2d_tiled"):  # kernels/textbook.cu: each output from its tile and halos
        src, taps = (a["d_Src"], s["c_Kernel"]) if entry == "conv_cols" else (a["in"], s["M"])
        W, H = (s["imageW"], s["imageH"]) if entry == "conv_cols" else (s["width"], s["height"])
        pitch = s.get("pitch", W)
        out = (a["d_Dst"] if entry == "conv_cols" else a["out"]).astype(np.float64).copy()
        for y in range(H):
            for x in range(W):
                if entry == "conv_cols":
                    cells = [(8 - j, y + j, x) for j in range(-8, 9)]
                else:
                    cells = [(5 * i + j, y + i - 2, x + j - 2) for i in range(5) for j in range(5)]
                out[y * pitch + x] = sum(taps[k] * float(src[r * pitch + c]) for k, r, c in cells
                                         if 0 <= r < H and 0 <= c < W)
        return {"d_Dst" if entry == "conv_cols" else "out": out}
    if entry == "transpose_diag":  # the block that reads tile (bx, by) writes tile (by, bx), transposed
        W, H, x = s["width"], s["height"], a["idata"]
        return {"odata": [x[c * W + r] for r in range(W) for c in range(H)]}
    if entry in ("resize_nearest", "resize_u8", "resize_bilinear"):  # kernels/images.cu, thread by thread
        sw, sh, dw, dh, sx, sy, src = s["sw"], s["sh"], s["dw"], s["dh"], s["sx"], s["sy"], a["src"]
        out = []
        for y in range(dh):
            for x in range(dw):
                if entry != "resize_bilinear":
                    fx, fy = np.float32(x) * np.float32(sx), np.float32(y) * np.float32(sy)
                    u, v = (int(np.rint(fx)), int(np.rint(fy))) if entry == "resize_u8" else (int(fx), int(fy))
                    out.append(src[min(v, sh - 1) * sw + min(u, sw - 1)])
                    continue
                # (x + 0.5f) * sx - 0.5f: an FADD, then an FFMA rounded once (exact in float64 first)
                fx = float(np.float32(float(np.float32(x + 0.5)) * float(np.float32(sx)) - 0.5))
                fy = float(np.float32(float(np.float32(y + 0.5)) * float(np.float32(sy)) - 0.5))
                gx, gy = int(np.floor(fx)), int(np.floor(fy))
                x0, x1 = min(max(gx, 0), sw - 1), min(max(gx + 1, 0), sw - 1)
                y0, y1 = min(max(gy, 0), sh - 1), min(max(gy + 1, 0), sh - 1)
                ax, ay = fx - gx, fy - gy
                top = (1 - ax) * float(src[y0 * sw + x0]) + ax * float(src[y0 * sw + x1])
                bottom = (1 - ax) * float(src[y1 * sw + x0]) + ax * float(src[y1 * sw + x1])
                out.append((1 - ay) * top + ay * bottom)
        return {"dst": out}
    if entry in ("resize_div", "resize_double"):  # kernels/coords.cu, thread by thread
        from fractions import Fraction
        sw, sh, dw, dh, src, out = s["sw"], s["sh"], s["dw"], s["dh"], a["src"], []
        for y in range(dh):
            for x in range(dw):
                if entry == "resize_div":  # float32 quotients, correctly rounded (exact rationals)
                    u = int(np.float32(float(Fraction(x) + Fraction(1, 2)) / float(np.float32(s["scale_x"]))))
                    v = int(np.float32(float(Fraction(y) + Fraction(1, 2)) / float(np.float32(s["scale_y"]))))
                else:  # x * sx + 0.25 rounded once to a double; y * 1.5 exact
                    u, v = int(float(Fraction(x) * Fraction(s["sx"]) + Fraction(1, 4))), int(y * 1.5)
                out.append(float(src[min(v, sh - 1) * sw + min(u, sw - 1)]))
        return {"dst": out}
    if entry == "tri_row":  # the row whose triangle holds entry k, found by counting, not by sqrtf
        rows = [r for r in range(s["n"]) for _ in range(r + 1)]
        return {"y": [float(a["x"][rows[k]]) for k in range(s["n"])]}
    if entry == "radial":  # floor of the distance, by integers: the largest r with r * r <= d2
        w, h, out = s["w"], s["h"], []
        for y in range(h):
            for x in range(w):
                d2 = (x - s["cx"]) ** 2 + (y - s["cy"]) ** 2
                out.append(float(a["profile"][math.isqrt(d2)]))
        return {"img": out}
    if entry in ("octant", "slope", "hemisphere"):  # kernels/slowpaths.cu, thread by thread, IEEE's
        # quotients and roots from exact rationals and integer square roots, a NaN read at 0
        from fractions import Fraction
        w, h, cx, cy, out = s["w"], s["h"], s["cx"], s["cy"], []
        for y in range(h):
            for x in range(w):
                dx, dy = x - cx, y - cy
                if entry == "octant":
                    hi, lo = max(abs(dx), abs(dy)), min(abs(dx), abs(dy))
                    t = 0 if hi == 0 else int(np.float32(np.float32(float(Fraction(lo, hi))) * np.float32(s["n"] - 1)))
                elif entry == "slope":
                    lim = float(np.float32(s["lim"]))
                    q = (math.copysign(math.inf, dy) if dy else math.nan) if dx == 0 else float(np.float32(dy / dx))
                    c = -lim if math.isnan(q) else min(max(q, -lim), lim)
                    step = np.float32(float(Fraction(s["bins"]) / Fraction(lim)))
                    t = int(np.float32(np.float32(c + lim) * step))
                else:
                    v = s["r"] ** 2 - dx * dx - dy * dy
                    t = math.isqrt(v) if v >= 0 else 0
                out.append(float(a[{"octant": "table", "slope": "table", "hemisphere": "height"}[entry]][t]))
        return {"img": out}
    if entry in ("tiny_ratio", "resize_inv", "inverse"):
        from fractions import Fraction
        if entry == "tiny_ratio":  # the products exact in float64, rounded once to float32 (denormals
            out = []  # too); the quotient as Python's float64 division rounds it, then to float32
            for i in range(s["n"]):
                p = float(np.float32((i % s["m"] + 1) * float(np.float32(s["a"]))))
                q = float(np.float32((i // s["m"] + 1) * float(np.float32(s["b"]))))
                out.append(float(a["table"][min(int(np.float32(p / q)), s["cap"] - 1)]))
            return {"out": out}
        if entry == "resize_inv":
            inv = float(np.float32(1 / Fraction(float(np.float32(s["scale"])))))
            sw, dw, src = s["sw"], s["dw"], a["src"]
            return {"dst": [float(src[y * sw + min(int(np.float32(x * inv)), sw - 1)])
                            for y in range(s["h"]) for x in range(dw)]}
        k, out = float(np.float32(s["k"])), []
        for i in range(s["n"]):
            r = math.inf if i == s["c"] else float(np.float32(1 / Fraction(i - s["c"])))
            out.append(float(a["table"][int(min(max(float(np.float32(r * k)), -k), k) + k)]))
        return {"out": out}
    if entry in ("shift", "blur3", "taps_edge"):  # kernels/clamps.cu, thread by thread
        def clamp(v, hi):
            return max(min(v, hi - 1), 0)
        if entry == "shift":
            return {"y": [float(a["x"][clamp(i - s["c"], s["m"])]) for i in range(s["n"])]}
        w, h, src, out = s["w"], s["h"], a["src"], []
        for y in range(h):
            for x in range(w):
                if entry == "blur3":
                    out.append(sum(float(src[clamp(y + dy, h) * w + clamp(x + dx, w)])
                                   for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9.0)
                else:
                    out.append(sum(float(src[y * w + clamp(x + k - s["taps"] // 2, w)]) for k in range(s["taps"])))
        return {"dst": out}
    if entry == "taps_div":
        sw, dw, h, src, out = s["sw"], s["dw"], s["h"], a["src"], []
        for y in range(h):
            for x in range(dw):
                width = float(np.float32(s["width"]))
                t = [int(np.float32(float(x * s["taps"] + k) / width)) for k in range(s["taps"])]
                out.append(sum(float(src[y * sw + min(u, sw - 1)]) for u in t))
        return {"dst": out}
    if entry == "downsample":
        sw, dw, h, src, out = s["sw"], s["dw"], s["h"], a["src"], []
        for y in range(h):
            for x in range(dw):
                acc = 0.0
                for k in range(s["taps"]):
                    t = np.float32(k * float(np.float32(s["step"])) + x)  # one FFMA
                    acc += float(src[y * sw + min(int(t * np.float32(s["scale"])), sw - 1)])
                out.append(acc * float(np.float32(s["step"])))
        return {"dst": out}
    if entry == "prescan":  # a block's up-sweep and down-sweep over its n values, padding left out
        n, x, out = s["n"], a["g_idata"], []
        for b in range(len(x) // n):
            t = [float(v) for v in x[b * n:(b + 1) * n]]
            offset = 1
            d = n >> 1
            while d > 0:
                for i in range(d):
                    t[offset * (2 * i + 2) - 1] += t[offset * (2 * i + 1) - 1]
                offset *= 2
                d >>= 1
            t[n - 1] = 0.0
            d = 1
            while d < n:
                offset >>= 1
                for i in range(d):
                    ai, bi = offset * (2 * i + 1) - 1, offset * (2 * i + 2) - 1
                    t[ai], t[bi] = t[bi], t[bi] + t[ai]
                d *= 2
            out += t
        return {"g_odata": out}
    if entry == "nbody":
        p, acc = a["pos"].reshape(-1, 4).astype(np.float64), []
        for i in range(s["n"]):
            f = [0.0, 0.0, 0.0]
            for j in range(s["n"]):
                d = [p[j][c] - p[i][c] for c in range(3)]
                inv = (sum(v * v for v in d) + s["eps2"]) ** -1.5
                f = [f[c] + p[j][3] * d[c] * inv for c in range(3)]
            acc += f + [0.0]
        return {"acc": acc}
    if entry in ("calls", "ptx_nc"):
        return {"y": [2 * float(v) if entry == "calls" else float(v) for v in a["x"]]}
    if entry == "cg_reduce":  # one warp's sum at a time, added to out
        x, total = a["x"], float(a["out"][0])
        for w in range(0, s["n"], 32):
            total += sum(float(v) for v in x[w:min(w + 32, s["n"])])
        return {"out": [total]}
    if entry == "norm3":
        p = a["p"]
        return {"r": [float(np.sqrt(sum(float(p[3 * i + c]) ** 2 for c in range(3)))) for i in range(s["n"])]}
    if entry == "invert":
        p = a["p"]
        return {"q": [255 - int(p[4 * i + c]) if c < 3 else int(p[4 * i + c]) for i in range(s["n"]) for c in range(4)]}
    if entry in ("f32_one", "f32_two", "f32_eight", "f64_two", "f32_old", "u64_one", "uneven", "mixed"):
        out = "d" if entry == "f64_two" else "c" if entry == "u64_one" else "s"
        acc = [float(v) for v in a[out]]
        for i in range(s["n"]):
            lane = i % 256 % 32
            word = {"f32_two": i & 1, "f64_two": i & 1, "f32_eight": 8 * (i & 7), "uneven": int(i % 3 != 0),
                    "mixed": 0 if lane < 24 else lane + 8}.get(entry, 0)
            acc[word] += float(int(a["k"][i]) % 2**32) if entry == "u64_one" else float(a["x"][i])
        return {out: acc}
    if entry == "h2_bins":  # kernels/halfatomic.cu
        acc = [float(v) for v in a["s"]]
        for i in range(s["n"]):
            acc[2 * (i & 15)] += 1
            acc[2 * (i & 15) + 1] += 1
        return {"s": np.array(acc).astype(np.float16)}  # the buffer's type, as the reference rounds
    raise AssertionError(entry)


CASES = {
    "stencil2d": ({"W": 7, "H": 5}, lambda s: {"in": _f(35), "out": _f(35)}),
    "saxpy_gs": ({"n": 9, "a": 1.5}, lambda s: {"x": _f(9), "y": _f(9)}),
    "transpose_pad": ({"M": 3, "N": 5}, lambda s: {"in": _f(15), "out": _f(15)}),
    "batched_gemv": ({"B": 2, "M": 3, "N": 4}, lambda s: {"A": _f(24), "x": _f(8), "y": _f(6)}),
    "bias_add": ({"M": 3, "N": 5}, lambda s: {"x": _f(15), "b": _f(5), "y": _f(15)}),
    "row_scale": ({"M": 3, "N": 5}, lambda s: {"x": _f(15), "s": _f(3), "y": _f(15)}),
    "outer_flat": ({"M": 3, "N": 5}, lambda s: {"a": _f(3), "b": _f(5), "y": _f(15)}),
    "transpose_flat": ({"M": 3, "N": 5}, lambda s: {"in": _f(15), "out": _f(15)}),
    "roll": ({"n": 7, "shift": 3}, lambda s: {"x": _f(7), "y": _f(7)}),
    "scale_gs": ({"M": 3, "N": 5}, lambda s: {"x": _f(15), "s": _f(5), "y": _f(15)}),
    "gather_gs": ({"M": 3, "N": 4, "ld": 6}, lambda s: {"x": _f(18), "y": _f(12)}),
    "roll2d_gs": ({"M": 3, "N": 5, "dy": 4, "dx": 7}, lambda s: {"x": _f(15), "y": _f(15)}),
    "scatter_local": ({"n": 9, "k": 35}, lambda s: {"in": _f(32 * 9)}),
    "double_stack": ({"n": 9, "k": 21}, lambda s: {"in": _f(16 * 9).astype(np.float64)}),
    "byte_shuffle": ({"n": 9, "k": 70}, lambda s: {"in": RNG.integers(0, 256, 64 * 9).astype(np.uint8)}),
    "spill": ({"n": 5, "steps": 2}, lambda s: {"in": _f(48 * 5)}),
    "gather": ({"n": 7}, lambda s: {"perm": np.array([3, 0, 6, 1, 5, 2, 4], dtype=np.int32), "x": _f(7)}),
    "spmv_csr": ({"rows": 4}, lambda s: {"row_ptr": np.array([0, 2, 2, 5, 6], dtype=np.int32),
                                          "col": np.array([1, 3, 0, 2, 3, 0], dtype=np.int32), "val": _f(6),
                                          "x": _f(4)}),
    "histogram": ({"n": 9}, lambda s: {"keys": RNG.integers(0, 5000, 9).astype(np.int32),
                                        "counts": RNG.integers(0, 100, 1024).astype(np.int32)}),
    "count_from": ({"n": 70, "lane0": 5}, lambda s: {"count": np.array([3], dtype=np.int32)}),
    "ballot_count": ({"n": 9}, lambda s: {"x": _f(9) - 0.5, "out": np.array([2], dtype=np.int32)}),
    "shared_hist": ({"n": 40, "shift": 5}, lambda s: {"keys": RNG.integers(0, 256, 40).astype(np.uint8),
                                                     "bins": RNG.integers(0, 9, 256).astype(np.uint32)}),
    "max_abs": ({"n": 9}, lambda s: {"x": _f(9), "m": np.array([5], dtype=np.int32)}),
    "match_stride": ({"n": 70, "s": 3}, lambda s: {"y": _f(32 * 70 + 31)}),
    "block_votes": ({"n": 300}, lambda s: {"y": _f(2 * 300 + 8)}),
    "claim": ({"n": 9}, lambda s: {"flags": RNG.integers(0, 2, 9).astype(np.int32)}),
    "act": ({"n": 9, "mode": 4}, lambda s: {"x": _f(9), "y": _f(19)}),
    "in_loop": ({"n": 5, "k": 3, "mode": 1}, lambda s: {"x": _f(15), "y": _f(5)}),
    "by_warp": ({"n": 300}, lambda s: {"x": _f(905), "y": _f(1809)}),
    "by_step": ({"n": 40, "step": 3}, lambda s: {"x": _f(125), "y": _f(249)}),
    "dsum": ({"n": 9}, lambda s: {"x": _f(9).astype(np.float64), "s": np.array([0.25])}),
    "shfl8": ({"n": 13}, lambda s: {"x": _f(13), "y": _f(2)}),
    "norm3": ({"n": 5}, lambda s: {"p": _f(15), "r": _f(5)}),
    "f32_one": ({"n": 9}, lambda s: {"x": _f(9), "s": _f(1)}),
    "f32_two": ({"n": 9}, lambda s: {"x": _f(9), "s": _f(2)}),
    "f32_eight": ({"n": 19}, lambda s: {"x": _f(19), "s": _f(57)}),
    "f64_two": ({"n": 9}, lambda s: {"x": _f(9).astype(np.float64), "d": _f(2).astype(np.float64)}),
    "f32_old": ({"n": 9}, lambda s: {"x": _f(9), "s": _f(1), "o": _f(9)}),
    "u64_one": ({"n": 9}, lambda s: {"k": RNG.integers(-2**31, 2**31, 9).astype(np.int32),
                                     "c": np.array([7], dtype=np.uint64)}),
    "uneven": ({"n": 9}, lambda s: {"x": _f(9), "s": _f(2)}),
    "mixed": ({"n": 40}, lambda s: {"x": _f(40), "s": _f(40)}),
    "h2_bins": ({"n": 40}, lambda s: {"s": _f(32).astype(np.float16)}),
    "offsets": ({"n": 11, "OFF": [-2, 0, 1, 2, 5]}, lambda s: {"x": _f(16), "y": _f(11)}),
    "strided": ({"n": 7, "cfg::STRIDE": [-2], "BASE": [13]}, lambda s: {"x": _f(14), "y": _f(7)}),
    "taps": ({"n": 5, "TAPS": [0, 3, 1, 7]}, lambda s: {"x": _f(27), "y": _f(5)}),
    "rows": ({"n": 4, "NCOLS": [3]}, lambda s: {"x": _f(12), "y": _f(4)}),
    "axpy_struct": ({"p.n": 5, "p.stride": 3, "p.flag": 0, "p.a": -1.5}, lambda s: {"p.x": _f(15), "p.y": _f(5)}),
    "copy_layout": ({"s.rows": 3, "s.cols": 4, "s.ld": 5, "layout": 1}, lambda s: {"in": _f(25), "out": _f(12)}),
    "conv_rows": ({"imageW": 128, "imageH": 3, "pitch": 133, "c_Kernel": [0.5 * k - 3.0 for k in range(17)]},
                  lambda s: {"d_Src": _f(3 * 133), "d_Dst": _f(3 * 133)}),
    "conv_cols": ({"imageW": 5, "imageH": 19, "pitch": 7, "c_Kernel": [0.25 * k - 2.0 for k in range(17)]},
                  lambda s: {"d_Src": _f(19 * 7), "d_Dst": _f(19 * 7)}),
    "conv2d_tiled": ({"width": 7, "height": 6, "M": [0.5 * k - 6.0 for k in range(25)]},
                     lambda s: {"in": _f(42), "out": _f(42)}),
    "transpose_diag": ({"width": 5, "height": 3}, lambda s: {"idata": _f(15), "odata": _f(15)}),
    "prescan": ({"n": 8}, lambda s: {"g_idata": _f(24), "g_odata": _f(24)}),
    "nbody": ({"n": 6, "eps2": 0.5}, lambda s: {"pos": _f(24), "acc": _f(24)}),
    "calls": ({"n": 7}, lambda s: {"x": _f(7), "y": _f(7)}),
    "ptx_nc": ({"n": 3}, lambda s: {"x": _f(12), "y": _f(12)}),
    "cg_reduce": ({"n": 70}, lambda s: {"x": _f(70), "out": _f(1)}),
    "resize_nearest": ({"sw": 7, "sh": 5, "dw": 11, "dh": 4, "sx": 0.677, "sy": 1.37},
                       lambda s: {"src": _f(35), "dst": _f(44)}),
    "resize_u8": ({"sw": 9, "sh": 5, "dw": 6, "dh": 4, "sx": 1.5, "sy": 1.37},
                  lambda s: {"src": RNG.integers(0, 256, 45).astype(np.uint8), "dst": np.zeros(24, np.uint8)}),
    "resize_bilinear": ({"sw": 7, "sh": 5, "dw": 11, "dh": 3, "sx": 0.677, "sy": 1.37},
                        lambda s: {"src": _f(35), "dst": _f(33)}),
    "downsample": ({"sw": 20, "dw": 6, "h": 3, "scale": 3.3, "step": 0.33, "taps": 3},
                   lambda s: {"src": _f(60), "dst": _f(18)}),
    "resize_div": ({"sw": 7, "sh": 5, "dw": 11, "dh": 4, "scale_x": 1.477, "scale_y": 0.893},
                   lambda s: {"src": _f(35), "dst": _f(44)}),
    "resize_double": ({"sw": 9, "sh": 7, "dw": 11, "dh": 4, "sx": 0.677}, lambda s: {"src": _f(63), "dst": _f(44)}),
    "taps_div": ({"sw": 20, "dw": 6, "h": 3, "width": 0.77, "taps": 3}, lambda s: {"src": _f(60), "dst": _f(18)}),
    "tri_row": ({"n": 40}, lambda s: {"x": _f(40), "y": _f(40)}),
    "radial": ({"w": 7, "h": 5, "cx": 2, "cy": 3}, lambda s: {"profile": _f(12), "img": _f(35)}),
    "shift": ({"n": 40, "c": 7, "m": 25}, lambda s: {"x": _f(25), "y": _f(40)}),
    "blur3": ({"w": 7, "h": 5}, lambda s: {"src": _f(35), "dst": _f(35)}),
    "taps_edge": ({"w": 9, "h": 3, "taps": 4}, lambda s: {"src": _f(27), "dst": _f(27)}),
    "octant": ({"w": 9, "h": 7, "cx": 4, "cy": 2, "n": 13}, lambda s: {"table": _f(13), "img": _f(63)}),
    "slope": ({"w": 9, "h": 7, "cx": 4, "cy": 2, "lim": 2.5, "bins": 7}, lambda s: {"table": _f(16), "img": _f(63)}),
    "hemisphere": ({"w": 9, "h": 7, "cx": 4, "cy": 3, "r": 3}, lambda s: {"height": _f(4), "img": _f(63)}),
    "tiny_ratio": ({"n": 40, "a": 1e-40, "b": 3e-41, "m": 7, "cap": 20}, lambda s: {"table": _f(20), "out": _f(40)}),
    "resize_inv": ({"sw": 20, "dw": 6, "h": 3, "scale": 2.999}, lambda s: {"src": _f(60), "dst": _f(18)}),
    "inverse": ({"n": 30, "c": 11, "k": 5}, lambda s: {"table": _f(11), "out": _f(30)}),
    "invert": ({"n": 5}, lambda s: {"p": RNG.integers(0, 256, 20).astype(np.uint8), "q": np.zeros(20, np.uint8)}),
}
FILE = {**dict.fromkeys(("row_scale", "outer_flat", "transpose_flat", "roll"), "flat.cu"),
        **dict.fromkeys(("scale_gs", "gather_gs", "roll2d_gs"), "gridstride.cu"),
        **dict.fromkeys(("scatter_local",), "local.cu"),
        **dict.fromkeys(("double_stack", "byte_shuffle", "spill"), "spill.cu"),
        **dict.fromkeys(("gather", "spmv_csr", "histogram"), "sparse.cu"),
        **dict.fromkeys(("count_from", "ballot_count", "shared_hist", "max_abs", "match_stride",
                          "block_votes", "claim"), "votes.cu"),
        **dict.fromkeys(("act", "in_loop", "by_warp", "by_step"), "switch.cu"),
        **dict.fromkeys(("dsum", "shfl8", "norm3", "invert"), "userland.cu"),
        **dict.fromkeys(("f32_one", "f32_two", "f32_eight", "f64_two", "f32_old", "u64_one"), "atomics.cu"),
        **dict.fromkeys(("uneven", "mixed"), "atomics2.cu"), "h2_bins": "halfatomic.cu",
        **dict.fromkeys(("offsets", "strided", "taps", "rows"), "constants.cu"),
        **dict.fromkeys(("axpy_struct", "copy_layout"), "params.cu"), "conv_rows": "halo.cu",
        **dict.fromkeys(("resize_nearest", "resize_u8", "resize_bilinear", "downsample"), "images.cu"),
        **dict.fromkeys(("resize_div", "resize_double", "taps_div", "tri_row", "radial"), "coords.cu"),
        **dict.fromkeys(("octant", "slope", "hemisphere", "tiny_ratio", "resize_inv", "inverse"), "slowpaths.cu"),
        **dict.fromkeys(("shift", "blur3", "taps_edge"), "clamps.cu"),
        **dict.fromkeys(("conv_cols", "conv2d_tiled", "transpose_diag", "prescan", "nbody", "calls", "ptx_nc",
                         "cg_reduce"), "textbook.cu")}


@pytest.mark.parametrize("entry", sorted(CASES))
def test_an_idiom_reference_is_what_each_thread_computes(entry):
    scalars, arrays = CASES[entry]
    a = arrays(scalars)
    got = REFERENCES[f"{FILE.get(entry, 'idioms.cu')}:{entry}"](a, scalars)
    want = _per_thread(entry, a, scalars)
    assert got.keys() == want.keys()
    for name in got:
        assert np.allclose(got[name], np.asarray(want[name], dtype=np.float64).astype(np.float32), rtol=1e-6, atol=1e-6)


def test_every_integer_element_type_is_checked_bit_for_bit():
    # shared_hist's `unsigned[256]` bins had no tolerance and the GPU check stopped on a KeyError
    from warpsim.sass.launch import ELEMENT_BYTES, FLOAT_TYPES
    for kind in ELEMENT_BYTES:
        if kind in FLOAT_TYPES or "half" in kind or "float" in kind or "double" in kind or "bfloat" in kind:
            continue
        assert reference.TOLERANCES[kind] == (0.0, 0.0), kind
    assert reference.close("votes.cu:shared_hist", "unsigned", np.array([3, 4]), np.array([3, 4]))
    assert not reference.close("votes.cu:shared_hist", "unsigned", np.array([3, 4]), np.array([3, 5]))
