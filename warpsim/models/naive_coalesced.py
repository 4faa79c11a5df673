"""Model of kernels/naive_coalesced.cu (seeds 001 and 002): col from threadIdx.x, any block shape,
an early return out of range, no alpha/beta, C only written."""


def matmul_naive(k, M, N, K, alpha, beta):
    row = k.blockIdx.y * k.blockDim.y + k.threadIdx.y  # line 5
    col = k.blockIdx.x * k.blockDim.x + k.threadIdx.x  # line 6

    k.exit_if((row >= M) | (col >= N))  # line 8

    acc = 0.0
    for kk in k.range("k", 0, K):  # line 11
        acc += (k.load("A", row * K + kk, line=12)  # line 12
                * k.load("B", kk * N + col, line=13))  # line 13
    k.store("C", row * N + col, acc, line=15)  # line 15
