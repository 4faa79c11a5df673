"""kernels/halo.cu, the CUDA samples' row convolution: the first column of blocks reads its left
halo from left of the image, so the 64-bit address's low word carries across zero there and
nowhere else (the block range is cut at that edge, not refused), and its weights are a float
`__constant__` array given by value (`--arg c_Kernel=0.5,...`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from test_sass_frontend import needs_nvcc
from warpsim.errors import UsageError
from warpsim.sass import analyze as A
from warpsim.sass.launch import constant_dtype

SOURCE = Path(__file__).resolve().parent.parent / "kernels" / "halo.cu"
WEIGHTS = ",".join(str(0.5 * k - 3) for k in range(17))


def counts(W: int, H: int, pitch: int, weights: str = WEIGHTS) -> tuple[dict, A.Kernel]:
    k = A.prepare(SOURCE, "conv_rows", "imageW//128,imageH//4", "16x4",
                  {"imageW": W, "imageH": H, "pitch": pitch, "c_Kernel": weights,
                   "d_Src": f"float[{H}*{pitch}]", "d_Dst": f"float[{H}*{pitch}]"})
    return {(r.array, r.op): (r.instructions, r.requests, r.sectors) for r in A.analyze_launch(k).rows}, k


@needs_nvcc
def test_a_halo_left_of_the_image_is_counted_at_a_size_whose_carry_differs_by_block():
    # 3072^2, pitch 3072: 24 x 768 blocks of 2 warps (16 x 4 threads, two rows of 16 a warp), each
    # thread 8 tile loads and 2 halo loads: 18,432 x 2 x 10 = 368,640 load instructions. The left
    # halo (baseX = (8 bx - 1) 16 + tx < 0) is off in the 768 blocks of column 0, the right
    # (3072 - baseX <= 144) in those of column 23: 368,640 - 2 x 1,536 = 365,568 requests. Every
    # row of 16 floats starts 64 bytes into a 128-byte line (baseX a multiple of 16): 2 sectors a
    # row, 4 a request: 1,462,272 sectors. 8 stores a thread, all on: 294,912 of 4 sectors
    got, _ = counts(3072, 3072, 3072)
    assert got[("d_Src", "load")] == (368_640, 365_568, 4 * 365_568)
    assert got[("d_Dst", "store")] == (294_912, 294_912, 4 * 294_912)


@needs_nvcc
def test_rows_a_pitch_off_the_sector_take_a_third_sector_on_odd_rows():
    # pitch 1036 floats = 4,144 bytes = 129.5 sectors: row y starts 16 y bytes off a sector, so a
    # row of 16 floats (64 bytes) spans 2 sectors on even rows and 3 on odd ones; a warp holds rows
    # 2 by and 2 by + 1: 5 sectors a request. 1024 x 1000: 8 x 250 blocks, 2,000 x 2 x 10 load
    # instructions, the halos off in columns 0 and 7 (250 blocks each): 40,000 - 1,000 requests
    got, _ = counts(1024, 1000, 1036)
    assert got[("d_Src", "load")] == (40_000, 39_000, 5 * 39_000)


@needs_nvcc
def test_float_constant_weights_are_packed_as_floats():
    _, k = counts(256, 12, 260, "0.5,2,3,4,5,6,7,8,9,8,7,6,5,4,3,2,1e-3")
    given = k.launch.constants["c_Kernel"]
    assert given.dtype == "<f4" and given.values[0] == 0.5 and given.values[-1] == 1e-3
    assert np.frombuffer(given.data, "<f4").tolist() == [np.float32(v) for v in given.values]
    assert given.data[:4] == np.float32(0.5).tobytes()  # not the integer 0 (nor a refusal)
    with pytest.raises(UsageError, match="holds 17 elements of 4 bytes, so give 17 values, not 2"):
        counts(256, 12, 260, "1,2")
    with pytest.raises(UsageError, match="holds floating values; give numbers, e.g. --arg c_Kernel=0.0,0.0"):
        counts(256, 12, 260, "a" + WEIGHTS[1:])


def test_a_constants_floating_type_is_read_from_its_declaration():
    src = """__constant__ float w[3];  // float
    __constant__ const double d = 1.0;  __constant__ int n[2]; __constant__ __half h[4];
    namespace cfg { __constant__ static float scale; }"""
    assert [constant_dtype(src, v) for v in ("w", "d", "n", "h", "cfg::scale", "missing")] == [
        "<f4", "<f8", "", "<f2", "<f4", ""]
    assert constant_dtype(None, "w") == ""
