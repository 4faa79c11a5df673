"""How the H100's L2 curve scale decides blind batches 35 and 36's DRAM reads (the ladder at 0.24x-3.84x
the H100's L2): each launch's L2 events are
built once with the H100 model (warpsim.caches.hardware.H100) and replayed through l2.simulate with
the H200's curve (l2_effective, l2_softness and their staggered pair) scaled by 5/6 (the model's
choice, from the L2 sizes) and by other factors. Prints, per launch, the relative error of the
predicted DRAM reads against each of its two measurements (traces/h100/BATCH), and per batch and scale
how many figures lie within their tolerance (5% where the arrays fit in the L2, else 15%). A check of
the model's choice against blind batches, not a fit (docs/CACHES.md).
    python scripts/h100_l2_scale.py [BATCH ...]     # blind35 blind36 by default; about 8 minutes
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from profiling.traces import load_trace  # noqa: E402
from warpsim import caches  # noqa: E402
from warpsim.caches import l2, model  # noqa: E402
from warpsim.caches.hardware import H100, H200, l2_curve_scaled  # noqa: E402

#: the scales of the H200's L2 curve tried, as (numerator, denominator): 5/6 is the model's
SCALES = ((5, 6), (9, 10), (19, 20), (1, 1))
DRAM = "dram__bytes_read.sum"


def main(batches: list[str]) -> None:
    seen = {}
    simulate = l2.simulate

    def recording(ev, capacity, width, lockstep):
        seen["args"] = (ev, capacity, width, lockstep)
        return simulate(ev, capacity, width, lockstep)

    model.l2.simulate = recording
    within = {(b, s): 0 for b in batches for s in SCALES}
    for batch, key in [(b, k) for b in batches for k in _predicted(b)]:
        runs = [ROOT / "traces" / "h100" / batch / run / "sass" for run in ("traces", "run2")]
        kernel, stem = key.split("/")
        size = int(stem.split("__M")[1].split("_")[0])
        measured = [load_trace(run / kernel / f"{stem}.json").metrics[DRAM] for run in runs]
        p = caches.caches_for(kernel, size, size, size, hw=H100)
        ev, capacity, width, lockstep = seen["args"]
        tolerance = 0.05 if p.fits else 0.15
        # the replay gives the arrays' DRAM reads; the fixed cost (code, 2.2 KB) is the model's as is
        base = float(simulate(ev, capacity, width, lockstep).dram_read.sum())
        errors = []
        for s in SCALES:
            curve = model.l2_curve(l2_curve_scaled(H200, *s), p.dispatch)
            scaled = float(simulate(ev, *curve, lockstep).dram_read.sum())
            dram = p.total.dram_read_bytes - base + scaled
            errs = [dram / m - 1 for m in measured]
            within[batch, s] += sum(abs(e) <= tolerance for e in errs)
            errors.append(" ".join(f"{e:+.3f}" for e in errs))
        print(f"{key:72s} {p.footprint_bytes / H100.l2:5.2f}x  " + " | ".join(errors), flush=True)
    print("scale of the H200's L2 curve: DRAM read figures within tolerance")
    for s in SCALES:
        each = [f"{b} {within[b, s]} of {2 * len(_predicted(b))}" for b in batches]
        print(f"  {s[0]}/{s[1]}: " + ", ".join(each) + f"; together {sum(within[b, s] for b in batches)}")


def _predicted(batch: str) -> dict:
    return json.loads((ROOT / "scripts" / f"h200_{batch}_predictions.json").read_text())


if __name__ == "__main__":
    main(sys.argv[1:] or ["blind35", "blind36"])
