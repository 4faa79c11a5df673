"""`warpsim draw` and `warpsim roofline` as a user runs them: a child process, real arguments.

The roofline figures are seed 000's (naive, 4096^3, RTX 5080), rounded as the seed rounds them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def warpsim(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "warpsim.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def one_error_line(result, needle: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr


def test_draw_naive_a_writes_a_picture(tmp_path):
    pytest.importorskip("matplotlib", reason="pictures need matplotlib (pip install 'warpsim[plot]')")
    from matplotlib.image import imread

    (tmp_path / "tmp").mkdir()
    result = warpsim("draw", "naive", "--M", 64, "--array", "A", "--out", "tmp/x.png", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # lane l reads A[l*K + 0]: 32 rows, K*4 = 256 B apart -> 32 sectors; 32 x 4 B = 128 B -> 4 ideal
    assert result.stdout.strip() == "wrote tmp/x.png: 32 sectors (ideal 4)"
    img = imread(tmp_path / "tmp" / "x.png")
    h, w = img.shape[:2]
    assert w >= 800 and h >= 800, (w, h)  # 11 in at 110 dpi wide; 32 bands of sectors high
    assert float(img[..., :3].std()) > 0.01  # not blank


def test_roofline_json_reproduces_seed_000():
    result = warpsim("roofline", "naive", "--M", 4096, "--gpu", "rtx5080", "--format", "json")
    assert result.returncode == 0, result.stderr
    r = json.loads(result.stdout)
    for key in ("flops", "compute_floor_ms", "memory_floor_ms", "min_dram_bytes", "problem_flop_per_byte",
                "ridge_flop_per_byte", "requested_bytes", "kernel_flop_per_byte", "sector_bytes"):
        assert key in r, key
    assert r["flops"] == 2 * 4096**3  # 137,438,953,472 FLOP
    assert round(r["compute_floor_ms"], 2) == 2.44  # 2*4096^3 / 56.3e12 s
    assert round(r["memory_floor_ms"], 2) == 0.28  # 4 B x 4 x 4096^2 (A, B, C read, C written) / 960 GB/s
    assert r["min_dram_bytes"] == 4 * 4 * 4096**2
    assert round(r["ridge_flop_per_byte"], 1) == 58.6  # 56.3e12 / 960e9
    assert r["problem_flop_per_byte"] == 512  # 2*4096^3 / (16 x 4096^2) = 4096 / 8
    # A and B: 4096^3 loads of 4 B each; C: 4096^2 loads and 4096^2 stores of 4 B
    assert r["requested_bytes"] == 2 * 4 * 4096**3 + 2 * 4 * 4096**2 == 549_890_031_616
    assert round(r["kernel_flop_per_byte"], 2) == 0.25
    assert round(r["sloped_time_ms"]) == 573  # 0.25 FLOP/B x 960 GB/s = 240 GFLOP/s
    assert r["sector_bytes"] == 32 * 70_900_514_816  # the total sectors of `warpsim analyze naive --M 4096`


@pytest.mark.parametrize(
    "args, needle",
    [
        (["roofline", "naive", "--M", 4096, "--gpu", "nosuch"], "unknown GPU 'nosuch'"),
        (["draw", "naive", "--M", 64, "--warp", 99, "--out", "x.png"], "--warp must be in 0..31"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, needle):
    result = warpsim(*args, cwd=tmp_path)
    one_error_line(result, needle)
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x.png").exists()
