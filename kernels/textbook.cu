// Kernels as the textbooks and samples write them, brought to warpsim as a user would (blind batch
// 19, stop 28): the samples' column convolution (its halo above the image), PMPP's 2-D tiled
// convolution with a block larger than its output tile, the diagonally reordered transpose, GPU
// Gems 3's work-efficient scan with conflict-free offsets, an n-body force tile of float4s, a
// non-inlined device function, a PTX load written inline, and a cooperative-groups warp reduction.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define KERNEL_RADIUS 8
#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 8
#define COLUMNS_HALO_STEPS 1
#define COLUMNS_TILE ((COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y)
__constant__ float c_Kernel[2 * KERNEL_RADIUS + 1];

extern "C" __global__ void conv_cols(float *d_Dst, const float *d_Src, int imageW, int imageH, int pitch) {
    __shared__ float s_Data[COLUMNS_BLOCKDIM_X][COLUMNS_TILE + 1];
    const int baseX = blockIdx.x * COLUMNS_BLOCKDIM_X + threadIdx.x;
    const int baseY = (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + threadIdx.y;
    d_Src += baseY * pitch + baseX;
    d_Dst += baseY * pitch + baseX;
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] = d_Src[i * COLUMNS_BLOCKDIM_Y * pitch];
#pragma unroll
    for (int i = 0; i < COLUMNS_HALO_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
            (baseY >= -i * COLUMNS_BLOCKDIM_Y) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i < COLUMNS_TILE / COLUMNS_BLOCKDIM_Y; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
            (imageH - baseY > i * COLUMNS_BLOCKDIM_Y) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
    __syncthreads();
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
        float sum = 0;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y + j];
        d_Dst[i * COLUMNS_BLOCKDIM_Y * pitch] = sum;
    }
}

#define MASK_DIM 5
#define MASK_R 2
#define TILE 16
__constant__ float M[MASK_DIM * MASK_DIM];

// a block of (TILE + 4)^2 threads loads the input tile with its halo; the inner TILE^2 compute
extern "C" __global__ void conv2d_tiled(const float *in, float *out, int width, int height) {
    __shared__ float tile[TILE + 2 * MASK_R][TILE + 2 * MASK_R];
    int col = blockIdx.x * TILE + threadIdx.x - MASK_R;
    int row = blockIdx.y * TILE + threadIdx.y - MASK_R;
    if (row >= 0 && row < height && col >= 0 && col < width)
        tile[threadIdx.y][threadIdx.x] = in[row * width + col];
    else
        tile[threadIdx.y][threadIdx.x] = 0.0f;
    __syncthreads();
    int tx = threadIdx.x - MASK_R, ty = threadIdx.y - MASK_R;
    if (row >= 0 && row < height && col >= 0 && col < width && tx >= 0 && tx < TILE && ty >= 0 && ty < TILE) {
        float s = 0;
        for (int i = 0; i < MASK_DIM; i++)
            for (int j = 0; j < MASK_DIM; j++)
                s += M[i * MASK_DIM + j] * tile[ty + i][tx + j];
        out[row * width + col] = s;
    }
}

// Ruetsch and Micikevicius' transpose with diagonal block reordering (width, height multiples of 32)
#define TD 32
#define BR 8
extern "C" __global__ void transpose_diag(float *odata, const float *idata, int width, int height) {
    __shared__ float tile[TD][TD + 1];
    int blockIdx_x, blockIdx_y;
    if (width == height) {
        blockIdx_y = blockIdx.x;
        blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x;
    } else {
        int bid = blockIdx.x + gridDim.x * blockIdx.y;
        blockIdx_y = bid % gridDim.y;
        blockIdx_x = ((bid / gridDim.y) + blockIdx_y) % gridDim.x;
    }
    int xIndex = blockIdx_x * TD + threadIdx.x;
    int yIndex = blockIdx_y * TD + threadIdx.y;
    int index_in = xIndex + yIndex * width;
    xIndex = blockIdx_y * TD + threadIdx.x;
    yIndex = blockIdx_x * TD + threadIdx.y;
    int index_out = xIndex + yIndex * height;
    for (int i = 0; i < TD; i += BR)
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    __syncthreads();
    for (int i = 0; i < TD; i += BR)
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

// GPU Gems 3, 39.2: each block scans its n = 2 blockDim values (exclusive), shared memory padded
// one word every 32 so that the tree's strides spread over the banks
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
extern "C" __global__ void prescan(float *g_odata, const float *g_idata, int n) {
    extern __shared__ float temp[];
    int thid = threadIdx.x;
    int offset = 1;
    const float *in = g_idata + blockIdx.x * n;
    float *outp = g_odata + blockIdx.x * n;
    int ai = thid, bi = thid + (n / 2);
    int bankOffsetA = CONFLICT_FREE_OFFSET(ai), bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = in[ai];
    temp[bi + bankOffsetB] = in[bi];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            float t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    outp[ai] = temp[ai + bankOffsetA];
    outp[bi] = temp[bi + bankOffsetB];
}

// n-body: every body's acceleration from all bodies (x, y, z, mass), a block's tile of them at a time
extern "C" __global__ void nbody(const float4 *pos, float4 *acc, int n, float eps2) {
    extern __shared__ float4 sh[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = i < n ? pos[i] : make_float4(0, 0, 0, 0);
    float3 a = {0, 0, 0};
    for (int t = 0; t < (n + blockDim.x - 1) / blockDim.x; t++) {
        int j = t * blockDim.x + threadIdx.x;
        sh[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
        __syncthreads();
        for (int k = 0; k < blockDim.x; k++) {
            float4 q = sh[k];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float r2 = dx * dx + dy * dy + dz * dz + eps2;
            float inv = rsqrtf(r2 * r2 * r2);
            a.x += q.w * dx * inv;
            a.y += q.w * dy * inv;
            a.z += q.w * dz * inv;
        }
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0);
}

__device__ __noinline__ float twice(const float *p, int i) { return 2.0f * p[i]; }

// the load happens in a function the compiler keeps apart (CALL.REL.NOINC, a return address)
extern "C" __global__ void calls(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = twice(x, i);
}

// a read-only, non-coherent 16-byte load written as PTX
extern "C" __global__ void ptx_nc(const float4 *x, float4 *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v;
        asm volatile("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(x + i));
        y[i] = v;
    }
}

// a warp's sum by cooperative groups' shfl_down, one atomicAdd a warp
extern "C" __global__ void cg_reduce(const float *x, float *out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
    if (tile.thread_rank() == 0) atomicAdd(out, v);
}
