"""Notebook 06's experiments on the common ground and their paired comparisons.

A *setting* is a workload, a load, a heterogeneity level SH (:mod:`.ground`) and the
jobs' bisection bandwidth on Jones's links (:class:`.methods.Links`; only the
co-allocating methods read it); a
*point* of the sweep is one replicate of one setting under one selection policy, and
runs every method on the same jobs and speed vector (common random numbers,
:func:`ground_point`). A comparison of two methods is the mean of their paired
differences over the replicates with its Student-t 95 % interval (the rule of
:func:`hpcmodels.papers.ensemble.paired_claim`): a *win* is an interval that excludes
zero; relative differences are the mean difference over the baseline's mean."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ...bounds import MAX_JOBS, MAX_REPLICATES
from ...errors import InvalidParameter, check_choice, check_frame, check_int
from ...stats import t_interval
from ...sweep import sweep_results
from ..shih2013.published import LOADS, SH_LEVELS
from .ground import WORKLOADS, ground_clusters, ground_jobs
from .methods import GROUPS, METHODS, METRICS, Links, run_method

SETTING = ["workload", "load", "sh", "bsbw"]
QUICK_JOBS = 3_000
QUICK_REPLICATES = 10
JONES_BSBW = Links().bsbw


def ground_point(
    workload: str,
    load: str,
    sh: float,
    replicate: int,
    selection: str = "FCFS",
    methods: tuple[str, ...] = tuple(GROUPS["allocation"]),
    n_jobs: int | None = QUICK_JOBS,
    bsbw: float = JONES_BSBW,
) -> dict:
    """Replicate ``replicate`` of one setting under ``selection``: every method of
    ``methods`` on the same jobs (first ``n_jobs``; None: all) and clusters, ``seed`` =
    the replicate for the random methods, co-allocated jobs on :class:`.methods.Links`
    with bisection bandwidth ``bsbw``. ``{"<method> | <metric>": value}``.
    ``replicate`` and ``n_jobs`` as :func:`.ground.ground_jobs` takes them."""
    jobs = ground_jobs(workload, load, replicate, n_jobs)
    clusters = ground_clusters(sh, replicate)
    links = Links(bsbw=float(bsbw))
    out = {}
    for name in methods:
        run = run_method(name, jobs, clusters, selection, seed=replicate, links=links)
        for key, value in run.items():
            out[f"{name} | {key}"] = value
    return out


def ground_runs(
    workloads=tuple(WORKLOADS),
    loads=tuple(LOADS),
    shs=SH_LEVELS,
    selections=("FCFS",),
    methods=tuple(GROUPS["allocation"]),
    bsbws=(JONES_BSBW,),
    *,
    replicates: int = QUICK_REPLICATES,
    n_jobs: int | None = QUICK_JOBS,
    client=None,
    cache: str | Path | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Every method at every setting (``bsbws``: the bandwidths) and selection,
    ``replicates`` times (one sweep,
    :func:`hpcmodels.sweep.sweep`): one row per (setting, selection, replicate,
    method) with the columns of :func:`.methods.run_method`. ``replicates`` is a whole
    number in [2, 10**6] and ``n_jobs`` None or one in [2, 10**8]
    (:mod:`hpcmodels.bounds`), checked before any point runs."""
    replicates = check_int("replicates", replicates, minimum=2, maximum=MAX_REPLICATES)
    if n_jobs is not None:
        n_jobs = check_int("n_jobs", n_jobs, minimum=2, maximum=MAX_JOBS)
    methods = tuple(check_choice("method", m, list(METHODS)) for m in methods)
    grid = [
        dict(workload=w, load=ld, sh=float(s), bsbw=float(b), replicate=r, selection=sel,
             methods=methods, n_jobs=n_jobs)
        for w in workloads
        for ld in loads
        for s in shs
        for b in bsbws
        for sel in selections
        for r in range(replicates)
    ]  # fmt: skip
    results = sweep_results(
        ground_point, grid, client=client, cache=cache, progress=progress, desc="across"
    )
    rows = []
    for point, result in zip(grid, results, strict=True):
        base = {k: point[k] for k in (*SETTING, "selection", "replicate")}
        for name in methods:
            values = {k.split(" | ")[1]: v for k, v in result.items() if k.startswith(f"{name} | ")}
            rows.append(dict(base, method=name, **values))
    return pd.DataFrame(rows)


def _metric(metric: str) -> str:
    return check_choice("metric", metric, list(METRICS))


def _paired(group: pd.DataFrame, metric: str, method: str, baseline: str) -> dict:
    wide = group.pivot(index="replicate", columns="method", values=metric)
    d = (wide[method] - wide[baseline]).to_numpy()
    mean, half = t_interval(d)
    base = float(wide[baseline].mean())
    return dict(
        method=method,
        baseline=baseline,
        diff=mean,
        ci=half,
        relative=mean / base if base else np.nan,
        wins=int(np.sum(d < 0)),
        replicates=int(d.size),
        verdict="better" if mean + half < 0 else "worse" if mean - half > 0 else "no difference",
    )


def paired_differences(runs: pd.DataFrame, metric: str, baseline: str) -> pd.DataFrame:
    """Every method against ``baseline`` at every setting and selection of ``runs``
    (:func:`ground_runs`): the mean paired difference of ``metric`` (method minus
    baseline; lower is better for every metric of :data:`METRICS`), its 95 % half-width
    ``ci``, ``relative`` (over the baseline's mean), how many replicates the method won
    and the verdict (``better``/``worse`` when the interval excludes zero)."""
    metric = _metric(metric)
    check_frame("runs", runs, [*SETTING, "selection", "replicate", "method", metric])
    if baseline not in set(runs["method"]):
        raise InvalidParameter(f"baseline {baseline!r} is not among the runs' methods")
    rows = []
    for key, group in runs.groupby([*SETTING, "selection"], sort=False):
        for method in group["method"].unique():
            if method != baseline:
                rows.append(dict(zip([*SETTING, "selection"], key, strict=True),
                                 **_paired(group, metric, method, baseline)))  # fmt: skip
    return pd.DataFrame(rows)


def win_map(runs: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Per setting and selection: the method of lowest mean ``metric`` (the winner), the
    runner-up, the paired difference between them (winner minus runner-up, with its 95
    % half-width and relative size) and whether the win is clear (the interval excludes
    zero) or a tie within noise. Methods whose runs give the same value on every
    replicate (the same schedule, e.g. allocators that only break ties under
    conservative backfilling) share the win: ``winner`` joins their names with " = ",
    and the runner-up is the best method that differs (none, and no clear win, when
    all are identical)."""
    metric = _metric(metric)
    check_frame("runs", runs, [*SETTING, "selection", "replicate", "method", metric])
    rows = []
    for key, group in runs.groupby([*SETTING, "selection"], sort=False):
        wide = group.pivot(index="replicate", columns="method", values=metric)
        if wide.shape[1] < 2:
            raise InvalidParameter("a win map needs at least two methods per setting")
        order = wide.mean().sort_values().index
        top = wide[order[0]]
        same = [m for m in order if wide[m].equals(top)]
        others = [m for m in order if m not in same]
        row = dict(zip([*SETTING, "selection"], key, strict=True), winner=" = ".join(sorted(same)))
        if not others:
            rows.append(dict(row, runner_up=None, margin=0.0, ci=0.0, relative=0.0, clear=False))
            continue
        pair = _paired(group, metric, order[0], others[0])
        rows.append(
            dict(
                row,
                runner_up=others[0],
                margin=pair["diff"],
                ci=pair["ci"],
                relative=pair["relative"],
                clear=pair["verdict"] == "better",
            )
        )
    return pd.DataFrame(rows)
