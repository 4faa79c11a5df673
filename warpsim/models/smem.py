"""Model of kernels/smem.cu (siboehm kernel 3): 32x32 tiles of A and B staged in shared memory.

Block (32, 32): warp w is threadIdx.y == w, its lanes threadIdx.x. Per K tile a warp loads 32
consecutive floats of A (one row) and of B (one row), then reads its As row as 8 float4s (one
address per warp: a broadcast) and 32 Bs rows (32 consecutive floats each).

As compiled (nvcc 13.0, sm_90, docs/LADDER.md): the tile loads are `@!P` predicated LDGs that
every warp executes; the 32 scalar As reads of the unrolled `i` loop became 8 LDS.128; the
epilogue guard is `@P0 EXIT`, so a warp with no live lane reads and writes no C.
"""

BLOCKSIZE = 32  # line 7


def sgemm_smem(k, M, N, K, alpha, beta):
    As = k.shared("As", BLOCKSIZE * BLOCKSIZE, holds="A")  # line 11
    Bs = k.shared("Bs", BLOCKSIZE * BLOCKSIZE, holds="B")  # line 12

    tx = k.threadIdx.x  # line 14
    ty = k.threadIdx.y  # line 15
    row = k.blockIdx.y * BLOCKSIZE + ty  # line 16
    col = k.blockIdx.x * BLOCKSIZE + tx  # line 17

    acc = 0.0  # line 19
    for k0 in k.range("k0", 0, K, BLOCKSIZE):  # line 20
        a = k.load("A", row * K + k0 + tx, line=21, where=(row < M) & (k0 + tx < K))  # line 21
        k.store(As, ty * BLOCKSIZE + tx, a, line=21)
        b = k.load("B", (k0 + ty) * N + col, line=22, where=(k0 + ty < K) & (col < N))  # line 22
        k.store(Bs, ty * BLOCKSIZE + tx, b, line=22)
        k.sync()  # line 23

        # lines 25-28, unrolled: As[ty*32 + i .. i+3] is one LDS.128 per 4 values of i
        for i in range(BLOCKSIZE):  # line 26
            if i % 4 == 0:
                a4 = k.load(As, ty * BLOCKSIZE + i, line=27, width=16)
            acc = acc + a4[..., i % 4] * k.load(Bs, i * BLOCKSIZE + tx, line=27)  # line 27
        k.sync()  # line 29

    with k.branch((row < M) & (col < N)):  # line 32 (compiled to `@P0 EXIT`)
        c = k.load("C", row * N + col, line=33)  # line 33
        k.store("C", row * N + col, alpha * acc + beta * c, line=33)
