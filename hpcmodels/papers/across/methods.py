"""The methods notebook 06 puts side by side, each named after the paper that studies
it, and one run of a method on the common ground (:func:`run_method`).

Three kinds: an *allocator* picks clusters for the head of one global queue (the engine's
allocation policies: Shih 2013's TLA, AI2, best fit and fastest first; Huang & Chang
2006's first, best, worst, median and random fit), under a selection policy (FCFS, EASY
or conservative backfilling); a *dispatcher* sends each job on arrival to one cluster by
fixed fractions (He et al. 2006's ORT and capacity-weighted fractions, round robin or
random; :mod:`hpcmodels.multicluster.dispatch`), after which each cluster serves its own
queue with the selection policy. He's fractions come from an M/M/m model whose
assumptions (sequential jobs, Poisson arrivals, exponential service) a trace of parallel
jobs does not meet: those rows are shown anyway and marked (:data:`MODEL_OUTSIDE`).

A *co-allocator* may split a job over several clusters when no single cluster has room
for it now: Jones et al. 2005's Migration Only and No Share baselines, its First-Fit
strategy and modules A1, B1 and B3 (local, then migration, then the module, on the
jobs' clusters of arrival), and Huang & Chang's heuristics (best fit, then fixed order,
smaller first or larger first) and integrated approach (smallest first, best fit,
larger first). A co-allocated job pays for its links as in Jones's model
(:class:`Links`: every cluster's link to the central switch, the jobs' bisection
bandwidth, Eq. 1's dynamic slowdown), or, with ``links=None``, Huang's fixed slowdown
ratio (which Jones's modules cannot use: they read the links)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from ...bandwidth import SECTION6
from ...bounds import MAX_SEED
from ...errors import InvalidParameter, check_choice, check_int, check_real
from ...multicluster import as_system, simulate
from ...multicluster.dispatch import dispatch, queueing_fractions, simulate_dispatched
from ...multicluster.network import Network


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
    coallocation: str | None = None
    selection: str | None = None  # a method that brings its own (Huang's integrated)
    group: str = "allocation"

    @property
    def kind(self) -> str:
        return "allocator" if self.allocation else "dispatcher"

    @property
    def reads_links(self) -> bool:
        """Jones's modules decide from the links' loads: no fixed-ratio model for them."""
        return self.coallocation in ("a1", "b1", "b2", "b3", "b4")


@dataclass(frozen=True)
class Links:
    """Jones 2005's network on the common ground (Section 3.1; its Section 6 values by
    default): every cluster's link of ``link_mbps`` to a central switch, every job's
    bisection bandwidth ``bsbw`` (Mbps), A1's link saturation threshold ``lslt``, B3's
    ``chunk`` and the jobs' computation fraction ``compute_fraction`` (K)."""

    bsbw: float = 500.0
    link_mbps: float = SECTION6.link_mbps
    lslt: float = 1.0
    chunk: float = 0.8
    compute_fraction: float = SECTION6.compute_fraction

    def __post_init__(self) -> None:
        self.network()  # Network's checks, naming the field, at construction

    def network(self) -> Network:
        return Network(
            bsbw=self.bsbw,
            link_mbps=self.link_mbps,
            lslt=self.lslt,
            chunk=self.chunk,
            compute_fraction=self.compute_fraction,
        )


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
        *(
            Method(name, "Jones 2005", group="co-allocation", **kw)
            for name, kw in {
                "No Share": dict(allocation="local_only"),
                "Migration Only": dict(allocation="local_first"),
                "Jones First-Fit": dict(allocation="local_first", coallocation="larger_first"),
                "A1": dict(allocation="local_first", coallocation="a1"),
                "B1": dict(allocation="local_first", coallocation="b1"),
                "B3": dict(allocation="local_first", coallocation="b3"),
            }.items()
        ),
        *(
            Method(name, "Huang 2006", group="co-allocation", allocation="best_fit", **kw)
            for name, kw in {
                "Best Fit, no co-allocation": {},
                "Fixed Order": dict(coallocation="fixed_order"),
                "Smaller First": dict(coallocation="smaller_first"),
                "Larger First": dict(coallocation="larger_first"),
                "Integrated": dict(coallocation="larger_first", selection="smallest_first"),
            }.items()
        ),
    )
}
GROUPS = {
    g: [n for n, m in METHODS.items() if m.group == g] for g in ("allocation", "co-allocation")
}
MODEL_OUTSIDE = {name for name, m in METHODS.items() if m.fractions in ("ort", "weighted")}
"""Methods whose fractions come from He's M/M/m model, run outside its assumptions."""
DEFAULT_LINKS = Links()
SELECTIONS = {
    "FCFS": "fcfs",
    "FPFS": "first_available",
    "EASY": "easy",
    "Conservative": "conservative",
}
METRICS = {
    "att": "average turnaround time (s)",
    "mean_bounded_slowdown": "mean bounded slowdown",
    "mean_wait": "mean wait (s)",
}


def run_method(
    name: str,
    jobs: pd.DataFrame,
    clusters,
    selection: str = "FCFS",
    seed: int = 0,
    *,
    links: Links | None = DEFAULT_LINKS,
    slowdown: float = 1.0,
) -> dict:
    """Method ``name`` (:data:`METHODS`) on ``jobs`` and ``clusters`` under ``selection``
    (:data:`SELECTIONS`; the integrated approach keeps its own smallest-first order);
    ``seed`` seeds random fit and random dispatch. A co-allocated job pays on ``links``
    (:class:`Links`) or, with ``links=None``, runs ``slowdown`` times longer (Huang's
    ratio): a ``slowdown`` other than 1 for a method that does not co-allocate, or
    beside links, would not be read and is an
    :class:`~hpcmodels.errors.InvalidParameter` naming it. ``links`` is part of the
    setting of every method (:func:`.compare.ground_point` runs them all on the same
    links); only the co-allocating methods read it. Returns the metrics of
    :data:`METRICS`, the utilization, the share of jobs co-allocated and
    ``seconds_per_job``: the run's wall time per job, what the method's decisions cost
    (a dispatcher's includes computing its fractions). ``seed`` is a whole number in
    [0, 2**63 - 1]."""
    method = METHODS[check_choice("method", name, list(METHODS))]
    clusters = as_system(clusters)  # checked once, for every call below
    policy = SELECTIONS[check_choice("selection", selection, list(SELECTIONS))]
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    slowdown = check_real("slowdown", slowdown, at_least=1)
    if links is not None and not isinstance(links, Links):
        raise InvalidParameter(f"links must be a Links or None, got {type(links).__name__}")
    if links is None and method.reads_links:
        raise InvalidParameter(f"method {name!r} reads the links' loads: pass links=Links(...)")
    coallocates = method.kind == "allocator" and method.coallocation is not None
    if slowdown != 1.0 and not (coallocates and links is None):
        why = "with links=None" if coallocates else "to a method that co-allocates"
        raise InvalidParameter(
            f"slowdown = {slowdown!r} (Huang's fixed ratio for co-allocated jobs) applies "
            f"only {why}; method {name!r} would ignore it"
        )
    start = time.perf_counter()
    if method.kind == "allocator":
        cost = {}
        if method.coallocation is not None:
            cost = dict(slowdown=slowdown) if links is None else dict(network=links.network())
        result = simulate(
            jobs,
            clusters,
            method.selection or policy,
            method.allocation,
            coallocation=method.coallocation,
            seed=seed,
            **cost,
        )
    else:
        alpha = queueing_fractions(jobs, clusters, method.fractions)
        sent = dispatch(jobs, clusters, alpha, method.order, seed=seed)
        result = simulate_dispatched(sent, clusters, policy)
    seconds = time.perf_counter() - start
    out = {key: float(result.metrics[key]) for key in (*METRICS, "utilization")}
    out["coallocated"] = float((result.jobs["cluster"] == -1).mean())
    out["seconds_per_job"] = seconds / len(jobs)
    return out


def methods_table() -> pd.DataFrame:
    """Every method: its group, kind, the paper that studies it and what it runs in the
    engine (the policies, the dispatch fractions and order), for notebook 06's opening."""
    rows = []
    for name, m in METHODS.items():
        if m.kind == "dispatcher":
            runs = f"dispatch by {m.fractions} fractions, {m.order.replace('_', ' ')}; local queues"
        else:
            runs = m.allocation.replace("_", " ")
            if m.coallocation:
                runs += f" + co-allocation {m.coallocation.replace('_', ' ')}"
            if m.selection:
                runs += f"; own queue order: {m.selection.replace('_', ' ')}"
        outside = (
            "M/M/m fractions on parallel jobs (outside the model)" if name in MODEL_OUTSIDE else ""
        )
        rows.append(
            dict(method=name, group=m.group, kind=m.kind, paper=m.paper, runs=runs, note=outside)
        )
    return pd.DataFrame(rows)
