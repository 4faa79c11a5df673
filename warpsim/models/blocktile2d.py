"""Model of kernels/blocktile2d.cu (siboehm kernel 5): a 128x128 tile per block, BK = 8, each
thread an 8x8 outer product of TM As values and TN Bs values held in registers.

256 threads; threadRow = tid / 16, threadCol = tid % 16, so a warp spans 2 threadRows x 16
threadCols. Per K tile each thread copies 4 elements of A (rows 32 apart) and 4 of B (rows 2
apart).

As compiled (nvcc 13.0, sm_90, docs/LADDER.md): the 8 tile loads are `@!P` predicated LDGs that
every warp executes (the LDG carries the `? A[...]` line, the STS the `As[...] =` line); the
unrolled regM and regN reads became 16 + 16 LDS.128 (4 consecutive floats each: dotIdx 0-3 / 4-7
of one As row, i 0-3 / 4-7 of one Bs row). The epilogue's 64 C loads and stores are predicated
except the last row's resIdxN = 6 pair (behind a divergent `@P6 BRA`) and resIdxN = 7 pair
(after `@P6 EXIT`): a warp with no live lane executes neither.
"""

BM = 128  # line 9
BN = 128  # line 10
BK = 8  # line 11
TM = 8  # line 12
TN = 8  # line 13
NUM_THREADS = BM * BN // (TM * TN)  # line 14: 256


def _behind_branch(resIdxM: int, resIdxN: int) -> bool:
    """The C accesses nvcc put behind `@P6 BRA` / `@P6 EXIT` rather than predicating them."""
    return resIdxM == TM - 1 and resIdxN >= TN - 2


def sgemm_blocktile2d(k, M, N, K, alpha, beta):
    As = k.shared("As", BM * BK, holds="A")  # line 19
    Bs = k.shared("Bs", BK * BN, holds="B")  # line 20

    bRow = k.blockIdx.y * BM  # line 22
    bCol = k.blockIdx.x * BN  # line 23

    threadCol = k.threadIdx.x % (BN // TN)  # line 26
    threadRow = k.threadIdx.x // (BN // TN)  # line 27

    innerRowA = k.threadIdx.x // BK  # line 31
    innerColA = k.threadIdx.x % BK  # line 32
    strideA = NUM_THREADS // BK  # line 33: 32
    innerRowB = k.threadIdx.x // BN  # line 34
    innerColB = k.threadIdx.x % BN  # line 35
    strideB = NUM_THREADS // BN  # line 36: 2

    threadResults = [0.0] * (TM * TN)  # line 38
    regM = [0.0] * TM  # line 39
    regN = [0.0] * TN  # line 40

    for k0 in k.range("k0", 0, K, BK):  # line 42
        for loadOffset in range(0, BM, strideA):  # line 43, unrolled
            r = innerRowA + loadOffset  # line 44
            a = k.load("A", (bRow + r) * K + k0 + innerColA, line=46,
                       where=(bRow + r < M) & (k0 + innerColA < K))  # line 46
            k.store(As, r * BK + innerColA, a, line=45)  # line 45
        for loadOffset in range(0, BK, strideB):  # line 48, unrolled
            r = innerRowB + loadOffset  # line 49
            b = k.load("B", (k0 + r) * N + bCol + innerColB, line=51,
                       where=(k0 + r < K) & (bCol + innerColB < N))  # line 51
            k.store(Bs, r * BN + innerColB, b, line=50)  # line 50
        k.sync()  # line 53

        for dotIdx in range(BK):  # line 56, unrolled
            if dotIdx % 4 == 0:  # As[row*8 + dotIdx .. dotIdx+3]: one LDS.128 per i
                a4 = [k.load(As, (threadRow * TM + i) * BK + dotIdx, line=58, width=16)
                      for i in range(TM)]
            for i in range(TM):  # line 57
                regM[i] = a4[i][..., dotIdx % 4]  # line 58
            b4 = [k.load(Bs, dotIdx * BN + threadCol * TN + i, line=61, width=16)
                  for i in range(0, TN, 4)]  # Bs[... + i .. i+3]: one LDS.128 per 4 values of i
            for i in range(TN):  # line 60
                regN[i] = b4[i // 4][..., i % 4]  # line 61
            for resIdxM in range(TM):  # line 63
                for resIdxN in range(TN):  # line 64
                    j = resIdxM * TN + resIdxN
                    threadResults[j] = threadResults[j] + regM[resIdxM] * regN[resIdxN]  # line 65
        k.sync()  # line 69

    for resIdxM in range(TM):  # line 72
        row = bRow + threadRow * TM + resIdxM  # line 73
        for resIdxN in range(TN):  # line 74
            col = bCol + threadCol * TN + resIdxN  # line 75
            inside = (row < M) & (col < N)  # line 76
            value = alpha * threadResults[resIdxM * TN + resIdxN]
            if not _behind_branch(resIdxM, resIdxN):  # predicated LDG/STG, every warp executes
                c = k.load("C", row * N + col, line=77, where=inside)  # line 77
                k.store("C", row * N + col, value + beta * c, line=77, where=inside)
            else:
                with k.branch(inside):
                    c = k.load("C", row * N + col, line=77)  # line 77
                    k.store("C", row * N + col, value + beta * c, line=77)
