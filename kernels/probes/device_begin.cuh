// Include between this and device_end.cuh a kernel's own source to have its __global__ functions
// as device functions (inlined, no launch bounds) that a probe kernel calls. No include guard:
// each pair of includes opens and closes one such region.
#pragma push_macro("__global__")
#pragma push_macro("__launch_bounds__")
#undef __global__
#undef __launch_bounds__
#define __global__ __device__ __forceinline__
#define __launch_bounds__(threads)
