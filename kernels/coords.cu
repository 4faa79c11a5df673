// Coordinates computed with a float division, doubles and square roots (stop 29, blind batch 21):
// a resize that divides by its scale as most hand-written kernels do (`(x + 0.5f) / scale`, nvcc's
// division with its slow-path check), one whose double parameter and literal promote the
// arithmetic to doubles, a downsampling whose taps divide inside a loop, a packed triangle's row
// from sqrtf and a radial profile read at each pixel's distance from a centre.

extern "C" __global__ void resize_div(const float *src, float *dst, int sw, int sh, int dw, int dh,
                                      float scale_x, float scale_y) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh) return;
    int u = min((int)((x + 0.5f) / scale_x), sw - 1);
    int v = min((int)((y + 0.5f) / scale_y), sh - 1);
    dst[y * dw + x] = src[v * sw + u];
}

extern "C" __global__ void resize_double(const float *src, float *dst, int sw, int sh, int dw, int dh,
                                         double sx) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh) return;
    int u = min((int)(x * sx + 0.25), sw - 1);
    int v = min((int)(y * 1.5), sh - 1);
    dst[y * dw + x] = src[v * sw + u];
}

extern "C" __global__ void taps_div(const float *src, float *dst, int sw, int dw, int h, float width, int taps) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= dw || y >= h) return;
    float acc = 0.0f;
    for (int k = 0; k < taps; k++) {
        int u = min((int)((x * taps + k) / width), sw - 1);
        acc += src[y * sw + u];
    }
    dst[y * dw + x] = acc;
}

extern "C" __global__ void tri_row(const float *x, float *y, int n) {
    // packed upper-triangle entry k lies in row (int)((sqrtf(8k + 1) - 1) / 2): sqrtf's fast path
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    int r = (int)((sqrtf(8.0f * k + 1.0f) - 1.0f) * 0.5f);
    y[k] = x[r];
}

extern "C" __global__ void radial(const float *profile, float *img, int w, int h, int cx, int cy) {
    // each pixel reads a radial profile at its distance from (cx, cy): sqrtf(0) at the centre
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int dx = x - cx, dy = y - cy;
    img[y * w + x] = profile[(int)sqrtf((float)(dx * dx + dy * dy))];
}
