// Coordinates from the CUDA math library (stop 30, blind batch 23): sinf, cosf, atan2f and logf
// compile to polynomials of FFMAs (their range reductions and special cases included), which the
// engine computes as the GPU rounds them, lane by lane; the intrinsics (__sinf, __expf) and expf
// or powf, which use the hardware's approximations (MUFU.EX2, MUFU.RCP), are refused.
//   rotate:   an image rotated by a kernel parameter's angle, cosf and sinf of it, nearest source
//             pixel, zero outside.
//   polar:    a polar unwrap: each pixel reads a (radius, angle) table at sqrtf of its squared
//             distance and atan2f of its offsets from the centre (atan2f(0, 0) at the centre).
//   wave:     each row shifted by amp * sinf(y * freq), clamped.
//   logpolar: a log-polar sample: logf of the squared distance from the image's centre, binned.
// Launch: block 32x8, grid cdiv(w, 32) x cdiv(h, 8).

extern "C" __global__ void rotate(const float *src, float *dst, int w, int h, float angle) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float c = cosf(angle), s = sinf(angle), cx = 0.5f * w, cy = 0.5f * h;
    float u = c * (x - cx) + s * (y - cy) + cx, v = -s * (x - cx) + c * (y - cy) + cy;
    int iu = (int)u, iv = (int)v;
    dst[y * w + x] = (iu >= 0 && iu < w && iv >= 0 && iv < h) ? src[iv * w + iu] : 0.0f;
}

extern "C" __global__ void polar(const float *table, float *dst, int w, int h, int cx, int cy, int rs, int ts) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float dx = (float)(x - cx), dy = (float)(y - cy);
    int r = (int)sqrtf(dx * dx + dy * dy);
    int t = (int)((atan2f(dy, dx) + 3.14159265f) * (ts - 1) / 6.2831853f);
    dst[y * w + x] = r < rs ? table[t * rs + r] : 0.0f;
}

extern "C" __global__ void wave(const float *src, float *dst, int w, int h, float amp, float freq) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int u = min(max(x + (int)(amp * sinf(y * freq)), 0), w - 1);
    dst[y * w + x] = src[y * w + u];
}

extern "C" __global__ void logpolar(const float *table, float *dst, int w, int h, int bins) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float dx = x - 0.5f * w + 0.5f, dy = y - 0.5f * h + 0.5f;
    int r = min((int)(logf(dx * dx + dy * dy) * 8.0f), bins - 1);
    dst[y * w + x] = table[max(r, 0)];
}
