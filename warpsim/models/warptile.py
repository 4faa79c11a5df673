"""Model of kernels/warptile.cu (siboehm kernel 10, H100 configuration): a 128x128x16 block tile
split into four 64x64 warp tiles, each walked as WNITER=4 sub-tiles of 64x16; a thread computes an
8x4 piece of each sub-tile. float4 global loads, A transposed in shared memory, float4 C traffic.

Per warp per K tile (docs/LADDER.md): A 4 LDG.E.128 of 8 rows x 64 B (16 sectors) and 4 x 4
scalar STS of 8 banks x 4 words (4 wavefronts, 3 conflicts); B 4 LDG.E.128 and 4 STS.128 of 512
contiguous bytes; 32 LDS.128 of As (2 wavefronts: lanes pair up) and 64 of Bs (4 wavefronts).
Epilogue: 32 float4 C loads and stores, 8 rows x 64 B each (16 sectors).

Limitations: the epilogue's predicated/branch split is nvcc 13.0's (-O3, sm_90), read from the
SASS: 31 float4s predicated, the last (wSubColIdx 3, resIdxM 7) after `@P1 EXIT`.
"""

from __future__ import annotations

from warpsim.program import epilogue_guard, float4, lanes4

BM = 128
BN = 128
BK = 16
WM = 64
WN = 64
WNITER = 4
TM = 8
TN = 4
NUM_THREADS = 128
WARPSIZE = 32
WMITER = (WM * WN) // (WARPSIZE * TM * TN * WNITER)  # 1
WSUBM = WM // WMITER  # 64
WSUBN = WN // WNITER  # 16


def sgemm_warptile(k, M, N, K, alpha, beta):
    As = k.shared("As", BK * BM, holds="A")  # line 31: As[k][m], transposed
    Bs = k.shared("Bs", BK * BN, holds="B")  # line 32: Bs[k][n]

    bRow = k.blockIdx.y * BM  # line 34
    bCol = k.blockIdx.x * BN  # line 35

    warpIdx = k.threadIdx.x // WARPSIZE  # line 38: 0..3
    warpCol = warpIdx % (BN // WN)  # line 39: 0..1
    warpRow = warpIdx // (BN // WN)  # line 40: 0..1

    threadIdxInWarp = k.threadIdx.x % WARPSIZE  # line 43
    threadColInWarp = threadIdxInWarp % (WSUBN // TN)  # line 44: 0..3
    threadRowInWarp = threadIdxInWarp // (WSUBN // TN)  # line 45: 0..7

    innerRowA = k.threadIdx.x // (BK // 4)  # line 48: 0..31
    innerColA = k.threadIdx.x % (BK // 4)  # line 49: 0..3
    rowStrideA = NUM_THREADS // (BK // 4)  # line 50: 32
    innerRowB = k.threadIdx.x // (BN // 4)  # line 51: 0..3
    innerColB = k.threadIdx.x % (BN // 4)  # line 52: 0..31
    rowStrideB = NUM_THREADS // (BN // 4)  # line 53: 4

    threadResults = [0.0] * (WMITER * TM * WNITER * TN)  # line 55
    regM = [0.0] * (WMITER * TM)  # line 56
    regN = [0.0] * (WNITER * TN)  # line 57

    for k0 in k.range("k0", 0, K, BK):  # line 59
        for offset in range(0, BM, rowStrideA):  # line 60 (unrolled: 4 copies)
            r = innerRowA + offset  # line 61
            # lines 62-65: a zero float4, then an @!P-predicated LDG.E.128 (every warp executes it)
            a = k.load("A", (bRow + r) * K + k0 + innerColA * 4, width=16, line=64,
                       where=(bRow + r < M) & (k0 + innerColA * 4 < K))
            ax, ay, az, aw = lanes4(a)
            k.store(As, (innerColA * 4 + 0) * BM + r, ax, line=66)  # line 66
            k.store(As, (innerColA * 4 + 1) * BM + r, ay, line=67)  # line 67
            k.store(As, (innerColA * 4 + 2) * BM + r, az, line=68)  # line 68
            k.store(As, (innerColA * 4 + 3) * BM + r, aw, line=69)  # line 69
        for offset in range(0, BK, rowStrideB):  # line 71 (unrolled: 4 copies)
            r = innerRowB + offset  # line 72
            # lines 73-76: the same for B
            b = k.load("B", (k0 + r) * N + bCol + innerColB * 4, width=16, line=75,
                       where=(k0 + r < K) & (bCol + innerColB * 4 < N))
            k.store(Bs, r * BN + innerColB * 4, b, width=16, line=77)  # line 77: STS.128
        k.sync()  # line 79

        for dotIdx in range(BK):  # line 82, #pragma unroll
            for wSubRowIdx in range(WMITER):  # line 83
                for i in range(0, TM, 4):  # line 84: four floats per LDS.128
                    regM[wSubRowIdx * TM + i:wSubRowIdx * TM + i + 4] = lanes4(k.load(  # line 85
                        As, dotIdx * BM + warpRow * WM + wSubRowIdx * WSUBM + threadRowInWarp * TM + i,
                        width=16, line=86))
            for wSubColIdx in range(WNITER):  # line 89
                for i in range(0, TN, 4):  # line 90
                    regN[wSubColIdx * TN + i:wSubColIdx * TN + i + 4] = lanes4(k.load(  # line 91
                        Bs, dotIdx * BN + warpCol * WN + wSubColIdx * WSUBN + threadColInWarp * TN + i,
                        width=16, line=92))
            for wSubRowIdx in range(WMITER):  # line 95
                for wSubColIdx in range(WNITER):  # line 96
                    for resIdxM in range(TM):  # line 97
                        for resIdxN in range(TN):  # line 98
                            threadResults[(wSubRowIdx * TM + resIdxM) * (WNITER * TN)  # line 99
                                          + wSubColIdx * TN + resIdxN] += (
                                regM[wSubRowIdx * TM + resIdxM] * regN[wSubColIdx * TN + resIdxN])
        k.sync()  # line 106

    for wSubRowIdx in range(WMITER):  # line 109
        for wSubColIdx in range(WNITER):  # line 110
            for resIdxM in range(TM):  # line 111
                row = bRow + warpRow * WM + wSubRowIdx * WSUBM + threadRowInWarp * TM + resIdxM  # line 112
                col = bCol + warpCol * WN + wSubColIdx * WSUBN + threadColInWarp * TN  # line 113
                last = (wSubRowIdx, wSubColIdx, resIdxM) == (WMITER - 1, WNITER - 1, TM - 1)
                with epilogue_guard(k, (row < M) & (col < N), behind_exit=last) as where:  # line 114
                    res = (wSubRowIdx * TM + resIdxM) * (WNITER * TN) + wSubColIdx * TN  # line 115
                    c = k.load("C", row * N + col, width=16, where=where, line=116)  # line 116
                    cx, cy, cz, cw = lanes4(c)
                    c = float4(alpha * threadResults[res + 0] + beta * cx,  # line 117
                               alpha * threadResults[res + 1] + beta * cy,  # line 118
                               alpha * threadResults[res + 2] + beta * cz,  # line 119
                               alpha * threadResults[res + 3] + beta * cw)  # line 120
                    k.store("C", row * N + col, c, width=16, where=where, line=121)  # line 121
