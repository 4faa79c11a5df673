"""Model of kernels/coalesced.cu: seed 000's kernel with row from threadIdx.y and col from
threadIdx.x, so a warp holds 32 consecutive columns: A broadcast, B and C 4 sectors."""

BLOCKSIZE = 32


def sgemm_coalesced(k, M, N, K, alpha, beta):
    row = k.blockIdx.y * BLOCKSIZE + k.threadIdx.y  # line 7
    col = k.blockIdx.x * BLOCKSIZE + k.threadIdx.x  # line 8

    with k.branch((row < M) & (col < N)):  # line 10
        acc = 0.0
        for i in k.range("i", 0, K):  # line 12
            acc += (k.load("A", row * K + i, line=13)  # line 13
                    * k.load("B", i * N + col, line=14))  # line 14
        c = k.load("C", row * N + col, line=16)  # line 16
        k.store("C", row * N + col, alpha * acc + beta * c, line=16)
