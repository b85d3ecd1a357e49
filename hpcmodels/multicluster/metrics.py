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
    # Each quantity is the same NumPy expression as ever (so the same bits); temporaries
    # are written in place and dropped as soon as they are used, so that no more than
    # three job-sized arrays live at once (issue 55's memory per job).
    span = float(end.max() - submit.min())
    execution = end - start
    mean_exec = float(execution.mean())
    positive = execution > 0
    busy = procs * execution
    utilization = float(busy.sum() / (cap.sum() * span)) if span > 0 else float("nan")
    del busy
    wait = start - submit
    mean_wait = float(wait.mean())
    if positive.any():
        ratio = wait[positive]
        ratio /= execution[positive]
        mean_waiting_ratio = float(ratio.mean())
        del ratio
    else:
        mean_waiting_ratio = float("nan")
    del wait, positive
    turnaround = end - submit
    att = float(turnaround.mean())
    slowdown = np.maximum(execution, BOUNDED_SLOWDOWN_TAU)
    del execution
    np.divide(turnaround, slowdown, out=slowdown)
    del turnaround
    np.maximum(slowdown, 1.0, out=slowdown)
    return {
        "jobs": int(submit.size),
        "mean_wait": mean_wait,
        "att": att,
        "mean_waiting_ratio": mean_waiting_ratio,
        "waiting_ratio_of_means": mean_wait / mean_exec if mean_exec > 0 else float("nan"),
        "mean_bounded_slowdown": float(slowdown.mean()),
        "utilization": utilization,
        "mean_queue_length": queue_area / span if span > 0 else 0.0,
        "makespan": span,
    }
