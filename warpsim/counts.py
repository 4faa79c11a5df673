"""The result of an analysis: one row per (space, array, op), plain integers, and its frame."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

#: Integer counters of one row. Global rows fill requests..lines; shared rows fill
#: wavefronts/bank_conflicts too. `instructions` counts warp instructions executed (a warp whose
#: lanes are all predicated off still executes it); `requests` counts those with >= 1 active lane.
COUNTERS = (
    "instructions",      # warp-level instructions executed
    "requests",          # instructions with at least one active lane
    "sectors",           # distinct 32-byte sectors, summed over requests
    "ideal_sectors",     # ceil(distinct bytes / 32), summed over requests
    "lines",             # distinct 128-byte lines, summed over requests
    "broadcast_requests",  # requests where two or more active lanes share an address
    "active_lanes",      # lane accesses
    "bytes_requested",   # active lanes x access width, bytes
    "wavefronts",        # shared memory only: data-pipe wavefronts
    "bank_conflicts",    # shared memory only: wavefronts beyond the ideal
)


@dataclass
class Row:
    space: str  # "global" | "shared"
    array: str  # "A" | "B" | "C" | shared array name's source matrix
    op: str  # "load" | "store"
    width: int  # bytes per lane access
    instructions: int = 0
    requests: int = 0
    sectors: int = 0
    ideal_sectors: int = 0
    lines: int = 0
    broadcast_requests: int = 0
    active_lanes: int = 0
    bytes_requested: int = 0
    wavefronts: int = 0
    bank_conflicts: int = 0
    line: int | None = None  # the .cu source line, when counted line by line (`analyze(by_line=True)`)
    pc: int | None = None  # the SASS instruction, when counted instruction by instruction (machine code)
    kind: str | None = None  # machine code: the opcode family (LDG, LD, LDGSTS, LDS, LDSM, REDG, ...)

    @property
    def ideal_wavefronts(self) -> int:
        """Shared memory: the wavefronts a conflict-free layout would take."""
        return self.wavefronts - self.bank_conflicts

    @property
    def key(self) -> tuple:
        base = (self.space, self.array, self.op) if self.line is None else (self.line, self.space, self.array, self.op)
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

    def frame(self):
        """The rows as a pandas DataFrame (pandas is imported here, not at start-up)."""
        import pandas as pd

        return pd.DataFrame([r.as_dict() for r in self.rows])
