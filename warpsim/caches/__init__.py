"""Where the bytes go after L1: a model of the H200's memory hierarchy (and the H100's) beside the
exact counters.

warpsim's counters are exact: the sectors each warp request asks L1 for. What L1 then serves,
what goes on to L2 and what DRAM delivers depend on the cache state, so this package predicts
them within tolerance classes (docs/CACHES.md), from the same `Site`s either front-end gives:

    program    a launch's global accesses, their arrays' bytes, the blocks each is for
    residency  blocks per SM (threads, registers, shared memory), L1's share of the 256 KB,
               the dispatch of blocks to SMs and their start times (measured schedules)
    stream     the order a block's accesses run in; the windows of iterations sampled
    lanes      one access made concrete: lane addresses and masks, warp requests' lines
    lru        a sectored set-associative LRU in numpy (L1)
    l1         replaying sampled SMs' L1s: hit and fetch shares per access
    tiles      every block's L2 traffic as tiles placed in time
    footprint  the exact distinct 64-byte pieces a launch reads (DRAM's unit)
    l2         the L2 request coalescer, the L2 and DRAM
    model      all of it: `predict(program)` -> CachePrediction (per array and total)
    hardware   every device figure, with its source

Entry points: `caches_for(kernel, M, N, K, engine)` for a registered kernel, `caches_for_launch`
for any kernel's `warpsim.sass.analyze.Kernel`.
"""

from __future__ import annotations

from warpsim.errors import UsageError


#: The most blocks the model places in time (each is an element of several arrays of events):
#: 2^18, 16 times naive's 16,384 at 4096^3. Measured on 2 cores (`warpsim analyze naive --M 16384
#: --engine model --caches`, 2^18 blocks): 3.9 s and 330 MB, 5.1 s for naive_coalesced; at 2^20
#: blocks (--M 32768) 18-34 s and 1.1-1.2 GB, past issue 10's 5 s and 1 GB.
MAX_BLOCKS = 1 << 18


class TooManyBlocks(UsageError):
    """The launch has more blocks than the cache model places; its exact counts stand."""


def caches_for(kernel: str, M: int, N: int, K: int, block=None, engine: str = "sass", hw=None):
    """The cache prediction of a registered kernel's launch, through its machine code (`sass`)
    or its hand model (`model`), for the hierarchy `hw` (warpsim.caches.hardware; the H200's by
    default)."""
    from warpsim.caches import program

    if engine == "model":
        return _predict(program.from_model(kernel, M, N, K, block), hw)
    from warpsim.engine import sass_kernel

    return _predict(program.from_machine_code(sass_kernel(kernel, M, N, K, block)[1]), hw)


def caches_for_launch(kernel, progress=None, concrete=None, hw=None):
    """The cache prediction of any kernel's launch (a `warpsim.sass.analyze.Kernel`);
    `progress(done, total)` as blocks finish where it runs block by block; `concrete`: that run,
    if the exact counts recorded it (`warpsim.caches.program.ConcreteRun`); `hw` as caches_for's."""
    from warpsim.caches import program

    return _predict(program.from_machine_code(kernel, progress, concrete), hw)


def _predict(prog, hw=None):
    from warpsim.caches.hardware import H200
    from warpsim.caches.model import predict

    if prog.blocks > MAX_BLOCKS:
        raise TooManyBlocks(f"{prog.name}: the cache model places each block in time and takes at most "
                            f"{MAX_BLOCKS:,} blocks; this launch has {prog.blocks:,} (its exact counts need no "
                            f"--caches)")
    return predict(prog, hw or H200)
