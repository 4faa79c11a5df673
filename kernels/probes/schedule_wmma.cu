// Block-schedule probe of kernels/wmma.cu's wmma_tf32_smem (128 threads, ten blocks to an SM),
// its own source included as device functions, recorded as schedule.cu's probes are
// (record.cuh). In a file of its own: wmma.cu's NUM_THREADS is blocktile1d.cu's name too.
// What it is for: which blocks share an SM when ten do (warpsim's cache model, issue 10). Launch
// as the original: block (128, 1), grid (ceil(N/32), ceil(M/32)).
#include "device_begin.cuh"
#include "../wmma.cu"
#include "device_end.cuh"

#include "record.cuh"

PROBE(wmma_tf32_smem_sched, wmma_tf32_smem, NUM_THREADS)
