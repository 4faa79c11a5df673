// Block-schedule probes: seed 000's naive and coalesced kernels (kernels/naive.cu,
// kernels/coalesced.cu) and the ladder's smem and blocktile1d (kernels/smem.cu,
// kernels/blocktile1d.cu), their own source included here as device functions, each called by a
// kernel that adds one thing: thread (0, 0) of each block records the SM it ran on and the global
// timer (ns) when the block started and when all of its threads had finished, in
// sched[3 * block + {0, 1, 2}], block = blockIdx.y * gridDim.x + blockIdx.x.
// What it is for: which blocks share an SM and the L2 at the same time (warpsim's cache model,
// issue 10). Launch as the originals: block (32, 32), grid (ceil(N/32), ceil(M/32)); blocktile1d
// block (512, 1), grid (ceil(N/64), ceil(M/64)).
#include "device_begin.cuh"
#include "../naive.cu"
#include "../coalesced.cu"
#include "../smem.cu"
#include "../blocktile1d.cu"
#include "device_end.cuh"

#include "record.cuh"

PROBE(sgemm_naive_sched, sgemm_naive, 1024)
PROBE(sgemm_coalesced_sched, sgemm_coalesced, 1024)
PROBE(sgemm_smem_sched, sgemm_smem, 1024)
PROBE(sgemm_blocktile1d_sched, sgemm_blocktile1d, NUM_THREADS)
