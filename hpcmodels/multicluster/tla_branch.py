"""One look-ahead branch of TLA (Shih et al. 2013, Section 3.2, Fig. 3), on plain arrays.

A branch sim-allocates the target on one candidate cluster, then simulates the next waiting
jobs first come first served, each placed by the simulation policy when some cluster has
its processors free (:func:`simulate_branch`); the releases pending are a heap of (time,
cluster, processors) (:func:`release_heap`). The score is the jobs' mean cost (:func:`branch_cost`:
turnaround, Eq. 2, or bounded slowdown). :mod:`.tla_scoring` scores every candidate;
:mod:`.lookahead` places jobs with it.
"""

from __future__ import annotations

import numba
import numpy as np

from .allocation import RANDOM_FIT, pick
from .metrics import BOUNDED_SLOWDOWN_TAU
from .rates import TIME_RTOL

ATT, BSLD = range(2)  # metric codes, in the order of lookahead.METRICS
SCORE_RTOL = 1e-9
"""A cluster's score beats the best so far only when lower by more than this, relative."""


@numba.njit(cache=True)
def _uniform(rng):
    """Next uniform in [0, 1) of the splitmix64 stream whose state is ``rng[0]``."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True)
def branch_cost(metric, tt, run):
    if metric == BSLD:
        return max(tt / max(run, BOUNDED_SLOWDOWN_TAU), 1.0)
    return tt


@numba.njit(cache=True)
def _sift_down(ht, hc, hp, i, size):
    t, c, p = ht[i], hc[i], hp[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and ht[child + 1] < ht[child]:
            child += 1
        if ht[child] >= t:
            break
        ht[i], hc[i], hp[i] = ht[child], hc[child], hp[child]
        i = child
    ht[i], hc[i], hp[i] = t, c, p


@numba.njit(cache=True)
def _push(ht, hc, hp, size, t, c, p):
    """Add a release of ``p`` processors on ``c`` at ``t`` to the min-heap ``ht[:size]``
    (``hc``, ``hp`` move along); return the new size."""
    i = size
    while i > 0:
        parent = (i - 1) // 2
        if ht[parent] <= t:
            break
        ht[i], hc[i], hp[i] = ht[parent], hc[parent], hp[parent]
        i = parent
    ht[i], hc[i], hp[i] = t, c, p
    return size + 1


@numba.njit(cache=True)
def release_heap(rel_time, rel_clus, rel_procs, room):
    """The releases as a min-heap by time (arrays of ``room`` >= their number)."""
    n = rel_time.size
    ht, hc, hp = np.empty(room), np.empty(room, np.int64), np.empty(room, np.int64)
    ht[:n], hc[:n], hp[:n] = rel_time, rel_clus, rel_procs
    for i in range(n // 2 - 1, -1, -1):
        _sift_down(ht, hc, hp, i, n)
    return ht, hc, hp


@numba.njit(cache=True)
def simulate_branch(
    c0,
    speed,
    free0,
    heap0,
    n_rel,
    wprocs,
    wsubmit,
    west,
    n_wait,
    t,
    policy,
    metric,
    rng,
    scratch,
    out_clus,
    out_start,
    out_cost,
):
    """Fig. 3 for target ``0`` on cluster ``c0``: the mean cost of the ``n_wait`` waiting
    jobs (``wprocs``, ``wsubmit``, ``west`` in queue order, the target first) replayed
    first come first served from ``t``, processors coming back at the ``n_rel``
    releases of ``heap0`` (:func:`release_heap`). ``scratch`` = (heap arrays of room
    ``n_rel + n_wait``, free processors), overwritten. Writes each simulated job's
    cluster, start and cost into ``out_*``; returns inf if some job fits no cluster."""
    ht, hc, hp, free, allowed = scratch
    free[:] = free0
    ht[:n_rel], hc[:n_rel], hp[:n_rel] = heap0[0][:n_rel], heap0[1][:n_rel], heap0[2][:n_rel]
    size = n_rel
    now = t
    total = 0.0
    for k in range(n_wait):
        p = wprocs[k]
        if k == 0:
            c = c0
        else:
            while True:
                limit = now + TIME_RTOL * max(abs(now), 1.0)  # rates.tolerance, inlined
                while size > 0 and ht[0] <= limit:
                    free[hc[0]] += hp[0]
                    size -= 1
                    if size > 0:
                        ht[0], hc[0], hp[0] = ht[size], hc[size], hp[size]
                        _sift_down(ht, hc, hp, 0, size)
                widest = free[0]  # a plain loop: free.max() costs twice the whole step
                for i in range(1, free.size):
                    widest = max(widest, free[i])
                if widest >= p:
                    break
                if size == 0:
                    return np.inf
                now = ht[0]
            if policy == RANDOM_FIT:
                c = pick(policy, free, speed, p, allowed, _uniform(rng))
            else:
                c = pick(policy, free, speed, p, allowed, 0.0)
        run = west[k] / speed[c]
        free[c] -= p
        size = _push(ht, hc, hp, size, now + run, c, p)
        out_clus[k] = c
        out_start[k] = now
        cost = branch_cost(metric, now + run - wsubmit[k], run)
        out_cost[k] = cost
        total += cost
    return total / n_wait


@numba.njit(cache=True)
def branch_scratch(m, room):
    """Scratch arrays of :func:`simulate_branch`."""
    return (
        np.empty(room),
        np.empty(room, np.int64),
        np.empty(room, np.int64),
        np.empty(m, np.int64),
        np.ones(m, np.bool_),
    )
