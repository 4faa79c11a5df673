// Clamped indices (stop 30, blind batch 24): max(min(i, hi), 0), the image border's clamp-to-edge,
// which nvcc 13.0 compiles for sm_90 to one VIMNMX.RELU or VIADDMNMX.RELU (the minimum clamped at
// 0 from below). Until stop 30 the engine read them without their .RELU.
//   shift:     y[i] = x[max(min(i - c, m - 1), 0)]: a shifted copy that repeats its edges.
//   blur3:     a 3x3 box blur whose taps clamp to the image's edge on both axes.
//   taps_edge: a 1D filter of `taps` taps at x + k - taps / 2, clamped, inside a loop.
// Launch: 1D block 256, grid cdiv(n, 256); blur3 block 32x8, grid cdiv(w, 32) x cdiv(h, 8); taps_edge
// block 128, grid cdiv(w, 128) x h.

extern "C" __global__ void shift(const float *x, float *y, int n, int c, int m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[max(min(i - c, m - 1), 0)];
}

extern "C" __global__ void blur3(const float *src, float *dst, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            acc += src[max(min(y + dy, h - 1), 0) * w + max(min(x + dx, w - 1), 0)];
    dst[y * w + x] = acc / 9.0f;
}

extern "C" __global__ void taps_edge(const float *src, float *dst, int w, int h, int taps) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0.0f;
    for (int k = 0; k < taps; k++)
        acc += src[y * w + max(min(x + k - taps / 2, w - 1), 0)];
    dst[y * w + x] = acc;
}
