"""Model of kernels/vectorized.cu (siboehm kernel 6): blocktile2d's 128x128x8 tile and 8x8 outer
products, with float4 (16-byte) global loads of A and B, A stored transposed in shared memory
(As[k][m]) so both register fragments are LDS.128s, and float4 C traffic.

Per warp per K tile (docs/LADDER.md): A one LDG.E.128 of 16 rows x 32 B (16 sectors) and four
scalar STS of 16 banks x 2 words (2 wavefronts); B one LDG.E.128 of 512 contiguous bytes and one
STS.128 (4 wavefronts); 16 LDS.128 of As (2 wavefronts: lanes pair up) and 16 of Bs (8
wavefronts, 4 of them conflicts).

Limitations: the C epilogue's predicated/branch split is the one nvcc 13.0 emits (-O3, sm_90),
read from the SASS, not derived: 15 float4s predicated, the last after `@P0 EXIT`.
"""

from __future__ import annotations

from warpsim.program import epilogue_guard, float4, lanes4

BM = 128
BN = 128
BK = 8
TM = 8
TN = 8
NUM_THREADS = BM * BN // (TM * TN)  # 256


def sgemm_vectorized(k, M, N, K, alpha, beta):
    As = k.shared("As", BK * BM, holds="A")  # line 21: As[k][m], transposed
    Bs = k.shared("Bs", BK * BN, holds="B")  # line 22: Bs[k][n]

    bRow = k.blockIdx.y * BM  # line 24
    bCol = k.blockIdx.x * BN  # line 25

    threadCol = k.threadIdx.x % (BN // TN)  # line 28: 0..15
    threadRow = k.threadIdx.x // (BN // TN)  # line 29: 0..15

    innerRowA = k.threadIdx.x // (BK // 4)  # line 32: 0..127
    innerColA = k.threadIdx.x % (BK // 4)  # line 33: 0..1
    innerRowB = k.threadIdx.x // (BN // 4)  # line 34: 0..7
    innerColB = k.threadIdx.x % (BN // 4)  # line 35: 0..31

    threadResults = [0.0] * (TM * TN)  # line 37
    regM = [0.0] * TM  # line 38
    regN = [0.0] * TN  # line 39

    for k0 in k.range("k0", 0, K, BK):  # line 41
        # lines 42-45: a zero float4, then one @!P-predicated LDG.E.128 (every warp executes it)
        a = k.load("A", (bRow + innerRowA) * K + k0 + innerColA * 4, width=16, line=44,
                   where=(bRow + innerRowA < M) & (k0 + innerColA * 4 < K))
        ax, ay, az, aw = lanes4(a)
        k.store(As, (innerColA * 4 + 0) * BM + innerRowA, ax, line=46)  # line 46
        k.store(As, (innerColA * 4 + 1) * BM + innerRowA, ay, line=47)  # line 47
        k.store(As, (innerColA * 4 + 2) * BM + innerRowA, az, line=48)  # line 48
        k.store(As, (innerColA * 4 + 3) * BM + innerRowA, aw, line=49)  # line 49

        # lines 51-54: the same for B
        b = k.load("B", (k0 + innerRowB) * N + bCol + innerColB * 4, width=16, line=53,
                   where=(k0 + innerRowB < K) & (bCol + innerColB * 4 < N))
        k.store(Bs, innerRowB * BN + innerColB * 4, b, width=16, line=55)  # line 55: STS.128
        k.sync()  # line 56

        for dotIdx in range(BK):  # line 59, #pragma unroll
            for i in range(0, TM, 4):  # line 60: four floats per LDS.128
                regM[i:i + 4] = lanes4(k.load(As, dotIdx * BM + threadRow * TM + i, width=16, line=61))
            for i in range(0, TN, 4):  # line 63
                regN[i:i + 4] = lanes4(k.load(Bs, dotIdx * BN + threadCol * TN + i, width=16, line=64))
            for resIdxM in range(TM):  # line 66
                for resIdxN in range(TN):  # line 67
                    threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN]  # line 68
        k.sync()  # line 72

    for resIdxM in range(TM):  # line 75
        row = bRow + threadRow * TM + resIdxM  # line 76
        for resIdxN in range(0, TN, 4):  # line 77
            col = bCol + threadCol * TN + resIdxN  # line 78
            last = (resIdxM, resIdxN) == (TM - 1, TN - 4)
            with epilogue_guard(k, (row < M) & (col < N), behind_exit=last) as where:  # line 79
                c = k.load("C", row * N + col, width=16, where=where, line=80)  # line 80
                res = resIdxM * TN + resIdxN
                cx, cy, cz, cw = lanes4(c)
                c = float4(alpha * threadResults[res + 0] + beta * cx,  # line 81
                           alpha * threadResults[res + 1] + beta * cy,  # line 82
                           alpha * threadResults[res + 2] + beta * cz,  # line 83
                           alpha * threadResults[res + 3] + beta * cw)  # line 84
                k.store("C", row * N + col, c, width=16, where=where, line=85)  # line 85
