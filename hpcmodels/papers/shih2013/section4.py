"""Shih et al. 2013, Section 4: the runs behind Tables 4-5 and Figs. 6-7.

Every (workload, load, SH, speed vector, method) run is a point of
:func:`hpcmodels.sweep.sweep` (:func:`configuration_point`): on Dask (``client=``), kept in
a folder (``cache=``). A failed point is an error naming it; a missing log is no point
but a ``missing`` row (``not run`` in the report).
"""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from ...bounds import MAX_REPLICATES
from ...errors import check_int
from ...multicluster import Cluster, TLAOptions, simulate
from ...sweep import sweep_results
from ...workloads.transforms import speed_vectors
from .published import LOADS, METHODS, TABLE5
from .workloads import (
    checked_counts,
    jobs_at_load,
    loading_of,
    missing_log_of,
    missing_study,
    workload_spec,
)


def _vectors(n_vectors: object) -> int:
    """``n_vectors`` (speed vectors per SH level: replicates) as a whole number in [1,
    10**6] (:data:`hpcmodels.bounds.MAX_REPLICATES`)."""
    return check_int("n_vectors", n_vectors, minimum=1, maximum=MAX_REPLICATES)


def configuration_point(
    wid: str,
    load: str,
    sh: float,
    vector: int,
    method: str,
    *,
    n_vectors: int,
    n_jobs: int | None,
    tla: TLAOptions | None,
    seed: int,
) -> dict:
    """One run of :func:`run_configurations` (a sweep point): ``method`` (a key of
    :data:`METHODS`) on workload ``wid`` (first ``n_jobs`` jobs, None: all) at the
    named ``load`` on speed vector ``vector`` of ``n_vectors`` at heterogeneity ``sh``,
    FCFS, TLA's knobs ``tla`` (method ``"TLA"`` only; another method with knobs is an
    :class:`~hpcmodels.errors.InvalidParameter` naming ``tla``). ``n_vectors`` is a
    whole number in [1, 10**6], ``vector`` one in [0, n_vectors - 1], ``n_jobs`` None or
    one in [1, 10**8] and ``seed`` one in [0, 2**63 - 1] (:mod:`hpcmodels.bounds`)."""
    n_vectors = _vectors(n_vectors)
    vector = check_int("vector", vector, minimum=0, maximum=n_vectors - 1)
    n_jobs, seed = checked_counts(n_jobs, seed)
    jobs = jobs_at_load(wid, load, n_jobs, seed)
    w = workload_spec(wid)
    speeds = speed_vectors(w.clusters, sh, n_vectors, seed=seed)[vector]
    clusters = [
        Cluster(f"c{i}", p, s) for i, (p, s) in enumerate(zip(w.clusters, speeds, strict=True))
    ]
    start = time.perf_counter()
    res = simulate(jobs, clusters, "fcfs", METHODS[method], tla=tla)
    m = res.metrics
    return {
        "att": m["att"],
        "utilization": m["utilization"],
        "mean_queue_length": m["mean_queue_length"],
        "tla_activations": res.counters.get("tla_activations"),
        "tla_changes": res.counters.get("tla_changes"),
        "seconds": time.perf_counter() - start,
        "jobs": len(jobs),
    }


def run_configurations(
    wids,
    loads,
    sh_levels,
    *,
    n_vectors: int = 10,
    n_jobs: int | None | dict = None,
    tla: TLAOptions | None = None,
    seed: int = 0,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> pd.DataFrame:
    """Every (workload, load, SH, speed vector, method) run of Section 4: FCFS, single
    site, the four methods of :data:`METHODS`; SH = 0 has one vector (all speeds 1).
    ``n_jobs``: jobs used (None: the whole trace, or 50,000 for the models), or a dict
    per workload; ``tla``: TLA's knobs (a :class:`~hpcmodels.multicluster.TLAOptions`),
    given to the TLA runs only. A workload whose log is missing gives one row per
    configuration with ``missing`` naming the log (and no method). Columns: wid, load,
    sh, vector, method, att, utilization, mean_queue_length, tla_activations,
    tla_changes, seconds, missing, jobs, whole, vectors. The runs are points of
    :func:`hpcmodels.sweep.sweep`
    (:func:`configuration_point`; ``cache``: a folder keeping finished runs, ``client``:
    where they run, as there). ``n_vectors`` is a whole number in [1, 10**6], ``n_jobs``
    (or each value of its dict) None or one in [1, 10**8] and ``seed`` one in [0, 2**63 -
    1] (:mod:`hpcmodels.bounds`), all checked before any run."""
    for wid in wids:
        workload_spec(wid)
    for load in loads:
        loading_of(load)
    n_vectors = _vectors(n_vectors)
    sizes = {wid: n_jobs.get(wid) if isinstance(n_jobs, dict) else n_jobs for wid in wids}
    sizes = {wid: checked_counts(size, seed)[0] for wid, size in sizes.items()}
    seed = checked_counts(None, seed)[1]
    missing = {wid: missing_log_of(wid, sizes[wid], seed) for wid in wids}
    plan = [
        (wid, load, sh, v)
        for wid in wids
        for load in loads
        for sh in sh_levels
        for v in range(1 if sh == 0 else n_vectors)
    ]
    grid = [
        dict(
            wid=wid,
            load=load,
            sh=sh,
            vector=v,
            method=method,
            n_vectors=n_vectors,
            n_jobs=sizes[wid],
            tla=tla if METHODS[method] == "tla" else None,  # TLA's knobs: TLA's runs only
            seed=seed,
        )
        for wid, load, sh, v in plan
        if missing[wid] is None
        for method in METHODS
    ]
    results = iter(
        sweep_results(
            configuration_point,
            grid,
            cache=cache,
            client=client,
            progress=progress,
            desc="Section 4 runs",
        )
    )
    rows = []
    for wid, load, sh, v in plan:
        key = {"wid": wid, "load": load, "sh": sh, "vector": v}
        if missing[wid] is not None:
            rows.append({**key, "missing": missing[wid]})
            continue
        for method in METHODS:
            r = next(results)
            rows.append(
                {
                    **key,
                    "method": method,
                    "att": r["att"],
                    "utilization": r["utilization"],
                    "mean_queue_length": r["mean_queue_length"],
                    "tla_activations": r["tla_activations"],
                    "tla_changes": r["tla_changes"],
                    "seconds": r["seconds"],
                    "missing": None,
                    "jobs": r["jobs"],
                    "whole": sizes[wid] is None,
                    "vectors": 1 if sh == 0 else n_vectors,
                }
            )
    return pd.DataFrame(rows)


def improvement(runs: pd.DataFrame) -> pd.DataFrame:
    """Per (workload, load, SH): each method's ATT averaged over the speed vectors, and
    TLA's improvement over the best of BF, FF and AI2, ``100 (best - TLA) / best`` %."""
    done = runs[runs["missing"].isna()].copy()
    done["load"] = pd.Categorical(done["load"], categories=list(LOADS), ordered=True)
    att = done.pivot_table(
        index=["wid", "load", "sh"], columns="method", values="att", aggfunc="mean", observed=True
    )
    att = att[list(METHODS)]
    att["best other"] = att[["BF", "FF", "AI2"]].min(axis=1)
    att["improvement %"] = 100 * (att["best other"] - att["TLA"]) / att["best other"]
    return att


def table5_frame(runs: pd.DataFrame) -> pd.DataFrame:
    """Average utilization of A2 at SH = 0 per load and method (Table 5's layout)."""
    sel = runs[(runs["wid"] == "A2") & (runs["sh"] == 0) & runs["missing"].isna()]
    table = sel.pivot_table(index="load", columns="method", values="utilization", aggfunc="mean")
    return table.reindex(
        index=[lo for lo in LOADS if lo in table.index], columns=list(TABLE5.columns)
    )


def vector_spread(
    wid: str,
    load: str,
    sh: float,
    *,
    n_vectors: int = 10,
    n_jobs: int | None = None,
    seed: int = 0,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> pd.DataFrame:
    """Fig. 7: each method's ATT for each of ``n_vectors`` speed vectors (rows), from
    :func:`run_configurations` (``cache``, ``client``: as there; so are the counts'
    ranges, checked first)."""
    n_vectors = _vectors(n_vectors)
    n_jobs, seed = checked_counts(n_jobs, seed)
    if (missing := missing_study(wid, n_jobs, seed)) is not None:
        return missing
    runs = run_configurations(
        [wid],
        [load],
        [sh],
        n_vectors=n_vectors,
        n_jobs={wid: n_jobs},
        seed=seed,
        progress=progress,
        cache=cache,
        client=client,
    )
    return runs.pivot(index="vector", columns="method", values="att")[list(METHODS)]
