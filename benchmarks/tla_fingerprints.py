"""TLA's outputs, fingerprinted: a SHA-256 per configuration of every array it produces.

The check of a refactoring of TLA (Shih et al. 2013, Section 3.2; issue 54: one heap, one
branch step) that must leave its scores and schedules bit for bit as they were: run this
script before and after and compare the outputs (``diff``). Each line is a configuration
and the SHA-256 of its outputs' bytes; the last line hashes all the lines.

* ``simulate(..., allocation="tla")`` on seeded synthetic workloads (overloaded, so that
  the queue is long and the depth matters; clusters of equal speeds and integer times, so
  that scores tie; inaccurate estimates, so that the engine's memo of the last winning
  simulation is sometimes taken up and sometimes not), across simulation depths 1, 2, 5,
  20 and the whole queue, both metrics (ATT, bounded slowdown), the four simulation
  policies (random fit with two seeds), the selections FCFS, EASY and conservative
  backfilling, and allocation depths 1 and 3; one workload at time stamps around 5e8 s.
  Hashed: each job's start, end and cluster, and every counter (events, sessions,
  ``tla_activations``, ``tla_changes``, ``tla_two_fit``, ``tla_distinct``) but
  conservative backfilling's work counters.
* ``tla_scores`` (the public scoring step) on the Fig. 4 snapshot and on seeded random
  snapshots (one at time stamps around 1e9 s), across depths and policies. Hashed: every
  cluster's score, each job's turnaround, cluster and start (the floats' bytes).

Run: ``python benchmarks/tla_fingerprints.py [--quick]`` (``--quick``: fewer
configurations). It compiles the engine's kernels on first use in a new checkout.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

import numpy as np
import pandas as pd

from hpcmodels.multicluster import Cluster, RunningJob, TLAOptions, WaitingJob, simulate, tla_scores

DEPTHS = (1, 2, 5, 20, None)
METRICS = ("att", "bounded_slowdown")
POLICIES = (
    ("fastest_first", 0),
    ("best_fit", 0),
    ("worst_fit", 0),
    ("random_fit", 1),
    ("random_fit", 7),
)
SELECTIONS = ("fcfs", "easy", "conservative")
CONSERVATIVE_COUNTERS = ("reservations_moved", "reservations_searched", "searches", "search_steps")
"""Conservative backfilling's work counters (issue 55), left out of the hash: they count
the search's work, not TLA's outputs, so that the fingerprints stay comparable with
those taken before the counters existed."""


def clusters_of(spec) -> list[Cluster]:
    """Clusters ``c0, c1, ...`` from ``[(processors, speed), ...]`` (tests/drawn_jobs.py)."""
    return [Cluster(f"c{i}", p, s) for i, (p, s) in enumerate(spec)]


def workload(seed: int, n: int, span: float, offset: float = 0.0, exact: bool = False):
    """``n`` jobs submitted over ``span`` seconds from ``offset``: 70 % narrow (1-3
    processors), 30 % wide (4-10), run times 1..400 s (integers for even seeds,
    exponential otherwise), estimates the run time times 1, 1.5 or 3 (exactly the run
    time with ``exact``). Wide jobs at the head make the queue; narrow ones then fit on
    several clusters, where TLA is activated."""
    rng = np.random.default_rng(seed)
    if seed % 2 == 0:
        runtime = rng.integers(1, 400, n).astype(float)
        submit = np.sort(rng.integers(0, int(span), n)).astype(float)
    else:
        runtime = np.maximum(rng.exponential(150.0, n), 0.5)
        submit = np.sort(rng.uniform(0.0, span, n))
    procs = np.where(rng.random(n) < 0.3, rng.integers(4, 11, n), rng.integers(1, 4, n))
    estimate = runtime if exact else runtime * rng.choice([1.0, 1.5, 3.0], n)
    return pd.DataFrame(
        {"submit": submit + offset, "runtime": runtime, "procs": procs, "estimate": estimate}
    )


WORKLOADS = {
    # name: (jobs, clusters)
    "mixed": (workload(3, 1500, 16000.0), [(12, 1.0), (12, 1.0), (10, 1.0), (12, 2.0)]),
    "ties": (workload(4, 1500, 20000.0, exact=True), [(10, 1.0), (10, 1.0), (10, 1.0)]),
    "speeds": (workload(2, 1500, 20000.0), [(10, 1.0), (10, 2.0), (8, 0.5)]),
    "large_t": (workload(5, 1500, 18000.0, offset=5.0e8), [(12, 1.0), (10, 1.5), (10, 1.0)]),
}


def digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        if isinstance(a, bytes | str):
            h.update(a.encode() if isinstance(a, str) else a)
        else:
            a = np.ascontiguousarray(a)
            h.update(f"{a.dtype.str}{a.shape}".encode())
            h.update(a.tobytes())
    return h.hexdigest()


def simulate_configs(quick: bool):
    names = ("mixed", "large_t") if quick else tuple(WORKLOADS)
    for name in names:
        jobs, spec = WORKLOADS[name]
        for selection in SELECTIONS:
            for depth in (1, 5, None) if quick else DEPTHS:
                for metric in METRICS:
                    for policy, seed in POLICIES:
                        for adepth in (1, 3) if depth in (5, None) else (1,):
                            yield name, jobs, spec, selection, depth, metric, policy, seed, adepth


def simulate_lines(quick: bool):
    for name, jobs, spec, selection, depth, metric, policy, seed, adepth in simulate_configs(quick):
        options = TLAOptions(depth=depth, allocation_depth=adepth, policy=policy, metric=metric)
        res = simulate(jobs, clusters_of(spec), selection, "tla", tla=options, seed=seed)
        out = res.jobs
        counters = json.dumps(
            {k: v for k, v in res.counters.items() if k not in CONSERVATIVE_COUNTERS},
            sort_keys=True,
        )
        h = digest(
            out["start"].to_numpy(np.float64),
            out["end"].to_numpy(np.float64),
            out["cluster"].to_numpy(np.int64),
            counters,
        )
        label = (
            f"simulate {name} {selection} depth={depth or 'all'} {metric} {policy} "
            f"seed={seed} adepth={adepth}"
        )
        yield f"{label} act={res.counters['tla_activations']} {h}"


FIG4 = (
    [Cluster("A", 9, 2.0), Cluster("B", 9, 1.0)],
    [RunningJob("A", 1, 5.0), RunningJob("B", 4, 5.0)],
    [WaitingJob(3, -5, 10), WaitingJob(6, -4, 2), WaitingJob(2, -2, 8), WaitingJob(7, -2, 2)],
    0.0,
)


def snapshot(seed: int, now: float = 0.0):
    """A seeded snapshot at ``now``: 2-5 clusters, running jobs on each, 1-60 waiting."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(2, 6))
    clusters = [
        Cluster(f"s{i}", int(rng.integers(4, 33)), float(rng.choice([0.5, 1.0, 2.0])))
        for i in range(m)
    ]
    running = []
    for cl in clusters:
        left = cl.procs
        while left > 2 and rng.random() < 0.7:
            p = int(rng.integers(1, left))
            left -= p
            end = now + (float(rng.integers(0, 50)) if seed % 2 else rng.exponential(30.0))
            running.append(RunningJob(cl.name, p, end))
    widest = max(c.procs for c in clusters)
    n = int(rng.integers(1, 61))
    waiting = [
        WaitingJob(
            int(rng.integers(1, widest + 1)),
            now - float(rng.integers(0, 30)),
            float(rng.integers(0, 40)) if seed % 3 else rng.exponential(20.0),
        )
        for _ in range(n)
    ]
    return clusters, running, waiting, now


def score_lines(quick: bool):
    snaps = {"fig4": FIG4}
    for seed in range(12 if quick else 60):
        snaps[f"snap{seed}"] = snapshot(seed)
    for seed in range(4 if quick else 10):
        snaps[f"large{seed}"] = snapshot(100 + seed, now=1.0e9 + 0.25 * seed)
    for name, (clusters, running, waiting, now) in snaps.items():
        for depth in DEPTHS:
            for policy, _ in POLICIES[:4]:
                try:
                    scores = tla_scores(clusters, running, waiting, now, depth=depth, policy=policy)
                except Exception as err:  # noqa: BLE001 - a refusal is an output too
                    yield f"tla_scores {name} depth={depth or 'all'} {policy} {type(err).__name__}"
                    continue
                parts = []
                for c, s in scores.items():
                    parts += [
                        c,
                        np.float64(s.att),
                        np.array(s.turnaround, np.float64),
                        "|".join(s.clusters),
                        np.array(s.starts, np.float64),
                    ]
                h = digest(*parts)
                yield f"tla_scores {name} depth={depth or 'all'} {policy} n={len(scores)} {h}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer configurations")
    args = parser.parse_args()
    start = time.perf_counter()
    total = hashlib.sha256()
    count = 0
    for line in (*simulate_lines(args.quick), *score_lines(args.quick)):
        print(line, flush=True)
        total.update(line.encode() + b"\n")
        count += 1
    print(f"ALL {count} configurations {total.hexdigest()}")
    print(f"{time.perf_counter() - start:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
