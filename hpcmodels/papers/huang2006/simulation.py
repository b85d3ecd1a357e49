"""Huang & Chang 2006, Sections 2-4: the runs behind Tables 2-3 (the five policies on
one cluster) and Tables 5-9 (allocation methods and co-allocation heuristics on the
grid), returned as frames.

Every table's runs are one sweep (hpcmodels.sweep) of :func:`simulate_run`: a point
names the log, and the process that runs it reads the log once (``completed_jobs``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from ...bounds import MAX_REPLICATES, MAX_SEED
from ...errors import InvalidParameter, check_int, check_ints
from ...multicluster import Cluster, simulate
from ...stats import t_interval
from ...sweep import raise_failures, sweep
from ...workloads.transforms import scale_runtimes
from ..verdicts import missing_of
from .published import (
    CI_METRICS,
    GRID,
    HEURISTICS,
    LOAD_FACTORS,
    MEDIAN_UPPER,
    METHODS,
    OTHER_ALLOCATIONS,
    OUR_METHODS,
    POLICIES,
    RANDOM_SEEDS,
    SINGLE_CLUSTER,
    SLOWDOWNS,
    TABLE5,
    TABLE6,
)
from .workload import completed_jobs, missing_log


def simulate_run(
    log: str,
    clusters: Sequence[Cluster],
    selection: str,
    allocation: str = "first_fit",
    coallocation: str | None = None,
    slowdown: float = 1.0,
    load_factor: float = 1.0,
    seed: int = 0,
) -> dict:
    """One simulation, the point function of the tables' sweeps: the completed jobs of
    ``log`` (read once per process), runtimes times ``load_factor``, on ``clusters``
    with the ``selection``, ``allocation`` and ``coallocation`` policies, co-allocated
    runtimes times ``slowdown``, random choices from ``seed``
    (:func:`hpcmodels.multicluster.simulate`). Returns the run's metrics. ``seed`` is a
    whole number in [0, 2**63 - 1], checked before the log is read."""
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    jobs = scale_runtimes(completed_jobs(log)[["submit", "runtime", "procs"]], load_factor)
    return simulate(
        jobs,
        clusters,
        selection,
        allocation,
        coallocation=coallocation,
        slowdown=slowdown,
        seed=seed,
    ).metrics


def _run_sweep(
    labels: list[dict], grid: list[dict], desc: str, client, cache, progress: bool
) -> pd.DataFrame:
    """:func:`simulate_run` over ``grid`` (:func:`hpcmodels.sweep.sweep`), one row per
    point: its ``labels`` and the run's metrics. A failed point is a ``RuntimeError``
    naming how many failed, the first one's parameters and its error
    (:func:`hpcmodels.sweep.raise_failures`)."""
    runs = sweep(simulate_run, grid, cache=cache, client=client, progress=progress, desc=desc)
    raise_failures(runs, f"simulate_run ({desc})")
    parameters = dict.fromkeys(k for point in grid for k in point)  # the grid's columns
    metrics = runs.drop(columns=[*parameters, "error"])
    return pd.concat([pd.DataFrame(labels), metrics], axis=1)


def policies_by_load(
    log: str,
    load_factors: Sequence[float] = LOAD_FACTORS,
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Tables 2-3: the five selection policies on one 384-processor cluster, the jobs of
    ``log`` (:func:`load_jobs`). One row per (load factor, policy): the run's metrics.
    ``client``, ``cache`` and ``progress`` go to :func:`hpcmodels.sweep.sweep`: where
    the runs go (default: ``HPCMODELS_DASK_SCHEDULER``, else a LocalCluster), a folder
    that keeps finished runs (a rerun computes only the others), progress bar. A log
    that cannot be read here gives :func:`~hpcmodels.papers.verdicts.missing_frame`."""
    if (missing := missing_log(log)) is not None:
        return missing
    labels, grid = [], []
    for lf in load_factors:
        for name, sel in POLICIES.items():
            labels.append({"load factor": lf, "policy": name})
            grid.append(dict(log=log, clusters=SINGLE_CLUSTER, selection=sel, load_factor=lf))
    return _run_sweep(labels, grid, "Tables 2-3", client, cache, progress)


def allocation_runs(
    log: str,
    slowdowns: Sequence[float] = SLOWDOWNS,
    seeds: Iterable[int] = RANDOM_SEEDS,
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Every run of Tables 5-9 on the jobs of ``log``, one row each: FCFS with each
    allocation method (both median-fit readings; random fit once per seed) and
    fixed-order co-allocation, best fit with each co-allocation heuristic, and the
    integrated approach. ``seed`` is NaN for the deterministic runs. ``client``,
    ``cache`` and ``progress`` as :func:`policies_by_load` (so is a missing log).
    ``seeds``: one to 10**6 whole numbers in [0, 2**63 - 1] (:mod:`hpcmodels.bounds`)."""
    seeds = check_ints("seeds", seeds, minimum=0, maximum=MAX_SEED, max_length=MAX_REPLICATES)
    if not seeds:
        raise InvalidParameter(f"random fit needs at least one seed, all >= 0; got {seeds}")
    if (missing := missing_log(log)) is not None:
        return missing
    labels, grid = [], []

    def run(s: float, name: str, seed: float = math.nan, **policies) -> None:
        labels.append({"slowdown ratio": s, "method": name, "seed": seed})
        grid.append(
            dict(
                log=log, clusters=GRID, slowdown=s, seed=0 if math.isnan(seed) else seed, **policies
            )
        )

    for s in slowdowns:
        for name, alloc in {**METHODS, **OTHER_ALLOCATIONS}.items():
            for seed in seeds if alloc == "random_fit" else [math.nan]:
                run(s, name, seed, selection="fcfs", allocation=alloc, coallocation="fixed_order")
        for name, heur in HEURISTICS.items():
            run(s, name, selection="fcfs", allocation="best_fit", coallocation=heur)
        run(
            s,
            "Integrated",
            selection="smallest_first",
            allocation="best_fit",
            coallocation="larger_first",
        )
    return _run_sweep(labels, grid, "Tables 5-9", client, cache, progress)


def summarise_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (slowdown ratio, method): the mean of the metrics over the method's
    runs (the seeds, for random fit), ``runs`` their number and, for
    :data:`CI_METRICS`, ``<metric>_ci``: the Student-t 95 % half-width (NaN for one
    run)."""
    if missing_of(runs):
        return runs
    keys = ["slowdown ratio", "method"]
    metrics = [c for c in runs.columns if c not in (*keys, "seed")]
    rows = []
    for key, group in runs.groupby(keys, sort=False):
        row = dict(zip(keys, key, strict=True))
        row.update(group[metrics].astype(float).mean().to_dict())
        row["runs"] = len(group)
        for m in CI_METRICS:
            row[f"{m}_ci"] = t_interval(group[m].to_numpy(float))[1]
        rows.append(row)
    return pd.DataFrame(rows)


def allocation_by_slowdown(
    log: str,
    slowdowns: Sequence[float] = SLOWDOWNS,
    seeds: Iterable[int] = RANDOM_SEEDS,
    *,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Tables 5-9 (:func:`allocation_runs`), summarised (:func:`summarise_runs`)."""
    return summarise_runs(
        allocation_runs(log, slowdowns, seeds, client=client, cache=cache, progress=progress)
    )


def pivot(df: pd.DataFrame, metric: str, columns: list[str]) -> pd.DataFrame:
    """A results table laid out like the paper's (rows: the first key, columns: names)."""
    if missing_of(df):
        return df
    key, name = df.columns[0], df.columns[1]
    return df.pivot(index=key, columns=name, values=metric)[columns]


def random_fit_seeds(runs: pd.DataFrame, metric: str = "mean_wait") -> pd.DataFrame:
    """Random fit's ``metric`` per slowdown ratio (rows) and seed (columns), with the
    mean and the 95 % half-width over the seeds."""
    if missing_of(runs):
        return runs
    rf = runs[runs["method"] == "Random Fit"]
    table = rf.pivot(index="slowdown ratio", columns="seed", values=metric)
    table.columns = [f"seed {s:g}" for s in table.columns]
    stats = [t_interval(row.to_numpy(float)) for _, row in table.iterrows()]
    table["mean"] = [m for m, _ in stats]
    table["95 % half-width"] = [h for _, h in stats]
    return table


def table9_frame(df: pd.DataFrame) -> pd.DataFrame:
    """Table 9 layout from :func:`allocation_by_slowdown`'s results."""
    if missing_of(df):
        return df
    wait = pivot(df, "mean_wait", ["First Fit", "Integrated"])
    ratio = pivot(df, "mean_waiting_ratio", ["First Fit", "Integrated"])
    out = pd.DataFrame(
        {
            "wait single-pool": wait["First Fit"],
            "wait integrated": wait["Integrated"],
            "ratio single-pool": ratio["First Fit"],
            "ratio integrated": ratio["Integrated"],
        }
    )
    return out.sort_index(ascending=False)


def median_readings(df: pd.DataFrame) -> pd.DataFrame:
    """Median fit under both readings beside the paper's column, per slowdown ratio and
    metric (Tables 5-6): the values, each one's ours/paper ratio, and median fit / first
    fit in the paper and in each reading (a ratio inside one table, which the log's
    overall scale cancels)."""
    if missing_of(df):
        return df
    parts = {}
    for metric, paper in (("mean_wait", TABLE5), ("mean_waiting_ratio", TABLE6)):
        ours = pivot(df, metric, OUR_METHODS)
        p = paper.loc[ours.index].astype(float)
        lower, upper = ours["Median Fit"], ours[MEDIAN_UPPER]
        parts[metric] = pd.DataFrame(
            {
                "paper": p["Median Fit"],
                "lower": lower,
                "upper": upper,
                "lower / paper": lower / p["Median Fit"],
                "upper / paper": upper / p["Median Fit"],
                "paper median / first": p["Median Fit"] / p["First Fit"],
                "lower / first": lower / ours["First Fit"],
                "upper / first": upper / ours["First Fit"],
            }
        )
    return pd.concat(parts, names=["metric"])
