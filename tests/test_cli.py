"""The warpsim command line: output formats and one-line errors with exit status 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from test_sass_frontend import needs_nvcc


def warpsim(*args):
    return subprocess.run([sys.executable, "-m", "warpsim.cli", *args], capture_output=True, text=True)


def test_json_is_one_object_with_plain_integers():
    p = warpsim("analyze", "naive", "--M", "4096", "--format", "json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert (doc["kernel"], doc["M"], doc["N"], doc["K"]) == ("naive", 4096, 4096, 4096)
    assert doc["schema"] == 1
    assert doc["block"] == "32x32" and doc["grid"] == "128x128"  # the form --block takes
    a = next(r for r in doc["rows"] if (r["space"], r["array"], r["op"]) == ("global", "A", "load"))
    assert a["sectors"] == 32 * a["requests"]  # the 32-vs-4 of seed 000
    assert a["ideal_sectors"] == 4 * a["requests"]
    for key in ("requests", "sectors", "ideal_sectors", "broadcast_requests", "bytes_requested"):
        assert type(a[key]) is int


def test_table_names_the_worst_access():
    p = warpsim("analyze", "naive", "--M", "256")
    assert p.returncode == 0
    # A and C are both walked 32 rows at a time (K*4 and N*4 bytes apart): equally worst, both named
    assert "A load, C load and C store: 32 sectors per request where 4 would do: 8x the bytes." in " ".join(p.stdout.split())


def test_csv_has_a_header_and_a_row_per_access():
    p = warpsim("analyze", "coalesced", "--M", "64", "--N", "32", "--K", "8", "--format", "csv")
    lines = p.stdout.strip().splitlines()
    assert lines[0].startswith("kernel,M,N,K,block,grid,space,array,op,width,kind,instructions")  # kind: LDG, STG, ...
    model = warpsim("analyze", "coalesced", "--M", "64", "--N", "32", "--K", "8", "--format", "csv", "--engine", "model")
    assert model.stdout.splitlines()[0].startswith("kernel,M,N,K,block,grid,space,array,op,width,instructions")
    assert len(lines) == 1 + 4  # A, B, C load, C store


def test_list_shows_every_kernel():
    p = warpsim("list")
    for name in ("naive", "naive_coalesced", "coalesced"):
        assert name in p.stdout


@pytest.mark.parametrize("args,needle", [
    (("analyze", "nope", "--M", "8"), "known kernels: naive"),
    (("analyze", "naive", "--M", "-4"), "M must be at least 1"),
    (("analyze", "naive", "--M", "0"), "M must be at least 1"),
    (("analyze", "naive", "--M", "2.5"), "whole number"),
    (("analyze", "naive", "--M", "8", "--K", "x"), "whole number"),
    (("analyze", "naive_coalesced", "--M", "8", "--block", "5x5"), "multiple of 32"),
    (("analyze", "naive_coalesced", "--M", "8", "--block", "64x32"), "at most 1024"),
    (("analyze", "naive_coalesced", "--M", "8", "--block", "big"), "like 32x32"),
    (("analyze", "naive", "--M", "8", "--block", "16x16"), "compiled for block 32x32"),
    (("analyze", "naive"), "--M is needed: the size of the registered kernel 'naive'"),
    (("analyze", "naive", "--M", "8", "--dynamic-shared", "1024"), "--dynamic-shared is for a kernel given by its"),
    # dynamic shared memory (`extern __shared__`) left out: the first access past the static window
    (("analyze", "kernels/dynshared.cu", "--entry", "reverse_dyn", "--grid", "4", "--block", "256", "--arg", "n=1000",
      "--arg", "chunk=256", "--arg", "in=float[n]", "--arg", "out=float[n]"), "needs --dynamic-shared BYTES"),
    (("analyze", "kernels/dynshared.cu", "--entry", "reverse_dyn", "--grid", "4", "--block", "256", "--arg", "n=1000",
      "--arg", "chunk=256", "--arg", "in=float[n]", "--arg", "out=float[n]", "--dynamic-shared", "4*chunk-"),
     "--dynamic-shared"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle):
    p = warpsim(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], p.stderr
    assert "Traceback" not in p.stderr


def test_overflowing_sizes_still_analyze_with_a_warning():
    # the real kernel's 32-bit index wraps at this size: its machine code is refused (one line,
    # pointing at the model), and the hand model counts the intended addresses with a warning
    refused = warpsim("analyze", "naive", "--M", "50000", "--N", "32", "--K", "50000", "--format", "json")
    assert refused.returncode == 2 and "wraps around" in refused.stderr and "--engine model" in refused.stderr
    p = warpsim("analyze", "naive", "--M", "50000", "--N", "32", "--K", "50000", "--format", "json", "--engine", "model")
    assert p.returncode == 0
    assert "would overflow" in p.stderr
    doc = json.loads(p.stdout)
    a = next(r for r in doc["rows"] if r["array"] == "A")
    # 50000 rows -> 1563 row blocks; 1 column block of 32 warps, K=50000 loads each
    assert a["requests"] == 32 * 50000 * 1563


def test_by_line_names_the_source_line():
    p = warpsim("analyze", "naive", "--M", "64", "--by-line", "--format", "json")
    rows = json.loads(p.stdout)["rows"]
    assert [(r["line"], r["array"], r["op"]) for r in rows] == [
        (13, "A", "load"), (14, "B", "load"), (16, "C", "load"), (16, "C", "store")]  # kernels/naive.cu
    table = warpsim("analyze", "smem", "--M", "64", "--by-line").stdout
    assert "As[ty * BLOCKSIZE + tx] =" in table  # the CUDA line itself, brackets and all


def test_caches_past_their_block_bound_are_one_line_and_the_roofline_stands():
    # naive at M = 2^22 has (2^22 / 32)^2 = 2^34 blocks, past the cache model's 2^18: analyze --caches
    # refuses in one line (no traceback, nothing printed); roofline warns and leaves the DRAM figures out
    p = warpsim("analyze", "naive", "--M", "4194304", "--engine", "model", "--caches")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.splitlines()[-1].startswith("error: naive: the cache model") and "17,179,869,184" in p.stderr
    assert "Traceback" not in p.stderr
    # (the machine code's 32-bit indices wrap at this size: roofline, like analyze, says to take
    # the hand model, which counts the intended addresses)
    refused = warpsim("roofline", "naive", "--M", "4194304", "--format", "json")
    assert refused.returncode == 2 and refused.stderr.rstrip().endswith("--engine model)")
    r = warpsim("roofline", "naive", "--M", "4194304", "--format", "json", "--engine", "model")
    assert r.returncode == 0 and "DRAM figures left out" in r.stderr
    doc = json.loads(r.stdout)
    assert doc["dram_bytes"] is None and doc["requested_bytes"] > 2**68  # A alone: M*N*K = 2^66 loads of 4 bytes


def test_by_line_with_caches_shows_both_tables():
    # --by-line replaces the per-array table by the per-line one; --caches still adds its own
    p = warpsim("analyze", "naive", "--M", "64", "--by-line", "--caches")
    assert p.returncode == 0, p.stderr
    text = " ".join(p.stdout.split())
    assert "by source line" in text and "caches, predicted for the H200" in text
    assert "Of 2.1 MB requested by the loads" in text  # A and B: 2 * 64^3 loads of 4 bytes = 2.10 MB


@needs_nvcc
def test_an_atomic_whose_lanes_share_a_word_shows_its_sector_passes():
    # kernels/atomics.cu's f32_two at n = 1000: each warp's lanes add to s[0] and s[1], two words of
    # one sector, 16 lanes each: 1 sector a request (32 in all) and 16 passes (31 x 16 + 4 for the
    # last warp's 8 lanes = 500: what ncu measured, traces/holdout/atoms3)
    atomics = Path(__file__).resolve().parent.parent / "kernels" / "atomics.cu"
    out = warpsim("analyze", str(atomics), "--entry", "f32_two", "--grid", "cdiv(n,256)", "--block", "256",
                  "--arg", "n=1000").stdout
    assert "s atomic (red): 500 sector passes for 32 sectors" in " ".join(out.split())
