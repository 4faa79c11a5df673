// Blind batch 28: kernels a user writes with CUB's block and warp collectives (CCCL, the
// toolkit's own headers) rather than by hand. A block reduction (cub::BlockReduce: shuffles,
// then one warp over shared memory), a block prefix sum (cub::BlockScan: a raking scan whose
// warp scan nvcc guards with BRA.DIV, the check that the warp has converged before its
// shuffles), a warp scan after the out-of-range threads have returned (cub::WarpScan), and a
// blocked load through shared memory (cub::BlockLoad, BLOCK_LOAD_TRANSPOSE) summed by the block.
// Launch: block (128), grid (cdiv(n,128)); load_transpose_sum: block (128), grid (cdiv(n,512)).
// Any n >= 1.

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_scan.cuh>

extern "C" __global__ void block_sum(int n, const float* __restrict__ x, float* __restrict__ out) {
  using Reduce = cub::BlockReduce<float, 128>;
  __shared__ typename Reduce::TempStorage tmp;
  int i = blockIdx.x * 128 + threadIdx.x;
  float s = Reduce(tmp).Sum(i < n ? x[i] : 0.0f);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

extern "C" __global__ void block_scan(int n, const int* __restrict__ x, int* __restrict__ y) {
  using Scan = cub::BlockScan<int, 128>;
  __shared__ typename Scan::TempStorage tmp;
  int i = blockIdx.x * 128 + threadIdx.x;
  int v = i < n ? x[i] : 0;
  Scan(tmp).InclusiveSum(v, v);
  if (i < n) y[i] = v;
}

extern "C" __global__ void warp_scan_exit(int n, const int* __restrict__ x, int* __restrict__ y) {
  using WarpScan = cub::WarpScan<int>;
  __shared__ typename WarpScan::TempStorage tmp[4];
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i >= n) return;
  int v = x[i];
  WarpScan(tmp[threadIdx.x / 32]).InclusiveSum(v, v);
  y[i] = v;
}

extern "C" __global__ void load_transpose_sum(int n, const float* __restrict__ x, float* __restrict__ out) {
  using Load = cub::BlockLoad<float, 128, 4, cub::BLOCK_LOAD_TRANSPOSE>;
  using Reduce = cub::BlockReduce<float, 128>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Reduce::TempStorage reduce;
  } tmp;
  float v[4];
  int base = blockIdx.x * 512;
  Load(tmp.load).Load(x + base, v, n - base, 0.0f);
  __syncthreads();
  float s = Reduce(tmp.reduce).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
