"""Model of kernels/blocktile1d.cu (siboehm kernel 4): a 64x64 tile per block, BK = 8, each thread
a column of TM = 8 results reusing one Bs value.

512 threads; warp w has threadRow = w / 2 (warp-uniform) and threadCol = 32 * (w % 2) + lane. Per
K tile a warp loads 4 rows x 8 floats of A and 32 consecutive floats of B, one element per lane.

As compiled (nvcc 13.0, sm_90, docs/LADDER.md): the tile loads are `@!P` predicated LDGs that
every warp executes (the LDG carries the `? A[...]` line, the STS the `As[...] =` line); the
unrolled As reads became 16 LDS.128, As[(threadRow*8 + resIdx)*8 + 0..3] and [... + 4..7], each
one address per warp; the epilogue's C accesses for resIdx 0..6 are predicated, resIdx 7's sit
after `@P0 EXIT`.
"""

BM = 64  # line 7
BN = 64  # line 8
BK = 8  # line 9
TM = 8  # line 10


def sgemm_blocktile1d(k, M, N, K, alpha, beta):
    As = k.shared("As", BM * BK, holds="A")  # line 16
    Bs = k.shared("Bs", BK * BN, holds="B")  # line 17

    bRow = k.blockIdx.y * BM  # line 19
    bCol = k.blockIdx.x * BN  # line 20

    threadCol = k.threadIdx.x % BN  # line 23
    threadRow = k.threadIdx.x // BN  # line 24

    innerRowA = k.threadIdx.x // BK  # line 27
    innerColA = k.threadIdx.x % BK  # line 28
    innerRowB = k.threadIdx.x // BN  # line 29
    innerColB = k.threadIdx.x % BN  # line 30

    threadResults = [0.0] * TM  # line 32

    for k0 in k.range("k0", 0, K, BK):  # line 34
        a = k.load("A", (bRow + innerRowA) * K + k0 + innerColA, line=36,
                   where=(bRow + innerRowA < M) & (k0 + innerColA < K))  # lines 35-37
        k.store(As, innerRowA * BK + innerColA, a, line=35)
        b = k.load("B", (k0 + innerRowB) * N + bCol + innerColB, line=39,
                   where=(k0 + innerRowB < K) & (bCol + innerColB < N))  # lines 38-40
        k.store(Bs, innerRowB * BN + innerColB, b, line=38)
        k.sync()  # line 41

        for dotIdx in range(BK):  # line 44, unrolled
            tmpB = k.load(Bs, dotIdx * BN + threadCol, line=45)  # line 45
            if dotIdx % 4 == 0:  # As[... + dotIdx .. dotIdx+3]: one LDS.128 per resIdx
                a4 = [k.load(As, (threadRow * TM + resIdx) * BK + dotIdx, line=47, width=16)
                      for resIdx in range(TM)]
            for resIdx in range(TM):  # line 46
                threadResults[resIdx] = threadResults[resIdx] + a4[resIdx][..., dotIdx % 4] * tmpB  # line 47
        k.sync()  # line 50

    col = bCol + threadCol  # line 53
    for resIdx in range(TM):  # line 54
        row = bRow + threadRow * TM + resIdx  # line 55
        inside = (row < M) & (col < N)  # line 56
        value = alpha * threadResults[resIdx]
        if resIdx < TM - 1:  # predicated LDG/STG, executed by every warp
            c = k.load("C", row * N + col, line=57, where=inside)  # line 57
            k.store("C", row * N + col, value + beta * c, line=57, where=inside)
        else:  # the last pair sits after `@P0 EXIT`
            with k.branch(inside):
                c = k.load("C", row * N + col, line=57)  # line 57
                k.store("C", row * N + col, value + beta * c, line=57)
