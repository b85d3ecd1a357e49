"""Huang & Chang (PDPTA 2006): the published tables and the functions that rebuild them
with ``hpcmodels.multicluster``.

Set-ups (Sections 2-4):

* Section 2: the SDSC SP2 jobs with status "completed" in one queue on a single
  384-processor cluster; load factor f multiplies every runtime (f = 1 ... 4).
* Sections 3-4: a grid of five sites with 8, 128, 128, 128 and 50 processors (site i
  gets the jobs of SP2 queue i) and one central queue over all sites: FCFS ("single-pool
  centralized queue") with one of five allocation methods, co-allocation across sites
  when no single site fits, the co-allocated runtime multiplied by the slowdown ratio.
  Tables 5-6 use the fixed-order co-allocation heuristic; Tables 7-8 best fit with each
  heuristic; Table 9 compares FCFS + first fit + fixed order with the integrated
  approach, smallest first + best fit + larger first.

Which log. The paper used the full log (Section 2: 56,490 completed jobs of 73,496
records). Offline only the cleaned log is available: 43,117 completed jobs, queues 1, 2
and 5 complete, queues 3 and 4 without the jobs the cleaning removed. :func:`load_jobs`
takes the full log when present and says which it used. On the cleaned log no row can
be ``exact`` (another input), and what agreement to expect there is measured:
:func:`cleaning_effect` shows which jobs the cleaning removed (from Table 1 and ours),
and every table runs at a nearly constant ours/paper ratio, its *typical ratio* (the
median over its cells). :func:`ratio_check` flags the cells that break it (beyond the
report's tolerance for the kind, around typical ratio x paper); every row shows its
ratio, and a row that breaks it says so with the numbers (:func:`table_rows`).

Readings:

* The waiting ratio is the mean of the per-job ratios wait / execution time (it
  reproduces Table 3's magnitudes; the ratio of the means is 50-100 times smaller).
* Median fit (Section 3: "the site with the median number of available processors")
  does not say which of the two middle sites when an even number of sites fit. Both
  readings run: ``median_fit``, the lower median (column "Median Fit", the engine's
  default), and ``median_fit_upper``, the upper median (column :data:`MEDIAN_UPPER`).
  Both are compared with the paper's column, and every claim that involves median fit
  is checked under each (:func:`median_readings` puts them side by side).
* Random fit runs once per seed of :data:`RANDOM_SEEDS`; its cells are the mean over
  the seeds with a Student-t 95 % interval (:func:`hpcmodels.stats.t_interval`), which
  the comparison takes as ours' uncertainty.
* The site a job came from does not restrict where it runs (one central queue).

Every table's runs are one sweep (:func:`hpcmodels.sweep.sweep`, on Dask) of
:func:`simulate_run`, one simulation per point (random fit: per seed).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InvalidParameter, LogNotAvailable
from ..multicluster import Cluster, simulate
from ..stats import t_interval
from ..sweep import raise_failures, sweep
from ..workloads.archive import is_available, load_archive_log
from ..workloads.clean import completed_only
from ..workloads.transforms import queue_summary, scale_runtimes
from .report import (
    TOLERANCES,
    alike,
    claim,
    compare_value,
    fmt_series,
    log_missing,
    missing_frame,
    missing_of,
    not_run,
)

PAPER = "huang2006"
TITLE = "Huang & Chang 2006: integrated processor allocation and job scheduling on a grid"
CITATION = (
    "K.-C. Huang, H.-Y. Chang. An integrated processor allocation and job scheduling "
    "approach to workload management on computing grid. PDPTA 2006."
)
FULL_LOG = "SDSC-SP2-1998-4.2"
CLEANED_LOG = "SDSC-SP2-1998-4.2-cln"
LOG_RECORDS = 73496  # Section 2: records of the SDSC SP2 log
TOTAL_JOBS = 56490  # Section 2 and Table 1: completed jobs used
SINGLE_CLUSTER = [Cluster("SDSC SP2 x3", 384)]
GRID = [Cluster(f"site {i + 1}", p) for i, p in enumerate((8, 128, 128, 128, 50))]
LOAD_FACTORS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
SLOWDOWNS = (1.0, 2.0, 4.0, 5.0)
RANDOM_SEEDS = tuple(range(20))
"""Seeds of random fit's runs; its cells are the mean over them."""
POLICIES = {  # Table 2/3 column -> selection
    "FCFS": "fcfs",
    "First Available": "first_available",
    "Smallest First": "smallest_first",
    "Largest First": "largest_first",
    "Backfilling": "conservative",
}
METHODS = {  # Table 5/6 column -> allocation ("Median Fit": the lower-median reading)
    "First Fit": "first_fit",
    "Median Fit": "median_fit",
    "Random Fit": "random_fit",
    "Best Fit": "best_fit",
    "Worst Fit": "worst_fit",
}
MEDIAN_UPPER = "Median Fit (upper median)"
READINGS = {MEDIAN_UPPER: "Median Fit"}
"""Our extra columns of Tables 5-6, each another reading of a paper's column."""
OTHER_ALLOCATIONS = {MEDIAN_UPPER: "median_fit_upper"}
OUR_METHODS = [*METHODS, *OTHER_ALLOCATIONS]
READING_NOTES = {
    "Median Fit": "reading: lower median of the fitting sites (median_fit)",
    MEDIAN_UPPER: "reading: upper median of the fitting sites (median_fit_upper)",
}
HEURISTICS = {
    "Best Fit with Fixed Order": "fixed_order",
    "Best Fit with Smaller First": "smaller_first",
    "Best Fit with Larger First": "larger_first",
}
CI_METRICS = ("mean_wait", "mean_waiting_ratio")

# ------------------------------------------------------------------ published numbers
TABLE1 = pd.DataFrame(  # per queue: jobs, max runtime, mean runtime, max procs, mean procs
    [(4053, 21922, "267.13", 8, "3"), (6795, 64411, "6746.27", 128, "16"),
     (26067, 118561, "5657.81", 128, "12"), (19398, 64817, "5935.92", 128, "6"),
     (177, 42262, "462.46", 50, "4")],
    index=pd.Index([1, 2, 3, 4, 5], name="queue"),
    columns=["jobs", "max_runtime", "mean_runtime", "max_procs", "mean_procs"],
)  # fmt: skip
TABLE2 = pd.DataFrame(  # average waiting time (s)
    [["102.71", "49.17", "47.40", "51.86", "50.73"],
     ["335.20", "142.49", "134.14", "150.79", "157.63"],
     ["956.25", "370.18", "343.39", "417.00", "396.85"],
     ["2815.84", "938.98", "833.67", "1075.84", "1082.79"],
     ["8328.50", "2280.82", "1909.66", "3059.78", "2863.94"],
     ["350945.34", "51191.40", "49653.18", "95794.07", "65481.10"]],
    index=pd.Index(LOAD_FACTORS, name="load factor"), columns=list(POLICIES),
)  # fmt: skip
TABLE3 = pd.DataFrame(  # average waiting ratio
    [["0.77", "0.17", "0.15", "0.21", "0.16"], ["1.89", "0.51", "0.40", "0.53", "0.53"],
     ["4.08", "0.86", "0.79", "1.15", "0.85"], ["10.38", "1.68", "1.29", "2.03", "1.75"],
     ["26.92", "3.15", "2.19", "5.27", "3.22"], ["840.93", "62.63", "21.99", "153.65", "50.72"]],
    index=pd.Index(LOAD_FACTORS, name="load factor"), columns=list(POLICIES),
)  # fmt: skip
TABLE5 = pd.DataFrame(  # average waiting time (s), FCFS + fixed-order co-allocation
    [["50.36"] * 5, ["61.71", "65.08", "80.10", "60.48", "93.93"],
     ["117.57", "166.13", "92.48", "64.05", "530.58"],
     ["200.71", "959.88", "133.83", "99.44", "2219.90"]],
    index=pd.Index(SLOWDOWNS, name="slowdown ratio"), columns=list(METHODS),
)  # fmt: skip
TABLE6 = pd.DataFrame(  # average waiting ratio
    [["0.37"] * 5, ["0.47", "0.50", "0.65", "0.47", "0.76"],
     ["0.90", "1.28", "0.86", "0.51", "5.06"], ["1.88", "10.11", "1.14", "0.75", "23.11"]],
    index=pd.Index(SLOWDOWNS, name="slowdown ratio"), columns=list(METHODS),
)  # fmt: skip
TABLE7 = pd.DataFrame(  # waiting time (s), best fit with each heuristic
    [["50.36", "50.36", "50.36"], ["60.48", "60.13", "60.23"], ["64.05", "64.07", "63.71"],
     ["99.44", "176.57", "66.12"]],
    index=pd.Index(SLOWDOWNS, name="slowdown ratio"), columns=list(HEURISTICS),
)  # fmt: skip
TABLE8 = pd.DataFrame(  # waiting ratio
    [["0.37"] * 3, ["0.47"] * 3, ["0.51"] * 3, ["0.75", "1.61", "0.53"]],
    index=pd.Index(SLOWDOWNS, name="slowdown ratio"), columns=list(HEURISTICS),
)  # fmt: skip
TABLE9 = pd.DataFrame(  # single-pool centralized queue vs the integrated approach
    [["200.71", "28.54", "1.88", "0.08"], ["117.57", "23.68", "0.90", "0.07"],
     ["61.71", "23.30", "0.47", "0.07"], ["50.36", "22.18", "0.37", "0.06"]],
    index=pd.Index([5.0, 4.0, 2.0, 1.0], name="slowdown ratio"),
    columns=["wait single-pool", "wait integrated", "ratio single-pool", "ratio integrated"],
)  # fmt: skip


# ------------------------------------------------------------------ the workload


@functools.lru_cache(maxsize=2)
def _completed_jobs(log: str) -> pd.DataFrame:
    """The completed jobs (status 1) of ``log``, read once per process;
    ``attrs["records"]`` is the number of records of the log."""
    frame = load_archive_log(log)
    jobs = completed_only(frame)
    jobs.attrs["records"] = len(frame)
    return jobs


def load_jobs(prefer_full: bool = True) -> tuple[pd.DataFrame, str]:
    """The completed SDSC SP2 jobs (status 1) and the name of the log used: the full
    log when present (as the paper), otherwise the cleaned one. ``jobs.attrs["records"]``
    is the number of records of the log read. The tables' runs take the log's name
    (:func:`policies_by_load`, :func:`allocation_runs`).

    Without either log (and no download allowed or possible) the jobs are an empty
    frame whose ``attrs["missing"]`` names the log and how to get it
    (:func:`~hpcmodels.papers.report.missing_frame`): every function below then returns
    an empty frame or ``not run`` rows carrying that sentence, so the notebook runs to
    its end and the report says what was not run."""
    name = FULL_LOG if prefer_full and is_available(FULL_LOG) else CLEANED_LOG
    if (missing := _missing_log(name)) is not None:
        return missing, name
    return _completed_jobs(name).copy(), name


def _missing_log(log: str) -> pd.DataFrame | None:
    """:func:`~hpcmodels.papers.report.missing_frame` naming ``log`` when it cannot be
    read here (after a download where one is allowed), else None."""
    try:
        _completed_jobs(log)
    except LogNotAvailable as err:
        return missing_frame(log_missing(err))
    return None


def _not_run(items: Sequence[str], reason: str, quantity: str = "every cell") -> list[dict]:
    """One ``not run`` row per item, naming what is missing."""
    return [not_run(item, quantity, "", reason) for item in items]


def _other_input(log: str) -> str:
    """How our input differs from the paper's ("" on the full log)."""
    if log == FULL_LOG:
        return ""
    return f"the cleaned log {log} (queues 3 and 4 short of jobs: Table 1)"


def _removed_by_filters(attrs: Mapping) -> int | None:
    """Records the log's header says its cleaning filters removed ("(N jobs removed)")."""
    counts = [int(m.group(1)) for line in attrs.get("comments", [])
              for m in re.finditer(r"\((\d+) jobs removed\)", str(line))]  # fmt: skip
    return sum(counts) if counts else None


def cleaning_effect(jobs: pd.DataFrame) -> pd.DataFrame:
    """Per queue (and in all): the paper's completed jobs (Table 1), ours, the jobs
    missing from ours, and what the missing jobs were like, from Table 1's row and ours:
    their mean runtime ``(N_paper mean_paper - N_ours mean_ours) / missing`` and the
    range of their mean width (the paper truncates its mean processors, so the range
    spans its last printed unit); ``missing_runtime_share``: their part of the queue's
    total runtime. ``count_ratio`` (in the "all" row) is paper jobs / our jobs: the
    ours/paper ratio of every mean over jobs if the missing jobs had waited nothing and
    delayed no one."""
    if missing_of(jobs):
        return jobs
    ours = queue_summary(jobs).loc[list(TABLE1.index)]
    paper = TABLE1.astype(float)
    missing = paper["jobs"] - ours["jobs"]
    paper_runtime = paper["jobs"] * paper["mean_runtime"]
    missing_runtime = paper_runtime - ours["jobs"] * ours["mean_runtime"]
    procs_low = paper["jobs"] * paper["mean_procs"] - ours["jobs"] * ours["mean_procs"]
    procs_high = procs_low + paper["jobs"]  # the printed mean is truncated to a whole
    with np.errstate(divide="ignore", invalid="ignore"):
        frame = pd.DataFrame({
            "paper_jobs": paper["jobs"].astype(int), "our_jobs": ours["jobs"].astype(int),
            "missing": missing.astype(int),
            "paper_mean_runtime": paper["mean_runtime"], "our_mean_runtime": ours["mean_runtime"],
            "missing_mean_runtime": (missing_runtime / missing).where(missing > 0),
            "missing_runtime_share": missing_runtime / paper_runtime,
            "our_mean_procs": ours["mean_procs"],
            "missing_mean_procs_from": (procs_low / missing).where(missing > 0).clip(lower=1),
            "missing_mean_procs_to": (procs_high / missing).where(missing > 0),
        })  # fmt: skip
    total = {"paper_jobs": TOTAL_JOBS, "our_jobs": len(jobs), "missing": TOTAL_JOBS - len(jobs),
             "missing_runtime_share": missing_runtime.sum() / paper_runtime.sum(),
             "count_ratio": TOTAL_JOBS / len(jobs)}  # fmt: skip
    frame["count_ratio"] = np.nan
    frame.loc["all"] = pd.Series(total)
    frame.index.name = "queue"
    return frame


def _int(value: float) -> str:
    return f"{value:,.0f}"


def table1(jobs: pd.DataFrame, log: str) -> pd.DataFrame:
    """Table 1: per-queue workload characteristics (the paper truncates decimals). A
    queue whose completed jobs number as in the paper is the paper's input (the cleaning
    removed none of its jobs); a queue short of jobs is another input, and its differing
    cells say what the missing jobs were like (:func:`cleaning_effect`)."""
    if reason := missing_of(jobs):
        return pd.DataFrame(_not_run(["Table 1"], reason))
    ours = queue_summary(jobs).loc[list(TABLE1.index)]
    effect = cleaning_effect(jobs)
    rows = []
    for q in TABLE1.index:
        e = effect.loc[q]
        complete = e["missing"] == 0
        other = "" if complete else _other_input(log)
        note = "" if complete else f"queue {q} lacks {_int(e['missing'])} of the paper's jobs"
        causes = {
            "jobs": f"the cleaning removed {_int(e['missing'])} completed jobs of queue {q}",
            "mean_runtime": (f"the {_int(e['missing'])} missing jobs averaged "
                             f"{e['missing_mean_runtime']:,.0f} s (Table 1 and ours) against "
                             f"{e['our_mean_runtime']:,.0f} s for the jobs kept"),
            "mean_procs": (f"the missing jobs averaged {e['missing_mean_procs_from']:.1f} to "
                           f"{e['missing_mean_procs_to']:.1f} processors (the paper's mean is "
                           f"truncated) against {e['our_mean_procs']:.2f} kept"),
        }  # fmt: skip
        for col in TABLE1.columns:
            value = float(ours.loc[q, col])
            if col in ("mean_runtime", "mean_procs"):  # printed truncated
                digits = len(str(TABLE1.loc[q, col]).partition(".")[2])
                value = math.floor(value * 10**digits) / 10**digits
            rows.append(compare_value("Table 1", f"queue {q} {col}", str(TABLE1.loc[q, col]),
                                      value, kind="count", other_input=other, note=note,
                                      cause=causes.get(col, "")))  # fmt: skip
    return pd.DataFrame(rows)


def totals_rows(jobs: pd.DataFrame, log: str) -> list[dict]:
    """Section 2's totals: the log's 73,496 records and the 56,490 completed jobs used,
    against the log read here (its record count, ``jobs.attrs["records"]``, and its
    completed jobs)."""
    if reason := missing_of(jobs):
        return _not_run(["Section 2"], reason, "records and completed jobs")
    other = _other_input(log)
    records = jobs.attrs.get("records")
    effect = cleaning_effect(jobs)
    rows = []
    if records is not None:
        removed = _removed_by_filters(jobs.attrs)
        cause = f"the log read holds {_int(records)} records"
        if removed is not None:
            cause += (f"; its header lists cleaning filters that removed {_int(removed)} "
                      f"({_int(records)} + {_int(removed)} = {_int(records + removed)})")  # fmt: skip
        rows.append(compare_value("Section 2", "records in the SDSC SP2 log", LOG_RECORDS,
                                  float(records), kind="count", other_input=other,
                                  cause=cause))  # fmt: skip
    short = effect.drop(index="all")
    short = short[short["missing"] > 0]
    per_queue = ", ".join(f"queue {q}: {_int(n)}" for q, n in short["missing"].items())
    rows.append(compare_value(
        "Table 1", "total completed jobs", TOTAL_JOBS, float(len(jobs)), kind="count",
        other_input=other, cause=f"{_int(TOTAL_JOBS - len(jobs))} completed jobs missing "
        f"({per_queue}); the other queues are complete"))  # fmt: skip
    return rows


# ------------------------------------------------------------------ simulations
# Every table's runs are one sweep (hpcmodels.sweep) of simulate_run: a point names the
# log, and the process that runs it reads the log once (_completed_jobs).


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
    (:func:`hpcmodels.multicluster.simulate`). Returns the run's metrics."""
    jobs = scale_runtimes(_completed_jobs(log)[["submit", "runtime", "procs"]], load_factor)
    return simulate(jobs, clusters, selection, allocation, coallocation=coallocation,
                    slowdown=slowdown, seed=seed).metrics  # fmt: skip


def _run_sweep(labels: list[dict], grid: list[dict], desc: str, client, cache,
               progress: bool) -> pd.DataFrame:  # fmt: skip
    """:func:`simulate_run` over ``grid`` (:func:`hpcmodels.sweep.sweep`), one row per
    point: its ``labels`` and the run's metrics. A failed point is a ``RuntimeError``
    naming how many failed, the first one's parameters and its error
    (:func:`hpcmodels.sweep.raise_failures`)."""
    runs = sweep(simulate_run, grid, cache=cache, client=client, progress=progress, desc=desc)
    raise_failures(runs, f"simulate_run ({desc})")
    parameters = dict.fromkeys(k for point in grid for k in point)  # the grid's columns
    metrics = runs.drop(columns=[*parameters, "error"])
    return pd.concat([pd.DataFrame(labels), metrics], axis=1)


def policies_by_load(log: str, load_factors: Sequence[float] = LOAD_FACTORS, *, client=None,
                     cache: str | Path | None = None, progress: bool = True) -> pd.DataFrame:  # fmt: skip
    """Tables 2-3: the five selection policies on one 384-processor cluster, the jobs of
    ``log`` (:func:`load_jobs`). One row per (load factor, policy): the run's metrics.
    ``client``, ``cache`` and ``progress`` go to :func:`hpcmodels.sweep.sweep`: where
    the runs go (default: ``HPCMODELS_DASK_SCHEDULER``, else a LocalCluster), a folder
    that keeps finished runs (a rerun computes only the others), progress bar. A log
    that cannot be read here gives :func:`~hpcmodels.papers.report.missing_frame`."""
    if (missing := _missing_log(log)) is not None:
        return missing
    labels, grid = [], []
    for lf in load_factors:
        for name, sel in POLICIES.items():
            labels.append({"load factor": lf, "policy": name})
            grid.append(dict(log=log, clusters=SINGLE_CLUSTER, selection=sel, load_factor=lf))
    return _run_sweep(labels, grid, "Tables 2-3", client, cache, progress)


def allocation_runs(log: str, slowdowns: Sequence[float] = SLOWDOWNS,
                    seeds: Iterable[int] = RANDOM_SEEDS, *, client=None,
                    cache: str | Path | None = None, progress: bool = True) -> pd.DataFrame:  # fmt: skip
    """Every run of Tables 5-9 on the jobs of ``log``, one row each: FCFS with each
    allocation method (both median-fit readings; random fit once per seed) and
    fixed-order co-allocation, best fit with each co-allocation heuristic, and the
    integrated approach. ``seed`` is NaN for the deterministic runs. ``client``,
    ``cache`` and ``progress`` as :func:`policies_by_load` (so is a missing log)."""
    seeds = [int(s) for s in seeds]
    if not seeds or min(seeds) < 0:
        raise InvalidParameter(f"random fit needs at least one seed, all >= 0; got {seeds}")
    if (missing := _missing_log(log)) is not None:
        return missing
    labels, grid = [], []

    def run(s: float, name: str, seed: float = math.nan, **policies) -> None:
        labels.append({"slowdown ratio": s, "method": name, "seed": seed})
        grid.append(dict(log=log, clusters=GRID, slowdown=s, seed=0 if math.isnan(seed) else seed,
                         **policies))  # fmt: skip

    for s in slowdowns:
        for name, alloc in {**METHODS, **OTHER_ALLOCATIONS}.items():
            for seed in seeds if alloc == "random_fit" else [math.nan]:
                run(s, name, seed, selection="fcfs", allocation=alloc, coallocation="fixed_order")
        for name, heur in HEURISTICS.items():
            run(s, name, selection="fcfs", allocation="best_fit", coallocation=heur)
        run(s, "Integrated", selection="smallest_first", allocation="best_fit",
            coallocation="larger_first")  # fmt: skip
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


def allocation_by_slowdown(log: str, slowdowns: Sequence[float] = SLOWDOWNS,
                           seeds: Iterable[int] = RANDOM_SEEDS, *, client=None,
                           cache: str | Path | None = None,
                           progress: bool = True) -> pd.DataFrame:  # fmt: skip
    """Tables 5-9 (:func:`allocation_runs`), summarised (:func:`summarise_runs`)."""
    return summarise_runs(allocation_runs(log, slowdowns, seeds, client=client, cache=cache,
                                          progress=progress))  # fmt: skip


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
    out = pd.DataFrame({"wait single-pool": wait["First Fit"],
                        "wait integrated": wait["Integrated"],
                        "ratio single-pool": ratio["First Fit"],
                        "ratio integrated": ratio["Integrated"]})  # fmt: skip
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
        parts[metric] = pd.DataFrame({
            "paper": p["Median Fit"], "lower": lower, "upper": upper,
            "lower / paper": lower / p["Median Fit"], "upper / paper": upper / p["Median Fit"],
            "paper median / first": p["Median Fit"] / p["First Fit"],
            "lower / first": lower / ours["First Fit"],
            "upper / first": upper / ours["First Fit"],
        })  # fmt: skip
    return pd.concat(parts, names=["metric"])


# ------------------------------------------------------------------ comparisons


def _half_unit(printed: str) -> float:
    text = printed.strip().lstrip("+-")
    return 0.5 * 10.0 ** -(len(text.split(".", 1)[1]) if "." in text else 0)


def ratio_check(paper: pd.DataFrame, ours: pd.DataFrame, *, ci: pd.DataFrame | None = None,
                readings: Mapping[str, str] | None = None, kind: str = "time") -> pd.DataFrame:  # fmt: skip
    """Each cell's ours/paper ratio against the table's *typical ratio*: the median of
    the ratios over the paper's cells (ours' columns named as the paper's). A cell
    *breaks* the typical ratio when ours lies farther from ``typical x paper`` than the
    report's tolerance for ``kind`` (or ours' 95 % half-width from ``ci``, when larger)
    plus the typical ratio times half the paper's last printed unit. ``readings`` maps
    ours' extra columns to the paper column each one reads (checked against the same
    typical ratio, not part of it). One row per (row, column) of ours."""
    pairs = [(c, c) for c in paper.columns] + list((readings or {}).items())
    records = []
    for r in paper.index:
        for col, pcol in pairs:
            printed = str(paper.loc[r, pcol])
            p, o = float(printed), float(ours.loc[r, col])
            h = float(ci.loc[r, col]) if ci is not None and col in ci.columns else math.nan
            records.append(dict(row=r, column=col, paper_column=pcol, printed=printed,
                                paper=p, ours=o, ci=h if math.isfinite(h) else 0.0,
                                ratio=o / p if p else math.nan, primary=col == pcol))  # fmt: skip
    frame = pd.DataFrame(records)
    typical = float(np.nanmedian(frame.loc[frame["primary"], "ratio"].to_numpy(float)))
    tolerance = TOLERANCES[kind]
    frame["typical"] = typical
    frame["expected"] = typical * frame["paper"]
    frame["allowed"] = [max(tolerance.of(e), h) + typical * _half_unit(s)
                        for e, h, s in zip(frame["expected"], frame["ci"], frame["printed"],
                                           strict=True)]  # fmt: skip
    frame["breaks"] = (frame["ours"] - frame["expected"]).abs() > frame["allowed"]
    return frame.set_index(["row", "column"])


def _num(x: float, digits: int = 4) -> str:
    """A number for a reason: thousands with separators, smaller ones to ``digits``."""
    return f"{x:,.0f}" if abs(x) >= 10**digits else f"{x:.{digits}g}"


def _ratio_note(c: pd.Series) -> str:
    text = f"ours/paper {c['ratio']:.3g}, table's typical ratio {c['typical']:.3g}"
    if c["breaks"]:
        text += (f"; BREAKS the typical ratio: {c['typical']:.3g} x paper = "
                 f"{_num(c['expected'])} ± {_num(c['allowed'], 2)}")  # fmt: skip
    return text


def _cause(check: pd.DataFrame, r, col: str, log: str, n_jobs: int | None) -> str:
    """The measured statement a differing cell carries: another reading's value when the
    cell breaks the table's typical ratio, else what sets that ratio."""
    c = check.loc[(r, col)]
    if c["breaks"]:
        text = "the table's typical ratio does not account for this cell"
        same = check.xs(r, level="row")
        others = same[(same["paper_column"] == c["paper_column"]) & (same.index != col)]
        for name, o in others.iterrows():
            fit = "also breaks it" if o["breaks"] else "in line with it"
            text += f"; {name} gives {_num(o['ours'])} (ours/paper {o['ratio']:.3g}, {fit})"
        return text if len(others) else text + "; no measurement here explains it"
    if log == FULL_LOG:
        return (f"the whole table lies at {c['typical']:.3g} x the paper's values; no "
                "measured cause")  # fmt: skip
    text = "in line with the table's typical ratio: the cleaned log's offset"
    if n_jobs:
        text += (f" (it lacks {TOTAL_JOBS - n_jobs:,} of the paper's jobs, short ones: Table 1 "
                 f"rows; {TOTAL_JOBS:,} / {n_jobs:,} = {TOTAL_JOBS / n_jobs:.3f} if they had "
                 "waited nothing and delayed no one)")  # fmt: skip
    return text


def table_rows(item: str, paper: pd.DataFrame, ours: pd.DataFrame, label: str, log: str, *,
               ci: pd.DataFrame | None = None, readings: Mapping[str, str] | None = None,
               notes: Mapping[str, str] | None = None, n_jobs: int | None = None) -> list[dict]:  # fmt: skip
    """Cell-by-cell comparison of one table of simulated means (``ours`` laid out like
    ``paper``; kind "time"). ``ci``: ours' 95 % half-widths where ours is a mean over
    seeds; ``readings``: ours' extra columns and the paper column each reads (compared
    with it too); ``notes``: per column, shown on its rows; ``n_jobs``: the jobs
    simulated (for the cause on another log). Every row shows its ours/paper ratio and
    the table's typical ratio (:func:`ratio_check`); a cell that breaks it says so."""
    check = ratio_check(paper, ours, ci=ci, readings=readings)
    other = _other_input(log)
    rows = []
    for (r, col), c in check.iterrows():
        note = "; ".join(x for x in ((notes or {}).get(col, ""), _ratio_note(c)) if x)
        rows.append(compare_value(item, f"{label} {r:g}, {col}", c["printed"], c["ours"],
                                  kind="time", ci=c["ci"] or None, other_input=other,
                                  note=note, cause=_cause(check, r, col, log, n_jobs)))  # fmt: skip
    return rows


def _load_tables(by_load: pd.DataFrame):
    """Tables 2-3 as :func:`table_rows` takes them."""
    for item, metric, paper in (("Table 2", "mean_wait", TABLE2),
                                ("Table 3", "mean_waiting_ratio", TABLE3)):  # fmt: skip
        ours = pivot(by_load, metric, list(POLICIES))
        yield dict(item=item, paper=paper.loc[ours.index], ours=ours, label="load factor")


def _slowdown_tables(by_slowdown: pd.DataFrame):
    """Tables 5-9 as :func:`table_rows` takes them: Tables 5-6 with both median-fit
    readings and random fit's 95 % half-widths."""
    runs = by_slowdown.loc[by_slowdown["method"] == "Random Fit", "runs"]
    notes = {**READING_NOTES, "Random Fit": f"mean of {int(runs.min()) if len(runs) else 0} "
             "seeds, 95 % CI from their spread"}  # fmt: skip
    for item, metric, paper in (("Table 5", "mean_wait", TABLE5),
                                ("Table 6", "mean_waiting_ratio", TABLE6)):  # fmt: skip
        ours = pivot(by_slowdown, metric, OUR_METHODS)
        ci = pivot(by_slowdown, f"{metric}_ci", OUR_METHODS)
        yield dict(item=item, paper=paper.loc[ours.index], ours=ours, label="slowdown", ci=ci,
                   readings=READINGS, notes=notes)  # fmt: skip
    for item, metric, paper in (("Table 7", "mean_wait", TABLE7),
                                ("Table 8", "mean_waiting_ratio", TABLE8)):  # fmt: skip
        ours = pivot(by_slowdown, metric, list(HEURISTICS))
        yield dict(item=item, paper=paper.loc[ours.index], ours=ours, label="slowdown")
    t9 = table9_frame(by_slowdown)
    yield dict(item="Table 9", paper=TABLE9.loc[t9.index], ours=t9, label="slowdown")


def load_rows(by_load: pd.DataFrame, log: str, n_jobs: int | None = None) -> list[dict]:
    """Tables 2-3 cell by cell (:func:`table_rows`); ``not run`` rows naming the
    missing log when the runs could not be made."""
    if reason := missing_of(by_load):
        return _not_run(["Table 2", "Table 3"], reason)
    return [row for spec in _load_tables(by_load)
            for row in table_rows(**spec, log=log, n_jobs=n_jobs)]  # fmt: skip


def slowdown_rows(by_slowdown: pd.DataFrame, log: str, n_jobs: int | None = None,
                  items: Sequence[str] | None = None) -> list[dict]:  # fmt: skip
    """Tables 5-9 cell by cell (:func:`table_rows`): Tables 5-6 with both median-fit
    readings and random fit's 95 % interval; ``items`` picks tables ("Table 9"); ``not
    run`` rows naming the missing log when the runs could not be made."""
    if reason := missing_of(by_slowdown):
        tables = ["Table 5", "Table 6", "Table 7", "Table 8", "Table 9"]
        return _not_run([t for t in tables if items is None or t in items], reason)
    return [row for spec in _slowdown_tables(by_slowdown)
            if items is None or spec["item"] in items
            for row in table_rows(**spec, log=log, n_jobs=n_jobs)]  # fmt: skip


def typical_ratios(by_load: pd.DataFrame | None = None, by_slowdown: pd.DataFrame | None = None,
                   n_jobs: int | None = None) -> pd.DataFrame:  # fmt: skip
    """Per table: its typical ours/paper ratio (:func:`ratio_check`), the lowest and
    highest ratio of its cells, how many cells lie in line with it, and the cells that
    break it (with their ratios). With ``n_jobs`` (the jobs simulated), ``typical /
    count ratio``: the typical ratio over paper jobs / ours, i.e. our jobs' total waiting
    time (or waiting ratio) over the paper's total."""
    if reason := missing_of(by_load, by_slowdown):
        return missing_frame(reason)
    specs = [*(_load_tables(by_load) if by_load is not None else []),
             *(_slowdown_tables(by_slowdown) if by_slowdown is not None else [])]  # fmt: skip
    out = []
    for spec in specs:
        check = ratio_check(spec["paper"], spec["ours"], ci=spec.get("ci"),
                            readings=spec.get("readings"))  # fmt: skip
        broken = check[check["breaks"]]
        row = dict(item=spec["item"], typical=check["typical"].iloc[0], cells=len(check),
                   lowest=check["ratio"].min(), highest=check["ratio"].max(),
                   in_line=int((~check["breaks"]).sum()))  # fmt: skip
        if n_jobs:
            row["typical / count ratio"] = row["typical"] / (TOTAL_JOBS / n_jobs)
        row["breaking"] = ", ".join(f"{r:g} {c} ({v:.3g})" for (r, c), v in broken["ratio"].items())
        out.append(row)
    return pd.DataFrame(out).set_index("item")


# ------------------------------------------------------------------ claims


def _below(values: pd.Series, pairs) -> list[str]:
    """The ``(a, b)`` pairs (``a`` claimed at most ``b``) where ``b`` lies below ``a``,
    with both values and how far apart they are."""
    return [f"{b} {_num(values[b])} < {a} {_num(values[a])} ({values[a] / values[b] - 1:.1%} "
            "apart)" for a, b in pairs if values[a] > values[b]]  # fmt: skip


def _unresolved(values: pd.Series, ci: pd.Series | None, pairs) -> list[str]:
    """The ``(a, b)`` pairs whose order the 95 % intervals of ``ci`` do not settle."""
    if ci is None:
        return []
    half = {k: float(v) if math.isfinite(v) else 0.0 for k, v in ci.items()}
    return [f"{a} vs {b}" for a, b in pairs
            if (half[a] or half[b]) and abs(values[a] - values[b]) <= half[a] + half[b]]  # fmt: skip


def _per_row(table: pd.DataFrame, rows, pairs, check) -> list[str]:
    return [f"{r:g}: {x}" for r in rows for x in check(table.loc[r], pairs)]


def section2_claims(wait: pd.DataFrame, ratio: pd.DataFrame) -> list[dict]:
    """Section 2's conclusions from Tables 2-3 (rows: load factor, columns: policy); a
    claim that fails names the load factors and values that break it (``not run`` rows
    when the tables could not be made)."""
    if reason := missing_of(wait, ratio):
        return _not_run(["Tables 2-3"], reason, "Section 2's claims")
    others = [p for p in POLICIES if p != "FCFS"]
    rows = list(wait.index)
    vs_fcfs = [("FCFS", p) for p in others]  # claimed: the policy below FCFS
    fcfs_fails = [f"waiting time {x}" for x in _per_row(-wait, rows, vs_fcfs, _below)]
    fcfs_fails += [f"waiting ratio {x}" for x in _per_row(-ratio, rows, vs_fcfs, _below)]
    sf_first = [("Smallest First", p) for p in POLICIES if p != "Smallest First"]
    ratio_fails = _per_row(ratio, rows, sf_first, _below)
    best_wait = wait.idxmin(axis=1)
    vs_bf = [("Smallest First", "Backfilling"), ("First Available", "Backfilling")]
    bf_fails = _per_row(wait, rows, vs_bf, _below)
    only_sf = {p: bool((ratio[p] < ratio["Backfilling"]).all()) for p in others[:-1]}
    sf_vs_bf = _per_row(ratio, rows, [("Smallest First", "Backfilling")], _below)
    also = [p for p in ("First Available", "Largest First") if only_sf[p]]
    only_cause = "; ".join(
        ([f"smallest first not below backfilling at {', '.join(sf_vs_bf)}"] if sf_vs_bf else [])
        + [f"{p} is below backfilling at every load factor too" for p in also])  # fmt: skip
    return [
        claim("Tables 2-3", "all non-FCFS policies beat FCFS at every load factor",
              not fcfs_fails, "holds" if not fcfs_fails else "fails",
              cause="; ".join(f.replace(" < ", " > ") for f in fcfs_fails)),
        claim("Tables 2-3", "smallest first has the lowest waiting ratio at every load factor",
              not ratio_fails, fmt_series(ratio.idxmin(axis=1)), cause="; ".join(ratio_fails)),
        claim("Table 2", "smallest first has the lowest waiting time at most load factors",
              (best_wait == "Smallest First").mean() > 0.5, fmt_series(best_wait),
              cause="; ".join(_per_row(wait, rows, sf_first, _below))),
        claim("Table 2", "smallest first and first available wait less than backfilling "
              "at every load factor", not bf_fails,
              fmt_series(pd.Series({r: not _below(wait.loc[r], vs_bf) for r in rows})),
              cause="; ".join(bf_fails)),
        claim("Table 3", "only smallest first has a lower waiting ratio than backfilling "
              "at every load factor", only_sf["Smallest First"] and not also,
              fmt_series(only_sf), cause=only_cause),
    ]  # fmt: skip


def _as_reading(table: pd.DataFrame, reading: str) -> pd.DataFrame:
    """Tables 5-6 with the "Median Fit" column taken from ``reading``."""
    out = table[list(METHODS)].copy()
    out["Median Fit"] = table[reading]
    return out


def _order_text(table: pd.DataFrame, rows, ci: pd.DataFrame | None) -> str:
    parts = []
    for s in rows:
        values = table.loc[s, list(METHODS)].sort_values()
        shown = []
        for name, v in values.items():
            h = ci.loc[s, name] if ci is not None and name in ci.columns else math.nan
            shown.append(
                f"{name} {_num(v)}" + (f" ± {_num(h, 2)}" if math.isfinite(h) and h else "")
            )
        parts.append(f"{s:g}: " + " < ".join(shown))
    return "; ".join(parts)


LOW_ORDER = ["Best Fit", "First Fit", "Median Fit", "Random Fit", "Worst Fit"]
HIGH_ORDER = ["Best Fit", "Random Fit", "First Fit", "Median Fit", "Worst Fit"]


def _method_claims(item: str, what: str, table: pd.DataFrame, ci: pd.DataFrame | None,
                   reading: str) -> list[dict]:  # fmt: skip
    """Section 3's orderings of the allocation methods on one of Tables 5-6 under one
    median-fit reading. A claim holds when ours' values (random fit: the mean over its
    seeds) are in the claimed order; when it fails, the cause names the pairs out of
    order; the note names the pairs random fit's 95 % interval does not settle."""
    t = _as_reading(table, reading)
    ci = _as_reading(ci, reading) if ci is not None else None
    tag = " (median fit: " + ("upper median)" if reading == MEDIAN_UPPER else "lower median)")
    best_first = [("Best Fit", m) for m in METHODS if m != "Best Fit"]
    out = []
    for text, rows, pairs in (
        (f"best fit {what} at every slowdown ratio > 1", [s for s in t.index if s > 1],
         best_first),
        ("slowdown <= 2: best > first > median > random > worst fit",
         [s for s in t.index if 1 < s <= 2], list(pairwise(LOW_ORDER))),
        ("slowdown >= 4: best > random > first > median > worst fit",
         [s for s in t.index if s >= 4], list(pairwise(HIGH_ORDER))),
    ):  # fmt: skip
        fails = _per_row(t, rows, pairs, _below)
        unresolved = [f"{s:g}: {p}" for s in rows
                      for p in _unresolved(t.loc[s], None if ci is None else ci.loc[s], pairs)]  # fmt: skip
        note = ("the 95 % intervals do not settle " + ", ".join(unresolved)) if unresolved else ""
        out.append(claim(item, text + tag, not fails, _order_text(t, rows, ci),
                         cause="; ".join(fails), note=note))  # fmt: skip
    return out


def section3_claims(t5: pd.DataFrame, t6: pd.DataFrame, t7: pd.DataFrame, t8: pd.DataFrame,
                    t9: pd.DataFrame, ci5: pd.DataFrame | None = None,
                    ci6: pd.DataFrame | None = None) -> list[dict]:  # fmt: skip
    """Sections 3-4's conclusions (rows: slowdown ratio). ``t5``/``t6``: waiting time and
    ratio per allocation method, with both median-fit readings (:data:`OUR_METHODS`),
    ``ci5``/``ci6`` their 95 % half-widths (random fit); ``t7``/``t8``: per heuristic;
    ``t9``: :func:`table9_frame`. The orderings of Section 3 ("both performance metrics
    reflect the same trend") are checked on Table 5 and on Table 6, once per median-fit
    reading; "alike" is :func:`~hpcmodels.papers.report.alike` (``not run`` rows when
    the tables could not be made)."""
    if reason := missing_of(t5, t6, t7, t8, t9):
        return _not_run(["Tables 5-9"], reason, "Sections 3-4's claims")
    out = []
    if 1.0 in t5.index:
        at1 = t5.loc[1.0, OUR_METHODS]
        cis = ci5.loc[1.0, OUR_METHODS].fillna(0.0) if ci5 is not None else None
        same = alike(at1, cis)
        out.append(claim("Tables 5-6", "with slowdown 1 the five methods perform alike", same,
                         fmt_series(at1.round(2))))  # fmt: skip
    for reading in ("Median Fit", MEDIAN_UPPER):
        out += _method_claims("Table 5", "waits least", t5, ci5, reading)
        out += _method_claims("Table 6", "has the lowest waiting ratio", t6, ci6, reading)
    for item, table, what in (("Table 7", t7, "waits least"),
                              ("Table 8", t8, "has the lowest waiting ratio")):  # fmt: skip
        rows = table.loc[table.index > 1]
        best = rows.min(axis=1)
        larger = rows["Best Fit with Larger First"]
        ok = pd.Series([a <= b or alike([a, b]) for a, b in zip(larger, best, strict=True)],
                       index=rows.index)  # fmt: skip
        out.append(claim(item, f"larger first {what}, or is alike to the best heuristic, at "
                         "every slowdown ratio > 1", ok.all(),
                         fmt_series({s: f"{_num(larger[s])} vs best {_num(best[s])}"
                                     for s in rows.index}),
                         cause="; ".join(f"{s:g}: larger first {_num(larger[s])} is "
                                         f"{larger[s] / best[s] - 1:.1%} above the best"
                                         for s in rows.index[~ok])))  # fmt: skip
    up = t9.sort_index()
    gain = {m: up[f"{m} single-pool"] / up[f"{m} integrated"] for m in ("wait", "ratio")}
    shrinks = {m: [f"x{g.iloc[i]:.3g} at {g.index[i]:g} -> x{g.iloc[i + 1]:.3g} at "
                   f"{g.index[i + 1]:g}" for i in range(len(g) - 1)
                   if not g.iloc[i + 1] > g.iloc[i]] for m, g in gain.items()}  # fmt: skip
    loses = [f"{s:g}: {_num(r['wait integrated'])} >= {_num(r['wait single-pool'])}"
             for s, r in t9.iterrows() if not r["wait integrated"] < r["wait single-pool"]]  # fmt: skip
    at5 = float(gain["ratio"].get(5.0, float("nan")))
    out += [
        claim("Table 9", "the integrated approach beats the single-pool queue at every "
              "slowdown", not loses, fmt_series(gain["wait"].map(lambda g: f"x{g:.2f}")),
              cause="; ".join(loses)),
        claim("Table 9", "more than 20 times lower waiting ratio at slowdown 5", at5 > 20,
              f"x{at5:.1f}", cause=f"the waiting ratio is x{at5:.1f} lower at slowdown 5"),
        claim("Table 9", "the improvement in waiting time grows with the slowdown ratio",
              not shrinks["wait"], fmt_series(gain["wait"].map(lambda g: f"x{g:.2f}")),
              cause="; ".join(shrinks["wait"])),
        claim("Table 9", "the improvement in waiting ratio grows with the slowdown ratio",
              not shrinks["ratio"], fmt_series(gain["ratio"].map(lambda g: f"x{g:.1f}")),
              cause="; ".join(shrinks["ratio"])),
    ]  # fmt: skip
    return out


# ------------------------------------------------------------------ paper scale (ensembles)
ENSEMBLE_REPLICATES = 20
"""Replicates of every table cell at paper scale (the whole log each time)."""
_TABLES = {  # item -> (metric, published table, row label)
    "Table 2": ("mean_wait", TABLE2, "load factor"),
    "Table 3": ("mean_waiting_ratio", TABLE3, "load factor"),
    "Table 5": ("mean_wait", TABLE5, "slowdown"),
    "Table 6": ("mean_waiting_ratio", TABLE6, "slowdown"),
    "Table 7": ("mean_wait", TABLE7, "slowdown"),
    "Table 8": ("mean_waiting_ratio", TABLE8, "slowdown"),
}


def ensemble_key(item: str, label: str, row: float, column: str) -> str:
    """The store's item key of one cell: ``item | quantity`` as :func:`table_rows`
    names it."""
    return f"{item} | {label} {row:g}, {column}"


ENSEMBLE_LOG = CLEANED_LOG
"""The log of the committed store: the cleaned SDSC SP2 log (the one the machine that
computed it had). Fixed rather than taken from what a machine has (:func:`load_jobs` prefers
the full log), so the store's points are the same everywhere; the full log, where
present, is the quick notebook's (``prefer_full_log``)."""


def ensemble_points() -> list[dict]:
    """Tables 2-3 and 5-9 at paper scale: the whole :data:`ENSEMBLE_LOG`,
    :data:`ENSEMBLE_REPLICATES` replicates of each load factor and slowdown ratio.
    Replicate ``r`` multiplies every runtime by :func:`~hpcmodels.papers.ensemble.runtime_scale`
    of ``r`` and seeds random fit with ``r``."""
    log = ENSEMBLE_LOG
    grid = [("load", lf) for lf in LOAD_FACTORS] + [("slowdown", s) for s in SLOWDOWNS]
    return [dict(log=log, study=study, x=float(x), replicate=r)
            for r in range(ENSEMBLE_REPLICATES) for study, x in grid]  # fmt: skip


def ensemble_point(log: str, study: str, x: float, replicate: int) -> dict:
    """One replicate of one row of the tables (:func:`ensemble_points`): at load factor
    ``x`` the five policies of Tables 2-3 on one cluster; at slowdown ratio ``x`` every
    run of Tables 5-9 on the grid (both median-fit readings, random fit with seed
    ``replicate``). Returns ``{item key: value}``."""
    from .ensemble import runtime_scale

    if study not in ("load", "slowdown"):
        raise InvalidParameter(f"unknown study {study!r}; choose 'load' or 'slowdown'")
    scale = runtime_scale(replicate)  # checks replicate: a whole number >= 0
    replicate = int(replicate)
    out = {}
    if study == "load":
        for name, sel in POLICIES.items():
            m = simulate_run(log, SINGLE_CLUSTER, sel, load_factor=float(x) * scale)
            out[ensemble_key("Table 2", "load factor", x, name)] = m["mean_wait"]
            out[ensemble_key("Table 3", "load factor", x, name)] = m["mean_waiting_ratio"]
        return out

    def run(selection: str, allocation: str, coallocation: str) -> dict:
        return simulate_run(log, GRID, selection, allocation, coallocation=coallocation,
                            slowdown=float(x), load_factor=scale, seed=replicate)  # fmt: skip

    for name, alloc in {**METHODS, **OTHER_ALLOCATIONS}.items():
        m = run("fcfs", alloc, "fixed_order")
        out[ensemble_key("Table 5", "slowdown", x, name)] = m["mean_wait"]
        out[ensemble_key("Table 6", "slowdown", x, name)] = m["mean_waiting_ratio"]
        if name == "First Fit":
            out[ensemble_key("Table 9", "slowdown", x, "wait single-pool")] = m["mean_wait"]
            out[ensemble_key("Table 9", "slowdown", x, "ratio single-pool")] = m["mean_waiting_ratio"]  # fmt: skip
    for name, heuristic in HEURISTICS.items():
        m = run("fcfs", "best_fit", heuristic)
        out[ensemble_key("Table 7", "slowdown", x, name)] = m["mean_wait"]
        out[ensemble_key("Table 8", "slowdown", x, name)] = m["mean_waiting_ratio"]
    m = run("smallest_first", "best_fit", "larger_first")
    out[ensemble_key("Table 9", "slowdown", x, "wait integrated")] = m["mean_wait"]
    out[ensemble_key("Table 9", "slowdown", x, "ratio integrated")] = m["mean_waiting_ratio"]
    return out


def ensemble_cost(point: dict) -> float:
    """Relative cost of recomputing a point: a load row is 5 runs, a slowdown row 10."""
    return 5.0 if point["study"] == "load" else 10.0


def _ensemble_tables(store: pd.DataFrame):
    """Per table: the published frame, our mean per cell and each cell's replicates."""
    from .store import values

    tables = dict(_TABLES)
    tables["Table 9"] = (None, TABLE9, "slowdown")
    for item, (_, paper, label) in tables.items():
        columns = list(paper.columns) + [c for c in READINGS if item in ("Table 5", "Table 6")]
        runs = {(r, c): values(store, ensemble_key(item, label, r, c))
                for r in paper.index for c in columns}  # fmt: skip
        means = pd.DataFrame({c: [runs[(r, c)].mean() for r in paper.index] for c in columns},
                             index=paper.index)  # fmt: skip
        yield item, paper, label, means, runs


def ensemble_rows(store: pd.DataFrame) -> list[dict]:
    """Tables 2-3 and 5-9 cell by cell on the ensembles (:mod:`hpcmodels.papers.ensemble`):
    each printed cell (one run in the paper) against the distribution of our single
    runs; a differing cell's cause is measured as in the quick rows, from the table's
    typical ours/paper ratio over our means (:func:`ratio_check`, :func:`_cause`); our
    extra median-fit reading is compared with the paper's median-fit column. Table 9's
    first claim (the integrated approach waits less at every slowdown ratio) is judged
    on the paired differences of each slowdown ratio."""
    from .ensemble import ensemble_value, paired_claim
    from .report import _join
    from .store import values

    log = str(store["log"].iloc[0])
    n = int(store["replicate"].nunique())
    rows = []
    for item, paper, label, means, runs in _ensemble_tables(store):
        readings = READINGS if item in ("Table 5", "Table 6") else None
        check = ratio_check(paper, means, readings=readings)
        for (r, col), c in check.iterrows():
            rows.append(ensemble_value(
                item, f"{label} {r:g}, {col}", c["printed"], runs[(r, col)], kind="time",
                k=1, other_input=_other_input(log),
                note=_join(READING_NOTES.get(col, ""), f"whole log, {n} replicates "
                                 "(runtimes x (1 +- 1e-4), random fit seeded by the replicate)",
                                 _ratio_note(c)),
                cause=_cause(check, r, col, log, None),
            ))  # fmt: skip
    losses = []
    for s in SLOWDOWNS:
        row = paired_claim("Table 9", f"integrated waits less at slowdown {s:g}",
                           values(store, ensemble_key("Table 9", "slowdown", s, "wait integrated")),
                           values(store, ensemble_key("Table 9", "slowdown", s, "wait single-pool")),
                           a_name="integrated", b_name="single-pool")  # fmt: skip
        if row["verdict"] != "qualitative":
            losses.append(f"{s:g}: {row['ours']}")
    rows.append(claim("Table 9", "the integrated approach beats the single-pool queue at every "
                      "slowdown", not losses, f"paired over {n} replicates at each slowdown: "
                      + ("integrated lower at every one" if not losses else "; ".join(losses)),
                      cause="the paired 95 % CI does not lie below 0 at " + "; ".join(losses)))  # fmt: skip
    return rows
