"""Any kernel under ncu: every launch of a plan in one ncu session, then one trace per launch.

    ncu --clock-control none --cache-control all --kernel-name-base mangled
        -k regex:^(<mangled>|...)$ --metrics <the names ncu knows> --export <tmp>/batch
        python -m profiling.launch --plan PLAN.json [ID ...]

One child replays the launches in plan order (each checked against its numpy reference), so the
report's rows are the plan's launches in order. Launches marked `per_array` are run again, one
at a time, under the SourceCounters section: ncu's counters per SASS instruction, kept in the
trace by pc (the machine code is the plan's cubin, copied beside the trace).

Metric names ncu does not know make it refuse the whole run, so the names are filtered first by
`ncu --query-metrics --chip CHIP`; the trace says which were asked for.

A launch that fails its reference check gets no trace; the others are written (the failures are
reported at the end, and the command exits non-zero).
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from profiling import ncu, parse, source
from profiling.launch import MARK_FAIL, MARK_OK
from profiling.metrics import SASS_NAMES
from profiling.plan import REPO, SASS_TRACES, PlanLaunch
from profiling.traces import TRACES_DIR, Trace, refuse_overwrite, write_json_atomic
from warpsim.errors import UsageError
from warpsim.sass.launch import file_reference

CHIP = "gh100"  # the H200


@dataclass(frozen=True)
class BatchOptions:
    traces_dir: Path = TRACES_DIR
    force: bool = False
    timeout_s: float = 600.0
    ncu: str = "ncu"
    plan_path: Path | None = None
    keep_dir: Path | None = None  # also save the raw-page and source-page CSVs here (parser fixtures)
    extra_metrics: tuple[str, ...] = ()  # collected too, where ncu knows them (PATH_NAMES: --paths)


@dataclass
class BatchResult:
    written: list[Path] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # launch id -> why


def known_metrics(ncu_exe: str, names: tuple[str, ...] = SASS_NAMES, chip: str = CHIP) -> list[str]:
    """The names among `names` whose base metric `ncu --query-metrics --chip CHIP` lists."""
    done = ncu._run([ncu_exe, "--query-metrics", "--chip", chip], 120, "--query-metrics")
    listed = set(re.findall(r"[a-z0-9]+__[a-z0-9_]+", done[1]))
    if not listed:
        raise UsageError(f"`ncu --query-metrics --chip {chip}` listed no metrics: {ncu._last_error(done[1])}")
    return [n for n in names if n.rsplit(".", 1)[0] in listed]


def trace_path(root: Path, launch_id: str) -> Path:
    return Path(root) / SASS_TRACES / f"{launch_id}.json"


def _command(ncu_exe: str, entries: list[dict], plan_path: Path, export: Path, names: list[str] | None) -> list[str]:
    pattern = "|".join(sorted({re.escape(e["mangled"]) for e in entries}))
    child = [sys.executable, "-m", "profiling.launch", "--plan", str(plan_path), *(e["id"] for e in entries)]
    what = ["--metrics", ",".join(names)] if names else ["--section", "SourceCounters", "--import-source", "yes"]
    return [ncu_exe, "--clock-control", "none", "--cache-control", "all", "--kernel-name-base", "mangled",
            "-k", f"regex:^({pattern})$", *what, "--export", str(export), "--force-overwrite", *child]


def _failures(out: str) -> dict[str, str]:
    failed = {}
    for line in out.splitlines():
        if MARK_FAIL in line:
            text = line.split(MARK_FAIL, 1)[1].strip()
            key, _, why = text.partition(": ")
            failed[key] = why or text
    return failed


def _meta(entry: dict, versions: dict, command: list[str], names: list[str]) -> dict:
    return {**versions, "kind": "sass", "kernel": entry["entry"], "entry": entry["mangled"],
            "kernel_sha256": entry["source_sha256"], "source": entry["source"], "cubin": entry["cubin"],
            "cubin_sha256": entry["cubin_sha256"], "grid": entry["grid"], "block": entry["block"],
            "grid_text": entry["grid_text"], "block_text": entry["block_text"], "args": entry["args"],
            **{k: entry[k] for k in ("dynamic_shared_text", "dynamic_shared") if k in entry},
            "id": entry["id"], "metrics_asked": names, "param_names": [p["name"] for p in entry["params"]],
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "command": command}


def run(entries: list[dict], options: BatchOptions) -> BatchResult:
    """Profile every entry (aggregate metrics in one ncu session; per-instruction counters for
    the per_array ones) and write their traces."""
    if options.plan_path is None:
        raise UsageError("a batch needs its plan file (the child replays it)")
    result = BatchResult()
    if not options.force:
        for e in entries:
            refuse_overwrite(trace_path(options.traces_dir, e["id"]), False)
    exe = ncu.find_ncu(options.ncu)
    names = known_metrics(exe, SASS_NAMES + tuple(options.extra_metrics))
    versions = ncu.probe_versions(exe)
    with tempfile.TemporaryDirectory(prefix="warpsim-batch-") as tmp:
        base = Path(tmp) / "batch"
        cmd = _command(exe, entries, options.plan_path, base, names)
        code, out = ncu._run(cmd, options.timeout_s, f"{len(entries)} launches")
        if ncu.ERR_PERM in out:
            raise UsageError(ncu.NEED_PERM)
        result.failed.update(_failures(out))
        report = base.with_suffix(".ncu-rep")
        if not report.is_file():
            raise UsageError(f"ncu wrote no report (exit {code}): {ncu._last_error(out)}")
        csv_path = Path(tmp) / "batch.csv"
        csv_path.write_text(ncu.export_csv(exe, report))
        if options.keep_dir is not None:
            Path(options.keep_dir).mkdir(parents=True, exist_ok=True)
            (Path(options.keep_dir) / f"{Path(options.plan_path).stem}.raw.csv").write_text(csv_path.read_text())
        frame = parse.read_csv(csv_path, tuple(names))
        ran = [e for e in entries if e["id"] not in result.failed]
        if len(frame) != len(entries):
            raise UsageError(f"ncu measured {len(frame)} launches where the plan has {len(entries)} "
                             f"({ncu._last_error(out)})")
        units = frame.attrs.get("units", {})
        for i, entry in enumerate(entries):
            if entry["id"] in result.failed:
                continue
            metrics = {n: ncu._plain(frame[n].iloc[i]) for n in names}
            trace = Trace(_meta(entry, versions, cmd, names), metrics, {n: units.get(n, "") for n in names})
            if entry.get("per_array"):
                try:
                    trace.per_instruction = _per_instruction(exe, entry, options, Path(tmp))
                except UsageError as e:
                    result.failed[entry["id"]] = f"source counters: {e}"
                    continue
            path = trace_path(options.traces_dir, entry["id"])
            write_json_atomic(path, trace.as_json(), force=options.force)
            _keep_cubin_beside(entry, path)
            result.written.append(path)
        del ran
    return result


def _keep_cubin_beside(entry: dict, trace: Path) -> None:
    """The plan's cubin (the machine code that ran) beside the trace, and the files its buffers'
    contents came from (`@PATH#DIGEST`, pinned by profiling.plan), wherever the traces go: a
    folder of traces moved or compared elsewhere keeps what its predictions are made from."""
    launch = PlanLaunch(entry)
    refs = (file_reference(p.get("contents", "")) for p in entry["params"])
    files = [launch.cubin()] + [launch.root / ref[0] for ref in refs if ref]
    for path in files:
        beside = trace.parent / path.name
        if path.is_file() and not beside.exists():
            shutil.copyfile(path, beside)


def _per_instruction(exe: str, entry: dict, options: BatchOptions, tmp: Path) -> list[dict]:
    base = tmp / f"source-{len(list(tmp.iterdir()))}"
    cmd = _command(exe, [entry], options.plan_path, base, None)
    code, out = ncu._run(cmd, options.timeout_s, f"{entry['id']}, source counters")
    failed = _failures(out)
    if failed or MARK_OK not in out:
        raise UsageError(next(iter(failed.values()), ncu._last_error(out)))
    report = base.with_suffix(".ncu-rep")
    if not report.is_file():
        raise UsageError(f"no source-counter report ({ncu._last_error(out)})")
    text = ncu.export_source_csv(exe, report)
    if options.keep_dir is not None:
        Path(options.keep_dir).mkdir(parents=True, exist_ok=True)
        (Path(options.keep_dir) / f"{entry['id'].replace('/', '__')}.source.csv").write_text(text)
    frame = source.read_source_csv(text, entry["id"], every_space=True)
    return [{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()} for row in frame.to_dict("records")]


def plan_path_default() -> Path:
    return REPO / "kernels" / "plan.json"
