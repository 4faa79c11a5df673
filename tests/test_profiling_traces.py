"""Trace files: naming, atomic writes, refusing to overwrite without --force, validation on load."""

from __future__ import annotations

import json

import pytest

from profiling import traces
from profiling.metrics import NAMES
from profiling.traces import Trace, find_trace_files, load_trace, write_trace
from warpsim.errors import UsageError


def make_trace(kernel="naive_coalesced", M=64, N=48, K=33, block=(32, 32), value=1, sha="0" * 64) -> Trace:
    meta = {
        "gpu": "NVIDIA H200", "driver": "580.159.04", "ncu_version": "2025.3.1.0", "cuda_version": "13.0, V13.0.88",
        "kernel": kernel, "entry": "matmul_naive", "kernel_sha256": sha,
        "block": list(block), "grid": [2, 2], "M": M, "N": N, "K": K,
        "date": "2026-11-29T12:00:00+00:00", "command": ["ncu", "--clock-control", "none"],
    }
    return Trace(meta, {name: value for name in NAMES}, {name: "" for name in NAMES})


def test_path_names_kernel_sizes_and_block(tmp_path):
    path = write_trace(make_trace(), tmp_path)
    assert path == tmp_path / "naive_coalesced" / "naive_coalesced_M64_N48_K33_b32x32.json"
    data = json.loads(path.read_text())
    assert data["schema"] == 1 and "per_array" not in data and data["meta"]["M"] == 64  # compare attributes


def test_round_trip(tmp_path):
    trace = make_trace(value=16896)
    loaded = load_trace(write_trace(trace, tmp_path))
    assert loaded.meta == trace.meta and loaded.metrics == trace.metrics
    assert loaded.block == (32, 32) and loaded.sizes == (64, 48, 33)


def test_refuses_to_overwrite_without_force(tmp_path):
    path = write_trace(make_trace(value=1), tmp_path)
    with pytest.raises(UsageError, match="already exists; pass --force"):
        write_trace(make_trace(value=2), tmp_path)
    assert load_trace(path).metrics[NAMES[0]] == 1  # the old trace is kept
    write_trace(make_trace(value=2), tmp_path, force=True)
    assert load_trace(path).metrics[NAMES[0]] == 2


def test_failed_write_leaves_old_file_and_no_temporaries(tmp_path, monkeypatch):
    path = write_trace(make_trace(value=1), tmp_path)

    def broken_dump(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(traces.json, "dump", broken_dump)
    with pytest.raises(UsageError, match="cannot write .*: disk full"):  # one line, no traceback
        write_trace(make_trace(value=2), tmp_path, force=True)
    monkeypatch.undo()
    assert load_trace(path).metrics[NAMES[0]] == 1
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no .tmp left behind


def test_nan_is_never_written(tmp_path):
    trace = make_trace()
    trace.metrics[NAMES[0]] = float("nan")  # a measurement must be None (n/a), not NaN
    with pytest.raises(ValueError):
        write_trace(trace, tmp_path)
    assert not any(tmp_path.rglob("*.json"))


@pytest.mark.parametrize(
    "mutate, needle",
    [
        (lambda d: d.update(schema=2), "schema is 2"),
        (lambda d: d.pop("meta"), '"meta" and "metrics" must be objects'),
        (lambda d: d["meta"].pop("kernel_sha256"), "meta.kernel_sha256 is missing"),
        (lambda d: d["meta"].update(M="64"), "meta.M is missing or not a int"),
        (lambda d: d["meta"].update(block=[32]), "meta.block must be [bx, by]"),
        (lambda d: d["metrics"].update({NAMES[0]: "16,896"}), f"metric {NAMES[0]} is not a number"),
        (lambda d: d.update(per_instruction={}), '"per_instruction" a list'),
    ],
)
def test_malformed_trace_is_refused(tmp_path, mutate, needle):
    data = make_trace().as_json()
    mutate(data)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    with pytest.raises(UsageError, match="is not a warpsim trace") as err:
        load_trace(path)
    assert needle in str(err.value)


def test_not_json_is_refused(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("{not json")
    with pytest.raises(UsageError, match="not JSON"):
        load_trace(path)


def test_find_skips_bench_tables(tmp_path):
    write_trace(make_trace(), tmp_path)
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "bench_M64_N64_K64.json").write_text("{}")
    assert [p.name for p in find_trace_files(None, tmp_path)] == ["naive_coalesced_M64_N48_K33_b32x32.json"]
    with pytest.raises(UsageError, match="not found"):
        find_trace_files([tmp_path / "absent"], tmp_path)


def test_every_committed_trace_of_any_kernel_keeps_its_cubin_beside_it():
    # the machine code that ran travels with its trace: an installed warpsim compares a folder of
    # traces from anywhere (--traces-dir), where the checkout's traces/sass/ is not at hand
    # (traces/holdout/blind3 and traces/paths once lacked theirs: the installed compare refused)
    import hashlib

    checked = 0
    for path in find_trace_files():
        t = load_trace(path)
        if not t.is_sass:
            continue
        cubin = path.parent / t.meta["cubin"].rsplit("/", 1)[-1]
        assert cubin.is_file(), path
        assert hashlib.sha256(cubin.read_bytes()).hexdigest() == t.meta["cubin_sha256"], path
        checked += 1
    assert checked > 500  # 539 traces of any kernel
