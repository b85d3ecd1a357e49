"""Independent, plain-Python EASY and conservative backfilling, fast enough for whole logs.

It is written from the engine's semantics docstring (:mod:`hpcmodels.multicluster`)
and imports nothing from the package, so that a disagreement with the engine is a
finding, not a shared mistake. Unlike :mod:`tests.engine_oracle` (literal lists, small
workloads only) it keeps the running jobs in a heap and each session costs
O(q + r log r) for EASY (the whole SDSC SP2 log, 54,034 jobs, in 1-7 s) and
O(q x m x steps) for conservative, which recomputes every reservation at every session
as the rule says (minutes to hours on the whole log: ``make verify``).

Rules (the docstring's, restated where this module reads them):

* Events: the next time stamp is every finish and submission at most
  ``2**-48 x max(|t0|, 1)`` after the earliest pending event time ``t0``; its time is
  the latest of them, and a job finishing in it ends at that time. Finishes free their
  processors first, then submissions join the queue in input order (ties of submit
  time), then one session runs.
* A job of runtime ``r`` on a cluster of speed ``s`` ends at ``start + r / s``; its
  predicted end is ``start + estimate / s``, counted as ``t`` when it is at most
  ``t + tolerance(t)``.
* EASY: start jobs from the head (arrival order) while one fits on some cluster (the
  allocation policy picks among the clusters with enough free processors). The first
  that does not fit gets the shadow: the earliest time, over the clusters (ties: lowest
  index), at which the running jobs' predicted ends leave it enough processors; the
  extra processors are those left over there at the shadow. Every later job, in
  arrival order, may start now on a cluster with enough free processors, the head's
  cluster only if ``t + estimate / speed <= shadow`` (exactly this expression, in
  floating point) or its ``procs <= extra``; placed there without ending by the shadow,
  it consumes ``extra``.
* Conservative: every waiting job in arrival order gets the earliest time at which its
  ``procs`` stay free for ``estimate / speed`` seconds (at that instant only for a zero
  estimate) in the profile of the running jobs (until their predicted ends) and the
  reservations before it, on each cluster; the earliest over the clusters (ties: lowest
  index). If that time is ``t`` and a cluster where it is ``t`` has the processors
  actually free, the job starts there (the allocation policy picks among those) and
  holds ``[t, predicted end)``; otherwise it reserves ``[time, time + estimate / speed)``
  on the lowest-index cluster with the earliest time. Profiles are step functions over
  half-open intervals: a job ending at ``x`` no longer holds its processors at ``x``.
* Allocation: ``first_fit`` (lowest index), ``best_fit`` (fewest free, ties lowest
  index), ``worst_fit`` (most free, ties lowest index), ``fastest_first`` (highest
  speed, ties lowest index).
"""

from __future__ import annotations

import bisect
import heapq
import math

import numpy as np

TIME_RTOL = 2.0**-48
ALLOCATIONS = ("first_fit", "best_fit", "worst_fit", "fastest_first")


def tolerance(t: float) -> float:
    return TIME_RTOL * max(abs(t), 1.0)


def _choose(allocation, cands, free, speeds):
    if allocation == "first_fit":
        return cands[0]
    if allocation == "best_fit":
        return min(cands, key=lambda c: (free[c], c))
    if allocation == "worst_fit":
        return min(cands, key=lambda c: (-free[c], c))
    if allocation == "fastest_first":
        return min(cands, key=lambda c: (-speeds[c], c))
    raise ValueError(f"unknown allocation {allocation!r}")


def _earliest(times, frees, p, d):
    """Earliest step start of a profile at which ``p`` processors stay free for ``d``."""
    k = 0
    while k < len(times):
        if frees[k] < p:
            k += 1
            continue
        s, m = times[k], k + 1
        while m < len(times) and times[m] < s + d:
            if frees[m] < p:
                break
            m += 1
        else:
            return s
        k = m
    return math.inf


def _cut(times, frees, s, e, p):
    """Take ``p`` processors out of ``[s, e)`` (``s`` at or after the first step)."""
    if not e > s:
        return
    for x in (s, e):
        k = bisect.bisect_right(times, x) - 1
        if times[k] != x:
            times.insert(k + 1, x)
            frees.insert(k + 1, frees[k])
    for k in range(bisect.bisect_left(times, s), bisect.bisect_left(times, e)):
        frees[k] -= p


def easy_reference(submit, runtime, procs, estimate, sizes, speeds, allocation="first_fit"):
    """EASY on ``sizes`` processors of ``speeds`` (module docstring): arrays of start and
    end times and clusters, in input order."""
    return _run("easy", submit, runtime, procs, estimate, sizes, speeds, allocation)


def conservative_reference(submit, runtime, procs, estimate, sizes, speeds, allocation="first_fit"):
    """Conservative backfilling, as :func:`easy_reference`."""
    return _run("conservative", submit, runtime, procs, estimate, sizes, speeds, allocation)


def _run(selection, submit, runtime, procs, estimate, sizes, speeds, allocation):
    if allocation not in ALLOCATIONS:
        raise ValueError(f"unknown allocation {allocation!r}")
    submit = [float(x) for x in submit]
    runtime = [float(x) for x in runtime]
    estimate = [float(x) for x in estimate]
    procs = [int(x) for x in procs]
    sizes = [int(x) for x in sizes]
    speeds = [float(x) for x in speeds]
    n, m = len(submit), len(sizes)
    order = sorted(range(n), key=lambda j: (submit[j], j))
    start = [math.nan] * n
    end = [math.nan] * n
    cluster = [-1] * n
    free = list(sizes)
    running = []  # heap of (end, job)
    on = [set() for _ in range(m)]  # running jobs per cluster
    queue = []  # waiting jobs in arrival order
    k = 0

    def begin(j, c, t):
        free[c] -= procs[j]
        start[j] = t
        end[j] = t + runtime[j] / speeds[c]
        cluster[j] = c
        heapq.heappush(running, (end[j], j))
        on[c].add(j)

    def predicted(j, t):
        e = start[j] + estimate[j] / speeds[cluster[j]]
        return t if e <= t + tolerance(t) else e

    def profile(c, t):
        """Steps of cluster ``c``'s running jobs from ``t`` on: (times, frees)."""
        ends = sorted((predicted(r, t), procs[r]) for r in on[c])
        times, frees = [t], [sizes[c] - sum(p for e, p in ends if e > t)]
        for e, p in ends:
            if e > t:
                if e > times[-1]:
                    times.append(e)
                    frees.append(frees[-1])
                frees[-1] += p
        return times, frees

    def conservative(t):
        nonlocal queue
        profiles = [profile(c, t) for c in range(m)]
        kept = []
        for j in queue:
            taus = [
                _earliest(*profiles[c], procs[j], estimate[j] / speeds[c])
                if procs[j] <= sizes[c]
                else math.inf
                for c in range(m)
            ]
            tau = min(taus)
            if tau == t:
                tied = [c for c in range(m) if taus[c] == t and free[c] >= procs[j]]
                if tied:
                    c = _choose(allocation, tied, free, speeds)
                    begin(j, c, t)
                    _cut(*profiles[c], t, predicted(j, t), procs[j])
                    continue
            c = taus.index(tau)
            _cut(*profiles[c], tau, tau + estimate[j] / speeds[c], procs[j])
            kept.append(j)
        queue = kept

    def session(t):
        nonlocal queue
        if selection == "conservative":
            conservative(t)
            return
        while queue:
            j = queue[0]
            cands = [c for c in range(m) if free[c] >= procs[j]]
            if not cands:
                break
            begin(j, _choose(allocation, cands, free, speeds), t)
            queue.pop(0)
        if not queue:
            return
        head = queue[0]
        shadow, hc, extra = math.inf, -1, 0
        for c in range(m):
            if procs[head] > sizes[c]:
                continue
            ends = sorted((predicted(r, t), procs[r]) for r in on[c])
            avail = sizes[c] - sum(p for e, p in ends if e > t)
            s_c, x_c = (t, avail - procs[head]) if avail >= procs[head] else (math.inf, 0)
            i = 0
            while s_c == math.inf and i < len(ends):
                tau = ends[i][0]
                while i < len(ends) and ends[i][0] == tau:
                    if tau > t:
                        avail += ends[i][1]
                    i += 1
                if tau > t and avail >= procs[head]:
                    s_c, x_c = tau, avail - procs[head]
            if s_c < shadow:
                shadow, hc, extra = s_c, c, x_c
        kept = [head]
        for j in queue[1:]:
            cands = []
            for c in range(m):
                if free[c] < procs[j]:
                    continue
                if c != hc or t + estimate[j] / speeds[c] <= shadow or procs[j] <= extra:
                    cands.append(c)
            if not cands:
                kept.append(j)
                continue
            c = _choose(allocation, cands, free, speeds)
            if c == hc and not t + estimate[j] / speeds[c] <= shadow:
                extra -= procs[j]
            begin(j, c, t)
        queue = kept

    while k < n or running:
        t0 = running[0][0] if running else math.inf
        if k < n:
            t0 = min(t0, submit[order[k]])
        limit = t0 + tolerance(t0)
        t = t0
        if running:
            for e, _ in running:  # the group's latest time (heap: check all that qualify)
                if e <= limit:
                    t = max(t, e)
        kk = k
        while kk < n and submit[order[kk]] <= limit:
            t = max(t, submit[order[kk]])
            kk += 1
        while running and running[0][0] <= limit:
            _, j = heapq.heappop(running)
            end[j] = t
            free[cluster[j]] += procs[j]
            on[cluster[j]].discard(j)
        while k < kk:
            queue.append(order[k])
            k += 1
        session(t)
        if not running and queue:
            raise AssertionError("waiting jobs but no event")
    return np.array(start), np.array(end), np.array(cluster)
