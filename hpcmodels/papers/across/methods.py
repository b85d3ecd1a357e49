"""The methods notebook 06 puts side by side, each named after the paper that studies
it, and one run of a method on the common ground (:func:`run_method`).

Two kinds: an *allocator* picks clusters for the head of one global queue (the engine's
allocation policies: Shih 2013's TLA, AI2, best fit and fastest first; Huang & Chang
2006's first, best, worst, median and random fit), under a selection policy (FCFS, EASY
or conservative backfilling); a *dispatcher* sends each job on arrival to one cluster by
fixed fractions (He et al. 2006's ORT and capacity-weighted fractions, round robin or
random; :mod:`hpcmodels.multicluster.dispatch`), after which each cluster serves its own
queue with the selection policy. He's fractions come from an M/M/m model whose
assumptions (sequential jobs, Poisson arrivals, exponential service) a trace of parallel
jobs does not meet: those rows are shown anyway and marked (:data:`MODEL_OUTSIDE`)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from ...errors import check_choice, check_int
from ...multicluster import simulate
from ...multicluster.dispatch import dispatch, queueing_fractions, simulate_dispatched


@dataclass(frozen=True)
class Method:
    """One method: ``allocation`` (an engine allocation policy) for an allocator, or
    ``fractions`` (:data:`~hpcmodels.multicluster.dispatch.FRACTION_RULES`) and
    ``order`` for a dispatcher; ``paper`` says who studies it."""

    name: str
    paper: str
    allocation: str | None = None
    fractions: str | None = None
    order: str | None = None

    @property
    def kind(self) -> str:
        return "allocator" if self.allocation else "dispatcher"


METHODS = {
    m.name: m
    for m in (
        Method("TLA", "Shih 2013", allocation="tla"),
        Method("AI2", "Shih 2013", allocation="ai2"),
        Method("Fastest First", "Shih 2013", allocation="fastest_first"),
        Method("Best Fit", "Shih 2013, Huang 2006", allocation="best_fit"),
        Method("First Fit", "Huang 2006", allocation="first_fit"),
        Method("Worst Fit", "Huang 2006", allocation="worst_fit"),
        Method("Median Fit", "Huang 2006", allocation="median_fit"),
        Method("Random Fit", "Huang 2006", allocation="random_fit"),
        Method("ORT, round robin", "He 2006", fractions="ort", order="round_robin"),
        Method("ORT, random", "He 2006", fractions="ort", order="random"),
        Method("Weighted, round robin", "He 2006", fractions="weighted", order="round_robin"),
        Method("Round robin", "He 2006 (baseline)", fractions="equal", order="round_robin"),
        Method("Random", "He 2006 (baseline)", fractions="equal", order="random"),
    )
}
MODEL_OUTSIDE = {name for name, m in METHODS.items() if m.fractions in ("ort", "weighted")}
"""Methods whose fractions come from He's M/M/m model, run outside its assumptions."""
SELECTIONS = {"FCFS": "fcfs", "EASY": "easy", "Conservative": "conservative"}
METRICS = {
    "att": "average turnaround time (s)",
    "mean_bounded_slowdown": "mean bounded slowdown",
    "mean_wait": "mean wait (s)",
}


def run_method(
    name: str, jobs: pd.DataFrame, clusters, selection: str = "FCFS", seed: int = 0
) -> dict:
    """Method ``name`` (:data:`METHODS`) on ``jobs`` and ``clusters`` under ``selection``
    (:data:`SELECTIONS`); ``seed`` seeds random fit and random dispatch. Returns the
    metrics of :data:`METRICS`, the utilization, and ``seconds_per_job``: the run's wall
    time per job, what the method's decisions cost (a dispatcher's includes computing
    its fractions)."""
    method = METHODS[check_choice("method", name, list(METHODS))]
    policy = SELECTIONS[check_choice("selection", selection, list(SELECTIONS))]
    seed = check_int("seed", seed, minimum=0)
    start = time.perf_counter()
    if method.kind == "allocator":
        result = simulate(jobs, clusters, policy, method.allocation, seed=seed)
    else:
        alpha = queueing_fractions(jobs, clusters, method.fractions)
        sent = dispatch(jobs, clusters, alpha, method.order, seed=seed)
        result = simulate_dispatched(sent, clusters, policy)
    seconds = time.perf_counter() - start
    out = {key: float(result.metrics[key]) for key in (*METRICS, "utilization")}
    out["seconds_per_job"] = seconds / len(jobs)
    return out
