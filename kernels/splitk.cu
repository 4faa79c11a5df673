// Split-K SGEMM: C += alpha * A * B (A M x K, B K x N, C M x N, row-major). The K dimension is cut
// into `splits` slices of ceil(K/splits); blockIdx.z picks the slice, each thread computes the
// partial dot product of its (row, col) over that slice and atomicAdd()s alpha times it into C.
// The result of atomicAdd is unused, so it compiles to a reduction (RED.E.ADD.F32...), not ATOM.
// C is accumulated into, not overwritten: zero it first for C = alpha * A * B (there is no beta:
// slices finish in any order, so none of them may scale C).
// col from threadIdx.x, row from threadIdx.y: a warp is one row of 32 columns.
// Launch: block (32, 8), grid (ceil(N/32), ceil(M/8), splits).
// Any M, N, K >= 1 and splits >= 1: threads outside C return, a slice past K adds 0
// (it still issues its RED).
extern "C" __global__ void sgemm_splitk(int M, int N, int K, int splits, float alpha,
                                        const float *A, const float *B, float *C) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int sliceLen = (K + splits - 1) / splits;
  const int kBegin = blockIdx.z * sliceLen;
  const int kEnd = min(kBegin + sliceLen, K);

  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = kBegin; k < kEnd; ++k) {
      acc += A[row * K + k]  // the A and B loads sit on lines of their own, so that
           * B[k * N + col];  // ncu's per-line counters tell A from B
    }
    atomicAdd(&C[row * N + col], alpha * acc);
  }
}
