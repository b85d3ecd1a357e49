"""Shih et al. 2013 at paper scale: the points of the store (:mod:`hpcmodels.papers.store`)
and the single runs behind them (Table 4's configurations, Table 5, Section 5.2's counts,
the Section 5 studies), on the replicates of :mod:`hpcmodels.papers.ensemble`."""

from __future__ import annotations

import numpy as np

from ...bounds import MAX_REPLICATES
from ...errors import InvalidParameter, check_int
from ...multicluster import Cluster, TLAOptions, simulate
from ...workloads.transforms import estimate_inaccuracy, speed_vectors
from .published import INACCURACY_FACTORS, LOADS, METHODS, SH_LEVELS, TABLE3
from .workloads import (
    ENSEMBLE_JOBS,
    ENSEMBLE_VECTORS,
    clusters_of,
    is_trace,
    missing_log_of,
    replicate_jobs,
    workload_spec,
)


def tla_improvement(means: np.ndarray) -> np.ndarray:
    """TLA's improvement over the best of BF, FF and AI2 (Table 4), per row of method
    means in :data:`~.published.METHODS` order: ``100 (best - TLA) / best``."""
    best = means[:, :3].min(axis=1)
    return 100 * (best - means[:, 3]) / best


def ensemble_key(item: str, wid: str, load: str, sh: float, what: str) -> str:
    """The store's item key of one value: ``item | quantity``."""
    if item == "Table 5":
        return f"Table 5 | A2 utilization, {load} load, {what}"
    if item == "Fig. 10":
        return f"Fig. 10 | A1 high load: {what}"
    return f"Table 4 | {wid}, {load} load, SH = {sh:g}: {what}"


SECTION5_REPLICATES = 10
"""Replicates per Section 5 setting: issue 50's rule, a claim rests on at least ten
paired replicates (:data:`hpcmodels.papers.ensemble.CLAIM_REPLICATES`); the 45 settings
x 10 runs are timed in the store's provenance."""
SECTION5_RUNS = {
    "fig8": ("A1", "high"),
    "fig10": ("A1", "high"),
    "fig12": ("D1", "high"),
    "fig13": ("A2", "high"),
}
"""Workload and load of each Section 5 study (the quick notebook's choices), at paper
scale: the traces whole, D1 on :data:`ENSEMBLE_JOBS` jobs."""
ALL_WAITING = 0
"""Simulation depth 0 in the store: every waiting job (``TLAOptions(depth=None)``)."""
FIG10_DEPTHS = (1, 10, 40, 160, 640, ALL_WAITING)
FIG12_DEPTHS = (1, 10, 40, 160, ALL_WAITING)
FIG12_POLICIES = ("fastest_first", "best_fit", "worst_fit", "random_fit")
FIG13_ALLOCATION_DEPTHS = (1, 2, 4, 8, 16)


def _section5_settings(study: str) -> list[dict]:
    """The settings of one Section 5 study (a point without its replicate)."""
    tla = dict(factor=None, depth=ALL_WAITING, policy="fastest_first", allocation_depth=1)
    if study == "fig8":
        return [dict(tla, factor=float(f)) for f in INACCURACY_FACTORS]
    if study == "fig10":
        return [dict(tla, depth=d) for d in FIG10_DEPTHS]
    if study == "fig12":
        return [dict(tla, depth=d, policy=p) for p in FIG12_POLICIES for d in FIG12_DEPTHS]
    return [dict(tla, allocation_depth=a) for a in FIG13_ALLOCATION_DEPTHS]


def ensemble_points() -> list[dict]:
    """The paper-scale points. Table 4: every workload whose input is present here, each
    load and SH level, :data:`ENSEMBLE_VECTORS` replicates (replicate ``r``: speed
    vector ``r`` of the quick run's seeded draw, and the trace's runtime scale or the
    model's seed ``r``). Section 5 (Figs. 8, 10-13): each study of
    :data:`SECTION5_RUNS` over its whole grid, SH = 0, :data:`SECTION5_REPLICATES`
    replicates (the same jobs as Table 4's replicate ``r``; Fig. 8 also draws its
    estimates with seed ``r``). The readings study (:mod:`.readings`, issue 53): each
    alternative reading on each residual cell, replicates 0-9 of Table 4's. A workload
    whose log is missing has no points (its rows say ``not run``). Table 4's and Section
    5's points carry the same keys (Table 4's take TLA's defaults); a readings point
    carries ``reading`` instead of TLA's knobs."""
    default = dict(factor=None, depth=ALL_WAITING, policy="fastest_first", allocation_depth=1)
    points = [
        dict(study="table4", wid=w.wid, load=load, sh=sh, replicate=r, **default)
        for w in TABLE3
        if missing_log_of(w.wid, ENSEMBLE_JOBS.get(w.wid[0]), 0) is None
        for load in LOADS
        for sh in SH_LEVELS
        for r in range(ENSEMBLE_VECTORS)
    ]
    for study, (wid, load) in SECTION5_RUNS.items():
        if missing_log_of(wid, ENSEMBLE_JOBS.get(wid[0]), 0) is not None:
            continue
        points += [
            dict(study=study, wid=wid, load=load, sh=0.0, replicate=r, **setting)
            for r in range(SECTION5_REPLICATES)
            for setting in _section5_settings(study)
        ]
    from .readings import reading_points

    points += [
        dict(study="readings", **point)
        for point in reading_points()
        if missing_log_of(point["wid"], ENSEMBLE_JOBS.get(point["wid"][0]), 0) is None
    ]
    return points


def ensemble_point(
    study: str,
    wid: str,
    load: str,
    sh: float,
    replicate: int,
    factor: float | None = None,
    depth: int = ALL_WAITING,
    policy: str = "fastest_first",
    allocation_depth: int = 1,
    reading: str | None = None,
) -> dict:
    """One paper-scale single run, ``{item key: value}``: a Table 4 replicate
    (:func:`table4_point`), a Section 5 one (:func:`section5_point`) or a residual cell
    under an alternative reading (:func:`.readings.reading_point`)."""
    if study == "table4":
        return table4_point(wid, load, sh, replicate)
    if study == "readings":
        from .readings import reading_point

        return reading_point(wid, load, sh, replicate, reading)
    if study not in SECTION5_RUNS:
        raise InvalidParameter(
            f"study {study!r}: choose 'table4', 'readings' or one of {list(SECTION5_RUNS)}"
        )
    return section5_point(
        study,
        wid,
        load,
        replicate,
        factor=factor,
        depth=depth,
        policy=policy,
        allocation_depth=allocation_depth,
    )


def table4_point(wid: str, load: str, sh: float, replicate: int) -> dict:
    """One replicate of one Table 4 configuration: the four methods of :data:`METHODS`
    (FCFS, single site) on the same jobs and speed vector, ``{item key: value}``: each
    method's ATT; for A2 at SH = 0 each method's utilization (Table 5); for A1 at high
    load and SH = 0 TLA's activations and decision changes (Section 5.2). ``replicate``
    is a whole number in [0, :data:`ENSEMBLE_VECTORS` - 1] (one speed vector each)."""
    w = workload_spec(wid)
    replicate = check_int("replicate", replicate, minimum=0, maximum=ENSEMBLE_VECTORS - 1)
    jobs = replicate_jobs(wid, load, replicate)
    speeds = speed_vectors(w.clusters, sh, ENSEMBLE_VECTORS, seed=0)[replicate]
    clusters = [
        Cluster(f"c{i}", p, s) for i, (p, s) in enumerate(zip(w.clusters, speeds, strict=True))
    ]
    out = {}
    for method, selection in METHODS.items():
        res = simulate(jobs, clusters, "fcfs", selection)
        out[ensemble_key("Table 4", wid, load, sh, f"{method} ATT (s)")] = res.metrics["att"]
        if wid == "A2" and sh == 0:
            out[ensemble_key("Table 5", wid, load, sh, method)] = res.metrics["utilization"]
        if wid == "A1" and load == "high" and sh == 0 and method == "TLA":
            out[ensemble_key("Fig. 10", wid, load, sh, "TLA activations")] = float(
                res.counters["tla_activations"]
            )
            out[ensemble_key("Fig. 10", wid, load, sh, "decisions changed against depth 1")] = (
                float(res.counters["tla_changes"])
            )
    return out


def depth_label(depth: int) -> str:
    return "all" if depth == ALL_WAITING else str(int(depth))


def section5_key(study: str, wid: str, load: str, setting: dict, what: str) -> str:
    """The store's item key of one Section 5 value: ``Fig. n | run, setting: what``."""
    run = f"{wid} {load} load"
    if study == "fig8":
        return f"Fig. 8 | {run}, inaccuracy factor {setting['factor']:g}: {what}"
    if study == "fig10":
        return f"Fig. 10 | {run}, simulation depth {depth_label(setting['depth'])}: {what}"
    if study == "fig12":
        return (
            f"Fig. 12 | {run}, {setting['policy']} inside, simulation depth "
            f"{depth_label(setting['depth'])}: {what}"
        )
    return f"Fig. 13 | {run}, allocation depth {setting['allocation_depth']}: {what}"


def section5_point(
    study: str,
    wid: str,
    load: str,
    replicate: int,
    *,
    factor: float | None = None,
    depth: int = ALL_WAITING,
    policy: str = "fastest_first",
    allocation_depth: int = 1,
) -> dict:
    """One replicate of one Section 5 setting (SH = 0, FCFS, the jobs of Table 4's
    replicate ``replicate``): TLA with simulation ``depth`` (:data:`ALL_WAITING`: every
    waiting job), ``policy`` inside its simulation and ``allocation_depth``; Fig. 8
    (``factor`` not None) runs the four methods on f-model estimates (Eqs. 7-8) drawn
    with seed ``replicate``; Fig. 10 also counts TLA's activations and its decisions
    changed against depth 1. ``replicate`` is a whole number in [0, 10**6 - 1]
    (:data:`hpcmodels.bounds.MAX_REPLICATES`), ``depth`` one in [0, 2**62] (0:
    :data:`ALL_WAITING`) and ``allocation_depth`` one in [1, 2**62]
    (:class:`~hpcmodels.multicluster.TLAOptions`)."""
    from ...multicluster.lookahead import MAX_DEPTH

    depth = check_int("depth", depth, minimum=0, maximum=MAX_DEPTH)
    allocation_depth = check_int("allocation_depth", allocation_depth, minimum=1, maximum=MAX_DEPTH)
    replicate = check_int("replicate", replicate, minimum=0, maximum=MAX_REPLICATES - 1)
    setting = dict(factor=factor, depth=depth, policy=policy, allocation_depth=allocation_depth)
    jobs = replicate_jobs(wid, load, replicate)
    if factor is not None:
        jobs = estimate_inaccuracy(jobs, float(factor), seed=replicate)
    tla = TLAOptions(depth=depth or None, policy=policy, allocation_depth=allocation_depth)
    methods = METHODS if study == "fig8" else {"TLA": "tla"}
    out = {}
    for method, selection in methods.items():
        res = simulate(
            jobs, clusters_of(wid), "fcfs", selection, tla=tla if method == "TLA" else None
        )
        out[section5_key(study, wid, load, setting, f"{method} ATT (s)")] = res.metrics["att"]
        if study == "fig10":
            out[section5_key(study, wid, load, setting, "TLA activations")] = float(
                res.counters["tla_activations"]
            )
            out[section5_key(study, wid, load, setting, "decisions changed against depth 1")] = (
                float(res.counters["tla_changes"])
            )
    return out


def ensemble_cost(point: dict) -> float:
    """Relative cost of recomputing a point: TLA at high load dominates; Section 5's
    points run at high load; a reading that reruns TLA alone costs about half."""
    from .readings import READINGS

    reading = READINGS.get(point.get("reading") or "")
    return (
        {"low": 1.0, "medium": 3.0, "high": 20.0}[point["load"]]
        * (2.0 if is_trace(point["wid"]) else 1.0)
        * (0.5 if reading is not None and reading.tla_only else 1.0)
    )
