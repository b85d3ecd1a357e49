"""Benchmark of TLA (Shih 2013) in ``hpcmodels.multicluster``: one decision, and whole runs.

Table 1, one TLA decision: ``hpcmodels.papers.shih2013.decision_seconds``, the median
time of ``score_clusters`` (the engine's decision kernel: every candidate cluster scored
by the Fig. 3 simulation of the whole queue) on a seeded synthetic snapshot with ``q``
waiting jobs (widths uniform 1..64, estimates exponential, mean 1,000 s), ``r`` = 100
running jobs spread over ``m`` clusters of 228 processors (their ends uniform over the
next 2,000 s), the target fitting on every cluster, so that all ``m`` are scored. Beside it, the paper's Fig. 5: "less than
1 s" per score on a Core 2 PC with five clusters (read off the figure: about 1 s at the
largest queues). Target: under 1 ms at q = 1,000, m = 5. (A single snapshot gains
little from the engine's memo of the previous decision, see ``lookahead``.) Below it, the
same decision through the public call ``tla_scores`` (issue 55: the snapshot of
``decision_seconds`` given as a list of ``RunningJob`` / ``WaitingJob`` records, or as two
DataFrames; the jobs checked, every cluster's branch simulated alone, the ``Score``
lists built): median of 21 calls after a warm-up. Target: under 1 ms at q = 1,000,
m = 5 (5.4 ms before the jobs were checked as arrays).

Table 2, the whole-trace row: TLA (default options: every waiting job simulated,
allocation depth 1, fastest first inside, ATT) with FCFS on the whole A1 trace (the
SDSC SP2 log, Table 3: 54,034 jobs after Shih's filter here, five clusters of 128
processors, SH = 0) with runtimes scaled to high load (SL = 1.0, Eqs. 5-6): the median
wall time of 3 runs after a warm-up (1 with ``--quick``), ``benchmarks/timing.py``'s
``median_time``. Target: under 10 s (it took 16 s on a quiet 2-core machine, 17-30 s
under load, before the lock-step scoring and the memo; about 3 s after).

Table 3, whole runs at medium load (SL = 0.75), FCFS, with best fit, fastest first, AI2
and TLA (every waiting job simulated): wall time, ATT and TLA's activations and
decision changes against simulation depth 1 (the paper reports 23,952 and 1,101 on A1
at high load; ``--high`` adds the high-load runs of the four allocations). Tables 2-3
are skipped, with the reason, when the log is not in ``$HPCMODELS_DATA``.

Run: ``python benchmarks/bench_tla.py`` (``make bench``); ``--quick`` uses q up to 1,000,
the first 10,000 jobs of A1 in Table 3 and one timed whole-trace run in Table 2.
"""

from __future__ import annotations

import argparse
import platform
import time

import numba
import numpy as np
import pandas as pd

from hpcmodels.multicluster import Cluster, RunningJob, WaitingJob, simulate, tla_scores
from hpcmodels.papers.shih2013 import decision_seconds
from hpcmodels.workloads.archive import LogNotAvailable

from timing import median_time

WHOLE_TARGET_S = 10.0  # TLA on the whole A1 trace at high load


def public_snapshot(q: int, r: int, m: int, seed: int = 0):
    """``decision_seconds``' snapshot (the same draws) as ``tla_scores`` takes it: ``m``
    clusters of ``128 + r`` processors, ``r`` one-processor running jobs, ``q`` waiting
    jobs (the first one processor wide), as lists of records."""
    rng = np.random.default_rng(seed)
    clusters = [Cluster(f"c{i}", 128 + r) for i in range(m)]
    rel_clus, ends = rng.integers(0, m, r), rng.uniform(0, 2000, r)
    ends = ends.tolist()
    running = [RunningJob(f"c{c}", 1, ends[k]) for k, c in enumerate(rel_clus.tolist())]
    procs = rng.integers(1, 65, q)
    procs[0] = 1
    estimate, submit = rng.exponential(1000.0, q), -rng.uniform(0, 5000, q)
    jobs = zip(procs.tolist(), submit.tolist(), estimate.tolist(), strict=True)
    waiting = [WaitingJob(*job) for job in jobs]
    return clusters, running, waiting


def public_seconds(q: int, r: int, m: int, frames: bool) -> float:
    """Median wall time of ``tla_scores`` on :func:`public_snapshot` (21 calls after one),
    the jobs as records or (``frames``) as two DataFrames."""
    clusters, running, waiting = public_snapshot(q, r, m)
    if frames:
        running, waiting = pd.DataFrame(running), pd.DataFrame(waiting)
    return median_time(lambda: tla_scores(clusters, running, waiting), 21)[0]


def decision_table(quick: bool) -> pd.DataFrame:
    rows = []
    for m in (5, 20):
        for q in (100, 1_000) if quick else (100, 1_000, 10_000):
            s = decision_seconds(q, 100, m, repeat=5 if q > 1_000 else 21)
            target = q == 1_000 and m == 5
            rows.append({"call": "score_clusters", "m clusters": m, "q waiting": f"{q:,}",
                         "r running": 100,
                         "ours (ms)": f"{s * 1e3:.3f}",
                         "target": "< 1 ms" if target else "-",
                         "met": ("yes" if s < 1e-3 else "NO") if target else "-",
                         "paper Fig. 5 (Core 2 PC)": "< 1 s (about 1 s at the largest q)"})  # fmt: skip
    for q, frames in ((100, False), (1_000, False), (1_000, True)):
        s = public_seconds(q, 100, 5, frames)
        target = q == 1_000
        rows.append({"call": f"tla_scores, {'DataFrames' if frames else 'records'}",
                     "m clusters": 5, "q waiting": f"{q:,}", "r running": 100,
                     "ours (ms)": f"{s * 1e3:.3f}", "target": "< 1 ms" if target else "-",
                     "met": ("yes" if s < 1e-3 else "NO") if target else "-",
                     "paper Fig. 5 (Core 2 PC)": "-"})  # fmt: skip
    return pd.DataFrame(rows)


def a1_jobs(load: float, n: int | None) -> pd.DataFrame:
    from hpcmodels.papers.shih2013 import workload_jobs
    from hpcmodels.workloads.transforms import scale_to_loading

    jobs = workload_jobs("A1")
    jobs = scale_to_loading(jobs, 640, load)[["submit", "runtime", "procs"]]
    return jobs.reset_index(drop=True).iloc[:n]


def whole_trace_table(quick: bool) -> pd.DataFrame | str:
    """TLA (default options), FCFS, on the whole A1 trace at high load: median wall time."""
    try:
        jobs = a1_jobs(1.0, None)
    except LogNotAvailable as err:
        return f"A1 whole-trace run skipped: {err}"
    grid = [Cluster(f"c{i}", 128) for i in range(5)]
    simulate(jobs.iloc[:200], grid, "fcfs", "tla")  # compile / load the cache
    seconds, res = median_time(lambda: simulate(jobs, grid, "fcfs", "tla"), 1 if quick else 3)
    return pd.DataFrame([{"run": "TLA, A1 whole, high load", "jobs": f"{len(jobs):,}",
                          "wall (s)": f"{seconds:.2f}",
                          "median of": f"{1 if quick else 3} run(s)",
                          "target": f"< {WHOLE_TARGET_S:g} s",
                          "met": "yes" if seconds < WHOLE_TARGET_S else "NO",
                          "ATT (s)": f"{res.metrics['att']:,.0f}",
                          "TLA activations": res.counters["tla_activations"],
                          "changes vs depth 1": res.counters["tla_changes"]}])  # fmt: skip


def run_table(quick: bool, high: bool) -> pd.DataFrame | str:
    grid = [Cluster(f"c{i}", 128) for i in range(5)]
    rows = []
    for label, load in [("medium", 0.75)] + ([("high", 1.0)] if high else []):
        try:
            jobs = a1_jobs(load, 10_000 if quick else None)
        except LogNotAvailable as err:
            return f"A1 runs skipped: {err}"
        for alloc in ("best_fit", "fastest_first", "ai2", "tla"):
            simulate(jobs.iloc[:200], grid, "fcfs", alloc)  # compile / load the cache
            start = time.perf_counter()
            res = simulate(jobs, grid, "fcfs", alloc)
            seconds = time.perf_counter() - start
            rows.append({"load": f"{label} (SL {load})", "jobs": f"{len(jobs):,}",
                         "allocation": alloc, "wall (s)": f"{seconds:.2f}",
                         "ATT (s)": f"{res.metrics['att']:,.0f}",
                         "TLA activations": res.counters.get("tla_activations", "-"),
                         "changes vs depth 1": res.counters.get("tla_changes", "-")})  # fmt: skip
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="q <= 1,000; 10,000 jobs of A1; one timed whole-trace run")  # fmt: skip
    parser.add_argument("--high", action="store_true", help="add the high-load A1 runs")
    args = parser.parse_args()
    print(f"{platform.platform()} | Python {platform.python_version()} | numpy {np.__version__}"
          f" | numba {numba.__version__}")  # fmt: skip
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print("\nOne TLA decision (every cluster scored, whole queue simulated; the kernel")
        print("score_clusters, then the public call tla_scores):")
        print(decision_table(args.quick).to_string(index=False))
        print("\nTLA on the whole A1 trace at high load (SL 1.0, SH = 0, FCFS, default options):")
        whole = whole_trace_table(args.quick)
        print(whole if isinstance(whole, str) else whole.to_string(index=False))
        print("\nWhole runs, workload A1 (SDSC SP2, 5 x 128 processors, SH = 0, FCFS):")
        table = run_table(args.quick, args.high)
        print(table if isinstance(table, str) else table.to_string(index=False))


if __name__ == "__main__":
    main()
