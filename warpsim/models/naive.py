"""Model of kernels/naive.cu (seed 000's sgemm_naive): row from threadIdx.x, so a warp's 32 lanes
hold 32 consecutive rows at one column: A strided by K (32 sectors), B broadcast (1 sector)."""

BLOCKSIZE = 32


def sgemm_naive(k, M, N, K, alpha, beta):
    row = k.blockIdx.y * BLOCKSIZE + k.threadIdx.x  # line 7
    col = k.blockIdx.x * BLOCKSIZE + k.threadIdx.y  # line 8

    with k.branch((row < M) & (col < N)):  # line 10
        acc = 0.0
        for i in k.range("i", 0, K):  # line 12
            acc += (k.load("A", row * K + i, line=13)  # line 13
                    * k.load("B", i * N + col, line=14))  # line 14
        c = k.load("C", row * N + col, line=16)  # line 16
        k.store("C", row * N + col, alpha * acc + beta * c, line=16)
