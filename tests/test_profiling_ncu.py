"""Running ncu, without ncu: the command line, and every failure, against a stand-in `ncu` script.

The stand-in (FAKE_NCU below, written to a temporary folder) is not Nsight Compute: it answers
`--version`, prints the synthetic raw-page CSV for `-i REPORT --csv ...`, and for a profiling
command behaves as FAKE_NCU_MODE says (ok, perm, fail, crash, nokernel, sleep).
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from profiling import ncu, parse
from profiling.metrics import NAMES
from profiling.problem import Problem
from test_profiling_parse import SYNTHETIC
from warpsim.errors import UsageError

FAKE_NCU = '''#!{python}
"""Stand-in for ncu in tests (not Nsight Compute)."""
import os, sys, time
args = sys.argv[1:]
if args == ["--version"]:
    print("NVIDIA (R) Nsight Compute Command Line Profiler\\nVersion 2025.3.1.0 (fake)")
    sys.exit(0)
if "-i" in args:
    sys.stdout.write(open(os.environ["FAKE_NCU_CSV"]).read())
    sys.exit(0)
mode = os.environ.get("FAKE_NCU_MODE", "ok")
print("==PROF== Connected to process 1 (python3)")
if mode == "perm":
    print("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters")
    sys.exit(1)
if mode == "fail":
    print("profiling.launch: FAILED: matmul_naive: wrong result, relative Frobenius error 0.5 >= 1e-05")
    sys.exit(3)
if mode == "crash":
    print("==ERROR== The application returned an error code (11).")
    sys.exit(11)
if mode == "sleep":
    time.sleep(60)
print("profiling.launch: ok")
if mode == "nokernel":
    print("==WARNING== No kernels were profiled.")
    sys.exit(0)
export = args[args.index("--export") + 1]
open(export + ".ncu-rep", "wb").write(b"fake report")
'''


@pytest.fixture
def fake_ncu(tmp_path, monkeypatch) -> str:
    path = tmp_path / "bin" / "ncu"
    path.parent.mkdir()
    path.write_text(FAKE_NCU.format(python=sys.executable))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("FAKE_NCU_CSV", str(SYNTHETIC))
    monkeypatch.setattr(parse, "ncu_report_module", lambda: None)  # read via `ncu -i ... --csv`
    return str(path)


PROBLEM = Problem.resolve("naive_coalesced", 64, 48, 33, (32, 32))


def test_command_is_an_argument_list_with_filter_and_every_metric():
    cmd = ncu.ncu_command("/x/ncu", PROBLEM, Path("/tmp/r"))
    assert cmd[:3] == ["/x/ncu", "--clock-control", "none"]
    assert cmd[cmd.index("-k") + 1] == "regex:^matmul_naive$"  # CuPy's own kernels stay out
    assert cmd[cmd.index("-c") + 1] == "1"
    assert cmd[cmd.index("--metrics") + 1].split(",") == list(NAMES)
    assert cmd[cmd.index("--export") + 1] == "/tmp/r"
    assert cmd[-9:] == [sys.executable, "-m", "profiling.launch", "naive_coalesced", "64", "48", "33", "32", "32"]


def test_profile_reads_the_report(fake_ncu, tmp_path):
    keep = tmp_path / "kept"
    m = ncu.profile(PROBLEM, ncu.NcuOptions(ncu=fake_ncu, keep_dir=keep))
    assert m.kernel == "matmul_naive"
    assert m.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 16896
    assert isinstance(m.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], int)
    assert m.units["gpu__time_duration.sum"] == "nsecond"
    assert m.command[0] == fake_ncu
    stem = "naive_coalesced_M64_N48_K33_b32x32"
    assert sorted(p.name for p in keep.iterdir()) == [f"{stem}.ncu-rep", f"{stem}.raw.csv"]


@pytest.mark.parametrize(
    "mode, needle",
    [
        ("perm", "ERR_NVGPUCTRPERM): run as root, or load the driver with NVreg_RestrictProfilingToAdminUsers=0"),
        ("fail", "failed its correctness check under ncu, no trace written: matmul_naive: wrong result"),
        ("crash", "the profiled program did not finish (ncu exit 11): ==ERROR== The application returned"),
        ("nokernel", "ncu wrote no report"),
    ],
)
def test_failures_are_one_line(fake_ncu, monkeypatch, mode, needle):
    monkeypatch.setenv("FAKE_NCU_MODE", mode)
    with pytest.raises(UsageError) as err:
        ncu.profile(PROBLEM, ncu.NcuOptions(ncu=fake_ncu))
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_timeout_kills_and_says_so(fake_ncu, monkeypatch):
    monkeypatch.setenv("FAKE_NCU_MODE", "sleep")
    with pytest.raises(UsageError, match=r"ncu did not finish in 1 s \(naive_coalesced M=64"):
        ncu.profile(PROBLEM, ncu.NcuOptions(ncu=fake_ncu, timeout_s=1))


def test_wrong_kernel_in_report(fake_ncu, tmp_path, monkeypatch):
    other = tmp_path / "other.csv"
    other.write_text(SYNTHETIC.read_text().replace('"matmul_naive"', '"sgemm_naive"'))
    monkeypatch.setenv("FAKE_NCU_CSV", str(other))
    with pytest.raises(UsageError, match="expected one launch of matmul_naive in the ncu report, found: sgemm_naive"):
        ncu.profile(PROBLEM, ncu.NcuOptions(ncu=fake_ncu))


def test_missing_ncu(monkeypatch):
    monkeypatch.setattr(ncu.shutil, "which", lambda name: None)
    with pytest.raises(UsageError, match="ncu \\(Nsight Compute\\) not found on PATH: install Nsight Compute"):
        ncu.profile(PROBLEM)


def test_version_probes(fake_ncu, monkeypatch):
    versions = ncu.probe_versions(ncu=fake_ncu, nvcc="no-such-nvcc")
    assert versions["ncu_version"] == "2025.3.1.0 (fake)"
    assert versions["cuda_version"].startswith("unknown (no-such-nvcc not on PATH")
    assert set(versions) == {"gpu", "driver", "ncu_version", "cuda_version"}
