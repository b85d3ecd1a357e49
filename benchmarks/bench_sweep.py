"""Benchmark of ``hpcmodels.sweep``: the same sweeps serially and on a local Dask cluster.

Rows, in one run, side by side (the peer is the serial loop in this process, which is
what every paper module did before sweeps went to Dask):

* an engine sweep of 40 points: Jones 2005's Section 6.1 set-up (4 clusters x 100 nodes,
  ``--jobs`` jobs per cluster) for First-Fit, A1, B1, B3 and B4 at eight BSBWs, each
  point one :func:`hpcmodels.bandwidth.run_point` (the bandwidth model's rate updates
  on the engine);
* a TLA sweep: Shih 2013's A1 workload (the cleaned SDSC SP2 log, first ``--tla-jobs``
  jobs) at three loads x best fit, fastest first, AI2 and TLA (12 points), when the log
  is available;
* the scheduling overhead per task: 400 points that do nothing, on the cluster.

The cluster is a ``LocalCluster`` of one single-threaded worker process per core, started
before the clock starts; each time is the median of three sweeps after a warm-up sweep
(every worker, and this process, load the numba kernels from the disk cache there): the
speed-up measures the sweep, not the cluster's start-up, which is printed apart. Target: speed-up >= 1.7 on 2 cores, overhead < 5 ms per task.

Run: ``python benchmarks/bench_sweep.py`` (``make bench``); ``--quick`` uses shorter
streams.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np
import pandas as pd

from hpcmodels.bandwidth import SECTION6, run_point
from hpcmodels.sweep import sweep
from hpcmodels.workloads.archive import is_available

from timing import median_time

STRATEGIES = ("first_fit", "a1", "b1", "b3", "b4")
BSBWS = (200, 300, 400, 500, 600, 700, 800, 900)
TLA_LOG = "SDSC-SP2-1998-4.2-cln"


def engine_point(strategy: str, bsbw: float, jobs: int) -> dict:
    """One Jones 2005 point (Section 6.1 set-up, ``jobs`` per cluster)."""
    row = run_point(strategy, SECTION6.scaled(jobs), bsbw=bsbw)
    return {"att": row["att"]}


def tla_point(load: str, method: str, jobs: int) -> dict:
    """One Shih 2013 A1 run (SH = 0, FCFS) on the first ``jobs`` jobs."""
    from hpcmodels.multicluster import Cluster, simulate
    from hpcmodels.papers import shih2013 as sh

    w = next(w for w in sh.TABLE3 if w.wid == "A1")
    clusters = [Cluster(f"c{i}", p) for i, p in enumerate(w.clusters)]
    trace = sh.scaled_jobs("A1", sh.LOADS[load], n_jobs=jobs)
    res = simulate(trace, clusters, "fcfs", sh.METHODS[method])
    return {"att": res.metrics["att"]}


def nothing(i: int) -> dict:
    """A point with no work: what is left is the sweep's own cost."""
    return {"i2": i}


def timed(func, grid, client, repeat: int = 3) -> tuple[float, pd.DataFrame]:
    """Median wall time of ``repeat`` sweeps after one warm-up sweep (every worker, and
    this process, load the kernels the points use), and the last result."""

    def once() -> pd.DataFrame:
        out = sweep(func, grid, client=client, progress=False)
        if out["error"].notna().any():
            raise RuntimeError(out.loc[out["error"].notna(), "error"].iloc[0])
        return out

    return median_time(once, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter streams")
    parser.add_argument("--jobs", type=int, default=None, help="jobs per cluster (Jones)")
    parser.add_argument("--tla-jobs", type=int, default=None, help="jobs of the A1 trace (TLA)")
    args = parser.parse_args()
    jobs = args.jobs or (5_000 if args.quick else 20_000)
    tla_jobs = args.tla_jobs or (3_000 if args.quick else 10_000)

    from distributed import Client, LocalCluster

    cores = os.cpu_count() or 1
    print(f"{platform.platform()} | Python {platform.python_version()} | {cores} cores")
    start = time.perf_counter()
    cluster = LocalCluster(n_workers=cores, threads_per_worker=1, dashboard_address=":0")
    client = Client(cluster)
    started = time.perf_counter() - start

    sweeps = {f"engine: Jones 2005, 40 points, {jobs:,} jobs per cluster": (
        engine_point, [dict(strategy=s, bsbw=float(b), jobs=jobs)
                       for s in STRATEGIES for b in BSBWS])}  # fmt: skip
    if is_available(TLA_LOG):
        sweeps[f"TLA: Shih 2013 A1, 12 points, {tla_jobs:,} jobs"] = (
            tla_point, [dict(load=lo, method=m, jobs=tla_jobs)
                        for lo in ("low", "medium", "high") for m in ("BF", "FF", "AI2", "TLA")])  # fmt: skip
    rows = []
    for label, (func, grid) in sweeps.items():
        serial, a = timed(func, grid, "serial")
        dask, b = timed(func, grid, client)
        same = bool(np.array_equal(a["att"].to_numpy(), b["att"].to_numpy()))
        rows.append({"sweep": label, "serial (s)": serial, f"Dask, {cores} workers (s)": dask,
                     "speed-up": serial / dask, "target": ">= 1.7", "same results": same})  # fmt: skip
    n = 400
    dask, _ = timed(nothing, [dict(i=i) for i in range(n)], client)
    serial, _ = timed(nothing, [dict(i=i) for i in range(n)], "serial")
    rows.append({"sweep": f"overhead: {n} empty points", "serial (s)": serial,
                 f"Dask, {cores} workers (s)": dask, "speed-up": float("nan"),
                 "target": f"< 5 ms per task: {1000 * dask / n:.2f} ms", "same results": True})  # fmt: skip
    client.close()
    cluster.close()
    table = pd.DataFrame(rows)
    print(f"\nLocalCluster start-up (not in the timings): {started:.1f} s\n")
    with pd.option_context("display.width", 200, "display.max_colwidth", 70):
        print(table.to_string(index=False, float_format=lambda v: f"{v:.2f}"))


if __name__ == "__main__":
    main()
