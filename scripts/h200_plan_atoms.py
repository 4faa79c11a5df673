"""Write scripts/h200_plan_atoms.json and scripts/h200_atoms_predictions.json: blind batch 15's
shared-memory histogram with ncu's per-instruction source counters at every shift, which its
catalog sizes collect at one (shift 0): whether an ATOMS whose lanes fall on 8 words of one bank
(shift 5) takes 8 wavefronts, and one whose lanes all fall on one word (shift 8) takes 1, as
warpsim counts them (predicted here, before the run); and count_from at n = 1,000,003, whose
per-instruction page the first H100 run could not parse. Run where nvcc is:
python scripts/h200_plan_atoms.py
"""

from __future__ import annotations

import json

from h200_plan_blind import REPO
from profiling import plan
from warpsim.sass import analyze

VOTES = REPO / "kernels/votes.cu"
KEYS = "keys=uint8_t[n]=(i*7)%256"


def main() -> None:
    launches, predictions = [], {}
    runs = [("shared_hist", {"n": 1000003, "shift": s, "keys": KEYS.split("=", 1)[1], "bins": "unsigned[256]"})
            for s in (0, 5, 8)]
    runs += [("shared_hist", {"n": 1000, "shift": 8, "keys": KEYS.split("=", 1)[1], "bins": "unsigned[256]"}),
             ("count_from", {"n": 1000003, "lane0": 0, "count": "int[1]"})]
    for entry, args in runs:
        launch = plan.build(VOTES, entry, "cdiv(n,256)", "256", args, REPO / "traces", per_array=True,
                            reference=f"votes.cu:{entry}")
        counts = analyze.analyze_launch(analyze.prepare(VOTES, entry, "cdiv(n,256)", "256", args))
        launches.append(launch)
        predictions[launch["id"]] = [{k: r.record()[k] for k in ("array", "space", "op", "instructions", "requests",
                                                                  "sectors", "wavefronts", "bank_conflicts")}
                                     for r in counts.rows]
        print(launch["id"], predictions[launch["id"]])
    out = plan.save(launches, REPO / "scripts/h200_plan_atoms.json")
    (REPO / "scripts/h200_atoms_predictions.json").write_text(json.dumps(predictions, indent=1) + "\n")
    print(f"wrote {out}: {len(launches)} launches, and their predictions")


if __name__ == "__main__":
    main()
