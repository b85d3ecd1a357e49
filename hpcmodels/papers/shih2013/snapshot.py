"""Shih et al. 2013, Section 3: TLA's scoring step on the Fig. 4 snapshot (Table 1),
and Fig. 9's replay with r2's actual end. The snapshot is a reconstruction consistent
with Table 1 and Fig. 9 (``docs/readings.md``)."""

from __future__ import annotations

import pandas as pd

from ...multicluster import tla_scores
from ..verdicts import compare_value
from .published import (
    FIG9_ATT,
    R2_ACTUAL_END,
    SNAPSHOT_CLUSTERS,
    SNAPSHOT_RUNNING,
    SNAPSHOT_WAITING,
    TABLE1,
    TABLE1_AVERAGE,
)
from .rows import claim_rows


def snapshot_scores(r2_end: float | None = None) -> dict:
    """TLA's scores of the Fig. 4 snapshot (``r2_end``: r2's end, default its estimate
    5; Fig. 9 replays with the actual end 1, where the scoring simulation with exact
    runtimes is the FCFS + fastest-first replay)."""
    running = list(SNAPSHOT_RUNNING)
    if r2_end is not None:
        running[1] = running[1]._replace(end=r2_end)
    return tla_scores(list(SNAPSHOT_CLUSTERS), running, list(SNAPSHOT_WAITING))


def snapshot_table() -> pd.DataFrame:
    """Table 1 beside ours: each waiting job's turnaround when job 1 goes to A or B,
    with the simulated start and cluster of each job."""
    scores = snapshot_scores()
    frame = pd.DataFrame(
        {
            "procs": [w.procs for w in SNAPSHOT_WAITING],
            "submit": [w.submit for w in SNAPSHOT_WAITING],
            "estimate": [w.estimate for w in SNAPSHOT_WAITING],
        },
        index=TABLE1.index,
    )
    for c in ("A", "B"):
        frame[f"paper {c}"] = TABLE1[f"score {c}"].astype(float)
        frame[f"ours {c}"] = scores[c].turnaround
        frame[f"start, cluster ({c})"] = [
            f"{s:g} on {k}" for s, k in zip(scores[c].starts, scores[c].clusters, strict=True)
        ]
    return frame


def snapshot_rows() -> list[dict]:
    """Table 1 and Fig. 9 as report rows."""
    scores = snapshot_scores()
    rows = []
    for c in ("A", "B"):
        for job, paper in TABLE1[f"score {c}"].items():
            ours = scores[c].turnaround[job - 1]
            cause = ""
            if (c, job) == ("B", 4):
                cause = (
                    f"slip in the paper: job 4 (7 processors) starts at "
                    f"t = {scores['B'].starts[3]:g} in the simulation, when job 3 frees "
                    "cluster A; before that no cluster has 7 free processors, and no "
                    "snapshot consistent with the other seven scores gives 6 (docs/readings.md)"
                )
            rows.append(
                compare_value(
                    "Table 1",
                    f"turnaround of job {job}, job 1 on {c}",
                    paper,
                    ours,
                    kind="time",
                    cause=cause,
                )
            )
        row = compare_value(
            "Table 1", f"ATT, job 1 on {c}", TABLE1_AVERAGE[c], scores[c].att, kind="time"
        )
        if c == "B":  # the printed 8 is exact, (15 + 5 + 6 + 6) / 4: not a rounding of 8.25
            row.update(
                verdict="differs",
                reason="the paper's 8 is the exact mean of its printed turnarounds "
                "(15 + 5 + 6 + 6) / 4; ours follows the job-4 slip (7, not 6)",
            )
        rows.append(row)
    replay = snapshot_scores(R2_ACTUAL_END)
    for c in ("A", "B"):
        rows.append(
            compare_value(
                "Fig. 9",
                f"ATT replayed with r2 ending at t = 1, job 1 on {c}",
                FIG9_ATT[c],
                replay[c].att,
                kind="time",
            )
        )
    best = min(scores, key=lambda c: scores[c].att)
    rows += claim_rows("Fig. 4", [(best == "B", best)])
    return rows
