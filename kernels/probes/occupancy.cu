// Shared memory per block against blocks per SM (scripts/h200_occupancy.py): kernels with a
// static array of 37 or 44 KiB, and one with none (its shared memory all dynamic). Each writes
// its array so that nvcc keeps it.
extern "C" __global__ void static37(float *out) {
  __shared__ float buf[37 * 256];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

extern "C" __global__ void static44(float *out) {
  __shared__ float buf[44 * 256];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

extern "C" __global__ void dynamic_only(float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}
