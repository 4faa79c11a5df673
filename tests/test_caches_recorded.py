"""The cache model against what the H200 measured (the committed traces are the fixtures), and
the commands that show it: `warpsim analyze --caches`, `warpsim roofline`, `profile compare
--caches [--strict]`, `profile plot --caches`.

What is asserted is what docs/CACHES.md claims: the tolerance classes hold where it says they
hold, and fail, loudly, where it says they do not."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from profiling import compare
from profiling.metrics import CACHE_BY_NAME
from profiling.traces import TRACES_DIR, current_sha256, load_trace
from test_profiling_cli import invoke
from warpsim import caches
from warpsim.caches import footprint, program
from warpsim.caches.model import LOCAL_L1_EVICTIONS

_BY_FIELD = {m.field: m for m in CACHE_BY_NAME.values()}
L1_HIT, L2_READ, DRAM_READ = (_BY_FIELD[f].name for f in ("l1_hit_sectors", "l2_read_sectors", "dram_read_bytes"))
L2_WRITE = _BY_FIELD["l2_write_sectors"].name
LOAD_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
DRAM_WRITE = _BY_FIELD["dram_write_bytes"].name
LD = _BY_FIELD["l1_hit_sectors"].of  # the global load sectors
#: The 4096^3 traces whose three claimed figures all lie within their tolerances (of the ten:
#: blocktile1d reads twice the DRAM bytes the model's waves give (its schedule is staggered),
#: naive_coalesced 16x16 40% less, vectorized hits 3.5% more of its sectors in L1; docs/CACHES.md)
WITHIN_4096 = ["naive_M4096_N4096_K4096_b32x32", "coalesced_M4096_N4096_K4096_b32x32",
               "naive_coalesced_M4096_N4096_K4096_b32x32", "blocktile2d_M4096_N4096_K4096_b256x1",
               "warptile_M4096_N4096_K4096_b128x1", "warptile_db_M4096_N4096_K4096_b256x1",
               "smem_M4096_N4096_K4096_b32x32"]


def trace(kernel: str, name: str):
    return load_trace(TRACES_DIR / kernel / name)


@pytest.fixture(scope="module")
def naive_4096():
    t = trace("naive", "naive_M4096_N4096_K4096_b32x32.json")
    return t, caches.caches_for("naive", 4096, 4096, 4096, engine="model")


def test_seed_000_where_the_549_8_gb_come_from(naive_4096):
    t, p = naive_4096
    m = t.metrics
    # L1 serves 99.2% of the sectors: per block each A sector is read by 32 warps x 8 iterations
    # and each B sector by 8 warps, so only 32768 of a block's 4.3 M sectors are first touches
    assert abs(p.total.l1_hit_sectors - m[L1_HIT]) <= 0.002 * m[LD]
    assert abs(p.total.l2_read_sectors / m[L2_READ] - 1) < 0.05  # 538 M sectors measured
    # DRAM: B (67 MB) once per block row (128 of them), its next reader half a block later
    assert abs(p.total.dram_read_bytes / m[DRAM_READ] - 1) < 0.05  # 8.52 GB measured (the moonshot: 5%)
    assert p.dispatch == "staggered" and p.residency.blocks_per_sm == 2
    from warpsim.caches.report import sentence, shares

    requested = 2 * 4 * 4096**3 + 4 * 4096**2  # A and B: 4096^3 loads each, C: 4096^2, 4 B each
    l1, l2, dram = shares(p, requested)
    assert l1 + l2 + dram == requested
    assert sentence(p, requested).startswith("Of 549.8 GB requested by the loads, 53")


@pytest.mark.parametrize("name", WITHIN_4096)
def test_the_ladder_at_4096_within_the_tolerances(name):
    kernel = name.split("_M")[0]
    t = trace(kernel, f"{name}.json")
    frame = compare.compare([t], current_sha256([kernel]), caches=True)
    bad = compare.tolerance_failures(frame)
    assert bad.empty, bad[["metric", "predicted", "measured", "status"]].to_string()
    assert compare.tolerance_summary(frame) == (3, 3)  # L1 hits, L2 reads, DRAM reads


def test_arrays_that_fit_in_l2_are_read_from_dram_once():
    # 2048x1024x4096: A 33.6 MB + B 16.8 MB + C 8.4 MB = 58.7 MB < 60 MiB; every kernel reads
    # them once (measured within 1%, blocktile1d 14% more); the claim is 5%
    for kernel, block in (("naive", "b32x32"), ("coalesced", "b32x32"), ("smem", "b32x32"), ("blocktile2d", "b256x1"),
                          ("warptile", "b128x1"), ("warptile_db", "b256x1")):
        t = trace(kernel, f"{kernel}_M2048_N1024_K4096_{block}.json")
        p = caches.caches_for(kernel, 2048, 1024, 4096, t.block, engine="model")
        assert p.fits
        assert abs(p.total.dram_read_bytes / t.metrics[DRAM_READ] - 1) <= 0.05, kernel


def test_misaligned_sizes_keep_l1_hits_within_2_percent():
    # K = 999: a row's 32 floats straddle 5 sectors, the last one the next K step's first: smem
    # hits 9.2% of its sectors; its co-resident blocks (grid 33 wide: b and b + 132 share a
    # column) read the same B tile at once, merged in flight, not hits
    for kernel, block in (("smem", "b32x32"), ("coalesced", "b32x32"), ("blocktile2d", "b256x1")):
        t = trace(kernel, f"{kernel}_M1000_N1030_K999_{block}.json")
        p = caches.caches_for(kernel, 1000, 1030, 999, t.block, engine="model")
        assert abs(p.total.l1_hit_sectors - t.metrics[L1_HIT]) <= 0.02 * t.metrics[LD], kernel


def test_both_engines_predict_alike():
    # the same launch through its hand model and its machine code: the same addresses, traced
    # as different sites (nvcc unrolls the K loop 16 times), sampled in different windows
    for kernel, M in (("naive", 1024), ("blocktile2d", 1000), ("smem", 1536)):
        a = caches.caches_for(kernel, M, M, M, engine="model").total
        b = caches.caches_for(kernel, M, M, M, engine="sass").total
        assert a.load_sectors == b.load_sectors  # exact counts: equal
        assert abs(a.l1_hit_sectors - b.l1_hit_sectors) <= 0.01 * a.load_sectors
        assert abs(a.dram_read_bytes / b.dram_read_bytes - 1) < 0.05


def test_exact_footprint_of_a_small_launch():
    # naive at 100^3: A, B and C are each 100 x 100 floats = 40,000 B in 1,250 sectors
    p = program.from_model("naive", 100, 100, 100)
    assert footprint.exact(p) == {"A": 1250, "B": 1250, "C": 1250}
    # at 4096^3 a row's 32 columns (threadIdx.y, 4 bytes apart) are one range of lanes: B and C
    # take 0.5 M spans each where every column took 16.8 M (33.6 M in all, past SPANS, 2^24,
    # so the launch was not counted); A, B and C 64 MiB each
    big = program.from_model("naive", 4096, 4096, 4096)
    assert footprint.exact(big) == {name: 4096 * 4096 * 4 // 32 for name in "ABC"}
    assert sum(footprint._plan(a, big.threads, 64).spans for a in big.accesses if a.op != "store") == 1_052_672
    assert footprint.exact(p, limit=100) is None  # past the spans it may evaluate: not counted


def test_compare_strict_fails_on_a_figure_outside_its_tolerance(tmp_path):
    # blocktile1d at 4096^3 reads 1.86 GB from DRAM; the model's waves put it at 0.88 GB (its
    # blocks run staggered a third of a block, which the dispatch rule does not take): -52%
    src = TRACES_DIR / "blocktile1d" / "blocktile1d_M4096_N4096_K4096_b512x1.json"
    result = invoke("compare", "--caches", "--strict", src)
    assert result.exit_code == 1
    assert "strict: 1 cache figure lies outside its tolerance" in result.stderr
    assert "OUTSIDE 15%: -52" in result.stdout
    ok = invoke("compare", "--caches", "--strict", TRACES_DIR / "naive" / "naive_M4096_N4096_K4096_b32x32.json")
    assert ok.exit_code == 0, ok.stderr
    assert "3/3 cache figures within their tolerance" in ok.stderr + ok.stdout


def test_compare_rows_carry_the_relative_error_and_tolerance():
    t = trace("naive", "naive_M257_N130_K65_b32x32.json")
    frame = compare.compare([t], current_sha256(["naive"]), caches=True)
    rows = frame[frame["metric"].isin(list(CACHE_BY_NAME))]
    assert len(rows) == 5 and not rows["exact_claimed"].any()
    l1 = rows[rows["metric"] == L1_HIT].iloc[0]
    assert l1["tolerance"] == 0.02 and l1["rel_error"] == pytest.approx((l1["predicted"] - l1["measured"]) / t.metrics[LD])
    dram = rows[rows["metric"] == DRAM_READ].iloc[0]
    assert dram["tolerance"] == 0.05  # its arrays (0.2 MB) fit in L2
    assert rows[rows["metric"] == DRAM_WRITE]["tolerance"].isna().all()  # reported, not claimed
    plain = compare.compare([t], current_sha256(["naive"]))  # without caches: the rows of before
    assert not plain["metric"].isin([L1_HIT]).any() or plain["tolerance"].isna().all()


def warpsim(*args):
    return subprocess.run([sys.executable, "-m", "warpsim", *map(str, args)], capture_output=True, text=True)


def test_analyze_caches_table_json_and_csv():
    table = warpsim("analyze", "naive", "--M", 4096, "--caches")
    assert table.returncode == 0, table.stderr
    assert "caches, predicted" in table.stdout and "Of 549.8 GB requested by the loads" in table.stdout
    doc = json.loads(warpsim("analyze", "smem", "--M", 300, "--caches", "--format", "json").stdout)
    assert doc["schema"] == 1 and doc["rows"]  # the analysis as before, and its caches
    rows = {r["array"]: r for r in doc["caches"]["rows"]}
    assert set(rows) == {"A", "B", "C"} and doc["caches"]["total"]["load_sectors"] == sum(
        r["load_sectors"] for r in rows.values())
    csv_lines = warpsim("analyze", "smem", "--M", 300, "--caches", "--format", "csv").stdout.splitlines()
    assert csv_lines[0].startswith("kernel,M,N,K,block,grid,array,load_sectors,l1_hit_sectors") and len(csv_lines) == 5


def test_roofline_places_the_kernel_at_its_dram_intensity():
    r = json.loads(warpsim("roofline", "naive", "--M", 4096, "--format", "json").stdout)
    assert 8e9 < r["dram_bytes"] < 9.5e9  # 8.52 GB read + 0.07 GB written, measured
    assert r["dram_flop_per_byte"] == pytest.approx(r["flops"] / r["dram_bytes"])
    assert r["dram_time_ms"] < r["sloped_time_ms"] / 10  # the caches absorb what the requested-bytes roof counts
    plain = json.loads(warpsim("roofline", "naive", "--M", 256, "--no-caches", "--format", "json").stdout)
    assert plain["dram_bytes"] is None
    # the machine code by default, as analyze; the hand model on request: the same traffic (the
    # engines count alike) and DRAM bytes that differ by what the machine code adds (its code
    # bytes are read once)
    model = json.loads(warpsim("roofline", "naive", "--M", 4096, "--format", "json", "--engine", "model").stdout)
    assert (model["requested_bytes"], model["sector_bytes"]) == (r["requested_bytes"], r["sector_bytes"])
    assert model["dram_bytes"] == pytest.approx(r["dram_bytes"], rel=1e-3)


def test_plot_caches_draws_the_ladder(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "caches.png"
    result = invoke("plot", "--caches", "--out", out, "--traces-dir", TRACES_DIR / "naive")
    assert result.exit_code == 0, result.stderr
    assert out.stat().st_size > 10_000
    assert "naive: of 549.8 GB requested" in result.stdout


def test_later_waves_of_full_size_barrier_blocks_coalesce():
    # smem's 1024-thread blocks wait at a barrier every K step: its later waves still merge 0.22
    # of their repeated requests at 8 waves (2048x1024x4096), which the 0.04 of other kernels'
    # later waves would put 19% high; coalesced (the same blocks, no barrier) keeps the 0.04
    from warpsim.caches import model

    for kernel, lockstep, tolerance in (("smem", True, 0.10), ("coalesced", False, 0.10)):
        t = trace(kernel, f"{kernel}_M2048_N1024_K4096_b32x32.json")
        p = caches.caches_for(kernel, 2048, 1024, 4096, t.block, engine="model")
        assert model.lockstep(program.from_model(kernel, 2048, 1024, 4096, t.block)) is lockstep
        assert abs(p.total.l2_read_sectors / t.metrics[L2_READ] - 1) <= tolerance, kernel


def test_re_uses_near_the_l2s_soft_capacity_miss_in_part():
    # coalesced and smem at 2560^3 re-read B after 25-28 MiB of other tiles: 6% of those re-uses
    # miss (122.7 and 121.6 MB read, their arrays 85 MB), which a sharp step at 36 MiB put 30% low;
    # at 3072^3 their re-uses sit at 36-40 MiB and 61-76% miss (1.09 and 0.89 GB)
    for kernel in ("coalesced", "smem"):
        for n in (2560, 3072):
            t = load_trace(TRACES_DIR / "sass" / kernel / f"sgemm_{kernel}__M{n}_N{n}_K{n}_alpha1_5_betam0_5.json")
            frame = compare.compare([t], current_sha256([kernel]), caches=True)
            row = frame[frame["metric"] == DRAM_READ].iloc[0]
            assert abs(row["rel_error"]) <= 0.15, (kernel, n, row["rel_error"])


def test_smem_runs_offset_and_reads_as_the_schedule_says():
    # smem's slots start half a block apart at every size measured (traces/schedule/): the model
    # offsets them and reads its 4096^3 DRAM bytes (8.47 GB measured) within 5%, where waves
    # gave -49%; staggered launches take the L2 curve at 40 MiB over 4 MiB
    t = trace("smem", "smem_M4096_N4096_K4096_b32x32.json")
    p = caches.caches_for("smem", 4096, 4096, 4096, engine="model")
    assert p.dispatch == "offset"
    assert abs(p.total.dram_read_bytes / t.metrics[DRAM_READ] - 1) < 0.05


@pytest.mark.parametrize("name", ["trmm_lower__M1000_N700", "trmm_lower__M2400_N1200", "trmm_lower_coalesced__M1000_N700",
                                  "trmm_lower_coalesced__M1777_N333", "trmm_lower_coalesced__M2400_N1200"])
def test_held_out_triangles_read_their_64_byte_pieces(name):
    # recorded after DRAM's 64-byte pieces were read off the committed trmm traces
    # (traces/holdout/trmm, scripts/h200_call7.sh): each reads L's lower triangle and B once, in
    # 64-byte pieces, plus its code and 2.2 KB; measured within 0.1% of that. At 1000x700 a
    # remainder loop that no sampled SM runs once made the model divide by zero
    t = load_trace(TRACES_DIR / "holdout" / "trmm" / f"{name}.json")
    frame = compare.compare([t], current_sha256([]), caches=True)
    row = frame[frame.metric == DRAM_READ].iloc[0]
    assert abs(row.predicted / row.measured - 1) < 0.01, (row.predicted, row.measured)


def test_an_edge_block_does_not_stand_for_its_piece():
    # split-K at 97x61x45, 3 splits: the machine code runs the last split (blockIdx.z = 2) as a
    # piece of its own, and the launch's last block (1, 12, 2) is its only sampled block; it has
    # one live warp (row 96 of 97), so its B loads could not hit and the piece's B hit share came
    # out 0 where the other warps' re-reads of each B row hit 7 in 8: L1 hits were 26% of the
    # load sectors low. The piece is now replayed at its middle block: 4.4% low
    t = load_trace(TRACES_DIR / "sass" / "splitk" / "sgemm_splitk__M97_N61_K45_splits3_alpha1_5.json")
    frame = compare.compare([t], current_sha256([]), caches=True)
    row = frame[frame.metric == L1_HIT].iloc[0]
    assert abs(row.predicted - row.measured) < 0.05 * t.metrics[LD]


def test_a_piece_only_the_last_block_runs_is_replayed_by_that_block():
    # trmm_lower at 1000x700 (grid 22x32): the last block (21, 31) alone runs 232 of the loads
    # (both edges: a piece of its own). The sampled SM of that block was its slot's first-slot
    # block (571 for block 703), so those loads were never replayed: no hit, every sector fetched
    # from L2, L2 reads +91%. Found on this held-out trace, so it is no longer a blind test of it
    from warpsim.caches import l1
    from warpsim.caches.residency import residency

    res = residency(1024, 32, 0)  # 2 blocks an SM: 264 slots
    assert 703 not in l1.group_of(703, res, 704) and 703 in l1.holding(703, res, 704)
    t = load_trace(TRACES_DIR / "holdout" / "trmm" / "trmm_lower__M1000_N700.json")
    frame = compare.compare([t], current_sha256([]), caches=True)
    row = frame[frame.metric == L2_READ].iloc[0]
    assert abs(row.predicted / row.measured - 1) < 0.10  # -9.9%


BLIND = TRACES_DIR / "holdout" / "blind"


@pytest.mark.parametrize("folder, n, values", [("blind", 15, 357), ("iterate", 9, 195), ("blind2", 6, 138)])
def test_blind_kernels_counted_exactly(folder, n, values):
    # kernels written for the test and predicted (scripts/h200_{folder}_predictions.json) before
    # they ran (scripts/h200_call8.sh, h200_call9.sh, h200_call11.sh): five that are not GEMM,
    # three whose control flow data decides (a division's slow path, a halving loop, Mandelbrot),
    # and layer normalisation and a 3-D stencil (counted block by block): every claimed-exact
    # count equal to ncu's (since stop 23 four more a trace: local memory's instructions and
    # sectors, loads and stores; since stop 26 five more: the atomics'; 0 in each of these kernels)
    traces = [load_trace(p) for p in sorted((TRACES_DIR / "holdout" / folder).rglob("*.json"))]
    assert len(traces) == n
    assert compare.summary(compare.compare(traces, current_sha256([]))) == (values, values)


@pytest.mark.parametrize("name", ["softmax_warp__M97_N61", "softmax_warp__M1000_N1030", "softmax_warp__M3001_N4093"])
def test_a_rows_second_pass_is_a_re_read_not_a_merged_request(name):
    # the row softmax reads its row three times. L2 sent each of its distinct sectors at least
    # once (measured: 128,750 at 1000x1030, exactly x's sectors), where the model once merged a
    # block's passes with each other as if two SMs had asked (-15%, -12%, -18%). At 3001x4093
    # (x 49 MB, every block resident at once) the passes ran at the same instant in the model,
    # so the second re-read the row from L2 (DRAM -30%); in the chip all rows' first passes run
    # before the second passes, 49 MB later, and most re-reads go to DRAM
    # (The model now reads 0.47x at 3001x4093, a known miss below: since footprint.exact counts
    # a warp's row as one span, the launch's first reads are scaled to its exact 49 MB, and its
    # third pass, cut 512 B an iteration where the first two are cut 2 KB, names other tiles
    # than theirs, first reads that the scaling halves with every other x tile.)
    t = load_trace(BLIND / "softmax" / f"{name}.json")
    frame = compare.compare([t], current_sha256([]), caches=True)
    l2 = frame[frame.metric == L2_READ].iloc[0]
    assert abs(l2.predicted / l2.measured - 1) < 0.10, (l2.predicted, l2.measured)
    dram = frame[frame.metric == DRAM_READ].iloc[0]
    if name == "softmax_warp__M3001_N4093":
        assert 0.4 < dram.predicted / dram.measured < 0.55, (dram.predicted, dram.measured)
    else:
        assert abs(dram.predicted / dram.measured - 1) < 0.15, (dram.predicted, dram.measured)


def test_a_launch_of_a_block_an_sm_samples_more_than_one_alignment():
    # row_sum at 97x61: one block a row, rows 244 B long, so row r starts on a sector when r is a
    # multiple of 8; its two warps share a sector in the other 84 rows, and ncu counts those 84
    # as hits. The four evenly spaced sampled blocks (0, 32, 64, 96) were all aligned rows: no
    # hit predicted (-9.3% of the 908 load sectors). A launch of no more blocks than SMs now
    # samples 16: within 2%
    t = load_trace(BLIND / "reduce" / "row_sum__M97_N61.json")
    frame = compare.compare([t], current_sha256([]), caches=True)
    row = frame[frame.metric == L1_HIT].iloc[0]
    assert t.metrics[LD] == 908 and abs(row.predicted - row.measured) < 0.02 * 908


def test_the_coalescer_range_holds_what_one_merge_chance_misses():
    # the L2 reads the model misses most lie within what the coalescer could have merged, L1 as
    # predicted: blocktile2d and vectorized at 2048x1024x4096 (one wave of 128 blocks, one an SM:
    # 15,204,352 of their 17,039,360 fetched sectors repeat another block's; measured 7.24 M and
    # 7.31 M, predicted 12.48 M, +72%), blind batch 3's wmma_tf32_smem at 1024x512x768 (1.16 M,
    # predicted 2.31 M, +99%), hgemm_naive at 300x212x70 (+29%); and seed 000's naive at 4096^3,
    # whose range is narrow (later waves merge at most 0.16 of their repeats): 494-539 M, 538 M
    # measured
    from profiling.compare import _default_caches

    for name in ("vectorized/vectorized_M2048_N1024_K4096_b256x1", "blocktile2d/blocktile2d_M2048_N1024_K4096_b256x1",
                 "holdout/blind3/wmma/wmma_tf32_smem__M1024_N512_K768_alpha1_5_betam0_5",
                 "sass/hgemm_naive/hgemm_naive__M300_N212_K70_alpha1_5_betam0_5", "naive/naive_M4096_N4096_K4096_b32x32"):
        t = load_trace(TRACES_DIR / f"{name}.json")
        p = _default_caches(t)
        low, high = p.l2_read_range
        assert low <= t.metrics[L2_READ] <= high, (name, low, high)
        assert abs(p.total.l2_read_sectors / t.metrics[L2_READ] - 1) > (0.10 if "naive_M4096" not in name else 0)
    assert high - low < 0.1 * high  # naive's: 5.4% wide


BLIND4 = TRACES_DIR / "holdout" / "blind4"


@pytest.fixture(scope="module")
def blind4():
    # blind batch 4: the ladder at 1400x1300x1200 (0.32x the L2), 2600^3 (1.29x), 3000^3 (1.72x)
    # and 3584^3 (2.45x), predicted in scripts/h200_blind4_predictions.json before it ran
    # (scripts/h200_call16.sh: two ncu sessions, blind4/ and blind4/run2/); a launch's second
    # measurement is predicted from the memo of its first
    traces = [load_trace(p) for p in sorted(BLIND4.rglob("*.json"))]
    return traces, compare.compare(traces, current_sha256([]), caches=True)


def test_blind_batch_4_counted_exactly_and_hit_in_l1_as_predicted(blind4):
    traces, frame = blind4
    assert len(traces) == 72
    # 19 claimed-exact counts a launch (4 of local memory and 5 of atomics among them, 0 here)
    assert compare.summary(frame) == (1368, 1368)
    l1 = frame[frame.metric == L1_HIT]
    assert len(l1) == 72 and (l1.rel_error.abs() <= 0.02).all()  # worst: warptile 3584^3, -1.9%


def test_dram_reads_just_above_the_l2_are_not_monotonic_in_size(blind4):
    # the H200 reads more at 3000^3 (arrays 1.72x the L2) than at 3072^3 (1.80x), though the
    # matrices are 4% smaller: coalesced 1.18 GB against 1.09 (traces/sass), smem 1.21 against
    # 0.89, naive 0.96 against 0.95. The model's soft-capacity LRU falls with the size: it reads
    # 3000^3 at 0.67 GB (naive), 0.77 (coalesced) and 0.66 (smem), outside its 15% by 30-46%, as
    # docs/CACHES.md says (no centre or width of the curve mends it; by 56-66% before the exact
    # footprint, now counted there, scaled its first reads)
    traces, frame = blind4
    rows = frame[(frame.metric == DRAM_READ) & frame.trace.str.contains("M3000_N3000_K3000")]
    for kernel in ("sgemm_naive", "sgemm_coalesced", "sgemm_smem"):
        mine = rows[rows.trace.str.contains(f"/{kernel}__")]
        at_3072 = load_trace(TRACES_DIR / "sass" / kernel.removeprefix("sgemm_") /
                             f"{kernel}__M3072_N3072_K3072_alpha1_5_betam0_5.json").metrics[DRAM_READ]
        assert len(mine) == 2 and (mine.measured >= 0.99 * at_3072).all(), kernel
        assert (mine.rel_error < -0.3).all(), (kernel, list(mine.rel_error))


BLIND5 = TRACES_DIR / "holdout" / "blind5"


def test_blind_batch_5_counted_exactly():
    # blind batch 5: every catalog kernel at a size of its kind no trace had (five above the L2)
    # and the ladder at 2944x2112x1536, predicted in scripts/h200_blind5_predictions.json before
    # it ran (scripts/h200_call18.sh: two ncu sessions, blind5/ and blind5/run2/): 37 launches,
    # each measured twice, every claimed-exact count equal to ncu's
    traces = [load_trace(p) for p in sorted(BLIND5.rglob("*.json"))]
    assert len(traces) == 74
    assert compare.summary(compare.compare(traces, current_sha256([]))) == (1404, 1404)


def test_a_64_bit_index_that_carries_differently_at_the_first_block_plane_is_split_there():
    # stencil7 at 200x150x100 (blind batch 5): c - X*Y, a 64-bit subtraction, carries between its
    # 32-bit halves for every k >= 1 and not for k = 0, which only the threads of block plane
    # z = 0 that exit at once have. The prediction committed before it ran refused the cache
    # figures; the engine now cuts the block index z at 1, each piece decides the carry, and the
    # three figures land within their tolerances on both measured runs (its DRAM reads, since stop
    # 32 a range for the sectors its stores fill in part, within that range)
    predicted = json.loads((TRACES_DIR.parent / "scripts" / "h200_blind5_predictions.json").read_text())
    assert "a 64-bit value crosses" in predicted["stencil3d/stencil7__X200_Y150_Z100"]["caches"]["refused"]
    for run in (BLIND5, BLIND5 / "run2"):
        t = load_trace(run / "stencil3d" / "stencil7__X200_Y150_Z100.json")
        frame = compare.compare([t], current_sha256([]), caches=True)
        rows = frame[frame.metric.isin([L1_HIT, L2_READ, DRAM_READ])]
        assert len(rows) == 3 and rows.status.map(_inside).all(), rows.status.tolist()
        assert compare.summary(frame) == (19, 19)


BLIND6 = TRACES_DIR / "holdout" / "blind6"


def test_blind_batch_6_user_idioms_exact_and_within_where_predicted():
    # blind batch 6 (scripts/h200_plan_blind6.py, predicted in scripts/h200_blind6_predictions.json
    # before scripts/h200_call19.sh measured it twice): kernels/idioms.cu at three sizes each and
    # stencil7 at two sizes above the L2 that the carry split lets the cache model follow. Every
    # claimed-exact count equals ncu's and every cache figure lies within its tolerance. The 90
    # predicted before it ran were within; bias_add's i % N, refused then above its 24 blocks, is
    # followed since from every block's addresses (caches.program.Concrete) and its 12 are too
    predicted = json.loads((TRACES_DIR.parent / "scripts" / "h200_blind6_predictions.json").read_text())
    assert all("refused" in predicted[f"idioms/{name}"]["caches"] for name in ("bias_add__M1000_N1000",
                                                                              "bias_add__M3000_N3001"))
    traces = [load_trace(p) for p in sorted(BLIND6.rglob("*.json"))]
    assert len(traces) == 34
    frame = compare.compare(traces, current_sha256([]), caches=True)
    assert compare.summary(frame) == (766, 766)
    cache = frame[frame.metric.isin([L1_HIT, L2_READ, DRAM_READ])]
    assert len(cache) == 102 and cache.predicted.notna().all()
    inside = cache.status.map(_inside)
    assert inside.all(), cache[~inside].to_string()


def _inside(status: str) -> bool:
    """A cache row's status says the measurement lies within its tolerance, or (a figure given as a
    range since stop 32: compare.ranged) within its range."""
    return status.startswith("within") or (status.startswith(compare.RANGE_STATUS) and "): within " in status)


def _blind(name: str, traces: int, exact: int):
    """A blind batch: its predictions committed before it ran (scripts/h200_NAME_predictions.json),
    its traces (every launch measured twice: asserted) and their comparison with the model, whose
    claimed-exact counts (`exact` of them) all equal ncu's (asserted)."""
    predicted = json.loads((TRACES_DIR.parent / "scripts" / f"h200_{name}_predictions.json").read_text())
    found = [load_trace(p) for p in sorted((TRACES_DIR / "holdout" / name).rglob("*.json"))]
    assert len(found) == traces == 2 * len(predicted)
    frame = compare.compare(found, current_sha256([]), caches=True)
    assert compare.summary(frame) == (exact, exact)
    return predicted, found, frame


def _as_committed(predicted: dict, found: list) -> None:
    """Each trace's global requests and sectors of loads and stores, and its atomics' and
    reductions' requests (their sectors are reported, not claimed), are the sums of the rows
    predicted for its launch before it ran; every launch was measured twice."""
    metric = {("load", "requests"): ("ld",), ("load", "sectors"): ("ld",), ("store", "requests"): ("st",),
              ("store", "sectors"): ("st",), ("atomic", "requests"): ("red", "atom")}
    assert sorted(f"{t.path.parent.name}/{t.path.stem}" for t in found) == sorted(2 * list(predicted))
    for t in found:
        # a shared-memory row has requests but no sectors (a global request touches one at least)
        rows = [r for r in predicted[f"{t.path.parent.name}/{t.path.stem}"]["rows"] if r["sectors"] or not r["requests"]]
        for (op, what), kinds in metric.items():
            want = sum(r[what] for r in rows if r["op"] == op)
            assert sum(t.metrics[f"l1tex__t_{what}_pipe_lsu_mem_global_op_{k}.sum"] for k in kinds) == want


def _blind_as_predicted(name: str, folder: str | None, traces: int, exact: int):
    """A blind batch's measured traces compared with the model (`_blind`): its L1, L2 and DRAM
    figures, each asserted to be the prediction committed before the batch ran."""
    predicted, found, frame = _blind(name, traces, exact)
    cache = frame[frame.metric.isin([L1_HIT, L2_READ, DRAM_READ])]
    assert len(cache) == 3 * traces and cache.predicted.notna().all()
    fields = {L1_HIT: "l1_hit_sectors", L2_READ: "l2_read_sectors", DRAM_READ: "dram_read_bytes"}
    for _, row in cache.iterrows():
        launch = predicted[f"{folder or Path(row.trace).parent.name}/{Path(row.trace).stem}"]["caches"]
        assert launch[fields[row.metric]] == row.predicted
    return cache


def test_blind_batch_7_flat_indices_exact_and_within_but_the_outer_products_l2():
    # blind batch 7 (scripts/h200_plan_blind7.py, predicted in scripts/h200_blind7_predictions.json
    # before scripts/h200_call20.sh measured it twice): kernels/flat.cu, four kernels that divide a
    # flat index by a parameter, each counted block by block and its cache figures taken from
    # every block's addresses. Every claimed-exact count equals ncu's, and 68 of the 72 cache
    # figures lie within their tolerance as predicted; the four outside are outer_flat's L2 reads
    # at 97x211 and 4000x3999 on both runs, where the coalescer merges what blocks share of a and b
    # in stretches that overlap without coinciding (docs/CACHES.md)
    cache = _blind_as_predicted("blind7", "flat", 24, 536)
    outside = cache[~cache.status.str.startswith("within")]
    assert sorted(outside.trace.map(lambda t: t.rsplit("/", 1)[-1])) == sorted(2 * ["outer_flat__M4000_N3999.json",
                                                                                    "outer_flat__M97_N211.json"])
    assert set(outside.metric) == {L2_READ}


def test_blind_batch_8_grid_stride_loops_exact_and_within():
    # blind batch 8 (scripts/h200_plan_blind8.py, predicted in scripts/h200_blind8_predictions.json
    # before scripts/h200_call21.sh measured it twice): kernels/gridstride.cu, grid-stride loops
    # over a flat index divided by a parameter on fixed grids, whose cache figures keep an access
    # per iteration of the loop. Every claimed-exact count equals ncu's and every one of the 54
    # cache figures, the committed prediction, lies within its tolerance
    cache = _blind_as_predicted("blind8", "gridstride", 18, 398)
    assert cache.status.str.startswith("within").all()


def test_blind_batch_9_bytes_exact_and_within_but_two_tiny_first_reads():
    # blind batch 9 (scripts/h200_plan_blind9.py, predicted in scripts/h200_blind9_predictions.json
    # before scripts/h200_call23.sh measured it twice): kernels/pixels.cu, byte loads three a
    # pixel, a blur of bytes clamped at the borders, column sums. Every claimed-exact count equals
    # ncu's; of the 54 cache figures, the committed prediction, the two outside are the DRAM reads
    # of the first session's 97x61 launches (10-32 kB, -6.6% and -7.6%; within in the repeat)
    cache = _blind_as_predicted("blind9", "pixels", 18, 390)
    outside = cache[~cache.status.str.startswith("within")]
    assert sorted(outside.trace.map(lambda t: t.split("blind9/")[1])) == ["pixels/blur3_u8__W97_H61.json",
                                                                          "pixels/col_sum__M97_N61.json"]
    assert set(outside.metric) == {DRAM_READ} and (outside.measured < 32_000).all()


def test_blind_batch_10_dynamic_shared_memory_exact_and_within_but_a_row_sums_l1():
    # blind batch 10 (scripts/h200_plan_blind10.py, scripts/h200_call24.sh): kernels/dynshared.cu,
    # shared memory sized at launch (--dynamic-shared: up to 64 KiB a block, 3 blocks an SM; a
    # transpose whose bank conflicts a parameter decides). Every claimed-exact count equals ncu's;
    # of the 54 cache figures the two outside are row_sum_dyn's L1 hits at 3000x2001 in both
    # sessions (-3.6% of the load sectors: more hits than the replay finds, as row_sum's -3.3% at
    # that size in blind batch 3)
    cache = _blind_as_predicted("blind10", "dynshared", 18, 438)
    outside = cache[~cache.status.str.startswith("within")]
    assert sorted(outside.trace.map(lambda t: t.rsplit("/", 1)[-1])) == 2 * ["row_sum_dyn__M3000_N2001.json"]
    assert set(outside.metric) == {L1_HIT}


def test_blind_batch_11_local_memory_exact_its_caches_global_and_bounded():
    # blind batch 11 (scripts/h200_plan_blind11.py, scripts/h200_call25.sh): kernels/local.cu,
    # per-thread arrays in local memory and atomicAdd's old value. Every claimed-exact count
    # equals ncu's: 248 as predicted, and 72 more since local memory is laid out as the hardware
    # does (a 4-byte word per lane in turn: 18 traces x local instructions and sectors, loads and
    # stores); ATOMG's requests and sectors too (reported: docs/EXACTNESS.md). Predicted before it
    # ran, the local kernels' L2 reads came out 40-73% low (their local traffic left out); the
    # cache model then refused them, and since stop 32 predicts their global figures and bounds
    # the local ones (test_local_memory_within_its_ranges); ticket's are as committed
    predicted, found, frame = _blind("blind11", 18, 410)
    reported = frame[frame.metric.str.contains("_local_|_op_atom") & frame.predicted.notna()]
    assert len(reported) == 18 * 6 and (reported.predicted == reported.measured).all()
    stack = frame[frame.trace.str.endswith("local/stack_sum__n250007.json")]
    # a warp's 4-byte word at 128 w + 4 lane: 187,512 LDL of 4 sectors, less one for each of the
    # 24 of the last warp, whose 23 lanes take 3
    assert stack[stack.metric == "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"].predicted.tolist() == [750_024] * 2
    scatter = frame[frame.trace.str.endswith("local/scatter_local__n97_k3.json")]
    # 4 warps, the last of one lane: 32 per-lane stores (32 sectors a warp, 1 the last) and 8
    # STL.128 (16, and 4 for the lone lane's 4 words): 3 x (1,024 + 128) + 32 + 32 = 3,520
    assert scatter[scatter.metric == "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"].predicted.tolist() == [3_520] * 2
    cache = frame[frame.metric.isin([L1_HIT, L2_READ, DRAM_READ])]
    local = ~cache.trace.str.contains("ticket")
    assert cache.predicted.notna().all()
    assert cache[local].status.str.startswith("not claimed (local memory").all()
    fields = {L1_HIT: "l1_hit_sectors", L2_READ: "l2_read_sectors", DRAM_READ: "dram_read_bytes"}
    for _, row in cache[~local].iterrows():
        assert predicted["local/" + row.trace.rsplit("/", 1)[-1].removesuffix(".json")]["caches"][
            fields[row.metric]] == row.predicted


def test_blind_batch_12_spills_and_local_widths_exact_as_predicted():
    # blind batch 12 (scripts/h200_plan_blind12.py, predicted in scripts/h200_blind12_predictions.json
    # before scripts/h200_call26.sh measured it twice): kernels/spill.cu, local arrays of doubles
    # (LDL.64/STL.64) and bytes (LDL.U8/STL.U8) at an index per lane, and 48 accumulators under
    # __launch_bounds__(256, 8) that nvcc spills (STL/STL.64 and back at one address for every lane,
    # the loads of `in` addressed from reloaded spills). Every claimed-exact count equals ncu's, the
    # local sectors among them, and each is the count committed before the batch ran
    predicted, found, frame = _blind("blind12", 18, 422)
    sectors = {("local", "load"): "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
               ("local", "store"): "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"}
    for t in found:
        rows = predicted[t.meta["id"]]["rows"]
        for (array, op), metric in sectors.items():
            assert sum(r["sectors"] for r in rows if (r["array"], r["op"]) == (array, op)) == t.metrics[metric]
    # double_stack at n = 97: 16 STL.64 a thread at an index per lane, each lane's two words in
    # lines of their own: 64 sectors a full warp, 2 for the lone lane of the fourth: 3 x 16 x 64 + 16 x 2
    t = next(t for t in found if t.meta["id"] == "spill/double_stack__n97_k3")
    assert t.metrics["l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"] == 3 * 16 * 64 + 16 * 2
    cache = frame[frame.metric.isin([L1_HIT, L2_READ, DRAM_READ])]
    assert cache.predicted.notna().all()  # the global accesses', the local ones bounded (below)
    assert cache.status.str.startswith("not claimed (local memory").all()


def test_local_memory_within_its_ranges():
    # the 30 launches of blind batches 11 and 12 that reach local memory (stack_sum, scatter_local,
    # spill, double_stack, byte_shuffle; 3 sizes, 2 runs each). What L1 serves of a local load is
    # the warps' timing (0-94% of the local load sectors missed: scatter_local 0.08-0.32, stack_sum
    # 0-0.77, byte_shuffle 0.80-0.94), so the model predicts the global accesses' figures and
    # bounds what the local ones add:
    found = [load_trace(p) for folder in ("blind11", "blind12") for p in
             sorted((TRACES_DIR / "holdout" / folder).rglob("*.json")) if "ticket" not in p.name]
    assert len(found) == 30
    frame = compare.compare(found, current_sha256([]), caches=True)
    at = {(Path(r.trace).parent.parent.name == "run2", Path(r.trace).stem, r.metric): r for r in frame.itertuples()}
    runs = {(run, stem) for run, stem, _ in at}
    assert len(runs) == 30
    # every L2 read and DRAM read figure measured lies in its range: from the global accesses'
    # prediction (less its tolerance) to that plus a sector from L2, and 64 bytes from DRAM, for
    # every local load sector (and, for DRAM, every local store sector: one filled in part is read
    # back when written back; double_stack's words at an index per lane read 7-8 MB more than its
    # arrays at 100,003)
    for key in runs:
        for metric in (L2_READ, DRAM_READ):
            assert re.match(r"not claimed \(local memory[^)]*\): within ", at[(*key, metric)].status), (key, metric)
    # every local store sector goes on to L2: L2 write sectors = global + local store sectors,
    # within 2.2% (stack_sum and spill to the sector; double_stack 0.3% and byte_shuffle 2.2% fewer:
    # their stores of a word or a byte a lane that the L2 receives merged)
    l2_write = [at[(*key, L2_WRITE)] for key in runs]
    assert max(abs(r.rel_error) for r in l2_write) < 0.022
    assert sum(r.predicted == r.measured for r in l2_write) == 12
    # L1 hits of the global loads: local lines take L1 space from them, which the model leaves out,
    # so it predicts as many or more hits than measured in all 30, 2.7-4.7% of the load sectors
    # more in scatter_local's and spill's largest (19.9 M and 6.4 M local load sectors beside 2.9 M
    # and 3.7 M global). Since stop 33 every one is a range, the prediction at its top and up to a
    # hit fewer a local sector (LOCAL_L1_EVICTIONS: more local sectors than predicted hits in all
    # 30, so down to 0), and every measurement lies inside
    l1 = {key: at[(*key, L1_HIT)] for key in runs}
    assert all(r.predicted >= r.measured for r in l1.values())
    assert all(re.match(rf"not claimed \(local memory\): within 0-{int(r.predicted):,}$", r.status) for r in l1.values())
    # the most taken: scatter_local at 600,001, run 2, 139,364 hits of 2,925,032 load sectors
    assert max(r.rel_error for r in l1.values()) == pytest.approx(139_364 / 2_925_032)


def test_blind_batch_13_indices_the_launch_gives_exact_and_the_caches_as_predicted():
    # blind batch 13 (scripts/h200_plan_blind13.py, predicted in scripts/h200_blind13_predictions.json
    # before scripts/h200_call27.sh measured it twice): kernels/sparse.cu, whose addresses come from
    # index arrays the launch gives (the catalog's `perm = "int[n]=(i*7919)%n"`, a CSR matrix's
    # row bounds and columns, a histogram's keys), filled alike on the GPU and counted block by
    # block from the values: every claimed-exact count equals ncu's, and each cache figure is the
    # one committed before the batch ran. 42 of 54 lie within their tolerance; outside: spmv_csr's
    # L1 hits (-2.8%, -15.7%) and L2 reads (+18%, +87%) at 200,003 and 1,500,007 rows (x's reuse
    # across the band, which the model's sampled window of a few blocks does not hold), gather's
    # DRAM reads at 12,000,007 (-66.9%: x's sectors are each read by 8 warps far apart in time, and
    # evicted in between once perm, x and y outgrow the L2) and at 97 (-5.8%, 224 bytes)
    cache = _blind_as_predicted("blind13", "sparse", 18, 414)
    outside = cache[~cache.status.str.startswith("within")]
    names = sorted(outside.trace.map(lambda t: t.rsplit("/", 1)[-1].removesuffix(".json")) + " " + outside.metric)
    assert names == sorted(2 * [f"gather__n12000007 {DRAM_READ}", f"gather__n97 {DRAM_READ}",
                                f"spmv_csr__rows200003 {L1_HIT}", f"spmv_csr__rows200003 {L2_READ}",
                                f"spmv_csr__rows1500007 {L1_HIT}", f"spmv_csr__rows1500007 {L2_READ}"])


@pytest.mark.parametrize("name,folder,traces,exact,rmw", [
    ("blind14", "sortscan", 24, 552, ()),
    ("blind15", "votes", 44, 916, ("block_votes__n1000003", "block_votes__n12000000", "match_stride__n1000003_s3")),
    ("blind16", None, 48, 1032, ("by_step__n1000003_step1",)),  # switch.cu and userland.cu
    ("atoms3", "atomics", 24, 520, ()),
])
def test_blind_batches_14_to_16_on_the_h200_exact_and_what_lies_outside_is_dram(name, folder, traces, exact, rmw):
    # blind batches 14 (kernels/sortscan.cu), 15 (votes.cu), 16 (switch.cu: a switch's jump tables;
    # userland.cu) and kernels/atomics.cu, predicted before they ran (scripts/h200_NAME_predictions.json)
    # and measured twice on the H200 in stop 26 (scripts/call34.sh, call35.sh; 14 and 15 had run on
    # an H100 only): every claimed count equals ncu's, every L1 and L2 figure lies within its
    # tolerance, and so does every DRAM figure but (a) launches whose DRAM reads are a few KB of
    # fixed cost (at most 13 KB measured, at most 2 KB off) and (b) `rmw`: stores that write part of each 32-byte
    # sector (block_votes' y[2 i], match_stride's one float a sector, by_step's y[n + 4 i]). The L2
    # reads such a sector from DRAM before it writes it back: the measured DRAM reads exceed the
    # prediction by the measured DRAM writes, to within 15%, both runs; the model leaves them out
    # (docs/CACHES.md, what the model does not capture). Since stop 32 a DRAM figure whose sectors
    # written in part could add more than its tolerance is given as a range, not claimed (each
    # measured within it): every one of `rmw`; block_votes at 12,000,000 since stop 33, when its
    # 12 M store spans (3 M sectors half written) came within what footprint.partly_written counts
    # (WRITTEN_SPANS, its range a window of the written bytes at a time)
    if name in ("blind14", "blind15", "blind16"):
        cache = _blind_as_predicted(name, folder, traces, exact)
    else:
        cache = _blind(name, traces, exact)[2]
        cache = cache[cache.metric.isin([L1_HIT, L2_READ, DRAM_READ])]
    ranged = cache[cache.status.str.startswith("not claimed (")]
    assert set(ranged.metric) <= {DRAM_READ} and ranged.status.str.contains("(sectors written in part): within ",
                                                                            regex=False).all()
    outside = cache[cache.status.str.startswith("OUTSIDE")]
    assert set(outside.metric) <= {DRAM_READ} and len(outside) + len(ranged) + sum(
        cache.status.str.startswith("within")) == len(cache)

    def stems(rows):
        return rows.trace.map(lambda t: t.rsplit("/", 1)[-1].removesuffix(".json"))

    assert not stems(outside).isin(rmw).any()
    assert sorted(stems(ranged)[stems(ranged).isin(rmw)]) == sorted(2 * rmw)
    small = outside[~stems(outside).isin(rmw)]
    assert (small.measured <= 13 * 1024).all() and ((small.measured - small.predicted).abs() <= 2048).all()
    dram = cache[cache.metric == DRAM_READ]
    for trace in dram[stems(dram).isin(rmw)].trace:
        t = load_trace(Path(trace))
        row = dram[dram.trace == trace].iloc[0]
        assert abs((row.measured - row.predicted) / t.metrics["dram__bytes_write.sum"] - 1) < 0.15


def test_a_row_every_block_reads_a_stretch_of_misses_in_each_sms_l1_once():
    # bias_add at 1000x1000 (blind batch 6, both runs): y[i] = x[i] + b[i % N] over 3,907 blocks
    # of 256 threads. x is read once (125,000 sectors, none hit); b, 4,000 bytes = 125 sectors,
    # is read in stretches of 32 sectors by every block, and what one block leaves in an SM's L1
    # the SM's later blocks find: each of the 132 SMs misses each of b's 125 sectors once, so
    # 125,000 - 132 x 125 = 108,500 of its sectors hit, what ncu measured on both runs. The
    # model replays whole SMs over the launch (caches.l1.histories) and gets it to the sector
    for run in (BLIND6, BLIND6 / "run2"):
        t = load_trace(run / "idioms" / "bias_add__M1000_N1000.json")
        assert t.metrics[L1_HIT] == 125_000 - 132 * 125
        frame = compare.compare([t], current_sha256([]), caches=True)
        assert frame[frame.metric == L1_HIT].predicted.tolist() == [125_000 - 132 * 125]


def test_co_resident_barrier_blocks_run_in_lockstep_only_a_few_to_an_sm():
    # wmma_tf32_smem at 1500x700x600 (blind batch 5): 10 blocks an SM, grid 22 wide, so blocks b
    # and b + 132 share an SM and read the same B tile at every K step; ncu counts 28.5% and 29.9%
    # of the load sectors as hits in its two sessions. The lockstep rule (the second block's
    # touch a miss merged in flight) predicted none. It is kept for SMs of at most 3 barrier
    # blocks: warptile at 1536^3 (3 an SM) hits 2.7% of its load sectors, none predicted with
    # it, 16% without it (13% high)
    from warpsim.caches import l1

    assert l1.LOCKSTEP_BLOCKS == 3
    name = "wmma/wmma_tf32_smem__M1500_N700_K600_alpha1_5_betam0_5.json"
    traces = [load_trace(BLIND5 / name), load_trace(BLIND5 / "run2" / name),
              load_trace(TRACES_DIR / "sass" / "warptile" / "sgemm_warptile__M1536_N1536_K1536_alpha1_5_betam0_5.json")]
    frame = compare.compare(traces, current_sha256([]), caches=True)
    rows = frame[frame.metric == L1_HIT]
    assert len(rows) == 3
    for t, (_, row) in zip(traces[:2], rows.iloc[:2].iterrows()):
        assert 0.28 < row.measured / t.metrics[LD] < 0.30
        assert abs(row.predicted - row.measured) < 0.02 * t.metrics[LD], (row.predicted, row.measured)
    warptile = rows.iloc[2]
    assert warptile.predicted == 0 and 0.02 < warptile.measured / traces[2].metrics[LD] < 0.03


def test_dram_reads_just_above_the_l2_jump_between_sizes_32_apart():
    # the sweep (scripts/h200_plan_sweep.py, measured twice by scripts/h200_call17.sh:
    # traces/sweep, sweep/run2): naive, coalesced and smem from 2816^3 to 3200^3. Their DRAM reads
    # grow with the size, but 3000^3 reads 1.5-2.3x the mean of 2976^3 and 3008^3, in both
    # sessions (within 3% of each other: a property of the size, not noise): the L2 keeps less of
    # B at some row pitches (12,000 B; naive and smem at 3040^3, 12,160 B, too), its read misses
    # 0.21-0.29 of its read sectors where the neighbours' are 0.14-0.18. A capacity curve cannot
    # follow that; the L2's address hash is not known (docs/CACHES.md). Their exact counts: all
    traces = {p: load_trace(p) for p in sorted((TRACES_DIR / "sweep").rglob("*.json"))}
    assert len(traces) == 84
    assert compare.summary(compare.compare(list(traces.values()), current_sha256([]))) == (1596, 1596)

    def dram(kernel: str, n: int, run: str = "") -> int:
        folder = TRACES_DIR / "sweep" / run / kernel.removeprefix("sgemm_")
        return traces[folder / f"{kernel}__M{n}_N{n}_K{n}_alpha1_5_betam0_5.json"].metrics[DRAM_READ]

    for kernel in ("sgemm_naive", "sgemm_coalesced", "sgemm_smem"):
        for run in ("", "run2"):
            neighbours = (dram(kernel, 2976, run) + dram(kernel, 3008, run)) / 2
            assert dram(kernel, 3000, run) > 1.45 * neighbours, (kernel, run)
        assert abs(dram(kernel, 3000, "run2") / dram(kernel, 3000) - 1) < 0.03, kernel


def test_near_the_l2_the_dram_figure_comes_with_the_spread_measured_there():
    # arrays of one to two times the L2: analyze prints how far DRAM reads of such launches lay
    # from the model's (0.77x to 2.2x, l2.DRAM_SPREAD), and that range holds the jump the sweep
    # found (3000^3, 1.5-2.3x its neighbours'); outside the band it is absent (None in JSON)
    from warpsim.caches import l2
    from warpsim.caches.report import pitch_note

    for kernel in ("naive", "coalesced", "smem"):
        p = caches.caches_for(kernel, 3000, 3000, 3000, engine="model")
        assert p.near_l2 and p.footprint_bytes == 12 * 3000 ** 2
        low, high = p.dram_read_range
        assert low < p.total.dram_read_bytes < high
        for run in ("", "run2"):
            folder = TRACES_DIR / "sweep" / run / kernel
            measured = load_trace(folder / f"sgemm_{kernel}__M3000_N3000_K3000_alpha1_5_betam0_5.json").metrics[DRAM_READ]
            assert low <= measured <= high and measured > 1.3 * p.total.dram_read_bytes, (kernel, run)
        assert f"{low:,} to {high:,} DRAM read bytes" in pitch_note(p)
    for n in (1400, 4096):  # 0.37x and 3.2x the L2
        p = caches.caches_for("coalesced", n, n, n, engine="model")
        assert not p.near_l2 and p.dram_read_range is None and pitch_note(p) == ""
    assert l2.PITCH_BAND == (1.0, 2.0)
    table = warpsim("analyze", "coalesced", "--M", 3000, "--caches")
    assert "hangs on the row pitch" in " ".join(table.stdout.split()), table.stdout  # wrapped to the width
    doc = json.loads(warpsim("analyze", "coalesced", "--M", 3000, "--caches", "--format", "json").stdout)
    low, high = doc["caches"]["dram_read_bytes_range"]
    assert low < doc["caches"]["total"]["dram_read_bytes"] < high
    doc = json.loads(warpsim("analyze", "naive", "--M", 4096, "--caches", "--format", "json").stdout)
    assert doc["caches"]["dram_read_bytes_range"] is None


def test_a_launch_that_loads_nothing_hits_nothing_and_that_is_within():
    # Mandelbrot (kernels/iterate.cu) stores its image and loads nothing: ncu measures 0 global
    # load sectors and 0 L1 hits, and the model predicts 0. Against a reference of 0 the error
    # is 0, not "not measured" (which --strict counted as a failure)
    t = load_trace(TRACES_DIR / "holdout" / "iterate" / "mandel__W97_H61_maxit64_x0m2_0_y0m1_0_dx0_03.json")
    assert t.metrics[LD] == 0 and t.metrics[L1_HIT] == 0
    frame = compare.compare([t], current_sha256([]), caches=True)
    l1 = frame[frame.metric == L1_HIT].iloc[0]
    assert l1.predicted == 0 and l1.rel_error == 0.0 and l1.status == "within 2%: +0.0%"
    assert compare.cache_status(5, 0, None, 0.02) == "no reference: its reference count measured 0"


#: The H100 batches: (traces, claimed-exact counts, (cache figures within their tolerance, claimed)),
#: the cache figures judged with the H100's model since stop 40 (`profile compare --caches traces/h100`;
#: a launch past the cache model's 2^18 blocks is claimed and not predicted: blind31, blind32 and
#: two of blind33's)
H100_BATCHES = {
    "blind14": (24, 552, (71, 72)), "blind15": (42, 878, (114, 116)), "atoms": (4, 140, (12, 12)),
    "atoms2": (5, 159, (14, 15)), "blind16": (48, 1032, (129, 130)), "atoms4": (8, 160, (24, 24)),
    "atoms5": (4, 84, (8, 12)), "blind17": (42, 902, (122, 126)), "blind18": (8, 184, (24, 24)),
    "blind19": (48, 1112, (131, 142)), "blind20": (24, 520, (72, 72)), "blind21": (30, 650, (81, 90)),
    "blind22": (36, 780, (93, 108)), "blind23": (24, 520, (60, 72)), "blind24": (18, 390, (54, 54)),
    "blind25": (12, 292, (33, 36)), "blind26": (18, 418, (18, 18)), "blind27": (48, 1064, (103, 106)),
    "blind28": (24, 592, (67, 72)), "blind29": (18, 462, (51, 54)), "blind30": (32, 712, (80, 96)),
    "blind31": (6, 114, (0, 18)), "blind32": (6, 114, (0, 18)), "blind33": (10, 190, (16, 30)),
    "blind34": (20, 412, (57, 60)), "atomics": (250, 4382, (745, 750))}


@pytest.mark.parametrize("name", list(H100_BATCHES))
def test_blind_batches_measured_on_an_h100_are_exact_and_their_caches_judged_with_its_model(name):
    # blind batches 14 (kernels/sortscan.cu), 15 (kernels/votes.cu), 16 (kernels/switch.cu, a
    # switch's jump tables, and kernels/userland.cu) and 17 (kernels/constants.cu's __constant__
    # values, kernels/params.cu's structures by value), 18 (kernels/halo.cu, a halo read from left of the
    # image), 19 (kernels/textbook.cu, kernels as textbooks write them), 20 (kernels/images.cu, addresses
    # computed in floating point from the indices, counted block by block), 21 (kernels/coords.cu, a float
    # division, doubles and sqrtf of the indices), 22 (kernels/slowpaths.cu, lanes on nvcc's slow paths of
    # division, reciprocal and square root), 23 (kernels/mathlib.cu, sinf, cosf, atan2f and logf) and 24
    # (kernels/clamps.cu, indices clamped by VIMNMX.RELU and VIADDMNMX.RELU), 25 (kernels/sparse.cu over index
    # arrays from .npy files), 28 and 29 (kernels/cub.cu, cubstore.cu: CUB's collectives, BRA.DIV's converged
    # side, a count handed through shared memory; stop 34), 30 and 31 (kernels/quotients.cu, a block index divided by
    # a constant, counted in residue classes; 31 past 2**20 blocks), 32 (kernels/transpose.cu over 4.8 GB,
    # a window per thread; stop 37), 33 (quotients.cu again, divisors of 258 to 1,250 classes taken as
    # quotient and remainder, two launches past 2**20 blocks; stop 38), 34 (kernels/flat_index.cu, a flat
    # thread index divided by sizes the launch gives; stop 39) and the reductions of stop 31
    # (atomics: where atomic_passes is a lower bound,
    # its sector passes not claimed; so are 8 of atoms4's, which ncu measured equal), the per-instruction ATOMS
    # runs (scripts/h200_plan_atoms.py), predicted before they ran, measured on an H100 80GB
    # HBM3 when no H200 could be had (same GH100 SM, driver 580.159.04 and ncu 2025.3.1): every
    # claimed count equals ncu's, among them shared_hist's ATOMS on 8 words of one bank (250,003
    # wavefronts, 218,752 excessive, at n = 1,000,003) and the warp-aggregated atomics' one REDG a
    # warp. Their cache rows were measured, not judged, until stop 40 gave the H100 a model of its own
    # (warpsim.caches.hardware.H100: the H200's with 50 MiB of L2): judged with it now. (count_from
    # at n = 1,000,003 is missing from blind15, whose source page without 'Access Operation' stopped
    # it; parsed since (tests/test_profiling_parse.py), it was measured again in atoms2, stop 26)
    traces, exact, within = H100_BATCHES[name]
    found = [load_trace(p) for p in sorted((TRACES_DIR / "h100" / name).rglob("*.json"))]
    assert len(found) == traces and {t.meta["gpu"] for t in found} == {"NVIDIA H100 80GB HBM3"}
    frame = compare.compare(found, current_sha256([]), caches=True)
    assert compare.summary(frame) == (exact, exact)
    assert compare.tolerance_summary(frame) == within
    cache = frame[frame.metric.isin(CACHE_BY_NAME)]
    assert not cache.status.str.contains("not modelled").any()
    if name == "atoms2":  # count_from at n = 1,000,003: one aggregated REDG a warp, ceil(n / 32)
        redg = frame[frame.trace.str.contains("count_from")].set_index("metric")
        assert redg.measured["l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"] == 31_251
    if name in ("blind16", "blind17", "blind18", "blind19", "blind20", "blind21", "blind22", "blind23",
                "blind24"):  # 16: switch.cu's jump tables,
        # userland.cu (stop 26); 17: constants.cu's __constant__ values given by --arg and params.cu's structures
        # by value; 18: halo.cu's halo left of the image, float __constant__ weights; 19: textbook.cu (stop 28);
        # 20: images.cu's float coordinates (stop 29); 21: coords.cu's divisions and square roots; 22:
        # slowpaths.cu's 0 / 0, x / 0, denormals, sqrtf of negatives and 1.0f / x; 23: mathlib.cu's sinf,
        # cosf, atan2f and logf; 24: clamps.cu's .RELU clamps (stop 30): as predicted
        predicted = (TRACES_DIR.parent / "scripts" / f"h200_{name}_predictions.json").read_text()
        _as_committed(json.loads(predicted), found)
    if name == "atoms4":  # kernels/atomics2.cu: lanes on words of one sector unevenly, predicted (commit
        # bb44c77's scripts/h200_atoms4_predictions.json) as a sector once per lane on its busiest word:
        # uneven, 10-11 and 21-22 lanes on two words, 666 at n = 1000 (not 16 a warp, nor 32)
        predicted = json.loads((TRACES_DIR.parent / "scripts" / "h200_atoms4_predictions.json").read_text())
        for t in found:
            rows = predicted[f"{t.path.parent.name}/{t.path.stem}"]["rows"]
            want = sum(r["sectors"] for r in rows if r["op"] == "atomic")
            assert t.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"] == want
        assert predicted["atomics2/uneven__n1000"]["rows"][0]["sectors"] == 666
    if name == "atoms5":  # halfatomic.cu: atomicAdd on __half2 (ATOM.E.ADD.F16x2, its predicate taken as
        # done on a global address): its passes as predicted before the run, 2 lanes a word, 2 sectors
        # a warp: 4 a full warp (125 at n = 1000, 2,500 at 20,000), and no emulation (no generic load)
        predicted = json.loads((TRACES_DIR.parent / "scripts" / "h200_atoms5_predictions.json").read_text())
        for t in found:
            (row,) = predicted[f"{t.path.parent.name}/{t.path.stem}"]["rows"]
            assert t.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"] == row["passes"]
            assert t.metrics["smsp__inst_executed_op_generic_ld.sum"] == 0
    if name == "atoms":
        rows = frame[frame.metric.str.startswith("h atomic (shared, 4 B): L1 Wavefronts Shared")]
        shift5 = rows[rows.trace.str.contains("shift5")]
        assert sorted(shift5.measured) == sorted(shift5.predicted) == [218_752, 250_003]


def test_sectors_stores_fill_in_part_bound_the_dram_reads_the_model_leaves_out():
    # by_step's y[n + 4 i] (one float in 16 bytes), match_stride's one float a sector and
    # block_votes' y[2 i] at about 1,000,000 (blind batches 15 and 16, H200, both runs): each sector
    # their stores fill only in part is read from DRAM before the L2 writes it back, which the model
    # leaves out; the measured DRAM reads exceed the prediction by at most 32 bytes a such sector
    # (the note bounds them by 64, DRAM's piece: a sector alone in its piece would take that)
    # (by_step 9 MB of 12.6 MB: 392,859 sectors; match_stride's 1,000,003 and block_votes' 249,984
    # sectors). claim's flags (all of every sector) leave only its won array's last sector in part
    from profiling.compare import _default_caches
    from warpsim.caches.report import partial_note

    cases = {"switch/by_step__n1000003_step1": {"y": 392_859}, "votes/match_stride__n1000003_s3": {"y": 1_000_003},
             "votes/block_votes__n1000003": {"y": 249_984}, "votes/claim__n12000007": {"won": 1}}
    for stem, partial in cases.items():
        batch = "blind16" if stem.startswith("switch") else "blind15"
        for run in ("", "run2"):
            t = load_trace(TRACES_DIR / "holdout" / batch / run / f"{stem}.json")
            p = _default_caches(t)
            assert p.partly_written == {**dict.fromkeys(p.partly_written, 0), **partial}, stem
            assert f"up to {64 * sum(partial.values()):,} bytes more DRAM reads" in partial_note(p)
            if stem != "votes/claim__n12000007":  # whose few KB off are the fixed cost's (2-4 KB)
                excess = t.metrics[DRAM_READ] - p.total.dram_read_bytes
                assert 0 < excess <= 32 * sum(partial.values()), (stem, run, excess)


def test_blind_batch_26_the_ranges_predicted_hold_what_was_left_out():
    # blind batch 26 (kernels/leftout.cu: a per-thread histogram and a ring in local memory at an
    # index per lane, a store filling a third of each sector), predicted in bc14d4f with its L2 and
    # DRAM read ranges (scripts/h200_blind26_predictions.json), then measured twice by
    # scripts/call54.sh on an H100 (no H200 was lent; its L2 is 50 MiB, every launch's arrays fit
    # in it). The ranges bound traffic, not the L2's size, so they are judged here: every measured
    # L2 read and DRAM read figure lies in its range (the low end less the metric's tolerance),
    # 36 and 36. L2 writes are the global and local store sectors within 1.1% (0.2% but for the 97-thread
    # histogram: 2,827 and 2,837 of 2,856, stores merged before L2). L1 hits of the
    # global loads: never more measured than predicted, but the ring's local traffic evicts its
    # global lines far more than the six local launches of batches 11-12 did (200,003 threads:
    # 224,477 hits measured of 1,218,800 load sectors, 807,846 predicted: 48% of the load
    # sectors), so the claim that local lines cost the global hits at most a few percent was
    # false. Since stop 33 the L1 hits of a launch with local memory are a range too, from the
    # prediction down by a hit a local sector (LOCAL_L1_EVICTIONS, at most the hits): every
    # measurement inside, the ring's most taken 0.042 a local sector (500,009, run 2)
    predicted = json.loads((TRACES_DIR.parent / "scripts" / "h200_blind26_predictions.json").read_text())
    found = [load_trace(p) for p in sorted((TRACES_DIR / "h100" / "blind26").rglob("*.json"))]
    assert len(found) == 2 * len(predicted) == 18
    l1_off, taken = set(), []
    for t in found:
        want, m = predicted[t.meta["id"]], t.metrics
        low, high = want["ranges"]["l2_read_sectors_range"]
        assert 0.9 * low <= m[L2_READ] <= high, t.meta["id"]
        low, high = want["ranges"]["dram_read_bytes_range"]
        assert 0.95 * low <= m[DRAM_READ] <= high, t.meta["id"]
        assert abs(want["caches"]["l2_write_sectors"] - m[L2_WRITE]) <= 0.011 * m[L2_WRITE], t.meta["id"]
        hits, loads = want["caches"]["l1_hit_sectors"], want["caches"]["load_sectors"]
        local = sum(want["ranges"]["local_sectors"].values())
        assert hits - min(hits, LOCAL_L1_EVICTIONS * local) <= m[L1_HIT] <= hits, t.meta["id"]
        if local:  # every_third has none: its range is the prediction
            taken.append((hits - m[L1_HIT]) / local)
        if hits - m[L1_HIT] > 0.02 * loads:
            l1_off.add(t.meta["id"])
    assert l1_off == {"leftout/ring__n200003_steps40", "leftout/ring__n500009_steps40"}
    assert max(taken) == pytest.approx(1_745_886 / 42_000_784)


@pytest.mark.parametrize("name", ["blind28", "blind29"])
def test_blind_batches_28_and_29_cub_kernels_caches_as_predicted(name):
    # blind batches 28 and 29 (kernels/cub.cu, cubstore.cu: CUB's block and warp collectives, a count
    # handed through shared memory), predicted in 52c6e65 and 7396916 before they ran and measured
    # twice by scripts/call57.sh on an H100 (no H200 could be had; every launch's arrays fit in either
    # L2). Every claimed count was exact (592 and 462 of them, above). The cache figures as predicted
    # from before they ran: L1 hits within 0.1% of the load sectors (0 but for store_warp_striped,
    # whose four loads a thread of consecutive floats share sectors: 374,740 predicted, 375,002
    # measured at 1,000,003), L2 reads to the sector in all 42, L2 writes the store sectors but where
    # each block stores one float, eight blocks a sector (block_sum, load_transpose_sum): there up to
    # 12 of 23,438 (0.05%) fewer, stores of two SMs to one sector met on the way
    predicted = json.loads((TRACES_DIR.parent / "scripts" / f"h200_{name}_predictions.json").read_text())
    found = [load_trace(p) for p in sorted((TRACES_DIR / "h100" / name).rglob("*.json"))]
    assert len(found) == 2 * len(predicted)
    for t in found:
        ident, m = t.meta["id"], t.metrics
        want = predicted[ident]["caches"]
        assert abs(m[L1_HIT] - want["l1_hit_sectors"]) <= 0.001 * want["load_sectors"], ident
        assert m[L2_READ] == want["l2_read_sectors"] or abs(m[L2_READ] - want["l2_read_sectors"]) <= 0.003 * \
            want["load_sectors"], ident
        stores = want["l2_write_sectors"]
        assert m[L2_WRITE] == stores or 0.999 * stores <= m[L2_WRITE] < stores and "sum__" in ident, ident


def test_blind_batch_27_cache_operators_as_predicted_but_last_use_and_the_coalescer():
    # blind batch 27 (kernels/cacheops.cu: a three-point stencil loaded through six cache
    # operators, an acquire load that invalidates L1, stores through three), predicted in 73c1415
    # (scripts/h200_blind27_predictions.json) and measured twice by scripts/call56.sh on an H100
    # (no H200 could be had; the same L1, every launch's arrays fit in either L2). Every claimed
    # count was exact (the H100 parametrization above: 1,064 of 1,064). Of the cache figures:
    # - L1 hits as predicted (within 2% of the load sectors, most to the sector) for the plain,
    #   __ldcs (.EF), __ldcg (.STRONG.GPU: 0), volatile (.STRONG.SYS: 0) and no_allocate (.NA: 0)
    #   stencils, and inside the acquire launch's range (0 to the plain prediction: 239,540 at
    #   1,000,003); but __ldlu (.LU) hit nothing, where it was predicted as a plain load: since
    #   then program.NO_L1 holds it;
    # - the loads that do not go through L1 read 0.72-0.78 of their sectors from L2, not all:
    #   the request coalescer merges a warp's repeats in flight (14 sectors a warp, 10.6 read),
    #   which the point prediction left out (-24%), nor the acquire flag's 4 warps at 97 threads
    #   (15 read, its range from 21); since then the L2 range runs down by the sectors that repeat
    #   a recent request (`bypass_repeats`), and every one lies in it;
    # - L2 writes are the store sectors whatever the operator, to the sector in all 48.
    from profiling.compare import _default_caches

    predicted = json.loads((TRACES_DIR.parent / "scripts" / "h200_blind27_predictions.json").read_text())
    found = [load_trace(p) for p in sorted((TRACES_DIR / "h100" / "blind27").rglob("*.json"))]
    assert len(found) == 2 * len(predicted) == 48
    as_blind = {"l1_off": set(), "l2_off": set()}
    for t in found:
        ident, m = t.meta["id"], t.metrics
        want = predicted[ident]["caches"]
        entry = ident.split("/")[1].split("__")[0]
        assert m[L2_WRITE] == want["l2_write_sectors"], ident
        low, high = predicted[ident]["ranges"]["l1_hit_sectors_range"]
        if not low - 0.02 * want["load_sectors"] <= m[L1_HIT] <= high + 0.02 * want["load_sectors"]:
            as_blind["l1_off"].add(entry)
        low, high = predicted[ident]["ranges"]["l2_read_sectors_range"]
        if not low - 0.1 * m[L2_READ] <= m[L2_READ] <= high + 0.1 * m[L2_READ]:
            as_blind["l2_off"].add(entry)
        # the model since: every L1 hit figure and every L2 read figure inside its range (a point
        # where nothing is left out), less or more its tolerance
        p = _default_caches(t)
        low, high = p.l1_hit_range
        assert low - 0.02 * p.total.load_sectors <= m[L1_HIT] <= high + 0.02 * p.total.load_sectors, ident
        low, high = p.l2_read_range
        assert low - 0.1 * m[L2_READ] <= m[L2_READ] <= high + 0.1 * m[L2_READ], ident
        if entry in ("stencil_cg", "stencil_volatile", "stencil_na", "stencil_lu"):
            assert m[L1_HIT] == 0 and 0.70 * m[LOAD_SECTORS] < m[L2_READ] < 0.82 * m[LOAD_SECTORS], ident
    assert as_blind == {"l1_off": {"stencil_lu"},
                        "l2_off": {"stencil_cg", "stencil_volatile", "stencil_na", "stencil_lu", "stencil_acquire"}}



#: blind batches 17-29 on the H200 (stop 36, scripts/call58.sh and two calls after it, as call58.sh's
#: loop): traces, claimed-exact counts, and the traces (stems) whose L1 hit figures lie outside 2%
H200_17_TO_29 = {
    "blind17": (42, 902, {"copy_layout__s_rows2000_s_cols1500_s_ld2048_layout1"}),
    "blind18": (8, 184, set()), "blind19": (24, 556, {"nbody__n40000_eps21_0"}), "blind20": (24, 520, set()),
    "blind21": (30, 650, set()), "blind22": (36, 780, {"octant__w6000_h4000_cx100_cy3900_n100003"}),
    "blind23": (24, 520, set()), "blind24": (18, 390, set()), "blind25": (12, 292, set()),
    "blind26": (18, 418, set()), "blind27": (48, 1064, set()), "blind28": (24, 592, set()),
    "blind29": (18, 462, set())}


@pytest.mark.parametrize("name", sorted(H200_17_TO_29))
def test_blind_batches_17_to_29_on_the_h200_exact_and_l1_within(name):
    # predicted before they ran (scripts/h200_NAME_predictions.json), measured on an H100 when no
    # H200 came (above), and in stop 36 on the H200, twice but for blind19 (once: its second run
    # did not fit the call). Every claimed count equals ncu's; every L1 hit figure lies within 2%
    # of the load sectors but three: copy_layout's column-major layout (-2.1%, -2.2%), nbody at
    # 40,000 bodies (+13.2%: the bodies' tiles shared between blocks resident together, which the
    # model counts as misses) and octant at 6000x4000 (+4.4%, +4.5%). Their L2 and DRAM rows:
    # docs/CACHES.md
    traces, exact, l1_outside = H200_17_TO_29[name]
    found = [load_trace(p) for p in sorted((TRACES_DIR / "holdout" / name).rglob("*.json"))]
    assert len(found) == traces and {t.meta["gpu"] for t in found} == {"NVIDIA H200"}
    frame = compare.compare(found, current_sha256([]), caches=True)
    assert compare.summary(frame) == (exact, exact)
    l1 = frame[(frame.metric == L1_HIT) & frame.status.str.startswith("OUTSIDE")]
    assert set(l1.trace.map(lambda t: t.rsplit("/", 1)[-1].removesuffix(".json"))) == l1_outside
