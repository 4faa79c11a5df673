// Coordinates from divisions, reciprocals and square roots whose lanes take nvcc's slow paths
// (stop 30, blind batch 22): the quotient, reciprocal or root is IEEE's on either path, and the
// slow path is a subroutine the warp calls for its lanes that need it (a zero, an infinity, a
// negative root, a denormal).
//   octant:     an angle's octant ratio min(|dx|, |dy|) / max(|dx|, |dy|), as atan2f starts (FSEL of
//               |dx| and |dy|); at the centre 0 / 0, a NaN, which (int) makes 0.
//   slope:      dy / dx clamped by fminf/fmaxf: +-inf on the centre's column, NaN at the centre
//               (fmaxf drops it), binned by bins / lim.
//   hemisphere: a height sqrtf(r^2 - dx^2 - dy^2), a NaN outside the disc, which (int) makes 0.
//   tiny_ratio: a ratio of values below float's normal range (physical units), divided on the
//               slow path, which scales them; capped.
//   resize_inv: a resize by the reciprocal of its scale, 1.0f / scale (rcp.rn's fast path).
//   inverse:    a table read at 1 / (i - c), clamped: a zero's reciprocal on the slow path.
// Launch: 2D kernels block 32x8, grid cdiv(w, 32) x cdiv(h, 8); 1D block 256, grid cdiv(n, 256).

extern "C" __global__ void octant(const float *table, float *img, int w, int h, int cx, int cy, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float dx = (float)(x - cx), dy = (float)(y - cy);
    bool steep = fabsf(dy) > fabsf(dx);
    float hi = steep ? fabsf(dy) : fabsf(dx), lo = steep ? fabsf(dx) : fabsf(dy);
    img[y * w + x] = table[(int)(lo / hi * (float)(n - 1))];
}

extern "C" __global__ void slope(const float *table, float *img, int w, int h, int cx, int cy, float lim, int bins) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float s = (float)(y - cy) / (float)(x - cx), step = bins / lim;
    img[y * w + x] = table[(int)((fminf(fmaxf(s, -lim), lim) + lim) * step)];
}

extern "C" __global__ void hemisphere(const float *height, float *img, int w, int h, int cx, int cy, int r) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int dx = x - cx, dy = y - cy;
    img[y * w + x] = height[(int)sqrtf((float)(r * r - dx * dx - dy * dy))];
}

extern "C" __global__ void tiny_ratio(const float *table, float *out, int n, float a, float b, int m, int cap) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float p = (float)(i % m + 1) * a, q = (float)(i / m + 1) * b;
    out[i] = table[min((int)(p / q), cap - 1)];
}

extern "C" __global__ void resize_inv(const float *src, float *dst, int sw, int dw, int h, float scale) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= dw || y >= h) return;
    float inv = 1.0f / scale;
    dst[y * dw + x] = src[y * sw + min((int)(x * inv), sw - 1)];
}

extern "C" __global__ void inverse(const float *table, float *out, int n, int c, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float r = 1.0f / (float)(i - c);
    out[i] = table[(int)(fminf(fmaxf(r * k, -k), k) + k)];
}
