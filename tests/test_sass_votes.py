"""Warp votes, matches and reductions, and the uniform-register bit operations around them. nvcc
turns an integer atomicAdd to one address into a warp-aggregated one: VOTEU.ANY takes the warp's
active lanes, UFLO.U32 elects the highest of them, UPOPC counts them, and only the elected lane
issues the REDG; atomicMax is aggregated by REDUX. A ballot of a condition computed from data is
data: counted where it feeds only values. The block-wide votes (__syncthreads_count/or/and: BAR.RED
and B2R.RESULT) likewise, and atomicCAS. Kernels written here, compiled with the pinned nvcc."""

from __future__ import annotations

import pytest

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A

KERNELS = '''extern "C" __global__ void ballot_count(int n, const float *x, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = __ballot_sync(0xffffffff, i < n && x[i] > 0.0f);   // line 3: a ballot of data
  if ((threadIdx.x & 31) == 0) atomicAdd(out, __popc(b));
}
extern "C" __global__ void count_upper(int n, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (threadIdx.x & 31) >= 5) atomicAdd(count, 1);   // lanes 5..31: one of them elected
}
extern "C" __global__ void vote_steers(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (__any_sync(0xffffffff, i < n && x[i] > 0.0f)) y[i] = 1.0f;   // line 12: a store data decides
}
extern "C" __global__ void max_abs(int n, const float *x, int *m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(m, __float_as_int(fabsf(x[i])));   // REDUX.MAX of data, one REDG a warp
}
extern "C" __global__ void match_stride(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = __match_any_sync(0xffffffffu, i >> 2);               // 4 lanes agree: popc 4
  int p;
  unsigned a = __match_all_sync(0xffffffffu, i >> 5, &p);           // the warp agrees: p = 1, a != 0
  int mx = __reduce_max_sync(0xffffffffu, (int)(threadIdx.x & 31));  // 31
  if (i < n) y[i * __popc(m) + mx * p + (a != 0 ? 0 : 1 << 30)] = 1.0f;   // y[4 i + 31]
}
extern "C" __global__ void with_printf(int n, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) printf("%f\\n", x[0]);   // line 28
}
extern "C" __global__ void count_steers(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int c = __syncthreads_count(i < n);             // 256 in a full block, n mod 256 in the last
  int o = __syncthreads_or(i >= n);               // 1 in the last block only
  int a = __syncthreads_and(threadIdx.x < 300);   // 1: every thread of the block
  if (i < n) y[i * (c / 128) + o * 7 + (a ? 0 : 1 << 28)] = 1.0f;
}
extern "C" __global__ void claim(int n, int *flags, int *won) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) won[i] = atomicCAS(&flags[i], 0, 1);   // ATOMG.E.CAS: its address printed `[R2]`
}
extern "C" __global__ void cas_fmax(int n, const float *x, float *m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int *p = (int *)m, old = *p, assumed;
    do {   // retried until no other thread came between: as often as data says
      assumed = old;
      old = atomicCAS(p, assumed, __float_as_int(fmaxf(__int_as_float(assumed), x[i])));
    } while (assumed != old);
  }
}
extern "C" __global__ void reductions(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31, full = 0xffffffffu;
  int off = (int)__reduce_add_sync(full, lane) - 496          // 0 + 1 + ... + 31
          + (int)__reduce_min_sync(full, lane + 3u) - 3         // unsigned min
          + __reduce_max_sync(full, -(int)lane)                 // signed max: 0
          + (int)__reduce_and_sync(full, lane | 64u) - 64       // the bit every lane has
          + (int)__reduce_or_sync(full, 1u << (lane % 4)) - 15  // four bits
          + (int)__reduce_xor_sync(full, lane)                  // 0 ^ 1 ^ ... ^ 31 = 0
          + __reduce_min_sync(full, (int)lane - 7) + 7;         // signed min: -7
  if (i < n) y[2 * i + off] = 1.0f;                             // y[2 i] iff every term is right
}
'''


def launch(tmp_path, name: str, n: int):
    path = tmp_path / "votes.cu"
    path.write_text(KERNELS)
    return A.analyze_launch(A.prepare(path, name, "cdiv(n,256)", "256", {"n": n}))


def row(analysis, array: str):
    (r,) = [r for r in analysis.rows if r.array == array]
    return r


@needs_nvcc
def test_a_ballot_of_data_feeds_one_atomic_per_warp(tmp_path):
    a = launch(tmp_path, "ballot_count", 1000)
    # cdiv(1000, 256) = 4 blocks of 8 warps; every warp votes (the ballot is outside any `if`) and
    # its lane 0 adds the count: 32 REDG, one lane, one sector each.
    out = row(a, "out")
    assert (out.instructions, out.requests, out.sectors, out.active_lanes) == (32, 32, 32, 32)
    # x is read by the 1000 threads with i < n: 31 full warps of 4 sectors and one of 8 lanes (1).
    x = row(a, "x")
    assert (x.requests, x.sectors, x.active_lanes) == (32, 125, 1000)


@needs_nvcc
@pytest.mark.parametrize("n,warps", [(1000, 32), (1029, 32), (1030, 33)])
def test_the_warp_aggregated_atomic_is_issued_by_the_elected_lane(tmp_path, n, warps):
    # Warp w holds i = 32w .. 32w + 31 and adds iff one of its lanes 5..31 has i < n, i.e. n > 32w + 5:
    # n = 1000: warps 0..31 (warp 31's lanes 5..7 live); n = 1029: warp 32 has lanes 0..4 only, so
    # still 32; n = 1030 gives warp 32 its lane 5: 33. One REDG, one lane, one sector per such warp
    # (Until this test UFLO and UPOPC ran as bit reversals: no lane was elected, no REDG counted.)
    count = row(launch(tmp_path, "count_upper", n), "count")
    assert (count.requests, count.sectors, count.active_lanes) == (warps, warps, warps)


@needs_nvcc
def test_an_aggregated_atomic_max_of_data_is_one_request_a_warp(tmp_path):
    # 1000 threads: 31 full warps and one of 8 lanes, each warp's REDUX.MAX reduced into one REDG.
    m = row(launch(tmp_path, "max_abs", 1000), "m")
    assert (m.requests, m.sectors, m.active_lanes) == (32, 32, 32)


@needs_nvcc
def test_matches_and_reductions_of_indices_are_computed_exactly(tmp_path):
    # y[4 i + 31]: lane l of warp w stores at byte 512 w + 124 + 16 l, from sector 16 w + 3 to 16 w + 19:
    # 17 sectors for each of the 31 full warps; the last warp's 8 lanes span bytes 124-236, sectors 3-7:
    # 5. Had MATCH.ALL disagreed the store would be 2^32 bytes off; without the popc of 4, 16 B apart.
    y = row(launch(tmp_path, "match_stride", 1000), "y")
    assert (y.requests, y.sectors, y.active_lanes) == (32, 31 * 17 + 5, 1000)


@needs_nvcc
@pytest.mark.parametrize("name,message", [
    # a vote of data that decides a store
    ("vote_steers", r"vote_steers: a condition computed from data steers control flow or predicates an access, "
                    r"at pc 0x[0-9a-f]+ \(@!P0 EXIT\), line 12"),
    # printf's vprintf lies outside the cubin
    ("with_printf", r"with_printf: a printf \(a call to vprintf, outside the kernel's code.*"
                    r"at pc 0x[0-9a-f]+ \(LEPC .*\), line 28"),
])
def test_what_is_refused_is_refused_in_one_line(tmp_path, name, message):
    with pytest.raises(UsageError, match=message) as refused:
        launch(tmp_path, name, 1000)
    assert "\n" not in str(refused.value)


@needs_nvcc
def test_block_votes_are_counted_per_block(tmp_path):
    # n = 1000: blocks 0-2 are full (count 256, so y[2 i], or 0): 8 B a lane, 8 sectors a warp, 24 warps;
    # block 3 holds 232 threads (count 232, so y[i + 7], or 1): its 7 full warps start at a multiple of
    # 32 elements, bytes 28-152 of a 128-byte line, 5 sectors; its last 8 lanes bytes 28-56, 2 sectors.
    y = row(launch(tmp_path, "count_steers", 1000), "y")
    assert (y.requests, y.sectors) == (24 + 8, 24 * 8 + 7 * 5 + 2)
    # run block by block (several blocks to a chunk of threads) each block reduces its own threads
    path = tmp_path / "votes.cu"
    brute = A.brute_force(A.prepare(path, "count_steers", "cdiv(n,256)", "256", {"n": 1000}))
    assert [r.record() for r in brute.rows] == [y.record()]


@needs_nvcc
def test_a_compare_and_swap_reads_its_64_bit_address(tmp_path):
    # flags[i] for the 1000 threads: 31 full warps of 4 sectors and one of 8 lanes (1 sector)
    flags = row(launch(tmp_path, "claim", 1000), "flags")
    assert (flags.op, flags.requests, flags.sectors, flags.active_lanes) == ("atomic", 32, 125, 1000)


@needs_nvcc
def test_a_compare_and_swap_loop_is_refused(tmp_path):
    with pytest.raises(UsageError, match=r"cas_fmax: a condition computed from data .*\(a trip count computed from "
                                         r"data\), and the loop runs ATOMG\.E\.CAS"):
        launch(tmp_path, "cas_fmax", 1000)


@needs_nvcc
def test_each_warp_reduction_is_the_hardware_s(tmp_path):
    # REDUX.SUM, .MIN (unsigned and .S32), .MAX.S32, AND (no modifier), .OR and .XOR over the lanes'
    # indices, each term 0 when the reduction is right: y[2 i], 8 B a lane, 8 sectors for each of
    # the 31 full warps and 2 for the last warp's 8 lanes; a wrong term moves every store
    y = row(launch(tmp_path, "reductions", 1000), "y")
    assert (y.requests, y.sectors, y.active_lanes) == (32, 31 * 8 + 2, 1000)
