"""Schedule metrics (Huang & Chang 2006, Section 2; Shih 2013, Section 4)."""

from __future__ import annotations

import numpy as np

__all__ = ["compute_metrics", "BOUNDED_SLOWDOWN_TAU"]

BOUNDED_SLOWDOWN_TAU = 10.0
"""Seconds below which execution times count as this long in the bounded slowdown."""


def compute_metrics(
    jobs: dict, start: np.ndarray, end: np.ndarray, cap: np.ndarray, queue_area: float
) -> dict:
    """Mean wait, average turnaround (ATT), waiting ratio both ways (per-job mean, and
    mean wait over mean execution time), bounded slowdown, utilization and the time-
    averaged queue length over ``[first submit, last end]``."""
    submit, procs = jobs["submit"], jobs["procs"]
    wait = start - submit
    execution = end - start
    turnaround = end - submit
    positive = execution > 0
    span = float(end.max() - submit.min())
    mean_exec = float(execution.mean())
    return {
        "jobs": int(submit.size),
        "mean_wait": float(wait.mean()),
        "att": float(turnaround.mean()),
        "mean_waiting_ratio": float((wait[positive] / execution[positive]).mean())
        if positive.any()
        else float("nan"),
        "waiting_ratio_of_means": float(wait.mean()) / mean_exec if mean_exec > 0 else float("nan"),
        "mean_bounded_slowdown": float(
            np.maximum(turnaround / np.maximum(execution, BOUNDED_SLOWDOWN_TAU), 1.0).mean()
        ),
        "utilization": float((procs * execution).sum() / (cap.sum() * span))
        if span > 0
        else float("nan"),
        "mean_queue_length": queue_area / span if span > 0 else 0.0,
        "makespan": span,
    }
