"""Pictures: the files exist, have a size, and are not blank; the warp picture's counts are right."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warpsim.errors import UsageError

pytest.importorskip("matplotlib", reason="pictures need matplotlib (pip install 'warpsim[plot]')")

from matplotlib.image import imread  # noqa: E402

from warpsim.draw import draw_request, plot_predicted_vs_measured, request_counts  # noqa: E402

K = 4096
LANE = np.arange(32, dtype=np.int64)
ALL = np.ones(32, dtype=bool)


def assert_picture(path, min_w=300, min_h=200):
    """The PNG opens, is at least min_w x min_h pixels, and is not one flat colour."""
    img = imread(path)
    h, w = img.shape[:2]
    assert w >= min_w and h >= min_h, (w, h)
    assert float(img[..., :3].std()) > 0.01  # not blank
    assert not list(path.parent.glob(f".{path.name}.*"))  # no temp file left behind


def test_naive_a_load_touches_32_sectors(tmp_path):
    # naive kernel, warp 0, iteration 0: lane l reads A[l * K + 0], 4 B each, K*4 = 16 KiB apart
    out = tmp_path / "a.png"
    c = draw_request(LANE * K * 4, ALL, 4, "naive A load", out)
    assert c.sectors == 32  # 32 lanes, each in its own sector
    assert c.ideal_sectors == 4  # 32 lanes x 4 B = 128 B = 4 sectors
    assert c.bytes_requested == 128  # 32 x 4 B
    assert c.bytes_moved == 1024  # 32 sectors x 32 B: 7/8 wasted
    assert not c.broadcast
    assert_picture(out)


def test_naive_b_load_is_one_broadcast_sector(tmp_path):
    # B[i * N + col]: col is warp-invariant, so all 32 lanes read one address
    out = tmp_path / "b.png"
    c = draw_request(np.full(32, 12 * 4, dtype=np.int64), ALL, 4, "naive B load", out)
    assert (c.sectors, c.ideal_sectors, c.bytes_requested, c.bytes_moved, c.broadcast) == (1, 1, 128, 32, True)
    # 1 sector; 4 distinct bytes -> ceil(4/32) = 1 ideal; 32 x 4 B requested; 1 x 32 B moved
    assert_picture(out, min_h=150)


def test_coalesced_row_is_four_sectors(tmp_path):
    out = tmp_path / "row.png"
    c = draw_request(1024 + LANE * 4, ALL, 4, "coalesced", out)
    assert (c.sectors, c.ideal_sectors, c.bytes_moved) == (4, 4, 128)  # 128 B contiguous = 4 sectors
    assert_picture(out)


def test_partial_warp_and_straddling_float4(tmp_path):
    # float4 loads starting 8 B into a sector: each lane straddles two sectors; lanes 16..31 off
    mask = LANE < 16
    c = draw_request(8 + LANE * 16, mask, 16, "float4, half warp, misaligned", tmp_path / "f4.png")
    # bytes 8 .. 8 + 16*16 - 1 = 8..263: sectors 0..8 = 9; 256 B -> ceil(256/32) = 8 ideal
    assert (c.sectors, c.ideal_sectors, c.bytes_requested) == (9, 8, 256)
    assert_picture(tmp_path / "f4.png")


def test_sparse_sectors_and_a_partial_broadcast(tmp_path):
    # lanes 0..15 read 16 sectors 1 MiB apart; lanes 16..31 all read lane 0's address
    addr = np.where(LANE < 16, LANE * 2**20, 0)
    c = draw_request(addr, ALL, 4, "sparse", tmp_path / "sparse.png")
    assert (c.sectors, c.broadcast) == (16, True)
    assert_picture(tmp_path / "sparse.png")


def test_no_active_lane_still_draws(tmp_path):
    c = draw_request(LANE * 4, np.zeros(32, dtype=bool), 4, "all off", tmp_path / "off.png")
    assert (c.sectors, c.bytes_requested, c.broadcast) == (0, 0, False)
    assert_picture(tmp_path / "off.png", min_h=150)


def test_title_states_the_counts():
    c = request_counts(LANE * K * 4, ALL, 4)
    assert c.title("A") == "A: 32 sectors (ideal 4), 128 bytes requested, 1024 moved, broadcast no"


def test_overwrites_atomically(tmp_path):
    out = tmp_path / "same.png"
    out.write_bytes(b"old")
    with pytest.raises(UsageError, match="already exists; pass --force"):
        draw_request(LANE * 4, ALL, 4, "x", out)
    assert out.read_bytes() == b"old"  # refused: kept as it was
    draw_request(LANE * 4, ALL, 4, "x", out, force=True)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "args, match",
    [
        ((np.zeros(16, dtype=np.int64), np.ones(16, dtype=bool), 4), "32 lanes"),
        ((LANE * 4, ALL, 3), "width 3"),
    ],
)
def test_bad_request_raises_usage_error(tmp_path, args, match):
    with pytest.raises(UsageError, match=match):
        draw_request(*args, "bad", tmp_path / "bad.png")
    assert not (tmp_path / "bad.png").exists()


lanes_addr = st.lists(st.integers(min_value=0, max_value=4096), min_size=32, max_size=32)


@settings(max_examples=50, deadline=None)
@given(addr=lanes_addr, mask=st.lists(st.booleans(), min_size=32, max_size=32),
       width=st.sampled_from([1, 2, 4, 8, 16]), perm=st.permutations(range(32)))
def test_counts_ignore_lane_order_and_32_byte_shifts(addr, mask, width, perm):
    a = np.array(addr, dtype=np.int64) // width * width  # naturally aligned, as CUDA requires
    m = np.array(mask)
    base = request_counts(a, m, width)
    p = np.array(perm)
    assert request_counts(a[p], m[p], width) == base  # permuting lanes changes nothing
    assert request_counts(a + 32, m, width) == base  # shifting by one sector changes nothing
    junk = np.where(m, a, 10**9)  # inactive lanes' addresses add nothing
    assert request_counts(junk, m, width) == base


# --- predicted vs measured --------------------------------------------------------------


def test_predicted_vs_measured(tmp_path):
    df = pd.DataFrame(
        {
            "kernel": ["naive"] * 3 + ["coalesced"] * 3,
            "metric": ["requests", "sectors", "bank_conflicts"] * 2,
            "predicted": [1_048_576, 33_554_432, 0, 1_048_576, 4_194_304, 0],
            "measured": [1_048_576, 33_554_432, 0, 1_048_576, 4_200_000, 3],
        }
    )
    out = plot_predicted_vs_measured(df, tmp_path / "pvm.png")
    assert_picture(out)


def test_predicted_vs_measured_rejects_bad_frames(tmp_path):
    with pytest.raises(UsageError, match="lacks columns"):
        plot_predicted_vs_measured(pd.DataFrame({"kernel": ["x"]}), tmp_path / "x.png")
    with pytest.raises(UsageError, match="no predicted/measured"):
        plot_predicted_vs_measured(pd.DataFrame(columns=["kernel", "metric", "predicted", "measured"]), tmp_path / "x.png")


def test_missing_matplotlib_is_a_usage_error(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # makes `import` raise ImportError
    with pytest.raises(UsageError, match=r"pip install 'warpsim\[plot\]'"):
        draw_request(LANE * 4, ALL, 4, "x", tmp_path / "x.png")
