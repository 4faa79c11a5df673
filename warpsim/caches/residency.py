"""Which blocks are resident together, on which SM, and when each starts: occupancy and dispatch.

Occupancy (blocks per SM) follows the CUDA occupancy rules for sm_90 from the kernel's threads,
registers and shared memory (the cubin's .nv.info, `warpsim.sass.cubin.Function`); the L1 gets
what the shared-memory carve-out leaves of the 256 KB (the driver picks the smallest carve-out
that holds the resident blocks' shared memory, 1 KB reserved per block included). The cubin's
shared section already starts with that 1 KB (`warpsim.sass.cubin.SHARED_RESERVED`), so it counts
once: the H200's own occupancy calculator gives 6 blocks of 128 threads an SM for a section of
38,912 bytes (37 KiB of array) and 5 for 46,080, where adding it again gave 5 and 4
(scripts/h200_occupancy.py, call 28; the same with the arrays' bytes as dynamic shared memory).

Dispatch, as measured on the H200 (traces/schedule/{naive,coalesced}_M4096_N4096_K4096.json, 3
launches each, block = blockIdx.y * gridDim.x + blockIdx.x):

- blocks start in block order (99.1-99.2% and 97.1-97.6% of consecutive blocks start no earlier
  than the block before, over two recordings: the probes' copies of the kernels, and since call
  10 (scripts/h200_call10.sh) the kernels' own source), round the SMs in a fixed order: the first wave's 264 blocks fill every SM's two
  slots with blocks 132 apart on 72-84 SMs, 124 apart on 40-52 and 80-92 apart on 8 (the order
  visits some SMs twice a round), and co-resident blocks stay about 132 apart (median difference
  132 and 133, 99.95% and 88% within 264) as each freed slot takes the next block; the model
  pairs b with b + 132, the commonest;
- waves: with both blocks of an SM running alike (coalesced: first-wave blocks take 457 us in
  either slot), blocks start in waves of `slots` = blocks per SM x 132: the start of b + 128 is
  0.05 D after b's (same wave) or 0.95 D (the next), D the block's duration, for 10% to 90% of
  the blocks;
- offset: smem's slots (1024 threads, a barrier in the loop) start half a block apart at 2816^3,
  3072^3 and 4096^3, each block active the whole of D;
- staggered: when one SM serves its oldest block first (naive, bound by L1 tag throughput: its
  first-wave blocks take 2.28 ms in one slot and 4.48 ms in the other), the slots run half a
  block apart for the whole launch: b + 128 starts 0.50 D after b for 90% of the blocks.

`start_times` gives each block's start in units of D, the time one block is resident, and
`active_time` how long it takes from its first iteration to its last.

Limitations: D is taken equal for every block (the traces: 95% of blocks within 5% of the
median); the dispatch order within a wave (which SM a block lands on) is not modelled beyond
"b and b + sms share one" (true of 55-64% of the first wave's SMs, 124 apart on most others);
the staggered and offset cases are chosen by a rule (see `dispatch_mode`) that the schedules of
naive, coalesced and smem support, not a timing model; blocktile1d's schedules (staggered a third
of a block at 2816^3, 3072^3 and 4096^3) contradict it: the rule runs it in waves, because its
DRAM reads come out worse staggered (docs/CACHES.md, assumption 4).
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.caches.hardware import H200, Hierarchy


@dataclass(frozen=True)
class Residency:
    """How a kernel's blocks fill the SMs."""

    blocks_per_sm: int
    limited_by: str  # threads | registers | shared | blocks
    shared_per_block: int  # bytes, the 1 KB reservation included
    carveout: int  # bytes of shared memory the driver sets aside per SM
    l1_bytes: int  # bytes of L1 per SM: the 256 KB less the carve-out
    sms: int

    @property
    def slots(self) -> int:
        """Blocks resident at once on the whole GPU: one wave."""
        return self.blocks_per_sm * self.sms


def residency(threads: int, registers: int, shared_bytes: int, hw: Hierarchy = H200) -> Residency:
    """Blocks per SM of a kernel with `threads` per block, `registers` per thread and
    `shared_bytes` of shared memory per block: its window, the reserved 1 KB, static and dynamic
    (the cubin's section, which starts with the reserve, and the launch's dynamic bytes)."""
    if threads < 1:
        raise ValueError("a block has at least one thread")
    warps = -(-threads // 32)
    per_warp = -(-max(registers, 1) * 32 // hw.register_unit) * hw.register_unit
    shared = max(shared_bytes, hw.shared_reserved_per_block)  # the section holds the reserve; none: it alone
    limits = {
        "threads": min(hw.max_threads_per_sm // (warps * 32), hw.max_warps_per_sm // warps),
        "registers": hw.registers_per_sm // (per_warp * warps),
        "shared": max(hw.shared_capacities) // shared,
        "blocks": hw.max_blocks_per_sm,
    }
    limited_by = min(limits, key=lambda k: limits[k])
    blocks = max(1, limits[limited_by])
    need = blocks * shared
    carveout = min(c for c in hw.shared_capacities if c >= need) if need <= max(hw.shared_capacities) \
        else max(hw.shared_capacities)
    return Residency(blocks, limited_by, shared, carveout, hw.l1_and_shared - carveout, hw.sms)


def dispatch_mode(lines_per_request: float, synchronized: bool = False, threads: int = 0) -> str:
    """'staggered' when the kernel is bound by its SMs' L1 tag throughput, 'offset' when its blocks
    of 32 warps wait at a barrier in their loop, else 'waves'.

    - staggered: a global access needing 16 or more 128-byte lines per request on average (naive's
      A load takes 32) keeps the L1's tag stage busy for that many cycles per warp, so the oldest
      block's warps, issued first, take the SM and the slots drift half a block apart (measured
      for naive at 2816^3, 3072^3 and 4096^3, traces/schedule/);
    - offset: smem (1024 threads, a barrier every K step, 1 line per request) starts its slots
      half a block apart at 2816^3, 3072^3 and 4096^3 (0.4-0.6 D for 90-97% of consecutive
      starts on an SM), each block active the whole of D (its first wave's blocks end at 0.77 D
      and 1.1 D); the rule takes the barrier kernels of LOCKSTEP_THREADS threads (smem, dgemm_smem,
      gemm_cp_async);
    - waves: the rest (coalesced, 1.5 lines per request, in waves at 4096^3).

    blocktile1d (512 threads, a barrier) is measured staggered too, its three slots a third of a
    block apart, but is left in waves: staggered or offset, its DRAM reads at 2560^3 (-28%) and
    2048x1024x4096 (-10%) fall outside their tolerances (docs/CACHES.md, assumption 4)."""
    if lines_per_request >= 16:
        return "staggered"
    return "offset" if synchronized and threads >= LOCKSTEP_THREADS else "waves"


#: Threads of a block (32 warps) whose barrier in the loop makes the model offset its slots.
LOCKSTEP_THREADS = 1024


def start_times(blocks: int, res: Residency, mode: str):
    """When each block of a launch starts making progress, in units of one block's resident time D:
    the wave it starts in (waves), or its half-wave (staggered and offset, 2 blocks per SM)."""
    import numpy as np

    b = np.arange(blocks)
    if mode in ("staggered", "offset") and res.blocks_per_sm > 1:
        return (b // res.sms) / res.blocks_per_sm
    return (b // res.slots).astype(float)


def active_time(res: Residency, mode: str) -> float:
    """How long, in units of D, a block takes from its first iteration to its last: D in waves and
    offset (smem's first-wave blocks each run the whole of D); D / blocks_per_sm when staggered
    (the SM serves one block at a time: naive's first-wave blocks finished at 2.28 ms = D / 2 in
    the slot served first)."""
    return 1.0 / res.blocks_per_sm if mode == "staggered" and res.blocks_per_sm > 1 else 1.0


#: Block-index gaps between blocks sharing an SM. In the first wave: 132 on 72-84 of 132 SMs,
#: 124 on 40-52 (traces/schedule); past it, freed slots take whichever block is next, and the
#: gaps spread around 132 (coalesced: 132 on 0.8% of the pairs, 124 on 0.8%, the rest spread
#: over +-50): the later gaps stand for "not a fixed multiple", not for measured values.
FIRST_WAVE_GAPS = (132, 124, 132, 132, 124)
LATER_GAPS = (127, 137, 125, 139, 131, 134)


def co_resident(first: int, res: Residency, blocks: int, gap: int | None = None) -> list[int]:
    """The blocks that share `first`'s SM: first, first + gap, ... (as many as fit; gap: sms)."""
    gap = res.sms if gap is None else gap
    return [b for b in range(first, first + gap * res.blocks_per_sm, gap) if b < blocks]
