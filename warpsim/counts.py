"""The result of an analysis: one row per (space, array, op), plain integers, and its frame.

The counters are the integer fields of `Row`, named once there: JSON, CSV, the DataFrame and
the tables all read them from `COUNTERS`, and `Analysis.records()` is the one flat form (a
launch's keys, then a row's) that JSON rows, CSV columns and `frame()` share.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

SECTOR_BYTES = 32  # bytes per sector: bytes_moved = 32 x sectors


@dataclass
class Row:
    """Counts of one (space, array, op) over a whole launch; global rows fill requests..lines,
    shared rows wavefronts and bank_conflicts. Units are in the comments."""

    space: str  # "global" | "shared"
    array: str  # "A" | "B" | "C": the matrix accessed (shared rows: the one the array stages)
    op: str  # "load" | "store"
    width: int  # bytes per lane access
    instructions: int = 0  # warp instructions executed (a warp whose lanes are all predicated off still executes it)
    requests: int = 0  # instructions with at least one active lane
    sectors: int = 0  # distinct 32-byte sectors, summed over requests
    ideal_sectors: int = 0  # ceil(distinct bytes / 32), summed over requests
    lines: int = 0  # distinct 128-byte lines, summed over requests
    broadcast_requests: int = 0  # requests where two or more active lanes share an address
    active_lanes: int = 0  # lane accesses
    bytes_requested: int = 0  # active lanes x access width, bytes
    wavefronts: int = 0  # shared memory: data-pipe wavefronts; global atomics: sector passes (coalescer.atomic_passes)
    bank_conflicts: int = 0  # shared memory only: wavefronts beyond the ideal
    passes_bound: int = 0  # global atomics: requests whose sector passes are a lower bound (coalescer.atomic_passes_bound)
    line: int | None = None  # the .cu source line, when counted line by line (`analyze(by_line=True)`)
    pc: int | None = None  # the SASS instruction, when counted instruction by instruction (machine code)
    kind: str | None = None  # machine code: the opcode family (LDG, LD, LDGSTS, LDS, LDSM, REDG, ...)

    @property
    def ideal_wavefronts(self) -> int:
        """Shared memory: the wavefronts a conflict-free layout would take."""
        return self.wavefronts - self.bank_conflicts

    @property
    def bytes_moved(self) -> int:
        """Global memory: bytes the sectors carry between L1 and L2 (32 x sectors)."""
        return self.sectors * SECTOR_BYTES

    @property
    def key(self) -> tuple:
        """What rows are grouped by: (space, array, op), and per line also the width, so that a
        line's row stands for instructions of one width (what ncu's source view attributes);
        machine-code rows also by their opcode family."""
        base = (self.space, self.array, self.op) if self.line is None else (self.line, self.space, self.array, self.op,
                                                                              self.width)
        return base if self.kind is None else (*base, self.kind)

    def add(self, **counts: int) -> None:
        for name, value in counts.items():
            setattr(self, name, getattr(self, name) + int(value))

    def as_dict(self) -> dict:
        d = asdict(self)  # counters are plain ints: `add` converts
        for optional in ("line", "pc", "kind"):
            if d[optional] is None:
                del d[optional]
        return d

    def record(self) -> dict:
        """The published form: space, array, op, width, [line], every counter, bytes_moved."""
        d = {"space": self.space, "array": self.array, "op": self.op, "width": self.width}
        if self.kind is not None:
            d["kind"] = self.kind
        if self.line is not None:
            d["line"] = self.line
        if self.pc is not None:
            d["pc"] = self.pc
        d.update({name: getattr(self, name) for name in COUNTERS})
        d["bytes_moved"] = self.bytes_moved
        return d


#: The integer counters of a Row, in field order: every field but the keys.
COUNTERS: tuple[str, ...] = tuple(f.name for f in fields(Row)
                                 if f.name not in ("space", "array", "op", "width", "line", "pc", "kind"))

#: The keys of analyze's JSON document and of its CSV records (a row's, and --caches' per array)
#: that a scalar argument's name may not take over (Analysis.launch writes it `arg.NAME`)
RESERVED = frozenset({"schema", "kernel", "block", "grid", "rows", "warnings", "caches", "space", "array", "op",
                      "width", "kind", "line", "pc", "bytes_moved", *COUNTERS, "load_sectors", "l1_hit_sectors",
                      "l2_read_sectors", "l2_write_sectors", "dram_read_bytes", "dram_write_bytes"})


def block_text(shape: tuple[int, ...]) -> str:
    """(32, 8) -> '32x8', (32, 8, 4) -> '32x8x4' ((32, 8, 1) -> '32x8'): the one form of a block
    (and grid) in options, tables, JSON and CSV."""
    dims = list(shape)
    while len(dims) > 2 and dims[-1] == 1:
        dims.pop()
    return "x".join(str(d) for d in dims)


@dataclass
class Analysis:
    kernel: str
    M: int
    N: int
    K: int
    block: tuple[int, ...]
    grid: tuple[int, ...]
    rows: list[Row] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    params: dict | None = None  # machine-code analyses: every scalar argument of the launch
    source: str | None = None  # the .cu analysed (machine code), for --by-line's text
    engine: str = "model"  # "model" (hand-written), "sass" (machine code), "brute force"

    def launch_text(self) -> str:
        """`M=4096 N=4096 K=4096` for the ladder, every scalar argument for any other kernel."""
        if self.params is None:
            return f"M={self.M} N={self.N} K={self.K}"
        return " ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in self.params.items())

    def row(self, space: str, array: str, op: str) -> Row:
        for r in self.rows:
            if (r.space, r.array, r.op) == (space, array, op) and r.line is None:
                return r
        raise KeyError((space, array, op))

    def total(self, space: str | None, op: str | None, counter: str, kinds: tuple[str, ...] | None = None) -> int:
        """Sum of one counter over the arrays of (space, op) (None: any), of the opcode families
        `kinds` only if given (rows of hand models have no family and always count): what ncu's
        aggregate metrics see."""
        return sum(getattr(r, counter) for r in self.rows
                   if space in (None, r.space) and op in (None, r.op)
                   and (kinds is None or r.kind is None or r.kind in kinds))

    def per_access(self) -> "Analysis":
        """The rows summed over source lines: one per (space, array, op), in this order of first
        appearance (an analysis without lines comes back as it is)."""
        merged: dict[tuple, Row] = {}
        for r in self.rows:
            row = merged.setdefault((r.space, r.array, r.op, r.kind), Row(r.space, r.array, r.op, r.width, kind=r.kind))
            row.width = max(row.width, r.width)
            row.add(**{name: getattr(r, name) for name in COUNTERS})
        return Analysis(self.kernel, self.M, self.N, self.K, self.block, self.grid, list(merged.values()),
                        list(self.warnings), self.params, self.source, self.engine)

    def launch(self) -> dict:
        """kernel, M, N, K, block, grid: the keys every record starts with (a machine-code
        analysis: kernel, its scalar arguments, block, grid). A scalar argument named as one of
        the records' or the document's own keys (a kernel's `width`, `rows` or `block`) is
        `arg.NAME`, so that neither hides the other."""
        if self.params is not None:
            params = {f"arg.{k}" if k in RESERVED else k: v for k, v in self.params.items()}
            return {"kernel": self.kernel, **params, "block": block_text(self.block), "grid": block_text(self.grid)}
        return {"kernel": self.kernel, "M": self.M, "N": self.N, "K": self.K,
                "block": block_text(self.block), "grid": block_text(self.grid)}

    def records(self) -> list[dict]:
        """One flat dict per row: the launch's keys, then the row's (`Row.record`)."""
        launch = self.launch()
        return [{**launch, **r.record()} for r in self.rows]

    def frame(self):
        """The rows as a pandas DataFrame: kernel, M, N, K, block, grid, space, array, op, width,
        [line], every counter and bytes_moved (pandas is imported here, not at start-up)."""
        import pandas as pd

        return pd.DataFrame(self.records())
