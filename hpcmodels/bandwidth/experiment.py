"""Jones et al. 2005's experiments: the synthetic multi-cluster workload and every
strategy as one call per point, run on the engine (:func:`hpcmodels.multicluster.simulate`).

Workload (Section 3.8): each of ``clusters`` clusters of ``nodes`` single-processor nodes
receives its own Poisson stream of ``jobs_per_cluster`` jobs (exponential inter-arrival
times of mean ``mean_interarrival``), each job exponential execution time ``T_E`` of
mean ``mean_runtime`` and ``UNIF[min_nodes, max_nodes]`` nodes (whole numbers, both
ends included), computation fraction ``K``. Section 4.3 (Figs. 9-11): 100 nodes, 1000
Mbps links, 4,000,000 jobs per cluster, UNIF[10, 90], means 150 s and 225 s, K = 0.7.
Section 6.1 (Figs. 13-27): 4 clusters, 400,000 jobs per cluster, UNIF[10, 50], means
150 s and 450 s, K = 0.7.

Strategies (job selection FPFS, Section 4.1: ``selection="first_available"`` starts
every job that fits in one pass over the queue, ``"first_available_once"`` only the
first one per scheduling event; see :data:`SELECTION_READINGS`):

* ``no_share``: every job on its own cluster (``local_only``);
* ``migration_only``: local, else migration to the cluster with the fewest free nodes
  that fit (LA -> MIG), no co-allocation;
* ``ideal``: LA -> MIG -> First-Fit co-allocation on links of unlimited bandwidth;
* ``first_fit``: LA -> MIG -> First-Fit co-allocation (most free nodes first, Section
  4.2) under the bandwidth-centric model;
* ``fixed_penalty``: as ``first_fit``, but every co-allocated job runs ``penalty``
  times its execution time, links ignored (Section 4.3's fixed-penalty model);
* ``a1``, ``b1``, ``b2``, ``b3``, ``b4``: LA -> MIG -> that module (Section 5) under
  the bandwidth-centric model.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import pandas as pd

from ..bounds import MAX_CLUSTERS, MAX_JOBS, MAX_SEED
from ..errors import (
    InvalidParameter,
    InvalidType,
    check_bool,
    check_frame,
    check_int,
    check_real,
)
from ..multicluster import Cluster, simulate
from ..multicluster.bound import turnaround_above
from ..multicluster.system import MAX_PROCS
from ..stats import batch_means_ci
from .network import Network

__all__ = [
    "Setup",
    "SECTION4",
    "SECTION6",
    "STRATEGIES",
    "SELECTION_READINGS",
    "workload",
    "run_point",
    "coallocation_penalty",
    "batch_means_ci",
]

STRATEGIES = (
    "no_share",
    "migration_only",
    "ideal",
    "first_fit",
    "fixed_penalty",
    "a1",
    "b1",
    "b2",
    "b3",
    "b4",
)
SELECTION_READINGS = {
    "first_available": "every job that fits, in one pass from head to tail (default)",
    "first_available_once": "only the first job that fits, once per scheduling event",
}


@dataclass(frozen=True)
class Setup:
    """A multi-cluster and its synthetic workload (module docstring).

    Counts are whole numbers >= 1 (``100.0`` is stored as 100) with ``min_nodes <=
    max_nodes <= nodes``: ``clusters`` at most 10**6
    (:data:`hpcmodels.bounds.MAX_CLUSTERS`), ``nodes`` at most 2**53 with ``clusters x
    nodes`` at most 2**53 (:data:`hpcmodels.bounds.MAX_PROCS`), ``clusters x
    jobs_per_cluster`` at most 10**8 (:data:`hpcmodels.bounds.MAX_JOBS`: the jobs of one
    run must fit in memory); ``link_mbps`` and the means finite numbers > 0;
    ``compute_fraction`` in [0, 1]. Bools, strings, NaN and inf are an
    :class:`~hpcmodels.errors.InvalidParameter` naming the field."""

    clusters: int = 4
    nodes: int = 100
    link_mbps: float = 1000.0
    jobs_per_cluster: int = 400_000
    mean_interarrival: float = 150.0
    mean_runtime: float = 450.0
    min_nodes: int = 10
    max_nodes: int = 50
    compute_fraction: float = 0.7

    def __post_init__(self) -> None:
        limits = {"clusters": MAX_CLUSTERS, "jobs_per_cluster": MAX_JOBS}
        for name in ("clusters", "nodes", "jobs_per_cluster", "min_nodes", "max_nodes"):
            value = check_int(
                f"Setup.{name}", getattr(self, name), minimum=1, maximum=limits.get(name, MAX_PROCS)
            )
            object.__setattr__(self, name, value)
        for name in ("link_mbps", "mean_interarrival", "mean_runtime"):
            value = check_real(f"Setup.{name}", getattr(self, name), above=0)
            object.__setattr__(self, name, value)
        if not self.min_nodes <= self.max_nodes <= self.nodes:
            raise InvalidParameter(
                f"Setup needs min_nodes <= max_nodes <= nodes, got "
                f"{self.min_nodes}, {self.max_nodes}, {self.nodes}"
            )
        for total, what, limit, text in (
            (self.clusters * self.nodes, "clusters x nodes", MAX_PROCS, "2**53"),
            (
                self.clusters * self.jobs_per_cluster,
                "clusters x jobs_per_cluster",
                MAX_JOBS,
                "10**8 jobs (memory)",
            ),
        ):
            if total > limit:
                raise InvalidParameter(f"Setup: {what} = {total} exceeds {text}")
        value = check_real("Setup.compute_fraction", self.compute_fraction, at_least=0, at_most=1)
        object.__setattr__(self, "compute_fraction", value)

    @property
    def system(self) -> list[Cluster]:
        return [Cluster(f"C{i + 1}", self.nodes) for i in range(self.clusters)]

    @property
    def offered_load(self) -> float:
        """Mean node demand over capacity: mean nodes x mean runtime / (interarrival x
        nodes)."""
        mean_nodes = 0.5 * (self.min_nodes + self.max_nodes)
        return mean_nodes * self.mean_runtime / (self.mean_interarrival * self.nodes)

    def scaled(self, jobs_per_cluster: int) -> Setup:
        """The same set-up with another stream length."""
        return replace(self, jobs_per_cluster=jobs_per_cluster)


SECTION4 = Setup(jobs_per_cluster=4_000_000, mean_runtime=225.0, max_nodes=90)
SECTION6 = Setup()


def workload(setup: Setup, seed: int = 0) -> pd.DataFrame:
    """The set-up's jobs (``submit``, ``runtime``, ``procs``, ``origin``) in submit
    order, drawn from ``numpy.random.default_rng(seed)``: per cluster in turn its
    inter-arrival gaps, execution times and node counts. Cached (the frame is shared:
    do not modify it).

    ``setup`` is a :class:`Setup` (else :class:`~hpcmodels.errors.InvalidType`);
    ``seed`` a whole number in [0, 2**63 - 1] (``3.0`` is read as 3 and shares the cache
    entry of 3); bools, strings and lists are refused."""
    if not isinstance(setup, Setup):
        raise InvalidType(f"setup must be a Setup, got {type(setup).__name__}")
    return _workload(setup, check_int("seed", seed, minimum=0, maximum=MAX_SEED))


@lru_cache(maxsize=4)
def _workload(setup: Setup, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = setup.jobs_per_cluster
    parts = []
    for c in range(setup.clusters):
        submit = np.cumsum(rng.exponential(setup.mean_interarrival, n))
        runtime = rng.exponential(setup.mean_runtime, n)
        procs = rng.integers(setup.min_nodes, setup.max_nodes + 1, n)
        parts.append(
            pd.DataFrame(
                {
                    "submit": submit,
                    "runtime": runtime,
                    "procs": procs,
                    "origin": np.full(n, c, np.int64),
                }
            )
        )
    jobs = pd.concat(parts, ignore_index=True)
    return jobs.sort_values("submit", kind="stable", ignore_index=True)


def coallocation_penalty(result_jobs: pd.DataFrame) -> float:
    """Mean over co-allocated jobs of actual run time / original execution time (the
    co-allocation penalty of Section 4.3); NaN when none was co-allocated.
    ``result_jobs`` is a DataFrame with ``cluster``, ``runtime``, ``start`` and ``end``
    (``simulate(...).jobs``)."""
    check_frame("result_jobs", result_jobs, ("cluster", "runtime", "start", "end"))
    co = result_jobs[(result_jobs["cluster"] == -1) & (result_jobs["runtime"] > 0)]
    times = co[["runtime", "start", "end"]]
    if not all(kind in "iuf" for kind in times.dtypes.map(lambda d: d.kind)) or not np.all(
        np.isfinite(times.to_numpy(dtype=float))
    ):
        raise InvalidParameter(
            "result_jobs: co-allocated jobs need finite numeric runtime, "
            "start and end (simulate(...).jobs)"
        )
    if co.empty:
        return float("nan")
    return float(((co["end"] - co["start"]) / co["runtime"]).mean())


def _plan(
    strategy: str, setup: Setup, bsbw: float, lslt: float, chunk: float, penalty: float | None
) -> dict:
    if not isinstance(strategy, str) or strategy not in STRATEGIES:
        raise InvalidParameter(f"unknown strategy {strategy!r}; choose one of {list(STRATEGIES)}")
    if penalty is not None and strategy != "fixed_penalty":
        raise InvalidParameter(
            f"penalty = {penalty!r} applies only to strategy 'fixed_penalty' (co-allocated "
            f"jobs run penalty times longer); strategy {strategy!r} would ignore it: pass "
            "penalty=None"
        )
    if strategy == "no_share":
        return dict(allocation="local_only")
    if strategy == "migration_only":
        return dict(allocation="local_first")
    plan = dict(allocation="local_first", coallocation="larger_first")
    if strategy == "ideal":
        return plan
    if strategy == "fixed_penalty":
        if penalty is None:
            raise InvalidParameter(
                "strategy 'fixed_penalty' needs penalty= (the measured mean penalty)"
            )
        return dict(plan, slowdown=check_real("penalty", penalty, at_least=1))
    if strategy != "first_fit":
        plan["coallocation"] = strategy
    plan["network"] = Network(
        bsbw=bsbw,
        link_mbps=setup.link_mbps,
        lslt=lslt,
        chunk=chunk,
        compute_fraction=setup.compute_fraction,
    )
    return plan


def _checked(strategy, setup, bsbw, lslt, chunk, penalty, selection, seed, debug):
    """:func:`run_point`'s checks of its arguments, and the run's plan (:func:`_plan`)."""
    if not isinstance(setup, Setup):
        raise InvalidType(f"setup must be a Setup, got {type(setup).__name__}")
    bsbw = check_real("bsbw", bsbw, at_least=0)
    lslt = check_real("lslt", lslt, at_least=0)
    chunk = check_real("chunk", chunk, at_least=0, at_most=1)
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    debug = check_bool("debug", debug)
    if not isinstance(selection, str) or selection not in SELECTION_READINGS:
        raise InvalidParameter(
            f"unknown selection {selection!r}; choose one of {list(SELECTION_READINGS)}"
        )
    return bsbw, lslt, chunk, seed, debug, _plan(strategy, setup, bsbw, lslt, chunk, penalty)


def att_gap(
    strategy: str,
    setup: Setup,
    level: float,
    *,
    bsbw: float = 500.0,
    lslt: float = 1.0,
    chunk: float = 0.8,
    penalty: float | None = None,
    selection: str = "first_available",
    seed: int = 0,
) -> float:
    """``ATT - level`` of :func:`run_point`'s run (same arguments) when the ATT is at
    most ``level`` (exactly run_point's ATT), else a positive number: the run stops as
    soon as a lower bound of its ATT exceeds ``level``
    (:func:`hpcmodels.multicluster.bound.turnaround_above`), which spares a search for
    a crossing (a bisection needs only the sign) the runs deep in overload."""
    _, _, _, seed, _, plan = _checked(
        strategy, setup, bsbw, lslt, chunk, penalty, selection, seed, False
    )
    value, _ = turnaround_above(workload(setup, seed), setup.system, level, selection, **plan)
    return value - level


def run_point(
    strategy: str,
    setup: Setup = SECTION6,
    *,
    bsbw: float = 500.0,
    lslt: float = 1.0,
    chunk: float = 0.8,
    penalty: float | None = None,
    selection: str = "first_available",
    seed: int = 0,
    debug: bool = False,
) -> dict:
    """One strategy at one point: average turnaround time ``att``, ``mean_wait``, the
    share of jobs co-allocated, their mean ``penalty`` (actual / original run time),
    the highest link saturation level reached (``max_link_level``, load over capacity
    right after a start; NaN without links), the co-allocation decisions asked of the
    module (``module_calls``) and the wall ``seconds``.

    ``setup`` is a :class:`Setup` (else :class:`~hpcmodels.errors.InvalidType`);
    ``bsbw`` and ``lslt`` finite numbers >= 0 and ``chunk`` one in [0, 1], checked for
    every strategy (they are echoed in the row); ``penalty`` a finite number >= 1 for
    ``fixed_penalty``, which needs it, and None for every other strategy (a penalty
    there would be ignored: an :class:`~hpcmodels.errors.InvalidParameter` naming
    ``penalty``); ``seed`` a whole number in [0, 2**63 - 1]; ``debug`` a bool."""
    bsbw, lslt, chunk, seed, debug, plan = _checked(
        strategy, setup, bsbw, lslt, chunk, penalty, selection, seed, debug
    )
    jobs = workload(setup, seed)
    began = time.perf_counter()
    res = simulate(jobs, setup.system, selection, debug=debug, **plan)
    seconds = time.perf_counter() - began
    co = res.jobs["cluster"].to_numpy() == -1
    return dict(
        strategy=strategy,
        bsbw=float(bsbw),
        lslt=float(lslt),
        chunk=float(chunk),
        selection=selection,
        seed=seed,
        jobs=len(jobs),
        att=res.metrics["att"],
        att_ci=batch_means_ci((res.jobs["end"] - res.jobs["submit"]).to_numpy()),
        mean_wait=res.metrics["mean_wait"],
        coallocated=float(co.mean()),
        penalty=coallocation_penalty(res.jobs),
        max_link_level=res.counters.get("max_link_level", float("nan")),
        module_calls=res.counters.get("module_calls", 0),
        seconds=seconds,
    )
