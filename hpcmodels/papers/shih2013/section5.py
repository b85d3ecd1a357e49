"""Shih et al. 2013, Section 5: the studies of TLA's knobs (Figs. 8 and 10-13, SH = 0,
FCFS) and Fig. 5's cost of one decision. Each study is a sweep of :func:`study_point`
(``cache``, ``client``: as :func:`~.section4.run_configurations`); a missing log gives an
empty frame naming it (:func:`~.workloads.missing_study`)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from ...bounds import MAX_CLUSTERS, MAX_JOBS, MAX_REPLICATES, MAX_SEED
from ...errors import check_int, check_ints
from ...multicluster import TLAOptions, simulate
from ...multicluster.allocation import FASTEST_FIRST
from ...multicluster.lookahead import ATT, Snapshot, release_heap, release_key, score_clusters
from ...sweep import sweep_results
from ...workloads.transforms import estimate_inaccuracy
from .published import INACCURACY_FACTORS, METHODS
from .workloads import (
    checked_counts,
    clusters_of,
    jobs_at_load,
    loading_of,
    missing_study,
    workload_spec,
)


def study_point(
    wid: str,
    load: str,
    method: str,
    *,
    n_jobs: int | None,
    seed: int,
    tla: TLAOptions | None = None,
    factor: float | None = None,
) -> dict:
    """One run of the Section 5 studies (a sweep point): ``method`` (a key of
    :data:`METHODS`) on workload ``wid`` at the named ``load``, SH = 0, FCFS, TLA's
    knobs ``tla`` (method ``"TLA"`` only, else an InvalidParameter naming ``tla``);
    ``factor``: estimates drawn from the f-model (Eqs. 7-8) with that inaccuracy factor
    (None: the log's own). Returns ATT, TLA's activations and its decision changes
    against depth 1 (None for the other methods). ``n_jobs`` is None or a whole number
    in [1, 10**8], ``seed`` one in [0, 2**63 - 1] (:mod:`hpcmodels.bounds`)."""
    n_jobs, seed = checked_counts(n_jobs, seed)
    jobs = jobs_at_load(wid, load, n_jobs, seed)
    if factor is not None:
        jobs = estimate_inaccuracy(jobs, float(factor), seed=seed)
    res = simulate(jobs, clusters_of(wid), "fcfs", METHODS[method], tla=tla)
    return {
        "att": res.metrics["att"],
        "activations": res.counters.get("tla_activations"),
        "changes": res.counters.get("tla_changes"),
    }


def depth_study(
    wid: str,
    load: str,
    depths,
    *,
    n_jobs: int | None = None,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> pd.DataFrame:
    """Figs. 10-11: TLA's ATT, activations and decision changes against simulation depth
    1 for each depth (None: every waiting job), SH = 0, FCFS. One sweep point per depth
    (``cache``, ``client``: as :func:`run_configurations`). ``n_jobs`` is None or a whole
    number in [1, 10**8]; each depth None or one in [1, 2**62] (:class:`TLAOptions`)."""
    workload_spec(wid)
    loading_of(load)
    n_jobs, _ = checked_counts(n_jobs, 0)
    options = [TLAOptions(depth=depth) for depth in depths]
    if (missing := missing_study(wid, n_jobs)) is not None:
        return missing
    depths = [o.depth for o in options]
    grid = [
        dict(wid=wid, load=load, method="TLA", n_jobs=n_jobs, seed=0, tla=TLAOptions(depth=depth))
        for depth in depths
    ]
    results = sweep_results(
        study_point, grid, cache=cache, client=client, progress=progress, desc="simulation depth"
    )
    rows = [
        {
            "depth": "all" if depth is None else depth,
            "att": r["att"],
            "activations": r["activations"],
            "changes vs depth 1": r["changes"],
        }
        for depth, r in zip(depths, results, strict=True)
    ]
    return pd.DataFrame(rows).set_index("depth")


def inaccuracy_study(
    wid: str,
    load: str,
    factors=INACCURACY_FACTORS,
    *,
    n_jobs: int | None = None,
    seed: int = 0,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> pd.DataFrame:
    """Fig. 8: ATT of the four methods (SH = 0) when estimates follow the f-model (Eqs.
    7-8) with each inaccuracy factor; one seeded estimate draw per factor. One sweep
    point per (factor, method) (``cache``, ``client``: as :func:`run_configurations`).
    ``n_jobs`` is None or a whole number in [1, 10**8], ``seed`` one in [0, 2**63 - 1]."""
    workload_spec(wid)
    loading_of(load)
    n_jobs, seed = checked_counts(n_jobs, seed)
    if (missing := missing_study(wid, n_jobs, seed)) is not None:
        return missing
    factors = list(factors)
    grid = [
        dict(wid=wid, load=load, method=m, n_jobs=n_jobs, seed=seed, factor=float(f))
        for f in factors
        for m in METHODS
    ]
    results = iter(
        sweep_results(
            study_point, grid, cache=cache, client=client, progress=progress, desc="Fig. 8 runs"
        )
    )
    rows = {}
    for f in factors:
        rows[f] = {m: next(results)["att"] for m in METHODS}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("inaccuracy factor")


def tla_knob_study(
    wid: str,
    load: str,
    *,
    depths=(None,),
    policies=("fastest_first",),
    allocation_depths=(1,),
    n_jobs: int | None = None,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> pd.DataFrame:
    """Figs. 12-13: TLA's ATT (SH = 0) over the product of simulation depths, policies
    inside the simulation and allocation depths. One sweep point per setting
    (``cache``, ``client``: as :func:`run_configurations`). ``n_jobs`` is None or a whole
    number in [1, 10**8]; the depths as :class:`TLAOptions` takes them, all checked
    before any run."""
    workload_spec(wid)
    loading_of(load)
    n_jobs, _ = checked_counts(n_jobs, 0)
    settings = [(d, p, a) for p in policies for d in depths for a in allocation_depths]
    for d, p, a in settings:
        TLAOptions(depth=d, policy=p, allocation_depth=a)
    if (missing := missing_study(wid, n_jobs)) is not None:
        return missing
    grid = [
        dict(
            wid=wid,
            load=load,
            method="TLA",
            n_jobs=n_jobs,
            seed=0,
            tla=TLAOptions(depth=d, policy=p, allocation_depth=a),
        )
        for d, p, a in settings
    ]
    results = sweep_results(
        study_point, grid, cache=cache, client=client, progress=progress, desc="TLA settings"
    )
    rows = [
        {"depth": "all" if d is None else d, "policy": p, "allocation depth": a, "att": r["att"]}
        for (d, p, a), r in zip(settings, results, strict=True)
    ]
    return pd.DataFrame(rows)


def decision_seconds(q: int, r: int, m: int, *, repeat: int = 5, seed: int = 0) -> float:
    """Fig. 5: median wall time of one TLA decision (every one of ``m`` clusters scored,
    the whole queue simulated) on a seeded snapshot: ``q`` waiting jobs (widths 1..64,
    estimates exponential with mean 1,000 s), ``r`` one-processor running jobs ending
    within 2,000 s, on clusters of ``128 + r`` processors (so every cluster keeps at
    least 128 free and the target fits everywhere); one warm-up call first.

    ``q`` is a whole number in [1, 10**8] and ``r`` one in [0, 10**8] (jobs:
    :data:`hpcmodels.bounds.MAX_JOBS`), ``m`` one in [1, 10**6] (clusters:
    :data:`hpcmodels.bounds.MAX_CLUSTERS`), ``repeat`` one in [1, 10**6] and ``seed`` one
    in [0, 2**63 - 1]."""
    q = check_int("q", q, minimum=1, maximum=MAX_JOBS)
    r = check_int("r", r, minimum=0, maximum=MAX_JOBS)
    m = check_int("m", m, minimum=1, maximum=MAX_CLUSTERS)
    repeat = check_int("repeat", repeat, minimum=1, maximum=MAX_REPLICATES)
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    rng = np.random.default_rng(seed)
    rel_clus = rng.integers(0, m, r)
    free = np.full(m, 128 + r, np.int64) - np.bincount(rel_clus, minlength=m)
    heap0 = release_heap(
        rng.uniform(0, 2000, r), release_key(rel_clus, np.ones(r, np.int64)), r + q
    )
    wprocs = rng.integers(1, 65, q)
    wprocs[0] = 1  # the target fits on every cluster
    west, wsubmit = rng.exponential(1000.0, q), -rng.uniform(0, 5000, q)
    snap = Snapshot(np.ones(m), free, heap0, r, wprocs, wsubmit, west, 0.0)
    plan = (np.empty(q, np.int64), np.empty(q))
    args = (
        snap,
        np.ones(m, np.bool_),
        FASTEST_FIRST,
        ATT,
        np.zeros(1, np.uint64),
        np.empty(m),
        plan,
    )
    score_clusters(*args)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        score_clusters(*args)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def scoring_times(qs=(10, 100, 1_000, 5_000), rs=(10, 100, 1_000), m: int = 5) -> pd.DataFrame:
    """Fig. 5's grid: milliseconds per decision for each (q waiting, r running). ``qs``,
    ``rs`` and ``m`` as :func:`decision_seconds` takes ``q``, ``r`` and ``m``, all
    checked before the first decision is timed."""
    qs = check_ints("qs", qs, minimum=1, maximum=MAX_JOBS)
    rs = check_ints("rs", rs, minimum=0, maximum=MAX_JOBS)
    m = check_int("m", m, minimum=1, maximum=MAX_CLUSTERS)
    table = pd.DataFrame(
        index=pd.Index(qs, name="q waiting"), columns=pd.Index(rs, name="r running"), dtype=float
    )
    for q in qs:
        for r in rs:
            table.loc[q, r] = 1e3 * decision_seconds(q, r, m)
    return table
