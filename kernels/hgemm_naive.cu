// Half-precision GEMM, naive: C = alpha * A * B + beta * C with A M x K, B K x N, C M x N, all
// row-major __half. Every element is one 2-byte load (LDG.E.U16), converted to float; the dot
// product accumulates in float and C is rounded back to half once, at the store (STG.E.U16).
// col from threadIdx.x: a warp's B load is 32 consecutive halves = 64 B = 2 sectors, its A load
// one broadcast address.
// Launch: block (32, 8), grid (ceil(N/32), ceil(M/8)).
// Any M, N, K >= 1: threads outside C return before loading.
#include <cuda_fp16.h>

extern "C" __global__ void hgemm_naive(int M, int N, int K, float alpha, const __half *A,
                                       const __half *B, float beta, __half *C) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;

  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
      acc += __half2float(A[row * K + k])  // the A and B loads sit on lines of their own, so that
           * __half2float(B[k * N + col]);  // ncu's per-line counters tell A from B
    }
    C[row * N + col] = __float2half(alpha * acc + beta * __half2float(C[row * N + col]));
  }
}
