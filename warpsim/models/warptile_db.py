"""Model of kernels/warptile_db.cu: warptile's 64x64 warp tiles and 8x4-per-sub-tile compute on a
128x256x8 block tile (8 warps), double-buffered: two shared stages, the next K tile's float4s
loaded into registers before the compute and stored to the other stage after it.

The helpers loadTile/storeTile are inlined twice by nvcc: the prologue (tile 0 into stage 0) and
the loop (tile k0 + BK into stage ^ 1, inside the block-uniform `if (hasNext)` branch, so not on
the last tile). Each call here records its own sites, as SASS has its own copies. Stage s of As
starts at byte 4096*s, of Bs at byte 8192*s after As (multiples of 128: banks unchanged).

Limitations: the epilogue's predicated/branch split is nvcc 13.0's (-O3, sm_90), read from the
SASS: 31 float4s predicated, the last (wSubColIdx 3, resIdxM 7) after `@P1 EXIT`.
"""

from __future__ import annotations

from warpsim.program import epilogue_guard, float4, lanes4

BM = 128
BN = 256
BK = 8
WM = 64
WN = 64
WNITER = 4
TM = 8
TN = 4
NUM_THREADS = 256
WARPSIZE = 32
WMITER = (WM * WN) // (WARPSIZE * TM * TN * WNITER)  # 1
WSUBM = WM // WMITER  # 64
WSUBN = WN // WNITER  # 16
ROW_STRIDE_A = NUM_THREADS // (BK // 4)  # 128: A tile rows loaded per pass
ROW_STRIDE_B = NUM_THREADS // (BN // 4)  # 4: B tile rows loaded per pass
LOADS_A = BM // ROW_STRIDE_A  # 1 float4 of A per thread per tile
LOADS_B = BK // ROW_STRIDE_B  # 2 float4s of B per thread per tile


def load_tile(k, M, N, K, bRow, bCol, k0):
    """loadTile (line 41): global -> registers, the K tile starting at k0; returns (aReg, bReg)."""
    innerRowA = k.threadIdx.x // (BK // 4)  # line 44: 0..127
    innerColA = k.threadIdx.x % (BK // 4)  # line 45: 0..1
    innerRowB = k.threadIdx.x // (BN // 4)  # line 46: 0..3
    innerColB = k.threadIdx.x % (BN // 4)  # line 47: 0..63
    aReg = [None] * LOADS_A
    bReg = [None] * LOADS_B
    for i in range(LOADS_A):  # line 48
        r = innerRowA + i * ROW_STRIDE_A  # line 49
        # lines 50-53: a zero float4, then an @!P-predicated LDG.E.128
        aReg[i] = k.load("A", (bRow + r) * K + k0 + innerColA * 4, width=16, line=52,
                         where=(bRow + r < M) & (k0 + innerColA * 4 < K))
    for i in range(LOADS_B):  # line 55
        r = innerRowB + i * ROW_STRIDE_B  # line 56
        # lines 57-60
        bReg[i] = k.load("B", (k0 + r) * N + bCol + innerColB * 4, width=16, line=59,
                         where=(k0 + r < K) & (bCol + innerColB * 4 < N))
    return aReg, bReg


def store_tile(k, As, Bs, stage, aReg, bReg):
    """storeTile (line 65): registers -> shared stage `stage`, A transposed, B as is."""
    As0 = stage * BK * BM  # As[stage]
    Bs0 = stage * BK * BN  # Bs[stage]
    innerRowA = k.threadIdx.x // (BK // 4)  # line 67
    innerColA = k.threadIdx.x % (BK // 4)  # line 68
    innerRowB = k.threadIdx.x // (BN // 4)  # line 69
    innerColB = k.threadIdx.x % (BN // 4)  # line 70
    for i in range(LOADS_A):  # line 71
        r = innerRowA + i * ROW_STRIDE_A  # line 72
        ax, ay, az, aw = lanes4(aReg[i])
        k.store(As, As0 + (innerColA * 4 + 0) * BM + r, ax, line=73)  # line 73
        k.store(As, As0 + (innerColA * 4 + 1) * BM + r, ay, line=74)  # line 74
        k.store(As, As0 + (innerColA * 4 + 2) * BM + r, az, line=75)  # line 75
        k.store(As, As0 + (innerColA * 4 + 3) * BM + r, aw, line=76)  # line 76
    for i in range(LOADS_B):  # line 78
        r = innerRowB + i * ROW_STRIDE_B  # line 79
        k.store(Bs, Bs0 + r * BN + innerColB * 4, bReg[i], width=16, line=80)  # line 80: STS.128


def sgemm_warptile_db(k, M, N, K, alpha, beta):
    As = k.shared("As", 2 * BK * BM, holds="A")  # line 87: As[2][BK * BM], stage s at 4096*s B
    Bs = k.shared("Bs", 2 * BK * BN, holds="B")  # line 88: Bs[2][BK * BN], stage s at 8192*s B

    bRow = k.blockIdx.y * BM  # line 90
    bCol = k.blockIdx.x * BN  # line 91

    warpIdx = k.threadIdx.x // WARPSIZE  # line 94: 0..7
    warpCol = warpIdx % (BN // WN)  # line 95: 0..3
    warpRow = warpIdx // (BN // WN)  # line 96: 0..1

    threadIdxInWarp = k.threadIdx.x % WARPSIZE  # line 99
    threadColInWarp = threadIdxInWarp % (WSUBN // TN)  # line 100: 0..3
    threadRowInWarp = threadIdxInWarp // (WSUBN // TN)  # line 101: 0..7

    threadResults = [0.0] * (WMITER * TM * WNITER * TN)  # line 103
    regM = [0.0] * (WMITER * TM)  # line 104
    regN = [0.0] * (WNITER * TN)  # line 105

    # Prologue: tile 0 into stage 0 (its own SASS copies of the helpers).
    aReg, bReg = load_tile(k, M, N, K, bRow, bCol, 0)  # line 110
    store_tile(k, As, Bs, 0, aReg, bReg)  # line 111
    k.sync()  # line 112

    for k0, stage in k.range_cycle("k0", 0, K, BK, 2):  # lines 114-115: stage = (k0 / BK) % 2
        hasNext = k0 + BK < K  # line 116
        with k.branch(hasNext):  # line 117: block-uniform `@P BRA`, skipped on the last tile
            aReg, bReg = load_tile(k, M, N, K, bRow, bCol, k0 + BK)  # line 118

        for dotIdx in range(BK):  # line 122, #pragma unroll
            for wSubRowIdx in range(WMITER):  # line 123
                for i in range(0, TM, 4):  # line 124: four floats per LDS.128
                    regM[wSubRowIdx * TM + i:wSubRowIdx * TM + i + 4] = lanes4(k.load(  # line 125
                        As, stage * BK * BM
                        + dotIdx * BM + warpRow * WM + wSubRowIdx * WSUBM + threadRowInWarp * TM + i,
                        width=16, line=126))
            for wSubColIdx in range(WNITER):  # line 129
                for i in range(0, TN, 4):  # line 130
                    regN[wSubColIdx * TN + i:wSubColIdx * TN + i + 4] = lanes4(k.load(  # line 131
                        Bs, stage * BK * BN
                        + dotIdx * BN + warpCol * WN + wSubColIdx * WSUBN + threadColInWarp * TN + i,
                        width=16, line=132))
            for wSubRowIdx in range(WMITER):  # line 135
                for wSubColIdx in range(WNITER):  # line 136
                    for resIdxM in range(TM):  # line 137
                        for resIdxN in range(TN):  # line 138
                            threadResults[(wSubRowIdx * TM + resIdxM) * (WNITER * TN)  # line 139
                                          + wSubColIdx * TN + resIdxN] += (
                                regM[wSubRowIdx * TM + resIdxM] * regN[wSubColIdx * TN + resIdxN])

        with k.branch(hasNext):  # line 147
            store_tile(k, As, Bs, stage ^ 1, aReg, bReg)  # line 150
        k.sync()  # line 152

    for wSubRowIdx in range(WMITER):  # line 155
        for wSubColIdx in range(WNITER):  # line 156
            for resIdxM in range(TM):  # line 157
                row = bRow + warpRow * WM + wSubRowIdx * WSUBM + threadRowInWarp * TM + resIdxM  # line 158
                col = bCol + warpCol * WN + wSubColIdx * WSUBN + threadColInWarp * TN  # line 159
                last = (wSubRowIdx, wSubColIdx, resIdxM) == (WMITER - 1, WNITER - 1, TM - 1)
                with epilogue_guard(k, (row < M) & (col < N), behind_exit=last) as where:  # line 160
                    res = (wSubRowIdx * TM + resIdxM) * (WNITER * TN) + wSubColIdx * TN  # line 161
                    c = k.load("C", row * N + col, width=16, where=where, line=162)  # line 162
                    cx, cy, cz, cw = lanes4(c)
                    c = float4(alpha * threadResults[res + 0] + beta * cx,  # line 163
                               alpha * threadResults[res + 1] + beta * cy,  # line 164
                               alpha * threadResults[res + 2] + beta * cz,  # line 165
                               alpha * threadResults[res + 3] + beta * cw)  # line 166
                    k.store("C", row * N + col, c, width=16, where=where, line=167)  # line 167
