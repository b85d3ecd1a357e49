"""The state-layout experiment (issue 55): does the engine's ``StructRef`` cost its loop
the gap to the plain reference?

Jones 2005's Section 6.1 Migration Only point (``first_available`` selection,
``local_first`` allocation, no co-allocation, no rate model) runs four ways on the same
jobs:

* **plain reference**: ``bench_bandwidth.plain_simulation``, one straight loop over
  arrays (the whole queue scanned at every event, the running jobs' ends scanned
  linearly);
* **engine**: the engine's event loop alone, ``run_to_end`` on a state built outside
  the timing (every policy behind ``cfg`` codes, one kernel per concern);
* **mirror, StructRef**: :func:`migration_only`, the engine's own algorithm for this
  point written as one loop (its events, its queue tree with the same windows, its
  heap, its best fit: :mod:`.heap`, :mod:`.segtree` and :func:`.allocation.pick`
  called as the engine calls them), reading and writing every field through the
  ``State`` record (``s.end[j]``), as the engine's kernels do;
* **mirror, plain arrays**: the same function compiled for a ``NamedTuple`` holding the
  same arrays, so each field is a value the compiled loop holds rather than a load
  through the record's pointer (the layout the issue asks about: fields passed as plain
  arrays instead of a ``StructRef``).

The mirror is one source compiled for two layouts, so their ratio is the layout's cost
and nothing else; the engine over the StructRef mirror is the cost of the engine's
generality (policy dispatch, kernel boundaries, counters for other policies). The
queue tree is a local of the mirror in both layouts (a ``NamedTuple`` cannot point a
field at the tree a window refit makes). Every run must give the engine's schedule bit
for bit (start, end and cluster of every job): the script checks it before timing.

Times are CPU seconds of this process; each ratio is the median of ``--repeat`` pairs
(``timing.paired_ratio``: the run and the plain reference back to back). Target (issue
55): adopt a layout if it brings the loop to <= 1.3 x the plain reference.

``--non-atomic-counts`` compiles every kernel afresh (in a temporary cache) with
numba's reference counts as plain loads and stores
(``profile_kernels.plain_reference_counts``): how much of each run's time the atomic
counts at kernel calls and field reads take.

Run: ``python benchmarks/state_layout.py`` (Section 6.1 scale, 400,000 jobs per
cluster); ``--quick`` runs 100,000 jobs per cluster.
"""

from __future__ import annotations

import argparse
import atexit
import os
import platform
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from typing import Any, NamedTuple

if __name__ == "__main__" and "--non-atomic-counts" in sys.argv:  # before any kernel
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="state-layout-")
    atexit.register(shutil.rmtree, os.environ["NUMBA_CACHE_DIR"], ignore_errors=True)
    from profile_kernels import plain_reference_counts

    plain_reference_counts()
import numba
import numpy as np
import pandas as pd
from bench_bandwidth import plain_simulation
from profile_kernels import at_least_one

from hpcmodels.bandwidth import SECTION6, workload
from hpcmodels.bandwidth.experiment import _plan
from hpcmodels.multicluster.allocation import BEST_FIT, pick
from hpcmodels.multicluster.engine import SIMULATE_DEFAULTS, prepare_run, run_to_end
from hpcmodels.multicluster.heap import heap_pop, heap_push
from hpcmodels.multicluster.rates import tolerance
from hpcmodels.multicluster.segtree import (
    ANY,
    WINDOW_MIN,
    seg_base,
    seg_first_le,
    seg_set,
    seg_window,
)
from hpcmodels.multicluster.state import (
    EVENTS,
    LAST_T,
    NOW,
    NXT,
    Q_AREA,
    QLEN,
    RLEN,
    SESSIONS,
    U_PTR,
)

from timing import paired_ratio

TARGET = 1.3
"""Issue 55: adopt a layout that brings the loop to at most 1.3 x the plain reference."""


class Fields(NamedTuple):
    """The arrays the Migration Only loop touches, as plain values (no record)."""

    submit: np.ndarray
    runtime: np.ndarray
    procs: np.ndarray
    estimate: np.ndarray
    order: np.ndarray
    qrank: np.ndarray
    at_rank: np.ndarray
    origin: np.ndarray
    free: np.ndarray
    speed: np.ndarray
    start: np.ndarray
    end: np.ndarray
    clus: np.ndarray
    anchor: np.ndarray
    rem: np.ndarray
    rem_est: np.ndarray
    rate: np.ndarray
    pend: np.ndarray
    heap: np.ndarray
    hpos: np.ndarray
    ctr: np.ndarray
    fctr: np.ndarray


def plain_fields(state) -> Fields:
    """The state's arrays (the same objects) as a :class:`Fields`."""
    return Fields(*(getattr(state, name) for name in Fields._fields))


@numba.njit(cache=True)
def _refit(tree, r, waiting, ranks):
    """The engine's window refit (:func:`.queue._refit`) on the width tree alone."""
    size = tree.size // 2
    lo = hi = r
    if waiting > 0:
        lo = min(lo, seg_first_le(tree, 0, ANY))
        k = 2 * size - 1
        while tree[k] == np.inf:
            k -= 1
        hi = max(hi, k - size + seg_base(tree))
    every = 1
    while every < ranks:
        every *= 2
    width = WINDOW_MIN
    while width < 2 * (hi - lo + 1):
        width *= 2
    if width >= every:
        width, lo = every, 0
    return seg_window(tree, lo, width)


@numba.njit(cache=True)
def migration_only(s, tree):
    """The engine's Migration Only run (:func:`.engine.run` with ``first_available``
    and ``local_first``, no co-allocation, no rate model) as one loop over ``s``: a
    ``State`` or a :class:`Fields`. Returns the events processed."""
    n = s.submit.size
    allowed = np.ones(s.free.size, np.bool_)
    while True:
        t = np.inf  # events.next_time
        if s.ctr[RLEN] > 0:
            t = s.end[s.heap[0]]
        nxt = s.ctr[NXT]
        if nxt < n:
            t = min(t, s.submit[s.order[nxt]])
        if t == np.inf:
            return s.ctr[EVENTS]
        limit = t + tolerance(t)  # events.process_events
        stamp = t
        rlen = s.ctr[RLEN]
        size = rlen
        while size > 0 and s.end[s.heap[0]] <= limit:
            j, size = heap_pop(s.heap, s.hpos, s.end, size)
            s.heap[size] = j
            stamp = max(stamp, s.end[j])
        while nxt < n and s.submit[s.order[nxt]] <= limit:
            stamp = max(stamp, s.submit[s.order[nxt]])
            nxt += 1
        s.ctr[EVENTS] += 1
        s.fctr[Q_AREA] += s.ctr[QLEN] * (stamp - s.fctr[LAST_T])
        s.fctr[LAST_T] = stamp
        s.fctr[NOW] = stamp
        s.ctr[RLEN] = size
        for k in range(size, rlen):  # finishes (events._release)
            j = s.heap[k]
            s.free[s.clus[j]] += s.procs[j]
            s.end[j] = stamp
            s.rem[j] = 0.0
        for k in range(s.ctr[NXT], nxt):  # submissions (queue.enqueue)
            j = s.order[k]
            r = s.qrank[j]
            base = seg_base(tree)
            if r < base or r >= base + tree.size // 2:
                tree = _refit(tree, r, s.ctr[QLEN], s.at_rank.size)
            seg_set(tree, r, s.procs[j])
            s.ctr[QLEN] += 1
        s.ctr[NXT] = nxt
        s.ctr[SESSIONS] += 1  # selection.session -> greedy.one_pass
        if s.ctr[QLEN] == 0:
            continue
        bound = s.free.max()
        r = 0
        while True:
            r = seg_first_le(tree, r, bound)
            if r < 0:
                break
            j = s.at_rank[r]
            p = s.procs[j]
            c = s.origin[j]  # local.local_first
            if s.free[c] < p:
                c = pick(BEST_FIT, s.free, s.speed, p, allowed, 0.0)
            if c >= 0:  # events.start_job
                seg_set(tree, s.qrank[j], np.inf)
                s.ctr[QLEN] -= 1
                s.start[j] = stamp
                s.anchor[j] = stamp
                s.clus[j] = c
                if s.free[c] < p:
                    raise AssertionError("no room")
                s.free[c] -= p
                rate = s.speed[c]
                s.ctr[U_PTR] += 1
                s.rate[j] = rate
                s.rem[j] = s.runtime[j]
                s.rem_est[j] = s.estimate[j]
                s.end[j] = stamp + s.runtime[j] / rate
                s.pend[j] = stamp + s.estimate[j] / rate
                s.ctr[RLEN] = heap_push(s.heap, s.hpos, s.end, s.ctr[RLEN], j)
                bound = s.free.max()
            r += 1


def layouts(jobs: pd.DataFrame, setup) -> tuple[Callable[[], Any], dict[str, Callable]]:
    """A function that builds a fresh Migration Only state for ``jobs`` on ``setup``'s
    clusters, and the three ways to run it (each returns the state it ran)."""
    plan = SIMULATE_DEFAULTS | _plan("migration_only", setup, 500.0, 1.0, 0.8, None)

    def prepare():
        return prepare_run(jobs, setup.system, "first_available", **plan).state

    def mirror_structref(state):
        migration_only(state, state.wtree)
        return state

    def mirror_plain(state):
        migration_only(plain_fields(state), state.wtree)
        return state

    runs = {"engine (run_to_end)": run_to_end, "mirror, StructRef": mirror_structref,
            "mirror, plain arrays": mirror_plain}  # fmt: skip
    return prepare, runs


def check_schedules(prepare: Callable[[], Any], runs: dict[str, Callable]) -> None:
    """Each run gives the engine's schedule bit for bit, or an AssertionError naming it."""
    expected = run_to_end(prepare())
    for name, run in runs.items():
        got = run(prepare())
        for field in ("start", "end", "clus"):
            if not np.array_equal(getattr(got, field), getattr(expected, field)):
                raise AssertionError(f"{name}: {field} differs from the engine's schedule")


def experiment(jobs_per_cluster: int, repeat: int) -> pd.DataFrame:
    """The four runs' CPU seconds and ratios to the plain reference (module docstring);
    each run's schedule is checked against the engine's first."""
    setup = replace(SECTION6, jobs_per_cluster=jobs_per_cluster)
    jobs = workload(setup, 0)
    arrays = (jobs["submit"].to_numpy(), jobs["runtime"].to_numpy(), jobs["procs"].to_numpy(),
              jobs["origin"].to_numpy())  # fmt: skip
    prepare, runs = layouts(jobs, setup)
    check_schedules(prepare, runs)

    def reference():
        return plain_simulation(*arrays, setup.clusters, setup.nodes, False)

    rows = []
    for name, run in runs.items():
        pair = paired_ratio(reference, run, repeat, prepare=prepare)
        if not rows:
            rows.append({"run": "plain reference", "CPU (s)": pair["base_s"], "x plain": 1.0,
                         "pairs": "-"})  # fmt: skip
        rows.append({"run": name, "CPU (s)": pair["other_s"], "x plain": pair["ratio"],
                     "pairs": f"{pair['low']:.2f}-{pair['high']:.2f}"})  # fmt: skip
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100,000 jobs per cluster")
    parser.add_argument("--repeat", type=at_least_one, default=5, help="pairs per ratio (5)")
    parser.add_argument("--non-atomic-counts", action="store_true",
                        help="compile afresh with plain reference counts (module docstring)")  # fmt: skip
    args = parser.parse_args()
    print(f"{platform.platform()} | Python {platform.python_version()} | numpy {np.__version__}"
          f" | numba {numba.__version__}")  # fmt: skip
    n = 100_000 if args.quick else SECTION6.jobs_per_cluster
    print(f"\nMigration Only, Section 6.1, {n:,} jobs per cluster x 4 clusters, "
          f"median of {args.repeat} pairs (CPU)"
          + (", reference counts not atomic" if args.non_atomic_counts else "") + ":")  # fmt: skip
    table = experiment(n, args.repeat)
    print(table.to_string(index=False, formatters={"CPU (s)": "{:.2f}".format,
                                                   "x plain": "{:.2f}".format}))  # fmt: skip


if __name__ == "__main__":
    main()
