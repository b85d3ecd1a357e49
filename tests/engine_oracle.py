"""A slow, literal pure-Python reference of the multi-cluster engine (a test oracle).

It follows the module docstring of :mod:`hpcmodels.multicluster` line by line, with
lists, sorting and explicit loops, and is only meant for small workloads. It does not
import the engine.

Readings chosen where the docstring is silent
---------------------------------------------
* Arrival order is the stable sort of the jobs by submit time (ties: input order); it
  is the order in which jobs join the queue and the "arrival" of every queue order.
* Time ties (package docstring): the next event group is every finish and submission
  at most ``TIME_RTOL * max(|t|, 1)`` after the earliest pending event time ``t``; the
  group's time stamp is the latest time in it, and a job finishing in the group is
  recorded as ending at that stamp. ``end = start + runtime / speed`` for a single site
  and ``start + (runtime * slowdown) / slowest_speed`` when co-allocated; predicted
  ends are ``start + estimate / speed``, and a predicted end within the same tolerance
  after the session time ``t`` counts as ``t``.
* Profiles use half-open intervals ``[s, e)``: a job ending at ``x`` no longer uses its
  processors at ``x``. A job "fits at tau for d seconds" when the free processors are
  enough at every instant of ``[tau, tau + d)`` and, when ``d == 0``, at ``tau`` itself;
  a zero-length reservation therefore blocks nobody. Candidate reservation times are
  ``t`` and every end of a profile interval after ``t``.
* Conservative: a running job whose estimate has run out counts until ``t`` only, so
  its processors are free in the profile although not yet in reality. A job whose
  reservation is at ``t`` starts iff some cluster whose earliest time is ``t`` has
  enough *actually* free processors; among those clusters the allocation policy picks
  (it may pick another cluster than the lowest-index one). Otherwise it keeps its
  reservation at the lowest-index cluster with the earliest time. Its reservation is
  ``[tau, tau + estimate / speed_c)`` on that cluster ``c``. Consequences (both are
  tested): a zero-estimate job can be passed by a later job (its reservation is empty),
  and on several clusters a policy other than first_fit can start a job on another
  tied cluster than the one it was reserved on and so push back a later reservation.
* A job that starts with end == t stays running (its processors busy) until the next
  event at ``t``, i.e. the extra session its finish triggers.
* EASY: the head's earliest start on a cluster is the first time (``t`` or a predicted
  end after ``t``) at which the running jobs' predicted ends leave ``procs`` processors
  free; the shadow is the minimum over clusters (ties: lowest index) and the left-over
  ("extra") processors are the cluster's processors minus the running jobs still
  predicted to run at the shadow minus the head's ``procs``. The shadow and extra are
  computed once per session, after the head-of-queue starts. For every later job in
  arrival order the candidate clusters are those with enough free processors, the
  head's cluster only if the job ends by the shadow there (``t + estimate / speed <=
  shadow``, inclusive) or ``procs <= extra``; the allocation policy chooses among the
  candidates. A job placed on the head's cluster that does not end by the shadow
  consumes ``extra`` (ending by the shadow is checked first and consumes nothing).
* Placement "free" is the number of actually free processors at the moment of
  placement. ``worst_fit`` ties go to the lowest index. ``median_fit`` picks element
  ``(k - 1) // 2`` of the candidates sorted by (free, index) (the lower median),
  ``median_fit_upper`` element ``k // 2`` (the upper median).
* ``random_fit`` draws one uniform for every job it places, even when there is only
  one candidate; a co-allocated job is placed by the co-allocation heuristic and draws
  no uniform.
* Co-allocation: sites with no free processor are skipped by every heuristic (they
  are not among the job's sites, so their speed does not count). ``larger_first`` ties
  go to the lowest index.
* Metrics: execution time is ``end - start``. ``mean_waiting_ratio`` is NaN when no
  job has execution time > 0, ``waiting_ratio_of_means`` is NaN when the mean
  execution time is 0, and ``utilization`` is NaN when ``last end == first submit``.
  A job waits over ``[submit, start)``; over an empty span no job can wait (every job
  starts and ends at the first submit time), so ``mean_queue_length`` is then 0.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

TIME_RTOL = 2.0**-48  # rounding only: 16 ulps (the package docstring)


def tolerance(t):
    return TIME_RTOL * max(abs(t), 1.0)


SELECTIONS = ("fcfs", "first_available", "smallest_first", "largest_first", "conservative", "easy",
              "first_available_once")  # fmt: skip
ALLOCATIONS = ("first_fit", "best_fit", "worst_fit", "median_fit", "random_fit", "fastest_first",
               "median_fit_upper")  # fmt: skip
COALLOCATIONS = ("fixed_order", "larger_first", "smaller_first")
METRICS = (
    "att",
    "mean_wait",
    "mean_waiting_ratio",
    "waiting_ratio_of_means",
    "mean_bounded_slowdown",
    "utilization",
    "mean_queue_length",
)


def _cluster_params(clusters):
    """(procs, speed) lists from Cluster objects or (procs, speed) pairs."""
    sizes, speeds = [], []
    for c in clusters:
        if isinstance(c, tuple):
            p, s = c
        else:
            p, s = c.procs, c.speed
        sizes.append(int(p))
        speeds.append(float(s))
    return sizes, speeds


def _read_jobs(jobs):
    if len(jobs) == 0:
        raise ValueError("empty job table")
    submit = [float(x) for x in jobs["submit"]]
    runtime = [float(x) for x in jobs["runtime"]]
    procs = [int(x) for x in jobs["procs"]]
    if "estimate" in jobs.columns:
        estimate = [float(x) for x in jobs["estimate"]]
    else:
        estimate = list(runtime)
    for j in range(len(submit)):
        if not submit[j] >= 0:
            raise ValueError(f"job {j}: submit must be >= 0")
        if not runtime[j] >= 0:
            raise ValueError(f"job {j}: runtime must be >= 0")
        if not estimate[j] >= 0:
            raise ValueError(f"job {j}: estimate must be >= 0")
        if procs[j] < 1:
            raise ValueError(f"job {j}: procs must be >= 1")
    return submit, runtime, procs, estimate


class _Sim:
    def __init__(self, jobs, clusters, selection, allocation, coallocation, slowdown, seed):
        if selection not in SELECTIONS:
            raise ValueError(f"unknown selection {selection!r}")
        if allocation not in ALLOCATIONS:
            raise ValueError(f"unknown allocation {allocation!r}")
        if coallocation is not None and coallocation not in COALLOCATIONS:
            raise ValueError(f"unknown coallocation {coallocation!r}")
        if coallocation is not None and selection in ("conservative", "easy"):
            raise ValueError("co-allocation is not combined with backfilling")
        self.submit, self.runtime, self.procs, self.estimate = _read_jobs(jobs)
        self.sizes, self.speeds = _cluster_params(clusters)
        self.n = len(self.submit)
        self.m = len(self.sizes)
        for j in range(self.n):
            if coallocation is None and self.procs[j] > max(self.sizes):
                raise ValueError(f"job {j} is wider than every cluster")
            if self.procs[j] > sum(self.sizes):
                raise ValueError(f"job {j} is wider than all clusters together")
        self.selection = selection
        self.allocation = allocation
        self.coallocation = coallocation
        self.slowdown = float(slowdown)
        self.uniforms = list(np.random.default_rng(seed).random(self.n))
        self.next_uniform = 0

        self.free = list(self.sizes)
        self.start = [math.nan] * self.n
        self.end = [math.nan] * self.n
        self.cluster = [-2] * self.n
        self.alloc = [[0] * self.m for _ in range(self.n)]
        self.first_reservation = [math.nan] * self.n
        self.running = []  # job indices
        self.queue = []  # waiting job indices, arrival order
        self.order = sorted(range(self.n), key=lambda j: (self.submit[j], j))
        self.rank = {j: r for r, j in enumerate(self.order)}  # arrival rank

    # ---------------------------------------------------------------- placement
    def choose(self, cands, j):
        """Pick one of ``cands`` (cluster indices, ascending) by the allocation policy."""
        a = self.allocation
        if a == "first_fit":
            return cands[0]
        if a == "best_fit":
            return min(cands, key=lambda c: (self.free[c], c))
        if a == "worst_fit":
            return min(cands, key=lambda c: (-self.free[c], c))
        if a == "median_fit":
            ranked = sorted(cands, key=lambda c: (self.free[c], c))
            return ranked[(len(ranked) - 1) // 2]
        if a == "median_fit_upper":
            ranked = sorted(cands, key=lambda c: (self.free[c], c))
            return ranked[len(ranked) // 2]
        if a == "random_fit":
            u = self.uniforms[self.next_uniform]
            self.next_uniform += 1
            return cands[math.floor(u * len(cands))]
        if a == "fastest_first":
            return min(cands, key=lambda c: (-self.speeds[c], c))
        raise AssertionError(a)

    def single_site_candidates(self, j):
        return [c for c in range(self.m) if self.free[c] >= self.procs[j]]

    def coallocation_sites(self, j):
        """Per-site processor counts for co-allocating job ``j`` now, or None."""
        if self.coallocation is None or sum(self.free) < self.procs[j]:
            return None
        idx = [c for c in range(self.m) if self.free[c] > 0]
        if self.coallocation == "fixed_order":
            pass
        elif self.coallocation == "larger_first":
            idx.sort(key=lambda c: (-self.free[c], c))
        elif self.coallocation == "smaller_first":
            idx.sort(key=lambda c: (self.free[c], c))
        give = [0] * self.m
        need = self.procs[j]
        for c in idx:
            if need == 0:
                break
            g = min(self.free[c], need)
            give[c] = g
            need -= g
        assert need == 0
        return give

    def start_single(self, j, c, t):
        assert self.free[c] >= self.procs[j]
        self.free[c] -= self.procs[j]
        self.start[j] = t
        self.end[j] = t + self.runtime[j] / self.speeds[c]
        self.cluster[j] = c
        self.alloc[j][c] = self.procs[j]
        self.running.append(j)
        self.queue.remove(j)

    def start_coallocated(self, j, give, t):
        sites = [c for c in range(self.m) if give[c] > 0]
        for c in sites:
            assert self.free[c] >= give[c]
            self.free[c] -= give[c]
        self.start[j] = t
        self.end[j] = t + (self.runtime[j] * self.slowdown) / min(self.speeds[c] for c in sites)
        self.cluster[j] = -1
        self.alloc[j] = list(give)
        self.running.append(j)
        self.queue.remove(j)

    def try_place(self, j, t):
        """Start job ``j`` now if it has a placement (single site, else co-allocation)."""
        cands = self.single_site_candidates(j)
        if cands:
            self.start_single(j, self.choose(cands, j), t)
            return True
        give = self.coallocation_sites(j)
        if give is not None:
            self.start_coallocated(j, give, t)
            return True
        return False

    # ---------------------------------------------------------------- sessions
    def session(self, t):
        s = self.selection
        if s == "fcfs":
            while self.queue and self.try_place(self.queue[0], t):
                pass
        elif s in ("first_available", "smallest_first", "largest_first", "first_available_once"):
            if s in ("first_available", "first_available_once"):
                key = self.rank.get
            elif s == "smallest_first":

                def key(j):
                    return (self.procs[j], self.rank[j])

            else:

                def key(j):
                    return (-self.procs[j], self.rank[j])

            for j in sorted(self.queue, key=key):
                if self.try_place(j, t) and s == "first_available_once":
                    break
        elif s == "conservative":
            self.conservative(t)
        elif s == "easy":
            self.easy(t)
        else:
            raise AssertionError(s)

    def predicted_end(self, j, t):
        c = self.cluster[j]
        e = self.start[j] + self.estimate[j] / self.speeds[c]
        return t if e <= t + tolerance(t) else e

    @staticmethod
    def usage(intervals, x):
        return sum(p for (s, e, p) in intervals if s <= x < e)

    def fits(self, intervals, size, procs, tau, d):
        points = [tau] + [s for (s, _, _) in intervals if tau < s < tau + d]
        return all(self.usage(intervals, x) + procs <= size for x in points)

    def earliest(self, intervals, size, procs, d, t):
        """Earliest tau >= t at which ``procs`` fit for ``d`` seconds (inf if never)."""
        if procs > size:
            return math.inf
        times = sorted({t} | {e for (_, e, _) in intervals if e > t})
        for tau in times:
            if self.fits(intervals, size, procs, tau, d):
                return tau
        raise AssertionError("a job narrower than the cluster always fits eventually")

    def conservative(self, t):
        reservations = []  # (cluster, start, end, procs)
        for j in list(self.queue):  # the queue is in arrival order
            taus = []
            for c in range(self.m):
                intervals = [
                    (self.start[r], self.predicted_end(r, t), self.procs[r])
                    for r in self.running
                    if self.cluster[r] == c
                ]
                intervals += [(s, e, p) for (rc, s, e, p) in reservations if rc == c]
                d = self.estimate[j] / self.speeds[c]
                taus.append(self.earliest(intervals, self.sizes[c], self.procs[j], d, t))
            tau = min(taus)
            if math.isnan(self.first_reservation[j]):
                self.first_reservation[j] = tau
            if tau == t:
                tied = [c for c in range(self.m) if taus[c] == t and self.free[c] >= self.procs[j]]
                if tied:
                    self.start_single(j, self.choose(tied, j), t)
                    continue
            c = taus.index(tau)  # lowest index with the earliest time
            reservations.append((c, tau, tau + self.estimate[j] / self.speeds[c], self.procs[j]))

    def easy(self, t):
        while self.queue and self.try_place(self.queue[0], t):
            pass
        if not self.queue:
            return
        head = self.queue[0]
        shadows, extras = [], []
        for c in range(self.m):
            ends = [
                (self.predicted_end(r, t), self.procs[r])
                for r in self.running
                if self.cluster[r] == c
            ]
            shadow, extra = math.inf, 0
            if self.procs[head] <= self.sizes[c]:
                for tau in sorted({t} | {e for (e, _) in ends if e > t}):
                    free_then = self.sizes[c] - sum(p for (e, p) in ends if e > tau)
                    if free_then >= self.procs[head]:
                        shadow, extra = tau, free_then - self.procs[head]
                        break
            shadows.append(shadow)
            extras.append(extra)
        shadow = min(shadows)
        hc = shadows.index(shadow)
        extra = extras[hc]
        for j in list(self.queue[1:]):
            cands = []
            for c in self.single_site_candidates(j):
                if c != hc:
                    cands.append(c)
                elif t + self.estimate[j] / self.speeds[c] <= shadow or self.procs[j] <= extra:
                    cands.append(c)
            if not cands:
                continue
            c = self.choose(cands, j)
            if c == hc and not t + self.estimate[j] / self.speeds[c] <= shadow:
                extra -= self.procs[j]
            self.start_single(j, c, t)

    # ---------------------------------------------------------------- event loop
    def run(self):
        k = 0  # next job to submit, in arrival order
        while k < self.n or self.running or self.queue:
            times = [self.end[r] for r in self.running]
            if k < self.n:
                times.append(self.submit[self.order[k]])
            assert times, "waiting jobs but no event: a job can never start"
            limit = min(times) + tolerance(min(times))
            group = [x for x in times if x <= limit]
            t = max(group)  # the time stamp of the group
            for r in list(self.running):  # finishes first
                if self.end[r] <= limit:
                    self.end[r] = t
                    for c in range(self.m):
                        self.free[c] += self.alloc[r][c]
                    self.running.remove(r)
            while k < self.n and self.submit[self.order[k]] <= limit:  # then submissions
                self.queue.append(self.order[k])
                k += 1
            self.session(t)  # then one session
        assert self.free == self.sizes


def oracle(
    jobs: pd.DataFrame,
    clusters,
    selection: str = "fcfs",
    allocation: str = "first_fit",
    coallocation: str | None = None,
    slowdown: float = 1.0,
    seed: int = 0,
) -> pd.DataFrame:
    """The schedule, one row per job in input order: ``start``, ``end``, ``cluster``
    (-1 when co-allocated), ``alloc`` (processors per cluster, a tuple) and, for
    ``conservative``, ``first_reservation`` (the reservation the job got in the first
    session after its submission; NaN otherwise)."""
    sim = _Sim(jobs, clusters, selection, allocation, coallocation, slowdown, seed)
    sim.run()
    return pd.DataFrame(
        {
            "start": sim.start,
            "end": sim.end,
            "cluster": sim.cluster,
            "alloc": [tuple(a) for a in sim.alloc],
            "first_reservation": sim.first_reservation,
        },
        index=jobs.index,
    )


def oracle_metrics(jobs: pd.DataFrame, result: pd.DataFrame, clusters) -> dict:
    """The metrics of the package docstring, from the schedule ``result``."""
    sizes, _ = _cluster_params(clusters)
    submit = [float(x) for x in jobs["submit"]]
    start = [float(x) for x in result["start"]]
    end = [float(x) for x in result["end"]]
    procs = [int(x) for x in jobs["procs"]]
    n = len(submit)
    wait = [start[j] - submit[j] for j in range(n)]
    turnaround = [end[j] - submit[j] for j in range(n)]
    execution = [end[j] - start[j] for j in range(n)]

    ratios = [wait[j] / execution[j] for j in range(n) if execution[j] > 0]
    mean_wait = sum(wait) / n
    mean_exec = sum(execution) / n
    bsld = [max(turnaround[j] / max(execution[j], 10.0), 1.0) for j in range(n)]

    first, last = min(submit), max(end)
    span = last - first
    used = sum(procs[j] * execution[j] for j in range(n))
    # time-average of the number of waiting jobs: sweep the [submit, start) intervals
    events = sorted([(submit[j], +1) for j in range(n)] + [(start[j], -1) for j in range(n)])
    area, waiting, prev = 0.0, 0, first
    for x, delta in events:
        area += waiting * (x - prev)
        waiting += delta
        prev = x
    return {
        "att": sum(turnaround) / n,
        "mean_wait": mean_wait,
        "mean_waiting_ratio": sum(ratios) / len(ratios) if ratios else math.nan,
        "waiting_ratio_of_means": mean_wait / mean_exec if mean_exec > 0 else math.nan,
        "mean_bounded_slowdown": sum(bsld) / n,
        "utilization": used / (sum(sizes) * span) if span > 0 else math.nan,
        "mean_queue_length": area / span if span > 0 else 0.0,
    }
