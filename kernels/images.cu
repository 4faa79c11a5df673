// Image kernels whose addresses are computed in floating point (stop 29): nearest-neighbour and
// bilinear resizing as NPP's and OpenCV's CUDA modules write them, a byte image resized with
// round-to-nearest, and a box downsampling whose taps lie at float offsets inside a loop. The SASS
// engine counts them block by block: the float arithmetic is exact once the block and loop indices
// are numbers.

extern "C" __global__ void resize_nearest(const float *src, float *dst, int sw, int sh, int dw, int dh,
                                          float sx, float sy) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh) return;
    int u = min((int)(x * sx), sw - 1);
    int v = min((int)(y * sy), sh - 1);
    dst[y * dw + x] = src[v * sw + u];
}

extern "C" __global__ void resize_bilinear(const float *src, float *dst, int sw, int sh, int dw, int dh,
                                           float sx, float sy) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh) return;
    float fx = (x + 0.5f) * sx - 0.5f, fy = (y + 0.5f) * sy - 0.5f;
    float gx = floorf(fx), gy = floorf(fy);
    float ax = fx - gx, ay = fy - gy;
    int x0 = min(max((int)gx, 0), sw - 1), y0 = min(max((int)gy, 0), sh - 1);
    int x1 = min(max((int)gx + 1, 0), sw - 1), y1 = min(max((int)gy + 1, 0), sh - 1);
    float top = (1.0f - ax) * src[y0 * sw + x0] + ax * src[y0 * sw + x1];
    float bottom = (1.0f - ax) * src[y1 * sw + x0] + ax * src[y1 * sw + x1];
    dst[y * dw + x] = (1.0f - ay) * top + ay * bottom;
}

extern "C" __global__ void resize_u8(const unsigned char *src, unsigned char *dst, int sw, int sh, int dw,
                                     int dh, float sx, float sy) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh) return;
    int u = min(__float2int_rn(x * sx), sw - 1);
    int v = min(__float2int_rn(y * sy), sh - 1);
    dst[y * dw + x] = src[v * sw + u];
}

extern "C" __global__ void downsample(const float *src, float *dst, int sw, int dw, int h, float scale,
                                      float step, int taps) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= dw || y >= h) return;
    float acc = 0.0f;
    for (int k = 0; k < taps; k++) {
        int u = min((int)((x + k * step) * scale), sw - 1);
        acc += src[y * sw + u];
    }
    dst[y * dw + x] = acc * step;
}
