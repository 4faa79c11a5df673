// Closes the region device_begin.cuh opened: __global__ and __launch_bounds__ as they were.
#pragma pop_macro("__launch_bounds__")
#pragma pop_macro("__global__")
