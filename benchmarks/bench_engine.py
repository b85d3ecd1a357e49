"""Benchmark of the multi-cluster engine (``hpcmodels.multicluster``) against AccaSim.

What is measured. One workload, one system, several scheduling policies, both
simulators, printed as one table: the completed jobs (status 1) of the cleaned SDSC SP2
log (``$HPCMODELS_DATA/SDSC-SP2-1998-4.2-cln.swf.gz``, 43,117 jobs; submit time field
2, run time field 4, processors field 5) on one cluster of 384 processors. For each
case: our time and jobs/s, AccaSim's time and jobs/s, their ratio (AccaSim / ours) and
each simulator's mean wait (start - submit, seconds). Targets for our engine: FCFS under
1 s, conservative backfilling under 10 s.

* Ours: ``simulate(jobs, [Cluster("sdsc", 384)], selection=..., allocation="first_fit")``
  on the DataFrame ``completed_only(read_swf(path))[["submit", "runtime", "procs"]]``
  (estimate = run time); time: median of ``--repeat`` ``time.perf_counter`` runs after
  one warm-up call with the same arguments (numba compilation excluded).
* AccaSim 1.1.3 (``pip install accasim==1.1.3``, PyPI, "An HPC Workload Management
  Simulator", 2021), run once per dispatcher through ``accasim_peer.py`` beside this
  file, which also says how it is set up (a ``collections.Mapping`` shim for Python
  >= 3.10, a plain SWF file with processors in fields 5 and 8 and the run time as the
  requested time, one node of 384 cores, no output files, log level ERROR). Its time
  covers building its Simulator and running it; AccaSim reads and parses the SWF text
  lazily inside its simulation loop, so that parsing (about a quarter of its time in a
  profile) is in its number, while ours gets an in-memory DataFrame.

Run: ``python benchmarks/bench_engine.py`` (``make bench``); ``--quick`` uses only the
first 5,000 of the completed jobs. ``--procs`` changes the cluster size (the SP2 itself
had 128 processors: at 384 the load is about a third and waits are short),
``--peer-nodes`` splits AccaSim's cluster into that many nodes (same schedules, slower
AccaSim). If ``hpcmodels.multicluster`` cannot be imported the script still runs and our
cells say "not available yet"; if accasim is missing, AccaSim's cells say why.

Why the mean waits may differ (both simulators: integer seconds from the log; at each
event time first the jobs ending then free their processors, then the jobs submitted
join the queue, then the dispatcher runs, so a job can start at its submit instant with
wait 0; AccaSim jumps between time points, i.e. submissions and real job ends):

1. FCFS + first fit: the same rule. AccaSim ``FirstInFirstOut(FirstFit())`` sorts the
   queue by submit time (ties in queue order) and its allocator stops at the first job
   that does not fit (``skip_jobs_on_allocation=False``): no backfilling. Waits should
   be equal.
2. Smallest first: AccaSim 1.1.3 has no such policy. Its ``ShortestJobFirst`` sorts by
   requested *time* (SWF field 9, here = run time) and is strict like FIFO (blocks at the
   first job that does not fit), so it is not ours. The peer row uses AccaSim's documented
   extension point instead: a ``SimpleHeuristic`` subclass keyed on (cores, submit time)
   with ``skip_jobs_on_allocation=True``: one pass in (procs, arrival) order starting
   every job that fits, our ``smallest_first``. Waits should be equal.
3. Conservative backfilling: AccaSim has none; its only backfilling dispatcher is
   ``EASYBackfilling`` ("EBF"), used as the closest equivalent. Ours gives every queued
   job a reservation; EBF (at most) one.
4. EASY backfilling (extra row): ours is EASY. AccaSim's EBF is not: in 1.1.3 its
   backfilling pass calls the allocator with ``reserved_nodes=[]``, so the reservation of
   the blocked head job is never protected and every queued job that fits starts at
   once; the head job is only tried first again from its reservation time on (never
   recomputed), so it can starve. With estimates equal to run times this gives exactly
   the schedule of FIFO + FirstFit with ``skip_jobs_on_allocation=True``, i.e. our
   ``first_available`` (extra row; same mean wait as EBF). Its mean wait is therefore
   not EASY's: here lower at 384 processors (62.0 s against our EASY's 63.1 s), higher
   at 128 (7,303 s against 7,152 s).

Overload table (engine v2): where a scheduling study spends its time, a saturated
machine. Rows, each with its target:

* "overloaded SDSC": the first 20,000 completed jobs of the same log on the SP2's own
  128 processors with every run time x 3 (the offered load is printed; above 1 the queue
  grows without bound). FCFS and EASY beside AccaSim (its FIFO and EBF, as above);
  conservative backfilling (target < 1 s) with estimates = run times and, separately,
  with the users' requested times (SWF field 9, x 3, at least the run time). With
  requested times nearly every job ends before its predicted end, and the conservative
  rule ("every reservation recomputed at every event", package docstring) then
  recomputes every waiting job's reservation at that event. Measured on this row (when
  this was written: 39,657 events, mean queue 1,098 jobs): 22 M reservation searches,
  of which 4.4 M (20 %) found a different time than before, scanning 8.0e9 profile steps
  (about 360 per search, 88 of them gaps wide enough but too short). Even an incremental
  recompute that skipped every unchanged reservation for free would still make the 4.4 M
  changed searches over a fragmented profile, so this row is not expected to meet the
  1 s target under this rule; it shows what the rule costs.
* "saturated FCFS, 10^6 jobs" (target < 5 s): a seeded synthetic stream (numpy
  Generator, seed 0): exponential run times (mean 1,000 s), widths uniform on 1..64,
  Poisson arrivals at offered load 1.5 on 128 processors. AccaSim is not run on it by
  default (at its ~10^4 jobs/s it needs minutes); ``--peer-million`` runs it.
* "10^5 jobs on 300 clusters" (target: result < 50 MB): the same generator, 300 clusters
  of 64 processors, offered load 0.9, FCFS + best fit; the memory is that of the
  returned ``Result`` (its job table and the sparse per-site allocation).

Conservative-overload table (issue 24): conservative backfilling + first fit on
:func:`conservative_overload` (offered load 1.5, requested times 1-3x the run time), 20,000
jobs (target < 1 s) and 10^5 jobs (target < 10 s; only with ``--conservative-1e5``) on one
cluster of 128 processors and on 4 x 64 at speeds 0.5/1/1.5/2; time: median of
``--repeat`` runs (one with ``--quick``, which runs the first row only, or at 10^5 jobs)
after a warm-up call on the first 500 jobs. Nearly every job ends before its predicted
end, and each such event re-reserves the waiting jobs from the first one it can move
(cost: :mod:`hpcmodels.multicluster.selection.conservative`). Each row also prints the
reservations moved (``Result.counters["reservations_moved"]``: recomputed to another
time or cluster) and the time per move (issue 55's target: at most 100 ns per move, and
20,000 jobs in under 3 s). Measured when issue 24 was closed (CPU s, one run, 2 cores
shared with another computation): 20,000 jobs 30.6 s on 1 x 128 (85.0 s recomputing
every reservation) and 34.4 s on 4 x 64 (64.5 s); for issue 55 (paired runs against the
code before it, CPU s, 2 shared cores): 1 x 128 33 s -> 21 s, 3.18 x 10^7 moves, 1.0 us
-> 650-700 ns per move; 4 x 64 40 s -> 35 s, 1.25 -> 1.1 us per move; 10^5 jobs on 1 x
128 1,971 s -> 829 s, 8.2 x 10^8 moves, 2.4 -> 1.01 us per move. The targets are not met.

When this benchmark was written, the three "same semantics" cases (FCFS, smallest
first, first available against EBF) gave identical start times for every one of the
43,117 jobs in both simulators, at 384 and at 128 processors.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from hpcmodels.multicluster import Cluster, simulate
from hpcmodels.workloads import read_swf
from hpcmodels.workloads.clean import completed_only

import accasim_peer
from timing import median_time

LOG = "SDSC-SP2-1998-4.2-cln.swf.gz"
QUICK_JOBS = 5_000


# (case, our selection, AccaSim case in accasim_peer.DISPATCHERS, our target (s), same?)
CASES = [
    ("FCFS + first fit", "fcfs", "fcfs", 1.0, "yes [1]"),
    ("smallest first", "smallest_first", "smallest_first", None, "yes [2]"),
    ("conservative backfilling", "conservative", "easy", 10.0, "NO [3]"),
    ("EASY backfilling", "easy", "easy", None, "NO [4]"),
    ("first available", "first_available", "first_available", None, "yes [4]"),
]

FOOTNOTES = """\
[1] strict FCFS on both sides: the head job blocks the queue, no backfilling.
[2] AccaSim has no smallest-first (its SJF sorts by requested time, strictly); the peer is
    a SimpleHeuristic keyed on (cores, submit) with skip_jobs_on_allocation=True.
[3] AccaSim has no conservative backfilling: its EASYBackfilling (EBF) is the closest.
[4] AccaSim's EBF never protects the head job's reservation (reserved_nodes=[] in its
    backfilling pass): with estimates = run times it schedules exactly like
    "first available" (FIFO + FirstFit, skip_jobs_on_allocation=True); one EBF run
    serves rows [3] and [4]."""


def load_jobs(quick: bool) -> tuple[pd.DataFrame, pd.Series]:
    """The completed SDSC jobs (submit, runtime, procs) and their requested times."""
    data = Path(os.environ.get("HPCMODELS_DATA", "/work/shared/workloads"))
    path = data / LOG
    if not path.exists():
        sys.exit(f"bench_engine: {path} not found (set HPCMODELS_DATA)")
    log = completed_only(read_swf(path)).reset_index(drop=True)
    jobs = log[["submit", "runtime", "procs"]]
    if quick:
        return jobs.iloc[:QUICK_JOBS], log["req_time"].iloc[:QUICK_JOBS]
    return jobs, log["req_time"]


def time_ours(jobs: pd.DataFrame, procs: int, selection: str, repeat: int):
    """(median seconds, mean wait) of our engine."""

    def call():
        return simulate(jobs, [Cluster("sdsc", procs)], selection=selection, allocation="first_fit")

    seconds, result = median_time(call, repeat)
    return seconds, float(result.metrics["mean_wait"])


def run_peer(jobs: pd.DataFrame, procs: int, nodes: int, cases: list[str]) -> dict:
    """AccaSim results by AccaSim case (each run once), or a reason string for all."""
    reason = accasim_peer.load()
    if reason is not None:
        print(f"AccaSim not run: {reason}")
        return {case: "n/a" for case in cases}
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench_engine_accasim_") as tmp:
        workload = accasim_peer.write_workload(jobs, Path(tmp) / "workload.swf")
        # AccaSim's event loop treats a clock of 0 as "not started": keep submits > 0
        start = 0 if jobs["submit"].min() > 0 else 1
        system = accasim_peer.write_system(Path(tmp) / "system.json", procs, nodes, start)
        for case in dict.fromkeys(cases):
            try:
                res = accasim_peer.run(case, workload, system, Path(tmp) / "results")
            except Exception as exc:
                results[case] = f"error: {type(exc).__name__}: {exc}"[:60]
                continue
            if res.finished != len(jobs) or res.rejected:
                print(
                    f"warning: AccaSim {case}: {res.finished} of {len(jobs)} jobs finished, "
                    f"{res.rejected} rejected"
                )
            results[case] = res
    return results


def overloaded_sdsc(jobs: pd.DataFrame, n: int, factor: float, requested: pd.Series):
    """First ``n`` jobs with run times x ``factor``; estimates = run times, and a copy
    with the requested times x ``factor`` (never below the run time)."""
    exact = jobs.iloc[:n].reset_index(drop=True).copy()
    exact["runtime"] *= factor
    req = requested.iloc[:n].to_numpy() * factor
    inexact = exact.copy()
    inexact["estimate"] = np.where(np.isfinite(req) & (req >= exact["runtime"]), req,
                                   exact["runtime"])  # fmt: skip
    return exact, inexact


def synthetic(n: int, load: float, procs: int, seed: int = 0) -> pd.DataFrame:
    """Seeded stream: exponential run times (mean 1,000 s), widths uniform 1..64,
    Poisson arrivals at the given offered load on ``procs`` processors."""
    rng = np.random.default_rng(seed)
    runtime = rng.exponential(1000.0, n)
    width = rng.integers(1, 65, n)
    rate = load * procs / float(np.mean(runtime * width))
    submit = np.cumsum(rng.exponential(1.0 / rate, n))
    return pd.DataFrame({"submit": submit, "runtime": runtime, "procs": width})


def offered_load(jobs: pd.DataFrame, procs: int) -> float:
    span = jobs["submit"].max() - jobs["submit"].min()
    return float((jobs["runtime"] * jobs["procs"]).sum() / (procs * span))


def result_megabytes(result) -> float:
    a = result.allocation
    sparse = a.data.nbytes + a.indices.nbytes + a.indptr.nbytes
    return (result.jobs.memory_usage(deep=True).sum() + sparse) / 1e6


def overload_table(jobs: pd.DataFrame, requested: pd.Series, repeat: int, peer_million: bool):
    """The overload rows (see the module docstring)."""
    exact, inexact = overloaded_sdsc(jobs, 20_000, 3.0, requested)
    sp2 = [Cluster("sp2", 128)]
    million = synthetic(1_000_000, 1.5, 128)
    wide = synthetic(100_000, 0.9, 300 * 64)
    grid = [Cluster(f"c{i}", 64) for i in range(300)]
    cases = [
        ("overloaded SDSC, FCFS", exact, sp2, "fcfs", "first_fit", None, "fcfs"),
        ("overloaded SDSC, EASY", exact, sp2, "easy", "first_fit", None, "easy"),
        ("overloaded SDSC, conservative, estimates = run times", exact, sp2, "conservative",
         "first_fit", 1.0, None),
        ("overloaded SDSC, conservative, requested times", inexact, sp2, "conservative",
         "first_fit", 1.0, None),
        ("saturated FCFS, 10^6 jobs", million, sp2, "fcfs", "first_fit", 5.0,
         "fcfs" if peer_million else None),
        ("10^5 jobs on 300 clusters (FCFS + best fit)", wide, grid, "fcfs", "best_fit", None,
         None),
    ]  # fmt: skip
    rows = []
    for label, frame, clusters, sel, alloc, target, peer_case in cases:
        seconds, res = median_time(lambda f=frame, c=clusters, s=sel, a=alloc: simulate(f, c, s, a),
                                   repeat)  # fmt: skip
        procs = sum(c.procs for c in clusters)
        row = {
            "case": label,
            "jobs": f"{len(frame):,}",
            "offered load": f"{offered_load(frame, procs):.2f}",
            "ours (s)": f"{seconds:.3f}",
            "target": f"< {target:g} s" if target else "-",
            "met": "-" if target is None else ("yes" if seconds < target else "NO"),
            "result (MB)": f"{result_megabytes(res):.1f}",
            "ours mean wait (s)": f"{res.metrics['mean_wait']:,.0f}",
            "AccaSim (s)": "-",
            "AccaSim mean wait (s)": "-",
        }
        if "300 clusters" in label:
            row["target"] = "result < 50 MB"
            row["met"] = "yes" if result_megabytes(res) < 50 else "NO"
        if peer_case:
            peer = run_peer(frame[["submit", "runtime", "procs"]], 128, 1, [peer_case])[peer_case]
            if isinstance(peer, accasim_peer.PeerResult):
                row["AccaSim (s)"] = f"{peer.seconds:.2f}"
                row["AccaSim mean wait (s)"] = f"{peer.mean_wait:,.0f}"
            else:
                row["AccaSim (s)"] = str(peer)
        rows.append(row)
    return pd.DataFrame(rows)


# Conservative backfilling under overload with inexact estimates (second table)
OVERLOAD_SYSTEMS = {
    "1 x 128": [Cluster("c0", 128)],
    "4 x 64, speeds 0.5/1/1.5/2": [
        Cluster(f"c{i}", 64, s) for i, s in enumerate((0.5, 1.0, 1.5, 2.0))
    ],
}
CONSERVATIVE_ROWS = [  # (jobs, system, target in seconds)
    (20_000, "1 x 128", 1.0),
    (20_000, "4 x 64, speeds 0.5/1/1.5/2", 1.0),
    (100_000, "1 x 128", 10.0),
    (100_000, "4 x 64, speeds 0.5/1/1.5/2", 10.0),
]


def conservative_overload(n: int, clusters: list, load: float = 1.5, seed: int = 0):
    """The conservative-overload workload: ``n`` jobs from ``default_rng(seed)``, drawn in
    this order: run times exponential with mean 1,000 s (at speed 1), widths uniform on
    1..min(64, smallest cluster), requested times (the ``estimate`` column) = run time x
    U(1, 3); then Poisson arrivals at ``load`` times the system's capacity (processors x
    speed, summed over the clusters), i.e. at rate ``load x capacity / mean(run time x
    width)``. At load 1.5 a third of the work cannot be served and the queue grows
    without bound."""
    rng = np.random.default_rng(seed)
    runtime = rng.exponential(1000.0, n)
    width = rng.integers(1, min(64, min(c.procs for c in clusters)) + 1, n)
    estimate = runtime * rng.uniform(1.0, 3.0, n)
    capacity = sum(c.procs * c.speed for c in clusters)
    rate = load * capacity / float(np.mean(runtime * width))
    submit = np.cumsum(rng.exponential(1.0 / rate, n))
    return pd.DataFrame({"submit": submit, "runtime": runtime, "procs": width,
                         "estimate": estimate})  # fmt: skip


def conservative_table(quick: bool, repeat: int, big: bool) -> pd.DataFrame:
    """The conservative-overload rows (module docstring): all with ``big``, the 20,000-job
    rows otherwise, only the first one with ``quick`` (one timed run)."""
    rows = []
    for n, system, target in CONSERVATIVE_ROWS:
        if quick and rows:
            break
        clusters = OVERLOAD_SYSTEMS[system]
        row = {"case": "conservative, estimates 1-3x run time", "jobs": f"{n:,}",
               "clusters": system, "target": f"< {target:g} s"}  # fmt: skip
        if n > 20_000 and not big:
            rows.append(row | {"ours (s)": "not run (--conservative-1e5)", "met": "-"})
            continue
        frame = conservative_overload(n, clusters)

        def call(f=frame, c=clusters):
            return simulate(f, c, "conservative", "first_fit")

        def warmup(f=frame, c=clusters):  # numba loads or compiles on a small prefix
            return simulate(f.iloc[:500], c, "conservative", "first_fit")

        runs = 1 if quick or n > 20_000 else repeat
        seconds, res = median_time(call, runs, warmup=warmup)
        capacity = sum(c.procs * c.speed for c in clusters)
        span = frame["submit"].max() - frame["submit"].min()
        load = float((frame["runtime"] * frame["procs"]).sum() / (capacity * span))
        row.update({
            "offered load": f"{load:.2f}",
            "mean queue": f"{res.metrics['mean_queue_length']:,.0f}",
            "events": f"{res.counters['events']:,}",
            "moves": f"{res.counters['reservations_moved']:,}",
            "ns/move": f"{seconds / max(res.counters['reservations_moved'], 1) * 1e9:,.0f}",
            "ours (s)": f"{seconds:.2f}" + (f" (median of {runs})" if runs > 1 else " (1 run)"),
            "met": "yes" if seconds < target else "NO",
            "mean wait (s)": f"{res.metrics['mean_wait']:,.0f}",
        })  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows).fillna("-")


def fmt(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"first {QUICK_JOBS:,} jobs only")
    parser.add_argument("--procs", type=int, default=384, help="cluster size (default 384)")
    parser.add_argument(
        "--peer-nodes", type=int, default=1, help="AccaSim nodes the cores are split into"
    )
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of ours (median)")
    parser.add_argument("--peer-million", action="store_true",
                        help="also run AccaSim on the 10^6-job stream (minutes)")  # fmt: skip
    parser.add_argument("--no-overload", action="store_true", help="skip the overload table")
    parser.add_argument("--no-conservative", action="store_true",
                        help="skip the conservative-overload table")  # fmt: skip
    parser.add_argument("--conservative-1e5", action="store_true",
                        help="also run its 10^5-job rows (long: see the docstring)")  # fmt: skip
    args = parser.parse_args()

    jobs, requested = load_jobs(args.quick)
    n = len(jobs)
    try:
        import numba

        numba_v = f" | numba {numba.__version__}"
    except ImportError:
        numba_v = ""
    print(
        f"{platform.platform()} | Python {platform.python_version()} | numpy {np.__version__}"
        f" | pandas {pd.__version__}{numba_v} | accasim {accasim_peer.version() or 'missing'}"
        f" | {os.cpu_count()} CPUs"
    )
    print(
        f"workload: {LOG}, status == 1, {n:,} jobs{' (--quick)' if args.quick else ''}; "
        f"one cluster of {args.procs} processors (AccaSim: {args.peer_nodes} node(s))"
    )

    peer = run_peer(jobs, args.procs, args.peer_nodes, [c[2] for c in CASES])
    rows = []
    for label, ours_sel, peer_case, target, same in CASES:
        ours_t, ours_w = time_ours(jobs, args.procs, ours_sel, args.repeat)
        p = peer[peer_case]
        peer_ok = isinstance(p, accasim_peer.PeerResult)
        row = {
            "case": label,
            "ours (s)": fmt(ours_t, ".3f") if ours_t is not None else ours_w,
            "target": f"< {target:g} s" if target else "-",
            "met": "-"
            if target is None or ours_t is None
            else ("yes" if ours_t < target else "NO"),
            "ours jobs/s": fmt(n / ours_t if ours_t else None, ",.0f"),
            "AccaSim (s)": fmt(p.seconds, ".2f") if peer_ok else p,
            "AccaSim jobs/s": fmt(n / p.seconds if peer_ok else None, ",.0f"),
            "AccaSim/ours": fmt(p.seconds / ours_t if peer_ok and ours_t else None, ".1f"),
            "ours mean wait (s)": fmt(ours_w if ours_t is not None else None, ".2f"),
            "AccaSim mean wait (s)": fmt(p.mean_wait if peer_ok else None, ".2f"),
            "AccaSim dispatcher": accasim_peer.DISPATCHERS.get(peer_case, ("-",))[0],
            "same semantics?": same,
        }
        rows.append(row)
    with pd.option_context("display.width", 250, "display.max_colwidth", 60):
        print(pd.DataFrame(rows).to_string(index=False))
    print(FOOTNOTES)
    print(
        f"Times: ours = median of {args.repeat} after a warm-up call (numba JIT excluded) on an "
        "in-memory DataFrame; AccaSim = one run, including its lazy SWF parsing."
    )
    if not args.no_conservative:
        print("\nConservative backfilling under overload, requested times 1-3x the run time "
              f"(module docstring){' (--quick: first row only)' if args.quick else ''}:")  # fmt: skip
        table = conservative_table(args.quick, args.repeat, args.conservative_1e5)
        with pd.option_context("display.width", 250, "display.max_colwidth", 60):
            print(table.to_string(index=False))
    if not args.no_overload and not args.quick:
        print("\nOverload (engine v2; see the module docstring for each row):")
        table = overload_table(jobs, requested, args.repeat, args.peer_million)
        with pd.option_context("display.width", 250, "display.max_colwidth", 60):
            print(table.to_string(index=False))


if __name__ == "__main__":
    main()
