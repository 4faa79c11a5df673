"""The one table of Nsight Compute metric names, each tied to what warpsim predicts for it.

Every ncu metric name in this project is written here, verbatim, and nowhere else: the ncu
command line, the parsers, the traces and the comparison all read `METRICS`.

A metric warpsim predicts carries `predicts = (space, op, counter)`, read off an Analysis as
`analysis.total(space, op, counter)` (summed over the arrays A, B, C). `exact` says whether
warpsim claims to reproduce the hardware count exactly; `profile compare --strict` fails on any
difference in such a metric and only reports the others.

Limitations: the counters are ncu's `.sum` over the whole launch, so A, B and C are not told
apart here (per-array counts come from ncu's source page: SOURCE_METRICS below). The aggregate
shared-memory wavefront and bank-conflict counters are predicted but not claimed exact: on the
H200 they exceed the sum of the per-instruction source counters of the same kernel by amounts
that are not a whole number per instruction (extra data-bank cycles, largest where shared stores
follow global loads; docs/EXACTNESS.md), while the per-instruction `L1 Wavefronts Shared` and
`... Excessive`, which warpsim claims exactly, match.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    name: str  # ncu metric name, verbatim
    unit: str  # what one count is, for people reading tables
    predicts: tuple[str, str, str] | None  # (space, op, counter) of warpsim.counts, None: measured only
    exact: bool  # warpsim claims the hardware value exactly
    kinds: tuple[str, ...] | None = None  # machine-code rows: the opcode families the metric counts


METRICS: tuple[Metric, ...] = (
    # Global memory, through L1TEX's LSU pipe.
    Metric("smsp__inst_executed_op_global_ld.sum", "warp instructions", ("global", "load", "instructions"), True,
           ("LDG",)),
    Metric("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "requests", ("global", "load", "requests"), True),
    Metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "32 B sectors", ("global", "load", "sectors"), True),
    Metric("smsp__inst_executed_op_global_st.sum", "warp instructions", ("global", "store", "instructions"), True,
           ("STG",)),
    Metric("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "requests", ("global", "store", "requests"), True),
    Metric("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "32 B sectors", ("global", "store", "sectors"), True),
    # Shared memory, through L1TEX's data pipe.
    Metric("smsp__inst_executed_op_shared_ld.sum", "warp instructions", ("shared", "load", "instructions"), True,
           ("LDS",)),
    Metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "wavefronts", ("shared", "load", "wavefronts"), False),
    Metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "wavefronts", ("shared", "load", "bank_conflicts"), False),
    Metric("smsp__inst_executed_op_shared_st.sum", "warp instructions", ("shared", "store", "instructions"), True,
           ("STS",)),
    Metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "wavefronts", ("shared", "store", "wavefronts"), False,
           ("STS", "ST", "ATOMS")),
    Metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "wavefronts", ("shared", "store", "bank_conflicts"),
           False, ("STS", "ST", "ATOMS")),
    # Caches, DRAM and time depend on the machine, not on the address stream alone: not counted
    # exactly; the caches' are predicted within tolerances (CACHE_METRICS below).
    Metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "32 B sectors", None, False),
    Metric("lts__t_sectors_srcunit_tex_op_read.sum", "32 B sectors", None, False),
    Metric("lts__t_sectors_srcunit_tex_op_write.sum", "32 B sectors", None, False),
    Metric("dram__bytes_read.sum", "bytes", None, False),
    Metric("dram__bytes_write.sum", "bytes", None, False),
    Metric("gpu__time_duration.sum", "ns", None, False),
)

NAMES: tuple[str, ...] = tuple(m.name for m in METRICS)

#: Metrics of the instruction families only machine-code kernels have (the ladder has none of
#: them): generic loads and stores (wmma fragments), cp.async, ldmatrix, reductions (atomicAdd
#: with its result unused). Seen on the H200: cp.async's and generic accesses' global requests
#: and sectors count under the `..._mem_global_op_ld/_st` metrics above. Collected where ncu
#: knows the name (`ncu --query-metrics`); not claimed exact until measured.
SASS_EXTRA: tuple[Metric, ...] = (
    Metric("smsp__inst_executed_op_generic_ld.sum", "warp instructions", (None, "load", "instructions"), False, ("LD",)),
    Metric("smsp__inst_executed_op_generic_st.sum", "warp instructions", (None, "store", "instructions"), False, ("ST",)),
    Metric("smsp__inst_executed_op_ldgsts.sum", "warp instructions", ("shared", "store", "instructions"), False,
           ("LDGSTS",)),
    Metric("smsp__inst_executed_op_ldsm.sum", "warp instructions", ("shared", "load", "instructions"), False, ("LDSM",)),
    Metric("smsp__inst_executed_op_global_red.sum", "warp instructions", ("global", "atomic", "instructions"), True,
           ("REDG", "RED")),
    Metric("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "requests", ("global", "atomic", "requests"), True,
           ("REDG", "RED")),
    Metric("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "32 B sectors", ("global", "atomic", "wavefronts"), True,
           ("REDG", "RED")),
    # an atomic whose old value is used (ATOMG): ncu counts it under _op_atom, not _op_red (blind
    # batch 11's ticket: 93,751 requests and 375,003 sectors at n = 3,000,017, all under _op_atom).
    # Claimed since stop 26: the sectors are passes, each sector once per lane on its busiest word
    # (warpsim.coalescer.atomic_passes; kernels/atomics.cu and atomics2.cu, the latter blind)
    Metric("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "requests", ("global", "atomic", "requests"), True,
           ("ATOMG", "ATOM")),
    Metric("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "32 B sectors", ("global", "atomic", "wavefronts"), True,
           ("ATOMG", "ATOM")),
    # local memory (LDL/STL), laid out a 4-byte word per lane in turn (warpsim.coalescer.local):
    # blind batch 11's 12 local launches, 4- and 16-byte accesses, full and partial warps, equal
    # (stack_sum at n = 250,007: 750,024 sectors each way; scatter_local's 16-byte stores of 3 lanes)
    Metric("smsp__inst_executed_op_local_ld.sum", "warp instructions", ("local", "load", "instructions"), True),
    Metric("smsp__inst_executed_op_local_st.sum", "warp instructions", ("local", "store", "instructions"), True),
    Metric("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "32 B sectors", ("local", "load", "sectors"), True),
    Metric("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", "32 B sectors", ("local", "store", "sectors"), True),
)
#: The memory path between L1 and L2, stage by stage, collected by `profile batch --paths`
#: (more replay passes: not in every batch): where L1's misses merge before L2 counts them.
#: Measured only: warpsim predicts none of them directly; tests and docs/CACHES.md read them to
#: check the cache model's stages. Role -> (ncu metric, unit):
PATH_ROLES: dict[str, tuple[str, str]] = {
    # L1's tag misses of global loads, and the sectors the crossbar fills L1 with
    "l1_misses": ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", "32 B sectors"),
    "l1_fills": ("l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum", "32 B sectors"),
    "l1_fills_all": ("l1tex__m_xbar2l1tex_read_sectors.sum", "32 B sectors"),
    # the L2 request coalescer (lrc): read requests in, sectors whose request met an earlier one
    # for the same sector (merged), sectors asked of the L2 slices and got back (lts2lrc), sent
    # on towards the GPCs (lrc2xbar) and delivered to them (xbar2gpc)
    "lrc_requests": ("lrc__xbar2lrc_requests_op_read.sum", "requests"),
    "lrc_coalescable": ("lrc__request_sectors_op_read_coalescable.sum", "32 B sectors"),
    "lrc_merged": ("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum", "32 B sectors"),
    "lrc_from_l2": ("lrc__lts2lrc_sectors_op_read.sum", "32 B sectors"),
    "lrc_to_xbar": ("lrc__lrc2xbar_sectors_op_read.sum", "32 B sectors"),
    "lrc_to_xbar_merged": ("lrc__lrc2xbar_sectors_op_read_coalescing_achieved_type_hardware.sum", "32 B sectors"),
    "xbar_to_gpcs": ("lrc__xbar2gpc_sectors_op_read.sum", "32 B sectors"),
    "xbar_to_gpcs_merged": ("lrc__xbar2gpc_sectors_op_read_coalescing_achieved_type_hardware.sum", "32 B sectors"),
    # the L2's read requests from L1, and its hits and misses among the read sectors
    "l2_requests": ("lts__t_requests_srcunit_tex_op_read.sum", "requests"),
    "l2_hits": ("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", "32 B sectors"),
    "l2_misses": ("lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", "32 B sectors"),
}
PATH_METRICS: tuple[Metric, ...] = tuple(Metric(name, unit, None, False) for name, unit in PATH_ROLES.values())
PATH: dict[str, str] = {role: name for role, (name, _) in PATH_ROLES.items()}  # role -> ncu metric
PATH_NAMES: tuple[str, ...] = tuple(m.name for m in PATH_METRICS)
SASS_METRICS: tuple[Metric, ...] = METRICS + SASS_EXTRA
SASS_NAMES: tuple[str, ...] = tuple(m.name for m in SASS_METRICS)


@dataclass(frozen=True)
class Derived:
    """A difference of two collected metrics, compared like a metric."""

    name: str  # how tables name it
    minuend: str  # ncu metric names (of METRICS)
    subtrahend: str
    unit: str
    predicts: tuple[str, str, str]
    exact: bool
    kinds: tuple[str, ...] | None = None  # machine-code rows: the opcode families it counts


_WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{}.sum"
_BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{}.sum"
#: The aggregate shared counters' surplus is all in their conflict part: wavefronts minus bank
#: conflicts (the ideal wavefronts) is exact on every H200 trace, so warpsim claims it.
#: Seen on the H200 (traces/sass/gemm_cp_async): cp.async's shared side (LDGSTS) is not in
#: `..._wavefronts_mem_shared_op_st`, while generic stores to shared memory (wmma) are.
SHARED_STORE_KINDS = ("STS", "ST", "ATOMS")
DERIVED: tuple[Derived, ...] = tuple(
    Derived(f"shared {op} ideal wavefronts = wavefronts - bank conflicts", _WF.format(short), _BC.format(short),
            "wavefronts", ("shared", op, "ideal_wavefronts"), True, kinds)
    for short, op, kinds in (("ld", "load", None), ("st", "store", SHARED_STORE_KINDS))
)
BY_NAME: dict[str, Metric] = {m.name: m for m in SASS_METRICS + PATH_METRICS}
PREDICTED: tuple[Metric, ...] = tuple(m for m in METRICS if m.predicts is not None)


@dataclass(frozen=True)
class SourceColumn:
    """A column of ncu's source page (per SASS instruction), tied to a warpsim counter."""

    name: str  # column title, verbatim
    counter: str  # warpsim.counts counter summed per (space, array, op)
    space: str | None  # "global" or "shared": the rows it applies to; None: both
    exact: bool


#: The per-instruction counters of `ncu -i REPORT --page source --csv` (SourceCounters section).
SOURCE_METRICS: tuple[SourceColumn, ...] = (
    SourceColumn("Instructions Executed", "instructions", None, True),
    SourceColumn("Predicated-On Thread Instructions Executed", "active_lanes", None, True),
    SourceColumn("L1 Tag Requests Global", "lines", "global", True),
    SourceColumn("L2 Theoretical Sectors Global", "sectors", "global", True),
    # ncu's "ideal" is its own minimum, not warpsim's ceil(distinct bytes / 32): equal for whole
    # coalesced warps, larger for warps of several broadcast rows (see docs/EXACTNESS.md).
    SourceColumn("L2 Theoretical Sectors Global Ideal", "ideal_sectors", "global", False),
    SourceColumn("L1 Wavefronts Shared", "wavefronts", "shared", True),
    SourceColumn("L1 Wavefronts Shared Excessive", "bank_conflicts", "shared", True),
)
SOURCE_COLUMNS: tuple[str, ...] = tuple(c.name for c in SOURCE_METRICS)
#: The source page's columns that say which instruction a row is (not counters).
SOURCE_KEYS: tuple[str, ...] = ("Address", "Source", "Address Space", "Access Operation", "Access Size")


@dataclass(frozen=True)
class CacheMetric:
    """A metric of the caches (METRICS above) that warpsim.caches predicts within a tolerance.

    The relative error is (predicted - measured) / reference, the reference being the measured
    value of `of` (a metric's own value when None); it is claimed within `tolerance`, within
    `fits_tolerance` instead where the launch's arrays fit in L2 together; a tolerance of None:
    predicted and reported, not claimed."""

    name: str  # ncu metric name, verbatim (one of METRICS)
    field: str  # warpsim.caches.model.CacheRow field that predicts it
    tolerance: float | None
    of: str | None = None
    fits_tolerance: float | None = None


_LD_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
#: Issue 10's targets: L1 hits within 2% of the global load sectors, L2 read sectors within 10%,
#: DRAM reads within 5% when the arrays fit in L2 and 15% when they do not.
CACHE_METRICS: tuple[CacheMetric, ...] = (
    CacheMetric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "l1_hit_sectors", 0.02, _LD_SECTORS),
    CacheMetric("lts__t_sectors_srcunit_tex_op_read.sum", "l2_read_sectors", 0.10),
    CacheMetric("lts__t_sectors_srcunit_tex_op_write.sum", "l2_write_sectors", None),
    CacheMetric("dram__bytes_read.sum", "dram_read_bytes", 0.15, fits_tolerance=0.05),
    CacheMetric("dram__bytes_write.sum", "dram_write_bytes", None),
    # where a trace has the memory path's stages (profile batch --paths): the coalescer's merges,
    # as a share of L1's fills (reported, not claimed: the stage L2 read sectors' errors come from)
    CacheMetric(PATH["lrc_merged"], "lrc_merged_sectors", None, PATH["l1_fills"]),
)
CACHE_BY_NAME: dict[str, CacheMetric] = {m.name: m for m in CACHE_METRICS}
