"""Turn one batch of warp instructions into the counters of a `Row` (pure numpy)."""

from __future__ import annotations

import numpy as np

from warpsim import banks
from warpsim.coalescer import atomic_passes, atomic_passes_bound, coalesce, local


def tally(space: str, width: int, addresses: np.ndarray, mask: np.ndarray, reach: np.ndarray,
          weight: np.ndarray, op: str = "load") -> dict[str, int]:
    """Counters for instructions given as rows of `addresses`/`mask` (n, 32) bytes/bool.

    `reach` (n,) says whether the warp executes the instruction at all (some lane reached it);
    `mask` says which lanes access memory (reached and not predicated off). `weight` (n,) is how
    many identical instructions each row stands for (1 in the brute-force path): int64, or an
    object array of Python integers where the sums could pass 2**63 (they are then exact). A global
    `op` "atomic" also counts its sector passes (`wavefronts`: warpsim.coalescer.atomic_passes) and the
    requests for which those are a lower bound (`passes_bound`: atomic_passes_bound)."""
    weight = np.asarray(weight)
    if weight.dtype != object:
        weight = weight.astype(np.int64)
    kind = object if weight.dtype == object else np.int64
    if space == "check":  # a claim of the engine's: its live lanes are violations
        return {"violations": int(np.dot(np.count_nonzero(mask, axis=1).astype(kind), weight))}
    if space in ("global", "local"):
        c = (coalesce if space == "global" else local)(addresses, mask, width)
        per_row = {
            "requests": c.requests,
            "sectors": c.sectors,
            "ideal_sectors": c.ideal_sectors,
            "lines": c.lines,
            "broadcast_requests": c.broadcast,
            "active_lanes": c.active,
        }
        if space == "global" and op == "atomic":
            per_row["wavefronts"] = atomic_passes(addresses, mask)
            per_row["passes_bound"] = atomic_passes_bound(addresses, mask)
    else:
        s = banks.shared_access(addresses, mask, width)
        per_row = {
            "requests": s.requests,
            "wavefronts": s.wavefronts,
            "bank_conflicts": s.bank_conflicts,
            "broadcast_requests": s.broadcast,
            "active_lanes": s.active,
        }
    out = {name: int(np.dot(v.astype(kind), weight)) for name, v in per_row.items()}
    out["instructions"] = int(np.dot(reach.astype(kind), weight))
    out["bytes_requested"] = out["active_lanes"] * width
    return out
