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

import math
from pathlib import Path

import numpy as np
import pandas as pd

from ...bounds import MAX_JOBS, MAX_REPLICATES
from ...errors import (
    InvalidParameter,
    InvalidType,
    check_choice,
    check_each,
    check_frame,
    check_int,
    check_real,
)
from ...stats import t_interval
from ...sweep import sweep_results
from ..shih2013.published import LOADS, SH_LEVELS
from .ground import WORKLOADS, ground_clusters, ground_jobs
from .methods import GROUPS, METHODS, METRICS, SELECTIONS, Links, run_method

SETTING = ["workload", "load", "sh", "bsbw"]
RUN_KEYS = [*SETTING, "selection", "replicate", "method"]
"""What identifies one run of :func:`ground_runs`' frame."""
RUN_COLUMNS = [*RUN_KEYS, *METRICS, "utilization", "coallocated", "seconds_per_job"]
PAIRED_COLUMNS = [
    *SETTING,
    "selection",
    "method",
    "baseline",
    "diff",
    "ci",
    "relative",
    "wins",
    "replicates",
    "verdict",
]
WIN_COLUMNS = [*SETTING, "selection", "winner", "runner_up", "margin", "ci", "relative", "clear"]
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
    ``replicate`` and ``n_jobs`` as :func:`.ground.ground_jobs` takes them; ``methods`` a
    sequence of names of :data:`.methods.METHODS` (not one name as a string),
    ``selection`` one of :data:`.methods.SELECTIONS`, ``bsbw`` a number >= 0 (Mbps)."""
    methods = check_each("methods", methods, check_choice, list(METHODS))
    selection = check_choice("selection", selection, list(SELECTIONS))
    links = Links(bsbw=check_real("bsbw", bsbw, at_least=0))
    jobs = ground_jobs(workload, load, replicate, n_jobs)
    clusters = ground_clusters(sh, replicate)
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
    method) with the columns of :func:`.methods.run_method` (:data:`RUN_COLUMNS`; none
    when a sequence is empty). ``replicates`` is a whole number in [2, 10**6] and
    ``n_jobs`` None or one in [2, 10**8] (:mod:`hpcmodels.bounds`); ``workloads``,
    ``loads``, ``selections`` and ``methods`` are sequences of names of
    :data:`.ground.WORKLOADS`, Shih's loads, :data:`.methods.SELECTIONS` and
    :data:`.methods.METHODS` (a lone string is refused, not read letter by letter),
    ``shs`` and ``bsbws`` sequences of numbers >= 0: all checked before any point runs
    (a bad level used to fail every point of the sweep, then stop it)."""
    replicates = check_int("replicates", replicates, minimum=2, maximum=MAX_REPLICATES)
    if n_jobs is not None:
        n_jobs = check_int("n_jobs", n_jobs, minimum=2, maximum=MAX_JOBS)
    workloads = check_each("workloads", workloads, check_choice, list(WORKLOADS))
    loads = check_each("loads", loads, check_choice, list(LOADS))
    shs = check_each("shs", shs, check_real, at_least=0)
    selections = check_each("selections", selections, check_choice, list(SELECTIONS))
    bsbws = check_each("bsbws", bsbws, check_real, at_least=0)
    for b in bsbws:
        Links(bsbw=b)  # the network's own checks, before any point runs
    methods = tuple(check_each("methods", methods, check_choice, list(METHODS)))
    grid = [
        dict(
            workload=w,
            load=ld,
            sh=float(s),
            bsbw=float(b),
            replicate=r,
            selection=sel,
            methods=methods,
            n_jobs=n_jobs,
        )
        for w in workloads
        for ld in loads
        for s in shs
        for b in bsbws
        for sel in selections
        for r in range(replicates)
    ]
    results = sweep_results(
        ground_point, grid, client=client, cache=cache, progress=progress, desc="across"
    )
    rows = []
    for point, result in zip(grid, results, strict=True):
        base = {k: point[k] for k in (*SETTING, "selection", "replicate")}
        for name in methods:
            values = {k.split(" | ")[1]: v for k, v in result.items() if k.startswith(f"{name} | ")}
            rows.append(dict(base, method=name, **values))
    return pd.DataFrame(rows) if rows else pd.DataFrame(columns=RUN_COLUMNS)


def _metric(metric: str) -> str:
    return check_choice("metric", metric, list(METRICS))


def check_runs(runs: pd.DataFrame, metrics=()) -> pd.DataFrame:
    """``runs`` itself, checked at the door of the functions that compare its methods: a
    DataFrame (:func:`ground_runs`) with the columns of :data:`RUN_KEYS` and each of
    ``metrics``; ``sh``, ``bsbw`` and the metrics finite numbers; one row per run (runs
    concatenated twice would be averaged without a word), and at every setting and
    selection every method on the same replicates (the comparisons are paired). Else an
    :class:`~hpcmodels.errors.InvalidParameter` (:class:`~hpcmodels.errors.InvalidType`
    for no DataFrame or a column of text) naming ``runs``."""
    check_frame("runs", runs, RUN_KEYS, numeric=["sh", "bsbw", *metrics], unique=RUN_KEYS)
    cell = [*SETTING, "selection"]
    ran = runs.groupby([*cell, "method"], sort=False)["replicate"].nunique()
    every = runs.groupby(cell, sort=False)["replicate"].nunique()
    short = ran[ran < every.reindex(ran.index.droplevel("method")).to_numpy()]
    if len(short):
        *key, method = short.index[0]
        raise InvalidParameter(
            f"runs: method {method!r} ran {short.iloc[0]} of the "
            f"{every[tuple(key)]} replicates at {_where(key)}: a paired comparison needs "
            "every method on the same replicates"
        )
    return runs


def _where(key) -> str:
    values = [v.item() if isinstance(v, np.generic) else v for v in key]
    return ", ".join(f"{k} {v!r}" for k, v in zip([*SETTING, "selection"], values, strict=True))


def relative_difference(mean: float, base: float) -> float:
    """A mean difference over the baseline's mean: 0 where both are 0 (a metric that is 0
    for every run, e.g. no job waits at a low load), +-inf where only the baseline's is."""
    if base:
        return mean / base
    return 0.0 if mean == 0 else math.copysign(math.inf, mean)


def _paired(wide: pd.DataFrame, method: str, baseline: str) -> dict:
    d = (wide[method] - wide[baseline]).to_numpy()
    mean, half = t_interval(d)
    return dict(
        method=method,
        baseline=baseline,
        diff=mean,
        ci=half,
        relative=relative_difference(mean, float(wide[baseline].mean())),
        wins=int(np.sum(d < 0)),
        replicates=int(d.size),
        verdict="better" if mean + half < 0 else "worse" if mean - half > 0 else "no difference",
    )


def paired_differences(runs: pd.DataFrame, metric: str, baseline: str) -> pd.DataFrame:
    """Every method against ``baseline`` at every setting and selection of ``runs``
    (:func:`ground_runs`, as :func:`check_runs` checks it): the mean paired difference of
    ``metric`` (method minus baseline; lower is better for every metric of
    :data:`METRICS`), its 95 % half-width ``ci``, ``relative`` (over the baseline's
    mean; 0 where both means are 0), how many replicates the method won and the verdict
    (``better``/``worse`` when the interval excludes zero). ``baseline`` is a method
    name of ``runs`` (a method with no other left to compare gives no row; empty
    ``runs`` give no row either); every method must have run the same replicates of a
    setting. The columns are :data:`PAIRED_COLUMNS`."""
    metric = _metric(metric)
    check_runs(runs, [metric])
    if not isinstance(baseline, str):
        raise InvalidType(f"baseline must be a method name, got {baseline!r:.80}")
    if len(runs) and baseline not in set(runs["method"]):
        methods = list(dict.fromkeys(runs["method"]))
        raise InvalidParameter(f"baseline {baseline!r} is not among the runs' methods {methods}")
    rows = []
    for key, group in runs.groupby([*SETTING, "selection"], sort=False):
        wide = group.pivot(index="replicate", columns="method", values=metric)
        for method in group["method"].unique():
            if method != baseline and baseline in wide:
                rows.append(
                    dict(
                        zip([*SETTING, "selection"], key, strict=True),
                        **_paired(wide, method, baseline),
                    )
                )
    return pd.DataFrame(rows, columns=PAIRED_COLUMNS)


def win_map(runs: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Per setting and selection: the method of lowest mean ``metric`` (the winner), the
    runner-up, the paired difference between them (winner minus runner-up, with its 95
    % half-width and relative size) and whether the win is clear (the interval excludes
    zero) or a tie within noise. Methods whose runs give the same value on every
    replicate (the same schedule, e.g. allocators that only break ties under
    conservative backfilling) share the win: ``winner`` joins their names with " = ",
    and the runner-up is the best method that differs (none, and no clear win, when
    all are identical). ``runs`` as :func:`check_runs` checks it, with at least two
    methods at every setting (empty ``runs``: no row); the columns are
    :data:`WIN_COLUMNS`."""
    metric = _metric(metric)
    check_runs(runs, [metric])
    rows = []
    for key, group in runs.groupby([*SETTING, "selection"], sort=False):
        wide = group.pivot(index="replicate", columns="method", values=metric)
        if wide.shape[1] < 2:
            raise InvalidParameter(
                f"a win map needs at least two methods per setting; runs has only "
                f"{list(wide.columns)} at {_where(key)}"
            )
        order = wide.mean().sort_values().index
        top = wide[order[0]]
        same = [m for m in order if wide[m].equals(top)]
        others = [m for m in order if m not in same]
        row = dict(zip([*SETTING, "selection"], key, strict=True), winner=" = ".join(sorted(same)))
        if not others:
            rows.append(dict(row, runner_up=None, margin=0.0, ci=0.0, relative=0.0, clear=False))
            continue
        pair = _paired(wide, order[0], others[0])
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
    return pd.DataFrame(rows, columns=WIN_COLUMNS)
