"""ncu output -> DataFrame: the synthetic raw-page CSV, malformed input, a stand-in ncu_report,
and every real H200 fixture dropped into tests/fixtures/ncu/ (see its README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from profiling import parse
from profiling.metrics import NAMES
from warpsim.errors import UsageError

FIXTURES = Path(__file__).parent / "fixtures" / "ncu"
SYNTHETIC = FIXTURES / "synthetic_raw_page.csv"
REAL_CSVS = sorted(FIXTURES.glob("*.raw.csv"))  # H200 runs; the synthetic one is not named *.raw.csv
NO_REAL = pytest.mark.skip(reason="no H200 fixtures in tests/fixtures/ncu/ yet (see its README)")
REAL_PARAMS = [pytest.param(p, id=p.name) for p in REAL_CSVS] or [pytest.param(None, marks=NO_REAL, id="none")]


def test_synthetic_csv_one_row_with_thousands_separators():
    frame = parse.read_csv(SYNTHETIC)
    assert list(frame.columns) == ["kernel", *NAMES]
    assert len(frame) == 1  # one launch
    row = frame.iloc[0]
    assert row["kernel"] == "matmul_naive"
    assert row["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 16896  # written "16,896"
    assert row["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 8448  # written "8,448"
    assert row["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] == 384
    assert all(str(frame[name].dtype) == "int64" for name in NAMES)
    assert frame.attrs["units"]["dram__bytes_read.sum"] == "byte"
    assert frame.attrs["units"]["gpu__time_duration.sum"] == "nsecond"


def _write(tmp_path: Path, text: str, name: str = "x.csv") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _synthetic_lines() -> list[str]:
    return SYNTHETIC.read_text().splitlines()


def test_lines_before_the_header_are_skipped(tmp_path):
    # ncu's own messages and the program's stdout come first when ncu prints the CSV itself.
    text = "==PROF== Connected to process 4242 (python3)\nprofiling.launch: ok\n" + SYNTHETIC.read_text()
    frame = parse.read_csv(_write(tmp_path, text))
    assert frame.iloc[0]["smsp__inst_executed_op_global_ld.sum"] == 8448


def test_two_launches_and_n_a(tmp_path):
    header, units, row = _synthetic_lines()
    second = row.replace('"0","4242"', '"1","4242"', 1).replace('"12,288"', '"n/a"')  # dram__bytes_write
    frame = parse.read_csv(_write(tmp_path, "\n".join([header, units, row, second]) + "\n"))
    assert len(frame) == 2
    writes = frame["dram__bytes_write.sum"]
    assert writes.iloc[0] == 12288 and writes.isna().iloc[1]
    assert str(frame["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"].dtype) == "int64"


def test_csv_without_units_row(tmp_path):
    header, _, row = _synthetic_lines()
    frame = parse.read_csv(_write(tmp_path, f"{header}\n{row}\n"))
    assert frame.iloc[0]["lts__t_sectors_srcunit_tex_op_read.sum"] == 4864


@pytest.mark.parametrize(
    "text, needle",
    [
        ("", 'no raw-page header row starting with "ID"'),
        ('{"schema": 1}\n', 'no raw-page header row starting with "ID"'),
        ('"ID","Process ID","Section Name","Metric Name","Metric Value"\n"0","1","s","m","1"\n', '"Kernel Name"'),
        ('"ID","Kernel Name","dram__bytes_read.sum"\n"0","k","1"\n', "metrics missing"),
    ],
    ids=["empty", "json", "details-page", "other-metrics"],
)
def test_foreign_csv_is_refused(tmp_path, text, needle):
    with pytest.raises(UsageError, match="is not an ncu report/CSV of this project") as err:
        parse.read_csv(_write(tmp_path, text))
    assert needle in str(err.value)
    assert "\n" not in str(err.value)


def test_non_numeric_value_is_refused(tmp_path):
    header, units, row = _synthetic_lines()
    bad = row.replace('"8,448"', '"lots"', 1)
    with pytest.raises(UsageError, match="non-numeric values such as 'lots'"):
        parse.read_csv(_write(tmp_path, "\n".join([header, units, bad]) + "\n"))


def test_header_only_has_no_launch(tmp_path):
    header, units, _ = _synthetic_lines()
    with pytest.raises(UsageError, match="holds no profiled launch"):
        parse.read_csv(_write(tmp_path, f"{header}\n{units}\n"))


def test_missing_file_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="cannot read"):
        parse.read_csv(tmp_path / "absent.csv")


# ---- the .ncu-rep reader, against a stand-in with the ncu_report API (IContext/IRange/IAction/IMetric)


class FakeMetric:
    """Stand-in for ncu_report.IMetric (not NVIDIA's): kind(), as_uint64(), as_double(), unit()."""

    ValueKind_UINT64, ValueKind_DOUBLE, ValueKind_UINT32, ValueKind_FLOAT = 6, 4, 5, 3

    def __init__(self, value, unit=""):
        self._value, self._unit = value, unit

    def kind(self):
        return self.ValueKind_DOUBLE if isinstance(self._value, float) else self.ValueKind_UINT64

    def as_uint64(self):
        return int(self._value)

    def as_double(self):
        return float(self._value)

    def value(self):
        return self._value

    def unit(self):
        return self._unit


class FakeAction:
    def __init__(self, name, metrics):
        self._name, self._metrics = name, metrics

    def name(self):
        return self._name

    def metric_by_name(self, name):
        return self._metrics.get(name)


class FakeRange:
    def __init__(self, actions):
        self._actions = actions

    def num_actions(self):
        return len(self._actions)

    def action_by_idx(self, i):
        return self._actions[i]


class FakeNcuReport:
    """Stand-in for the ncu_report module: load_report(path) -> context of ranges of actions."""

    def __init__(self, ranges):
        self._ranges = ranges

    def load_report(self, path):
        if Path(path).read_bytes() != b"fake report":
            raise RuntimeError("Failed to load report")
        ranges = self._ranges

        class Context:
            def num_ranges(self):
                return len(ranges)

            def range_by_idx(self, i):
                return ranges[i]

        return Context()


def _fake_report(tmp_path, actions):
    path = tmp_path / "r.ncu-rep"
    path.write_bytes(b"fake report")
    return path, FakeNcuReport([FakeRange(actions)])


def test_ncu_rep_reader_with_stand_in(tmp_path):
    metrics = {name: FakeMetric(1000 + i, "sector") for i, name in enumerate(NAMES)}
    metrics["gpu__time_duration.sum"] = FakeMetric(4352.0, "nsecond")
    path, module = _fake_report(tmp_path, [FakeAction("matmul_naive", metrics)])
    frame = parse.read_ncu_rep(path, module=module)
    assert len(frame) == 1 and frame.iloc[0]["kernel"] == "matmul_naive"
    assert frame.iloc[0][NAMES[0]] == 1000
    assert frame.iloc[0]["gpu__time_duration.sum"] == 4352
    assert frame.attrs["units"]["gpu__time_duration.sum"] == ""  # unit() is never called (it segfaulted on the H200)


def test_ncu_rep_missing_metric_is_nan(tmp_path):
    metrics = {name: FakeMetric(7) for name in NAMES[1:]}
    path, module = _fake_report(tmp_path, [FakeAction("matmul_naive", metrics)])
    frame = parse.read_ncu_rep(path, module=module)
    assert frame[NAMES[0]].isna().all() and frame.iloc[0][NAMES[1]] == 7


def test_ncu_rep_foreign_inputs(tmp_path):
    path, module = _fake_report(tmp_path, [FakeAction("other", {})])
    with pytest.raises(UsageError, match="none of the project's metrics"):
        parse.read_ncu_rep(path, module=module)
    path.write_bytes(b"not a report")
    with pytest.raises(UsageError, match="is not an ncu report/CSV of this project: ncu_report cannot load it"):
        parse.read_ncu_rep(path, module=module)


def test_ncu_rep_without_ncu_report_module(tmp_path, monkeypatch):
    monkeypatch.setattr(parse, "ncu_report_module", lambda: None)
    path = tmp_path / "r.ncu-rep"
    path.write_bytes(b"x")
    with pytest.raises(UsageError, match="ncu_report module was not found"):
        parse.read_ncu_rep(path)


# ---- real H200 fixtures (none until the lead drops them in; then they run everywhere)


@pytest.mark.parametrize("csv_path", REAL_PARAMS)
def test_real_fixture_csv_parses(csv_path):
    frame = parse.read_csv(csv_path)
    assert len(frame) == 1  # profile run measures one launch (ncu -c 1)
    counters = [n for n in NAMES if n != "gpu__time_duration.sum"]
    assert frame[counters].notna().all().all()


@pytest.mark.parametrize("csv_path", REAL_PARAMS)
def test_real_fixture_csv_equals_ncu_rep(csv_path):
    rep = csv_path.with_name(csv_path.name.replace(".raw.csv", ".ncu-rep"))
    if not rep.is_file():
        pytest.skip(f"no {rep.name} beside {csv_path.name}")
    if parse.ncu_report_module() is None:
        pytest.skip("NVIDIA's ncu_report module is not installed (it ships with Nsight Compute)")
    from_csv, from_rep = parse.read_csv(csv_path), parse.read_ncu_rep(rep)
    assert list(from_csv["kernel"]) == list(from_rep["kernel"])
    for name in NAMES:
        assert from_csv[name].iloc[0] == pytest.approx(from_rep[name].iloc[0], rel=1e-6), name


def test_a_source_page_of_reductions_only_parses():
    # ncu (on an H100, votes.cu's count_from) leaves out 'Access Operation' where a kernel's only
    # memory instruction is a reduction; beside loads it writes "-" for one (split-K's fixture):
    # either way the REDG names no load or store, and the page parses to no per-array row
    from profiling.source import read_source_csv
    sass = Path(__file__).parent / "fixtures" / "ncu_sass"
    alone = read_source_csv((sass / "votes__count_from__n1000003_lane00.h100.source.csv").read_text(),
                            every_space=True)
    beside = read_source_csv((sass / "splitk__sgemm_splitk__M300_N212_K999_splits5_alpha1_5.source.csv")
                             .read_text(), every_space=True)
    assert alone.empty and not any(beside["sass"].str.contains("REDG"))
    assert not beside.empty
