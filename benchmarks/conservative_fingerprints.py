"""Conservative backfilling's schedules, fingerprinted: a SHA-256 per configuration.

The check of a change to conservative backfilling's kernels (issue 55: the cost per
moved reservation) that must leave every schedule bit for bit as it was: run this
script before and after and compare the outputs (``cmp``). Each line is a configuration
and the SHA-256 of its outputs; the last line hashes all the lines. Hashed: the
``simulate`` result's job table (each job's start, end and cluster, as float64 / int64
bytes), its metrics (``repr`` of each value, sorted by name) and the ``events`` and
``sessions`` counters (other counters are left out, so that a new counter does not
change a fingerprint).

* ``overload``: :func:`bench_engine.conservative_overload` (exponential run times,
  widths 1..64, requested times 1-3x the run time, Poisson arrivals) at 500, 2,000 and
  5,000 jobs, offered loads 0.7, 1.0 and 1.5, on one cluster of 128 processors and on
  4 x 64 at speeds 0.5/1/1.5/2 (``bench_engine.OVERLOAD_SYSTEMS``), estimates exact (=
  run time) and 1-3x, submit times from 0, around 1e6 s and around 1e9 s (an ulp of a
  time stamp is 1.2e-7 s there: the time arithmetic must hold), first fit.
* ``alloc``: every allocation ``simulate`` accepts with conservative backfilling
  (:data:`hpcmodels.multicluster.ALLOCATIONS`; ``local_first`` / ``local_only`` with a
  seeded ``origin`` column, ``tla`` with its default options, ``random_fit`` with seeds
  0 and 5) at 500 and 2,000 jobs, the three loads, both systems, both kinds of
  estimates, submit times from 0 and around 1e9 s; and at 5,000 jobs, load 1.5,
  estimates 1-3x, around 1e6 s.
* ``sdsc``: the first 5,000 completed jobs of the cleaned SDSC SP2 log
  (``$HPCMODELS_DATA``) with run times x 3, estimates = run times or the users'
  requested times x 3 (at least the run time), on 1 x 128 and on 4 x 64 (jobs wider
  than 64 left out); and the 5,000-job slice at t = 3e7 s of
  ``tests/multicluster/test_whole_log.py`` (notebook 06's ground, exact estimates, SH
  0.1) with first and best fit. Skipped, and said so, when the log is missing.

Run: ``python benchmarks/conservative_fingerprints.py [--quick] > out.txt`` (``--quick``:
the 500-job configurations and one log row). It compiles the engine's kernels on first
use in a new checkout. The seconds per group go to standard error.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from bench_engine import OVERLOAD_SYSTEMS, conservative_overload

from hpcmodels.multicluster import ALLOCATIONS, simulate

SIZES = (500, 2_000, 5_000)
LOADS = (0.7, 1.0, 1.5)
SYSTEMS = {
    "1x128": OVERLOAD_SYSTEMS["1 x 128"],
    "4x64": OVERLOAD_SYSTEMS["4 x 64, speeds 0.5/1/1.5/2"],
}
OFFSETS = (0.0, 1.0e6 + 0.375, 1.0e9 + 0.125)
ESTIMATES = ("exact", "1-3x")
LOG = "SDSC-SP2-1998-4.2-cln.swf.gz"


def digest(res) -> str:
    out = res.jobs
    h = hashlib.sha256()
    for a in (
        out["start"].to_numpy(np.float64),
        out["end"].to_numpy(np.float64),
        out["cluster"].to_numpy(np.int64),
    ):
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())
    metrics = {k: repr(float(v)) for k, v in sorted(res.metrics.items())}
    h.update(json.dumps(metrics, sort_keys=True).encode())
    h.update(f"events={res.counters['events']} sessions={res.counters['sessions']}".encode())
    return h.hexdigest()


def workload(n: int, system: str, load: float, estimates: str, offset: float) -> pd.DataFrame:
    clusters = SYSTEMS[system]
    jobs = conservative_overload(n, clusters, load=load)
    if estimates == "exact":
        jobs["estimate"] = jobs["runtime"]
    jobs["submit"] += offset
    rng = np.random.default_rng(n + 17)
    jobs["origin"] = rng.integers(0, len(clusters), n)
    return jobs


def run_line(label: str, jobs: pd.DataFrame, clusters, allocation: str, seed: int = 0, **kw):
    res = simulate(jobs, clusters, "conservative", allocation, seed=seed, **kw)
    return f"{label} events={res.counters['events']} {digest(res)}"


def overload_lines(quick: bool):
    for n in SIZES[:1] if quick else SIZES:
        for load in LOADS:
            for system in SYSTEMS:
                for estimates in ESTIMATES:
                    for offset in OFFSETS:
                        jobs = workload(n, system, load, estimates, offset)
                        label = (
                            f"overload n={n} load={load} {system} est={estimates} t0={offset:.0e}"
                        )
                        yield run_line(label, jobs, SYSTEMS[system], "first_fit")


def alloc_cases(quick: bool):
    for n in SIZES[:1] if quick else SIZES[:2]:
        for load in LOADS:
            for system in SYSTEMS:
                for estimates in ESTIMATES:
                    for offset in (OFFSETS[0], OFFSETS[2]):
                        yield n, load, system, estimates, offset
    if not quick:
        for system in SYSTEMS:
            yield SIZES[2], 1.5, system, "1-3x", OFFSETS[1]


def alloc_lines(quick: bool):
    for n, load, system, estimates, offset in alloc_cases(quick):
        jobs = workload(n, system, load, estimates, offset)
        for allocation in ALLOCATIONS:
            for seed in (0, 5) if allocation == "random_fit" else (0,):
                label = (
                    f"alloc {allocation} seed={seed} n={n} load={load} {system} "
                    f"est={estimates} t0={offset:.0e}"
                )
                yield run_line(label, jobs, SYSTEMS[system], allocation, seed=seed)


def sdsc_lines(quick: bool):
    path = Path(os.environ.get("HPCMODELS_DATA", "/work/shared/workloads")) / LOG
    if not path.exists():
        yield f"sdsc skipped: {path} not found (set HPCMODELS_DATA)"
        return
    from hpcmodels.workloads import read_swf
    from hpcmodels.workloads.clean import completed_only

    log = completed_only(read_swf(path)).reset_index(drop=True).iloc[:5_000]
    exact = log[["submit", "runtime", "procs"]].copy()
    exact["runtime"] *= 3.0
    req = log["req_time"].to_numpy() * 3.0
    requested = exact.copy()
    requested["estimate"] = np.where(
        np.isfinite(req) & (req >= exact["runtime"]), req, exact["runtime"]
    )
    for name, jobs in (("requested", requested), ("exact", exact)):
        for system in ("1x128",) if quick else SYSTEMS:
            label = f"sdsc first 5000 x3 est={name} {system}"
            yield run_line(label, jobs, SYSTEMS[system], "first_fit", drop_too_wide=True)
        if quick:
            return
    from hpcmodels.papers.across.ground import ground_clusters, ground_jobs

    jobs = ground_jobs("SDSC SP2", "high", 0)
    first = int(np.searchsorted(jobs["submit"].to_numpy(), 3e7))
    jobs = jobs.iloc[first : first + 5_000].reset_index(drop=True)
    for allocation in ("first_fit", "best_fit"):
        label = f"sdsc ground slice t=3e7 high {allocation}"
        yield run_line(label, jobs, ground_clusters(0.1, 0), allocation)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer configurations")
    args = parser.parse_args()
    total = hashlib.sha256()
    count = 0
    for group in (overload_lines, alloc_lines, sdsc_lines):
        start = time.perf_counter()
        for line in group(args.quick):
            print(line, flush=True)
            total.update(line.encode() + b"\n")
            count += 1
        print(f"{group.__name__}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    print(f"ALL {count} configurations {total.hexdigest()}")


if __name__ == "__main__":
    main()
