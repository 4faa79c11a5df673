"""The cache model's parts, each against what it stands for: occupancy by the CUDA rules, the
dispatch against the block schedules measured on the H200, the LRU against its definition, the
warp requests against the exact coalescer."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profiling.traces import TRACES_DIR
from test_sass_engine import CATALOG, KERNELS
from test_sass_frontend import needs_nvcc
from warpsim.caches import lru, residency
from warpsim.caches.hardware import KIB
from warpsim.caches.lanes import requests
from warpsim.coalescer import coalesce


def test_occupancy_follows_the_cuda_rules():
    # naive: 1024 threads of 32 registers; 2048 threads per SM -> 2 blocks; 2 x 1 KB reserved
    # shared memory -> the 8 KB carve-out, L1 keeps 256 - 8 = 248 KB
    r = residency.residency(1024, 32, 0)
    assert (r.blocks_per_sm, r.limited_by, r.carveout, r.l1_bytes) == (2, "threads", 8 * KIB, 248 * KIB)
    # warptile_db: 256 threads x 200 registers = 8 warps x 6400 = 51200 of 65536 -> 1 block
    assert residency.residency(256, 200, 25600).blocks_per_sm == 1
    # warptile: 4 warps x 168 x 32 = 21504 registers -> 3 blocks (64512); 3 x 17 KB (its section,
    # the reserved 1 KB at its start) -> 64 KB carve-out
    r = residency.residency(128, 168, 17408)
    assert (r.blocks_per_sm, r.limited_by, r.carveout) == (3, "registers", 64 * KIB)
    # registers are allocated per warp in units of 256: 37 per thread counts as 40
    assert residency.residency(512, 37, 4096).blocks_per_sm == 3  # 65536 // (16 warps x 1280)


@needs_nvcc
def test_shared_memory_limits_blocks_as_the_h200_driver_does():
    # traces/schedule/occupancy_h200.json (scripts/h200_occupancy.py, call 28): the driver's
    # occupancy calculator for 128 threads and 37 or 44 KiB of shared memory, static or dynamic.
    # The cubin's section starts with the 1 KiB reserve, so a block takes 38,912 bytes: 6 fit the
    # 228 KiB (233,472 bytes: exactly 6), 5 at 46,080 (4 had the reserve been added again)
    from warpsim.sass.cubin import read_cubin
    from warpsim.toolchain import build_cubin

    measured = json.loads((TRACES_DIR / "schedule" / "occupancy_h200.json").read_text())
    functions = {f.source_name: f for f in read_cubin(build_cubin(KERNELS / "probes" / "occupancy.cu")).functions.values()}
    for row in measured["rows"]:
        f = functions[row["kernel"]]
        assert f.shared_bytes == row["section"]
        r = residency.residency(measured["threads"], f.registers, f.shared_bytes + row["dynamic"])
        assert (r.blocks_per_sm, r.limited_by) == (row["driver"], "shared")
    assert [row["driver"] for row in measured["rows"]] == [6, 5, 6, 5]


def _schedule(kernel: str) -> dict:
    return json.loads((TRACES_DIR / "schedule" / f"{kernel}_M4096_N4096_K4096.json").read_text())


def test_the_first_wave_puts_blocks_about_132_apart_on_one_sm():
    res = residency.residency(1024, 32, 0)
    for kernel in ("naive", "coalesced"):
        for run in _schedule(kernel)["runs"]:
            sm = np.asarray(run["sm"])
            pairs = {}
            for b in range(264):
                pairs.setdefault(sm[b], []).append(b)
            assert all(len(p) == 2 for p in pairs.values()) and len(pairs) == 132  # 2 per SM, every SM
            gaps = np.array([p[1] - p[0] for p in pairs.values()])
            assert (gaps == 132).mean() > 0.5 and np.isin(gaps, (124, 132)).mean() > 0.9
    assert residency.co_resident(5, res, 16384) == [5, 137]  # the model takes the commonest, 132


def test_ten_blocks_to_an_sm_fill_the_sms_breadth_first_with_mixed_gaps():
    # wmma_tf32_smem (128 threads, 48 registers: ten to an SM), traces/schedule/ (scripts/
    # h200_call15.sh): 512 blocks spread over every SM (512 = 116 x 4 + 16 x 3), not packed ten to
    # an SM; at 2048^3 the first wave's 1320 blocks ten to each. The gaps between one SM's blocks
    # are 124, 132 or 140 for 74% (512 blocks) and 94% (1320) of them, their mean 129-130, and
    # they mix within an SM's blocks (81% and all of the SMs holding three or more), where the
    # model's groups take one gap (co_resident: b, b + 132, b + 264, ...; docs/CACHES.md, what
    # the model does not capture)
    for name, sizes, main in (("M1024_N512_K768", {4: 116, 3: 16}, 0.74), ("M2048_N2048_K2048", {10: 132}, 0.93)):
        data = json.loads((TRACES_DIR / "schedule" / f"wmma_tf32_smem_{name}.json").read_text())
        for run in data["runs"]:
            sm = np.asarray(run["sm"])[:1320]
            groups: dict = {}
            for b, q in enumerate(sm):
                groups.setdefault(q, []).append(b)
            counts: dict = {}
            for g in groups.values():
                counts[len(g)] = counts.get(len(g), 0) + 1
            assert counts == sizes, name
            gaps = np.concatenate([np.diff(g) for g in groups.values()])
            assert np.isin(gaps, (124, 132, 140)).mean() > main and 129 < gaps.mean() < 130.5
            assert np.mean([len(set(np.diff(g))) > 1 for g in groups.values() if len(g) > 2]) > 0.8


def test_waves_and_stagger_as_measured():
    # coalesced: b + 128 starts with b (same wave) or about a block later (next wave)
    run = _schedule("coalesced")["runs"][0]
    start, end = np.asarray(run["start_ns"], float), np.asarray(run["end_ns"], float)
    gap = (start[128:] - start[:-128]) / np.median(end - start)
    assert ((gap < 0.15) | (gap > 0.85)).mean() > 0.8
    # naive: half a block (the slots drift half a block apart and stay so)
    run = _schedule("naive")["runs"][0]
    start, end = np.asarray(run["start_ns"], float), np.asarray(run["end_ns"], float)
    gap = (start[264:][128:] - start[264:][:-128]) / np.median(end - start)
    assert abs(np.median(gap) - 0.5) < 0.01
    res = residency.residency(1024, 32, 0)
    times = residency.start_times(16384, res, "staggered")
    assert times[1000 + 128] - times[1000] == 0.5  # b + 128 lies in the next half-wave
    assert residency.active_time(res, "staggered") == 0.5
    assert residency.start_times(16384, res, "waves")[263] == 0 and residency.start_times(16384, res, "waves")[264] == 1
    # smem (1024 threads, a barrier in its loop): offset, each block active the whole of D
    assert residency.dispatch_mode(1.0, True, 1024) == "offset"
    assert residency.active_time(res, "offset") == 1.0 and residency.start_times(16384, res, "offset")[1128] == 4.0
    assert residency.dispatch_mode(1.0, True, 512) == "waves" and residency.dispatch_mode(32.0) == "staggered"



def _same_sm_gaps(run: dict) -> np.ndarray:
    """Gaps between the starts of consecutive blocks on one SM, in units of the median duration."""
    sm, start = np.asarray(run["sm"]), np.asarray(run["start_ns"], float)
    D = np.median(np.asarray(run["end_ns"], float) - start)
    return np.concatenate([np.diff(np.sort(start[sm == q])) for q in np.unique(sm)]) / D


def test_the_barrier_kernels_measured_are_staggered_at_every_size():
    # what the dispatch rule does not see (docs/CACHES.md, assumption 4): smem's two slots start
    # half a block apart, blocktile1d's three a third; naive is staggered at every size too
    for kernel, n, share in (("naive", 3072, 0.5), ("smem", 2816, 0.5), ("smem", 3072, 0.5), ("smem", 4096, 0.5),
                             ("blocktile1d", 3072, 1 / 3), ("blocktile1d", 4096, 1 / 3)):
        data = json.loads((TRACES_DIR / "schedule" / f"{kernel}_M{n}_N{n}_K{n}.json").read_text())
        gaps = _same_sm_gaps(data["runs"][0])
        assert abs(np.median(gaps) - share) < 0.02, (kernel, n)
    # coalesced stays in waves at 4096^3: its slots start together or a block apart
    gaps = _same_sm_gaps(_schedule("coalesced")["runs"][0])
    assert ((gaps < 0.1) | (gaps > 0.9)).mean() > 0.9

@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=200), st.integers(0, 15))
def test_lru_hits_exactly_the_repeats_when_everything_fits(lines, mask):
    line = np.asarray(lines, dtype=np.int64)
    m = np.full(len(line), mask | 1, dtype=np.uint8)
    hit = lru.simulate(line, m, lines=64, ways=64)["hit"]  # one set of 64 ways: nothing is evicted
    seen = set()
    for i, value in enumerate(lines):
        assert hit[i] == (m[i] if value in seen else 0)
        seen.add(value)


def test_lru_evicts_the_least_recently_used_line():
    line = np.array([0, 1, 2, 0, 3, 1], dtype=np.int64)  # 2 ways, one set: 3 evicts 2 (0 was used again)
    hit = lru.simulate(line, np.ones(6, dtype=np.uint8), lines=2, ways=2)["hit"]
    assert hit.tolist() == [0, 0, 0, 0, 0, 0]  # 2 evicts 0, 0 evicts 1, 3 evicts 2, 1 evicts 0
    line = np.array([0, 1, 0, 2, 0, 1], dtype=np.int64)
    hit = lru.simulate(line, np.ones(6, dtype=np.uint8), lines=2, ways=2)["hit"]
    assert hit.tolist() == [0, 0, 1, 0, 1, 0]  # 2 evicts 1 (0 is more recent); 1 then misses


def test_sectors_fill_one_by_one():
    line = np.array([7, 7, 7], dtype=np.int64)
    mask = np.array([0b0011, 0b0110, 0b0110], dtype=np.uint8)
    hit = lru.simulate(line, mask, lines=4, ways=4)["hit"]
    assert hit.tolist() == [0, 0b0010, 0b0110]  # the second asks for sectors 1, 2: only 1 is there


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4095), min_size=32, max_size=32), st.lists(st.booleans(), min_size=32, max_size=32))
def test_requests_are_the_coalescers_sectors(offsets, live):
    addr = (np.asarray(offsets, dtype=np.int64) * 4 + (1 << 20)).reshape(1, 32)
    mask = np.asarray(live).reshape(1, 32)
    _, line, bits = requests(addr, mask)
    assert int(lru.sectors(bits).sum()) == int(coalesce(addr, mask, 4).sectors[0])
    assert len(line) == int(coalesce(addr, mask, 4).lines[0])  # one record per distinct line


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["naive", "coalesced", "smem", "blocktile1d"]), st.integers(1, 96), st.integers(1, 96),
       st.integers(1, 96))
def test_a_launch_that_fits_reads_its_distinct_sectors_once(kernel, M, N, K):
    from warpsim.caches import footprint, program
    from warpsim.caches.model import FIXED_DRAM_READ, predict

    prog = program.from_model(kernel, M, N, K)
    p = predict(prog)
    t = p.total
    assert 0 <= t.l1_hit_sectors <= t.load_sectors
    assert t.l2_read_sectors <= (t.load_sectors - t.l1_hit_sectors) * 1.01 + 1  # L1 forwards only its misses
    distinct = footprint.exact(prog)  # every array read: A, B and C (beta * C)
    assert t.dram_read_bytes == pytest.approx(32 * sum(distinct.values()) + FIXED_DRAM_READ + prog.code_bytes, abs=2)
    assert t.dram_write_bytes == 0  # C stays dirty in L2: nothing is evicted from 60 MiB


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["naive", "coalesced", "naive_coalesced", "smem", "blocktile1d", "blocktile2d", "vectorized",
                        "warptile"]), st.integers(1, 120), st.integers(1, 120), st.integers(1, 120))
def test_the_structured_footprint_equals_every_lane_enumerated(kernel, M, N, K):
    # footprint.exact takes dimensions the address ignores at one value, threads of one address
    # together, and solves a short-stepped dimension as a range per lane: at 32-byte pieces it
    # must count exactly the distinct sectors that enumerating every lane of the launch finds
    from warpsim.caches import footprint, program

    if kernel in ("vectorized", "warptile"):  # float4 loads: N and K multiples of 4
        N, K = -(-N // 4) * 4, -(-K // 4) * 4
    prog = program.from_model(kernel, M, N, K)
    brute = footprint.enumerated(prog)
    assert brute is not None  # 120^3 is within what enumerating takes
    assert footprint.exact(prog, granule=32) == brute


def _trmm(entry: str, M: int, N: int):
    from warpsim.caches import program
    from warpsim.sass.analyze import prepare

    e = next(e for e in CATALOG if e["entry"] == entry)
    return program.from_machine_code(prepare(KERNELS / e["file"], entry, e["grid"], e["block"], {"M": M, "N": N}))


@pytest.mark.parametrize("entry", ["trmm_lower", "trmm_lower_coalesced"])
def test_a_triangle_footprint_from_machine_code(entry):
    # every lane its own trip count (k <= row): the loop is solved per lane, the 16-times
    # unrolled body and its remainders each bounded by the triangle's condition
    from warpsim.caches import footprint

    prog = _trmm(entry, 97, 61)
    assert footprint.exact(prog, granule=32) == footprint.enumerated(prog)
    # in sectors: B is 97 x 61 floats = 23,668 B, rows back to back: 740 sectors; L's rows are
    # 388 B apart and row r reads r + 1 floats: sum over rows of the sectors [388 r, 388 r + 4 r + 4)
    rows = [(388 * r // 32, (388 * r + 4 * r + 3) // 32) for r in range(97)]
    assert footprint.exact(prog, granule=32) == {"B": 740, "L": len({s for a, b in rows for s in range(a, b + 1)})}
    # in the 64-byte pieces DRAM reads (two sectors each): B 370 pieces, L 377
    assert footprint.exact(prog) == {"B": 2 * 370, "L": 2 * len({s // 2 for a, b in rows for s in range(a, b + 1)})}


def test_the_footprint_of_a_large_triangle_is_counted_not_refused():
    # trmm_lower_coalesced at 2048^2 (what ncu measured: 25,289,216 B read from DRAM): L's lower
    # triangle, 2048 rows of 8 KB each reading r + 1 floats, in 64-byte pieces: sum of
    # ceil(4 (r + 1) / 64) = 132,096 pieces = 8.45 MB; B whole, 16.8 MB; with the code and the
    # fixed 2.2 KB 25.24 MB, 0.2% below the measurement (in 32-byte sectors: 0.3% below)
    from warpsim.caches import footprint

    prog = _trmm("trmm_lower_coalesced", 2048, 2048)
    assert footprint.exact(prog) == {"B": 2048 * 2048 * 4 // 32, "L": 2 * sum(-(-4 * (r + 1) // 64) for r in range(2048))}


#: The catalog kernels the cache model follows: all of them (those that reach local memory since
#: stop 32: test_a_launch_that_reaches_local_memory_gets_its_global_figures_and_local_bounds)
FOLLOWED = CATALOG


def _catalog_launch(draw):
    """A catalog kernel the cache model follows at a size of its kind: each of M, N, K (or n) a
    multiple of what all its listed sizes share (the float4 kernels' 4, wmma's 16), up to 400;
    other arguments as listed."""
    import math

    from warpsim.sass.analyze import prepare

    entry = draw(st.sampled_from(FOLLOWED))
    sizes = entry["sizes"]
    size = dict(sizes[0])
    for d in ("M", "N", "K", "n"):
        if isinstance(size.get(d), int):  # not conv2d_tiled's mask M, a __constant__'s values
            step = math.gcd(*(int(s[d]) for s in sizes))
            size[d] = step * draw(st.integers(1, max(1, 400 // step)))
    args = {**{k: str(v) for k, v in size.items()}, **entry.get("buffers", {})}
    return entry["entry"], size, prepare(KERNELS / entry["file"], entry["entry"], entry["grid"], entry["block"], args,
                                         dynamic_shared=entry.get("dynamic_shared"))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_catalog_launch_gets_cache_figures_that_can_be(data):
    # whatever kernel and size: no error (a remainder loop no sampled SM runs once divided by
    # zero), every figure a whole number within what the launch can do: L1 serves at most the
    # sectors it is asked for, L2 forwards at most L1's misses, DRAM reads at least every piece
    # the loads touch once (the arrays fit in L2 at these sizes) plus the code and 2.2 KB
    from warpsim.caches import caches_for_launch, footprint, program
    from warpsim.caches.model import FIXED_DRAM_READ

    name, size, kernel = _catalog_launch(data.draw)
    p = caches_for_launch(kernel)
    for r in p.rows + [p.total]:
        assert 0 <= r.l1_hit_sectors <= r.load_sectors, (name, size, r)
        assert r.l2_read_sectors >= 0 and r.dram_read_bytes >= 0 and r.dram_write_bytes >= 0, (name, size, r)
    t = p.total
    assert t.l2_read_sectors <= (t.load_sectors - t.l1_hit_sectors) * 1.01 + 8 * len(p.rows), (name, size)
    prog = program.from_machine_code(kernel)
    pieces = footprint.exact(prog)
    assert pieces is not None and p.fits
    assert t.dram_read_bytes >= 32 * sum(pieces.values()) + FIXED_DRAM_READ + prog.code_bytes - 64, (name, size)
    # and L2 sends each distinct sector a load touches at least once: no coalescing merges a
    # block's request with its own (a row softmax's second pass was once merged below this)
    # the L2 read sectors' range holds the prediction (its coalescer merges no more than the most
    # measured), and never reaches past what L1 fetches
    low, high = p.l2_read_range
    assert low - len(p.rows) <= t.l2_read_sectors <= high + len(p.rows), (name, size, low, high)
    assert sum(p.repeated_sectors) <= p.fetched_sectors + 1
    sectors = footprint.exact(prog, granule=32)
    atomics = {a.array for a in prog.accesses if a.op == "atomic"}
    for r in p.rows:
        if r.array in sectors and r.array not in atomics and r.load_sectors:
            assert r.l2_read_sectors >= 0.99 * sectors[r.array], (name, size, r.array, r.l2_read_sectors, sectors)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_loop_free_catalog_launch_run_block_by_block_gives_the_symbolic_accesses_counts(data):
    # the concrete path (caches.program._run_blocks: every block's addresses from running it)
    # against the symbolic one on launches both can follow: per instruction the same exact
    # counters (a loop's runs summed) and, per array, the same distinct sectors its loads touch
    from hypothesis import assume

    from warpsim.caches import footprint, lanes, program
    from warpsim.sass.analyze import NotSymbolic

    name, size, kernel = _catalog_launch(data.draw)
    symbolic = program.from_machine_code(kernel)
    assume(not any(a.site.dims and any(not d.startswith("blockIdx") for d, _ in a.site.dims)
                   for a in symbolic.accesses) and symbolic.blocks <= 4096)
    forced_reason = NotSymbolic(f"{kernel.name}: forced")
    run = program._run_blocks(kernel, forced_reason)
    concrete, threads = run.accesses(kernel, forced_reason), run.threads
    local = (run.local["load"], run.local["store"])
    assert threads == symbolic.threads

    def per_instruction(accesses) -> dict:  # pieces, paths and a loop's runs summed per instruction
        out: dict = {}
        for a in accesses:
            for k, v in lanes.count(a, threads).items():
                out.setdefault(a.site.pc, {}).setdefault(k, 0)
                out[a.site.pc][k] += v
        return out

    want, got = per_instruction(symbolic.accesses), per_instruction(concrete)

    def run(counts):  # an instruction no thread reaches: no access in the concrete run
        return {pc: c for pc, c in counts.items() if any(c.values())}

    assert run(got) == run(want), (name, size)
    assert local == symbolic.local_sectors, (name, size)  # local memory's sectors, exact both ways
    forced = dataclasses.replace(symbolic, accesses=tuple(concrete))
    assert footprint.exact(forced, granule=32) == footprint.exact(symbolic, granule=32), (name, size)
    assert footprint.partly_written(forced) == footprint.partly_written(symbolic), (name, size)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_structured_footprint_of_any_catalog_launch_equals_every_lane_enumerated(data):
    # through the machine code, whatever kernel and size: a warp's evenly stepped lanes taken as
    # one dimension (footprint._lanes) must count the sectors enumerating every lane finds
    from hypothesis import assume

    from warpsim.caches import footprint, program

    name, size, kernel = _catalog_launch(data.draw)
    prog = program.from_machine_code(kernel)
    brute = footprint.enumerated(prog)
    assume(brute is not None)
    assert footprint.exact(prog, granule=32) == brute, (name, size)
    # and the sectors its stores fill only in part, byte by byte (both ways of counting them)
    written = footprint.enumerated_written(prog)
    assert footprint.partly_written(prog) == written, (name, size)
    assert footprint.partly_written(prog, bitmap=0) == written, (name, size)


@pytest.mark.parametrize("entry, M, N", [("softmax_warp", 97, 61), ("row_sum", 97, 61), ("layernorm_warp", 50, 301)])
def test_a_warps_row_is_one_span_not_32(entry, M, N):
    # one warp a row, 4-byte loads: the 32 lanes step by 4 bytes, so they are taken as one
    # dimension solved as a range, one span per warp and iteration; counted alike to every lane
    from warpsim.caches import footprint, program
    from warpsim.sass.analyze import prepare

    e = next(e for e in CATALOG if e["entry"] == entry)
    args = {"M": str(M), "N": str(N), **({"eps": "1e-05"} if "eps" in e["sizes"][0] else {}), **e["buffers"]}
    prog = program.from_machine_code(prepare(KERNELS / e["file"], entry, e["grid"], e["block"], args))
    plans = [footprint._plan(a, prog.threads, 64) for a in prog.accesses if a.op != "store"]
    lanes = [p for p in plans if p.inner is not None and p.inner[0] == footprint.LANE]
    # at most two runs a warp (a row's last lanes may run an iteration fewer): 8 of 128 threads
    assert lanes and all(len(p.threads) <= 2 * prog.threads // 32 for p in lanes)
    assert footprint.exact(prog, granule=32) == footprint.enumerated(prog)


def test_a_tile_two_streams_start_at_grows_to_the_larger():
    # row_sum's loop runs its first iterations apart from its 16-times unrolled body, both from
    # the row's start: one tile key, 27 sectors then 512. The 485 sectors past the first use's
    # are read from DRAM when the larger use comes (the model read 27 and lost the rest: blind
    # batch 5's row_sum at 2000x9000 read 39 MB of its 72 MB row by row, ncu measured 72 MB)
    from warpsim.caches import l2

    # block 0 twice on tile 7, each event's size its fetched sectors (_events, below)
    read, _, _ = l2.cache(_events([0, 0], [7, 7], [0.0, 0.5], [27, 512]), 35 << 20, 3 << 20)
    assert read.tolist() == [27 * 32, 485 * 32]  # a re-use after nothing else: no miss
    read, _, _ = l2.cache(_events([0, 0], [7, 7], [0.0, 0.5], [512, 27]), 35 << 20, 3 << 20)
    assert read.tolist() == [512 * 32, 0.0]  # the smaller use after the larger reads nothing new


def test_a_launch_of_no_more_blocks_than_sms_replays_every_block():
    # layernorm_warp at 361x129 (caught by the property test above): one warp a row, four rows a
    # block, 91 blocks on 91 SMs. A block's rows are 4 x 516 = 2,064 B, 16 B more than 64.5
    # sectors, so even blocks start on a sector and odd ones 16 B in; both touch 65 sectors, the
    # last block (one row, 516 B from a sector boundary) 17. Each SM starts with a cold L1 and
    # reads its rows twice (two passes; the second hits), so x's L1 misses are 90 x 65 + 17 =
    # 5,867. Sixteen evenly spaced samples (6 apart, all even blocks) put them at 5,733, below
    # the 5,822 distinct sectors (186,276 B) the launch must fetch at least once.
    from warpsim.caches import caches_for_launch
    from warpsim.sass.analyze import prepare

    e = next(e for e in CATALOG if e["entry"] == "layernorm_warp")
    args = {"M": "361", "N": "129", "eps": "1e-05", **e["buffers"]}
    p = caches_for_launch(prepare(KERNELS / e["file"], e["entry"], e["grid"], e["block"], args))
    x = next(r for r in p.rows if r.array == "x")
    assert x.load_sectors - x.l1_hit_sectors == 90 * 65 + 17


def test_a_kernel_without_global_loads_gets_figures_not_an_error(tmp_path):
    # a store-only kernel and one that touches no global memory: the cache model took its empty
    # arrays of accesses for numbers and raised; now every figure is a count, and the sentence
    # says there is nothing to read
    from warpsim.caches import caches_for_launch
    from warpsim.caches.report import sentence
    from warpsim.sass.analyze import prepare

    src = tmp_path / "k.cu"
    src.write_text('extern "C" __global__ void fill(int n, float *out) {\n'
                   '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = 1.0f;\n}\n'
                   'extern "C" __global__ void idle(int n) { }\n')
    fill = caches_for_launch(prepare(src, "fill", "cdiv(n,256)", "256", {"n": "1000", "out": "float[n]"}))
    # 1000 floats = 4000 B = 125 sectors stored, none loaded
    assert (fill.total.load_sectors, fill.total.l2_write_sectors, fill.total.l2_read_sectors) == (0, 125, 0)
    idle = caches_for_launch(prepare(src, "idle", "4", "32", {"n": "1"}))
    # no array, but DRAM still delivers the kernel's machine code and the 2.2 KB every launch
    # reads: in a row of their own
    from warpsim.caches.model import CODE_ROW, FIXED_DRAM_READ
    from warpsim.caches.program import code_bytes

    code = code_bytes(prepare(src, "idle", "4", "32", {"n": "1"}).program)
    assert [r.array for r in idle.rows] == [CODE_ROW]
    assert idle.total.dram_read_bytes == FIXED_DRAM_READ + code and idle.total.load_sectors == 0
    assert sentence(idle, 0) == (f"The launch has no global loads: DRAM delivers {(FIXED_DRAM_READ + code) / 1e3:.1f} "
                                 "kB, its machine code and what every launch reads (predicted).")


def test_loads_that_use_a_few_bytes_of_each_sector_get_the_sentence_in_sectors():
    # gray_u8 at 97x61: each warp's byte loads of r, g and b step 3 bytes over 96 bytes, 3-4
    # sectors each, for 32 bytes the lanes use; 17,751 bytes requested (5,917 pixels x 3) in
    # 2,325 sectors. L2 alone carries more than that, so the bytes' sentence would give L1
    # nothing though most of those sectors hit (the g and b loads find r's sectors): sectors it is
    from warpsim.caches import caches_for_launch
    from warpsim.caches.report import sentence
    from warpsim.sass.analyze import prepare

    k = prepare(KERNELS / "pixels.cu", "gray_u8", "cdiv(W,32),cdiv(H,8)", "32x8",
                {"W": "97", "H": "61", "rgb": "uint8_t[3*W*H]", "g": "uint8_t[W*H]"})
    p = caches_for_launch(k)
    t = p.total
    assert t.load_sectors == 2_325 and t.l2_read_sectors * 32 > 17_751 and t.l1_hit_sectors > t.load_sectors / 2
    assert sentence(p, 17_751) == (
        f"The loads request 17.8 kB in 2,325 sectors of 32 bytes: L1 serves {t.l1_hit_sectors:,} of them "
        f"({t.l1_hit_sectors / 2_325:.0%}), L2 {t.l2_read_sectors:,} ({t.l2_read_sectors * 32 / 1e3:.1f} kB, more than "
        f"the lanes ask for) and DRAM {t.dram_read_bytes / 1e3:.1f} kB of those (predicted).")


def test_a_ragged_last_sector_keeps_the_sentence_in_bytes():
    # block_scan at 1,000,003 floats (kernels/sortscan.cu): its loads request 4,000,012 bytes in
    # 125,001 sectors (4,000,032 bytes: the last sector carries 20 bytes past the requested ones),
    # each read once, so L1 hits none, L2 carries all of them and DRAM all of those: in bytes, none
    # from L1 or L2 and 4.0 MB from DRAM, not the sectors' phrasing for loads that use a few bytes
    from warpsim.caches import caches_for_launch
    from warpsim.caches.report import sentence
    from warpsim.sass.analyze import prepare

    p = caches_for_launch(prepare(KERNELS / "sortscan.cu", "block_scan", "cdiv(n,256)", "256",
                                  {"n": "1000003", "in": "float[n]", "out": "float[n]"}))
    t = p.total
    assert (t.load_sectors, t.l1_hit_sectors, t.l2_read_sectors) == (125_001, 0, 125_001)
    assert sentence(p, 4_000_012) == "Of 4.0 MB requested by the loads, 0 B came from L1, 0 B from L2 and 4.0 MB " \
                                     "from DRAM (predicted)."


def _events(block, tile, time, fetched):
    from warpsim.caches.tiles import Events

    n = len(block)
    f = np.asarray(fetched, dtype=float)
    return Events(np.asarray(time, dtype=float), np.asarray(block), np.zeros(n, dtype=np.int64),
                  np.asarray(tile, dtype=np.int64), f, f, np.zeros(n), np.ones(n, dtype=bool),
                  np.zeros(n, dtype=np.int64), ["x"])


def test_the_coalescer_merges_other_blocks_requests_not_a_blocks_own():
    from warpsim.caches import l2

    # one block's two streams on one tile at one step (a loop's body and its remainder): one
    # SM's requests, nothing merged
    assert l2.coalesced_requests(_events([0, 0], [7, 7], [0.5, 0.5], [10, 0])).tolist() == [1.0, 1.0]
    # two blocks (of the first wave): the second merges with FIRST_SHARE, so the two ask L2 for
    # 2 - 0.3 = 1.7 requests' sectors, 0.85 each; a third event of block 0 does not change it
    assert l2.coalesced_requests(_events([0, 1], [7, 7], [0.5, 0.5], [10, 10])) == pytest.approx([0.85, 0.85])
    assert l2.coalesced_requests(_events([0, 0, 1], [7, 7, 7], [0.5] * 3, [10, 0, 10])) == pytest.approx([0.85] * 3)
    # what the coalescer may merge: of k blocks' requests at one step, all but one are repeats
    assert l2.repeated_share(_events([0, 0], [7, 7], [0.5, 0.5], [10, 0])).tolist() == [0.0, 0.0]
    assert l2.repeated_share(_events([0, 1, 2], [7, 7, 7], [0.5] * 3, [10] * 3)) == pytest.approx([2 / 3] * 3)


def test_a_blocks_loops_run_one_after_another():
    # the row softmax's three passes over its row (the maximum, the sum, the output), each a
    # loop nvcc splits into a remainder and a 4- or 16-times unrolled body: every loop runs in
    # a segment of its own, in program order, the segments tiling the block's time
    from warpsim.caches import program, tiles
    from warpsim.fast import count_site
    from warpsim.sass.analyze import prepare

    e = next(e for e in CATALOG if e["entry"] == "softmax_warp")
    prog = program.from_machine_code(prepare(KERNELS / e["file"], e["entry"], e["grid"], e["block"],
                                             {"M": "1000", "N": "1030", **e["buffers"]}))
    work = np.array([count_site(a.site, prog.threads).get("sectors", 0) for a in prog.accesses], dtype=float)
    phase, _ = tiles.phases(prog, work)
    spans = sorted(phase.values())
    assert len(spans) >= 3
    assert spans[0][0] == 0.0 and sum(s for _, s in spans) == pytest.approx(1.0)
    assert all(a + s == pytest.approx(b) for (a, s), (b, _) in zip(spans, spans[1:]))
    # the passes' shares follow their sectors: the third also stores y, so it is the largest
    loads = {lp: sum(w for a, w in zip(prog.accesses, work) if tiles.loop_dims(a.site)
                     and tiles.loop_dims(a.site)[0].loop == lp) for lp in phase}
    assert all(phase[lp][1] == pytest.approx(loads[lp] / work.sum()) for lp in phase)


SCALE_CU = ('extern "C" __global__ void scale(int M, int N, const float *x, const float *s, float *y) {\n'
            '  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < M * N; i += gridDim.x * blockDim.x)\n'
            '    y[i] = x[i] * s[i % N];\n}\n')


def _scale(tmp_path, grid: str, M: int, N: int):
    from warpsim.sass.analyze import prepare

    src = tmp_path / "scale.cu"
    src.write_text(SCALE_CU)
    return prepare(src, "scale", grid, "256", {"M": str(M), "N": str(N), "x": "float[M*N]", "s": "float[N]",
                                               "y": "float[M*N]"})


def test_a_launch_run_block_by_block_is_predicted_from_every_blocks_addresses(tmp_path):
    # a grid-stride loop with i % N over 264 blocks (more than the 64 values of a block index the
    # symbolic run takes one at a time): an integer division by a parameter, not affine in the block
    # index, so the exact counts run block by block, and the cache model takes every block's
    # addresses from that run (caches.program.Concrete). At 97x61 each thread runs the body at most
    # once (5,917 elements, 67,584 threads): one access per instruction, of 24 blocks with live lanes
    from warpsim.caches import caches_for_launch
    from warpsim.sass.analyze import analyze_launch

    k = _scale(tmp_path, "264", 97, 61)
    exact = {(r.array, r.op): r.sectors for r in analyze_launch(k).rows}
    assert exact[("x", "load")] == exact[("y", "store")] == -(-97 * 61 * 4 // 32)  # 5,917 floats, read and written once
    rows = {r.array: r for r in caches_for_launch(k).rows}
    assert rows["x"].load_sectors == exact[("x", "load")] and rows["s"].load_sectors == exact[("s", "load")]
    assert rows["y"].l2_write_sectors == exact[("y", "store")]
    assert rows["x"].l1_hit_sectors == 0  # every sector of x is read by one warp, once
    # x in DRAM's 64-byte pieces: 23,668 bytes from an aligned start, 370 pieces (the exact footprint)
    assert rows["x"].dram_read_bytes == 370 * 64
    # s: 61 floats, 244 bytes, 4 pieces; each of 24 blocks reads a stretch of it that wraps
    # around, and the warps of one SM share its 8 sectors: most of its 935 sectors hit
    assert rows["s"].l1_hit_sectors > 0.5 * rows["s"].load_sectors


def test_a_loop_run_block_by_block_gives_an_access_per_iteration_and_a_bound(tmp_path, monkeypatch):
    # the same grid-stride loop over 100 blocks at 300x257: each thread runs its body 3 or 4
    # times (77,100 elements, 25,600 threads), so each instruction gives an access per iteration
    # (its k-th run in every thread), in the order they first run: x's k-th loads precede its
    # (k+1)-th. Past CONCRETE_BYTES of addresses the cache model refuses, in one line
    from warpsim.caches import caches_for_launch, program
    from warpsim.errors import UsageError
    from warpsim.sass.analyze import NotSymbolic, analyze_launch

    k = _scale(tmp_path, "100", 300, 257)
    exact = {(r.array, r.op): r.sectors for r in analyze_launch(k).rows}
    assert exact[("x", "load")] == exact[("y", "store")] == -(-300 * 257 * 4 // 32)  # 77,100 floats, once each
    accesses = program._run_blocks(k, NotSymbolic("scale: forced")).accesses(k, NotSymbolic("scale: forced"))
    loads_x = [a for a in accesses if a.array == "x"]
    assert len(loads_x) == 4  # ceil(77,100 / 25,600) iterations
    first = [int(a.concrete.address[0, 0]) for a in loads_x]  # block 0, thread 0: element 25,600 k
    assert np.diff(first).tolist() == [25_600 * 4] * 3
    rows = {r.array: r for r in caches_for_launch(k).rows}
    assert rows["x"].load_sectors == exact[("x", "load")] and rows["y"].l2_write_sectors == exact[("y", "store")]
    assert rows["x"].l1_hit_sectors == 0 and rows["x"].dram_read_bytes == -(-300 * 257 * 4 // 64) * 64
    monkeypatch.setattr(program, "CONCRETE_BYTES", 10 * 100 * 256 * 8)  # 8 accesses' worth
    with pytest.raises(UsageError, match=r"^scale: the cache model follows a launch's accesses as functions of its "
                                         r"block indices, and this launch's are not \(.*line 3\); run block by "
                                         r"block, its 9 accesses a thread \(a loop's iterations each one\) would "
                                         r"take more than 2 MiB of addresses: drop --caches$"):
        caches_for_launch(k)


def test_the_exact_counts_run_records_the_blocks_the_cache_model_then_reuses(tmp_path, monkeypatch):
    # `warpsim analyze FILE --caches` of a launch counted block by block runs its blocks once:
    # the counting run records every global access (caches.program.ConcreteRun), and the cache
    # model takes them from it, the same figures as running the blocks again. Past CONCRETE_BYTES
    # the counts still come, and the cache figures are refused in the same line as on their own
    from warpsim.caches import caches_for_launch, program
    from warpsim.errors import UsageError
    from warpsim.sass import analyze

    k = _scale(tmp_path, "100", 300, 257)
    runs = []
    real = analyze.run_blocks
    monkeypatch.setattr(analyze, "run_blocks", lambda *a, **kw: runs.append(1) or real(*a, **kw))
    alone = caches_for_launch(k).as_dict()
    assert len(runs) == 1
    run = program.ConcreteRun(k)
    counted = analyze.analyze_launch(k, concrete=run)
    assert run.complete and run.threads == 256 and len(runs) == 2
    assert caches_for_launch(k, concrete=run).as_dict() == alone and len(runs) == 2  # not run again
    assert [r.sectors for r in counted.rows] == [r.sectors for r in analyze.analyze_launch(k).rows]
    monkeypatch.setattr(program, "CONCRETE_BYTES", 10 * 100 * 256 * 8)  # 8 accesses' worth
    small = program.ConcreteRun(k)
    assert [r.sectors for r in analyze.analyze_launch(k, concrete=small).rows] == [r.sectors for r in counted.rows]
    assert small.overflow == 9 and not small.tables
    with pytest.raises(UsageError, match=r"its 9 accesses a thread .* would take more than 2 MiB of addresses: "
                                         r"drop --caches$"):
        caches_for_launch(k, concrete=small)


def test_the_dispatch_order_rebuilt_puts_most_first_wave_blocks_on_the_measured_sm():
    # scripts/h200_dispatch_order.py: a fixed cycle of 124 SMs by TPC slot, SMs 124-131 in a burst
    # about every 100 blocks, full SMs passed over. On the 36 committed schedules that fill a wave
    # (2, 3 and 10 blocks an SM) it puts 84-94% of the first wave's blocks on the SM measured, and
    # its gaps between one SM's blocks are the measured ones: 132 or 124 with 2 an SM (124 once
    # the burst's SMs are full), mixes of 124, 132 and 140 with 10
    import importlib.util

    path = TRACES_DIR.parent / "scripts" / "h200_dispatch_order.py"
    spec = importlib.util.spec_from_file_location("h200_dispatch_order", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    checks = list(script.checks())
    assert len(checks) == 36 and {c[1] for c in checks} == {2, 3, 10}
    assert all(0.83 < share < 0.95 for _, _, share, _, _ in checks)
    for _, per_sm, _, rebuilt, measured in checks:
        if per_sm == 2:
            assert set(rebuilt) == {(132,), (124,), (100,)}  # 100: the burst's 8 SMs
            assert sum(n for g, n in measured.items() if g in ((132,), (124,))) >= 120
        if per_sm == 10:
            gaps = {g for seq in rebuilt for g in seq if seq[0] > 100}
            assert gaps == {124, 132, 140}


@pytest.mark.parametrize("entry", ["stack_sum", "scatter_local", "spill", "double_stack", "byte_shuffle"])
def test_a_launch_that_reaches_local_memory_gets_its_global_figures_and_local_bounds(entry):
    # blind batches 11 and 12 (traces/holdout/blind11, blind12): local arrays and spills go
    # through L1 and L2 beside the global loads; what L1 serves of the local loads is the warps'
    # timing, not predicted (test_caches_recorded.test_local_memory_within_its_ranges). The local
    # sectors are the exact counts' (`analyze`'s local rows), every store sector goes on to L2 (the
    # local row), the L1 hits' range reaches down by a hit a local sector, the L2 reads' up by a
    # sector a local load and the hits lost, the DRAM reads' by 64 bytes a local sector; the global figures are those of the launch with its local accesses left out
    import dataclasses

    from warpsim.caches import caches_for_launch, program
    from warpsim.caches.model import LEFT_OUT_DRAM_BYTES, LOCAL_ROW, predict
    from warpsim.caches.report import local_note
    from warpsim.sass.analyze import analyze_launch, prepare

    e = next(e for e in CATALOG if e["entry"] == entry)
    k = prepare(KERNELS / e["file"], entry, e["grid"], e["block"],
                {**{a: str(b) for a, b in e["sizes"][0].items()}, **e["buffers"]})
    rows = analyze_launch(k).rows
    loads, stores = (sum(r.sectors for r in rows if (r.space, r.op) == ("local", op)) for op in ("load", "store"))
    assert loads > 0 and stores > 0
    p = caches_for_launch(k)
    assert p.local and p.local_sectors == (loads, stores)
    local = p.rows[-1]
    assert local.array == LOCAL_ROW and local.l2_write_sectors == stores
    assert (local.load_sectors, local.l1_hit_sectors, local.l2_read_sectors, local.dram_read_bytes) == (0, 0, 0, 0)
    prog = program.from_machine_code(k)
    without = predict(dataclasses.replace(prog, local_sectors=(0, 0)))
    assert not without.local and [r for r in p.rows if r.array != LOCAL_ROW] == without.rows
    hits = without.total.l1_hit_sectors  # local lines may take up to a hit a local sector, each read from L2 then
    taken = min(hits, loads + stores)
    assert p.l2_read_range == (without.l2_read_range[0], without.l2_read_range[1] + loads + taken)
    dram = without.total.dram_read_bytes
    low, high = without.dram_read_range or (dram, dram)  # global sectors written in part widen it too
    assert p.dram_read_range == (low, high + LEFT_OUT_DRAM_BYTES * (loads + stores))
    assert p.left_out["l2_read_sectors"] == ("local memory", loads + taken)
    # local lines may take global hits from L1: up to one a local sector (LOCAL_L1_EVICTIONS), and
    # never more than were predicted; the prediction is the range's top, as without local memory
    assert hits > 0 and p.l1_hit_range == (hits - taken, hits)
    assert without.l1_hit_range == (hits, hits) and "l1_hit_sectors" not in without.left_out
    note = local_note(p)
    assert f"{loads:,} load and {stores:,} store sectors" in note and f"{p.l2_read_range[1]:,}" in note
    assert f"L1 hit sectors between {p.l1_hit_range[0]:,} and {hits:,}" in note
    assert local_note(without) == ""
    if entry == "stack_sum":  # 24 LDL and 24 STL a thread, 97 threads in 4 warps: 96 each
        counted = {(r.space, r.op): r for r in rows}
        assert counted[("local", "load")].instructions == counted[("local", "store")].instructions == 96


def test_the_sectors_a_ragged_block_vote_fills_in_part():
    # block_votes at n = 1000 (kernels/votes.cu): blocks 0-2 store y[2 i], i < 768: every even
    # float of y[0..1535], sectors 0-191 each half written; the last block's 232 threads store
    # y[i + 7], floats 775-1006, filling the odd floats there: sectors 97-124 (floats 776-999)
    # become whole, 96 and 125 stay in part. 192 - 28 = 164, as every byte enumerated finds,
    # whether the runs are counted as a bitmap or from their union
    from warpsim.caches import footprint, program
    from warpsim.sass.analyze import prepare

    prog = program.from_machine_code(prepare(KERNELS / "votes.cu", "block_votes", "cdiv(n,256)", "256",
                                             {"n": "1000", "y": "float[2*n+8]"}))
    assert footprint.partly_written(prog) == footprint.partly_written(prog, bitmap=0) == {"y": 164}
    assert footprint.enumerated_written(prog) == {"y": 164}
    assert footprint.partly_written(prog, limit=10) is None  # more spans than allowed: not counted


def test_loads_of_gpu_or_system_scope_no_allocate_and_last_use_do_not_go_through_l1():
    # kernels/cacheops.cu (blind batch 27): one stencil y[i] = x[i - 1] + x[i] + x[i + 1] loaded
    # six ways. The exact counts are the same for all six: 3 LDG a warp, the aligned x[i] 4 sectors,
    # x[i - 1] and x[i + 1] 5 (a float off a sector's edge): 14 a warp for 31,250 warps, and the
    # last warp's 3 threads (999,999-1,000,001) 1 sector each: 437,503. What L1 serves differs:
    # STRONG.GPU (__ldcg), STRONG.SYS (volatile) and NA (L1::no_allocate) neither hit nor allocate
    # there, nor LU (__ldlu: measured so in blind batch 27), so every sector goes on to L2, where
    # the request coalescer merges the repeats still in flight: the L2 reads' range runs down by
    # the sectors that repeat a recent request, as many as the plain stencil's L1 hits (the same
    # replay); EF (__ldcs) is served as a plain load
    from warpsim.caches import caches_for_launch, program
    from warpsim.sass.analyze import prepare

    source = KERNELS / "cacheops.cu"
    found = {}
    for entry in ("stencil_plain", "stencil_cg", "stencil_volatile", "stencil_cs", "stencil_lu", "stencil_na"):
        k = prepare(source, entry, "cdiv(n,256)", "256", {"n": "1000003", "x": "float[n]", "y": "float[n]"})
        mods = {a.site.pc: k.program.by_pc[a.site.pc].mods for a in program.from_machine_code(k).accesses}
        found[entry] = caches_for_launch(k), program.from_machine_code(k), mods
    plain = found["stencil_plain"][0].total
    assert plain.load_sectors == 14 * 31_250 + 3 and plain.l1_hit_sectors > 0.6 * plain.load_sectors
    for entry, (p, prog, mods) in found.items():
        t = p.total
        assert t.load_sectors == plain.load_sectors and not p.l1_invalidated
        loads = [a for a in prog.accesses if a.op == "load"]
        assert len(loads) == 3
        if entry in ("stencil_cg", "stencil_volatile", "stencil_na", "stencil_lu"):
            assert not any(a.l1 for a in loads), entry
            assert {mods[a.site.pc] for a in loads} == {{"stencil_cg": ("E", "STRONG", "GPU"),
                                                       "stencil_volatile": ("E", "STRONG", "SYS"),
                                                       "stencil_na": ("E", "NA"), "stencil_lu": ("E", "LU")}[entry]}
            assert t.l1_hit_sectors == 0 and t.l2_read_sectors == t.load_sectors
            assert p.bypass_repeats == plain.l1_hit_sectors
            assert p.l2_read_range == (t.load_sectors - p.bypass_repeats, t.load_sectors)
            assert p.left_out["l2_read_sectors"] == ("loads L1 does not serve, merged in flight", p.bypass_repeats)
        else:
            assert all(a.l1 for a in loads) and p.bypass_repeats == 0, entry
            assert (t.l1_hit_sectors, t.l2_read_sectors) == (plain.l1_hit_sectors, plain.l2_read_sectors), entry


def test_an_l1_invalidation_puts_the_l1_hits_in_a_range():
    # kernels/cacheops.cu's stencil_acquire: an ld.acquire.gpu of a flag compiles to LDG.E.STRONG.GPU
    # and CCTL.IVALL, which drops every line of the SM's L1 when each warp passes it. The plain
    # stencil's hits are then anywhere from none to the prediction, and each one lost a sector more
    # read from L2; the flag's load (a sector a warp, every warp of the 3,907 blocks: it is not
    # guarded) goes to L2 every time
    from warpsim.caches import caches_for_launch
    from warpsim.caches.report import invalidation_note
    from warpsim.sass.analyze import prepare

    args = {"n": "1000003", "x": "float[n]", "y": "float[n]"}
    k = prepare(KERNELS / "cacheops.cu", "stencil_acquire", "cdiv(n,256)", "256", {**args, "flag": "int[1]"})
    p = caches_for_launch(k)
    plain = caches_for_launch(prepare(KERNELS / "cacheops.cu", "stencil_plain", "cdiv(n,256)", "256", args))
    hits = p.total.l1_hit_sectors
    assert p.l1_invalidated == "CCTL.IVALL" and not plain.l1_invalidated
    assert p.total.load_sectors == plain.total.load_sectors + 3_907 * 8 and hits == plain.total.l1_hit_sectors
    assert p.l1_hit_range == (0, hits) and p.left_out["l1_hit_sectors"] == ("L1 invalidated by CCTL.IVALL", hits)
    assert p.l2_read_range[1] == p.fetched_sectors + hits
    assert f"between 0 and {hits:,}" in invalidation_note(p) and invalidation_note(plain) == ""
    assert f"L2 read sectors between {p.l2_read_range[0]:,} and {p.l2_read_range[1]:,}" in invalidation_note(p)


@given(st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 40)), min_size=1, max_size=60),
       st.sampled_from([1, 2, 4, 8]), st.sampled_from([8, 16, 24, 64]))
def test_sectors_written_in_part_count_the_same_a_window_at_a_time(runs, g, window):
    # footprint._partial_sectors: runs of written granules (first, last), in one or two parts as
    # chunks give them, counted window by window over the range (`window` granules at a time, a
    # multiple of a sector's; up to WINDOWS of them) or from the runs' union (bitmap=0): the same
    # sectors, and each equals a byte map of the writes
    from warpsim.caches import footprint

    first = np.array([a for a, _ in runs], dtype=np.int64)
    last = first + np.array([n for _, n in runs], dtype=np.int64)
    half = len(runs) // 2
    parts = [(first[:half], last[:half]), (first[half:], last[half:])]
    per = footprint.SECTOR // g
    written = np.zeros((int(last.max()) // per + 1) * per, dtype=bool)
    for a, b in zip(first, last):
        written[a:b + 1] = True
    counts = written.reshape(-1, per).sum(axis=1)
    expected = int(((counts > 0) & (counts < per)).sum())
    assert footprint._partial_sectors(parts, g, 0) == expected
    windows = -(-(int(last.max()) + 1 - int(first.min()) // per * per) // window)
    if windows <= footprint.WINDOWS:
        assert footprint._partial_sectors(parts, g, window) == expected


HEADS_CU = '''extern "C" __global__ void heads(int tokens, const float *x, float *y) {
  int head = blockIdx.x % 16, t = (blockIdx.x / 16) * 4 + threadIdx.y;
  if (t < tokens) y[((size_t)head * tokens + t) * 64 + threadIdx.x] = x[((size_t)t * 16 + head) * 64 + threadIdx.x];
}
'''


@needs_nvcc
def test_residue_classes_are_placed_where_the_blocks_cannot_run_one_by_one(tmp_path, monkeypatch):
    # blockIdx.x % 16 and / 16: the cache model runs such a launch block by block (every block's
    # own addresses); where that cannot be (past CONCRETE_BYTES here, or ENUMERATE_BLOCKS), it
    # takes the exact counts' residue classes, pieces range(r, stop, 16), each block named by
    # its place in its class (lanes.block_values). The same addresses in either: each sector is
    # read by one warp once, so no L1 hit, every sector an L2 read, and DRAM the same bytes
    from warpsim.caches import caches_for_launch, program
    from warpsim.caches.lanes import block_values
    from warpsim.sass.analyze import analyze_launch, prepare

    _symbolic = program._symbolic
    src = tmp_path / "heads.cu"
    src.write_text(HEADS_CU)
    k = prepare(src, "heads", "16*cdiv(tokens,4)", "64x4", {"tokens": 5_003, "x": "float[tokens*1024]",
                                                             "y": "float[tokens*1024]"})
    by_block = {r.array: r for r in caches_for_launch(k).rows}
    monkeypatch.setattr(program, "CONCRETE_BYTES", 1 << 20)  # no room for 20,016 blocks' addresses
    accesses, _, _ = program._symbolic(k, strides=True, quotients=False)
    assert {a.blocks[0][2] for a in accesses} == {16}
    values, inside = block_values(accesses[0], np.arange(48), np.zeros(48, int), np.zeros(48, int))
    r = accesses[0].blocks[0][0]
    assert np.flatnonzero(inside).tolist() == [r, r + 16, r + 32] and values["blockIdx.x"][inside].tolist() == [0, 1, 2]
    monkeypatch.setattr(program, "_symbolic", lambda k, strides: _symbolic(k, strides, quotients=False))
    classes = {r.array: r for r in caches_for_launch(k).rows}
    exact = {r.array: r.sectors for r in analyze_launch(k).rows}
    assert classes["x"].load_sectors == by_block["x"].load_sectors == exact["x"] == 128 * 5_003
    for field in ("l1_hit_sectors", "l2_read_sectors", "dram_read_bytes"):
        assert getattr(classes["x"], field) == getattr(by_block["x"], field)
    assert classes["x"].l1_hit_sectors == 0 and classes["x"].l2_read_sectors == exact["x"]
    assert classes["y"].l2_write_sectors == by_block["y"].l2_write_sectors == exact["y"]


@needs_nvcc
def test_quotient_and_remainder_are_placed_where_the_blocks_cannot_run_one_by_one(monkeypatch):
    # kernels/quotients.cu's batched_scale, 40 rows of 4,992 floats (19.5 tiles of 256, rows
    # 32-byte aligned): row b / 20, tile b % 20 of 800 blocks, a divisor the launch gives. Past
    # CONCRETE_BYTES the cache model takes the exact counts' pieces, here the index as quotient and
    # remainder (QUOTIENT keys, fewer than the 20 residue classes), each block named by q and r
    # (lanes.block_values). Every sector is read by one warp once: no L1 hit, each sector an L2
    # read, the same figures as block by block
    from warpsim.caches import caches_for_launch, program
    from warpsim.caches.lanes import axis_blocks, block_values
    from warpsim.sass.analyze import analyze_launch, prepare
    from warpsim.sass.values import QUOTIENT

    k = prepare(KERNELS / "quotients.cu", "batched_scale", "batches*cdiv(n,256)", "256",
                {"batches": 40, "n": 4_992, "x": "float[batches*n]", "y": "float[batches*n]"})
    by_block = {r.array: r for r in caches_for_launch(k).rows}
    monkeypatch.setattr(program, "CONCRETE_BYTES", 1 << 16)  # no room for 800 blocks' addresses
    accesses, _, _ = program._symbolic(k, strides=True)
    keys = {a.blocks[0] for a in accesses}
    assert all(key[:2] == (QUOTIENT, 20) for key in keys)
    assert sorted(b for key in keys for b in axis_blocks(key)) == list(range(800))  # each block in one piece
    whole = next(a for a in accesses if a.blocks[0][2:] == (1, 40, 1, 20))  # rows 1-39, tiles 1-19
    values, inside = block_values(whole, np.array([0, 20, 21, 799]), np.zeros(4, int), np.zeros(4, int))
    assert inside.tolist() == [False, False, True, True]  # block 20 is tile 0 (its own piece)
    assert values["blockIdx.quotient.x"][2:].tolist() == [0, 38] and values["blockIdx.x"][2:].tolist() == [0, 18]
    placed = {r.array: r for r in caches_for_launch(k).rows}
    exact = {r.array: r.sectors for r in analyze_launch(k).rows}
    assert placed["x"].load_sectors == by_block["x"].load_sectors == exact["x"]
    for field in ("l1_hit_sectors", "l2_read_sectors", "dram_read_bytes"):
        assert getattr(placed["x"], field) == getattr(by_block["x"], field)
    assert placed["x"].l1_hit_sectors == 0 and placed["x"].l2_read_sectors == exact["x"]
    assert placed["y"].l2_write_sectors == by_block["y"].l2_write_sectors == exact["y"]
