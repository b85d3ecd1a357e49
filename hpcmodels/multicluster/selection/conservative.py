"""Conservative backfilling with reservations kept between sessions (numba kernels; rules:
package docstring). What the engine's events do to the kept reservations (a start, an
early finish, an arrival) is in :mod:`..reservations`.

Reservations are kept from session to session in a per-cluster profile (:mod:`..profile`)
and recomputed, in queue order, only from the first job whose
reservation can have changed: a new arrival (its own reservation only), a reservation
that has fallen behind the clock, a start on another cluster than reserved, a job
that starts now on several clusters (the tie between clusters must be recomputed), or
an empty reservation (estimate 0) inside the window of a later job started since (it
takes no processors, so that start could not respect it: :func:`..reservations.after_start`).
On one cluster with estimates that hold (or over-run), a session costs O((a + s) x
steps + log n) for ``a`` arrivals. Recomputing only from the first changed job gives
the same reservations as recomputing all of them at every event (the package
docstring's rule): with the profile unchanged from ``t`` on, every earlier reservation
is again the earliest fitting time (the same steps fail in the same way), which the
oracle tests check schedule by schedule.

When running jobs end before their predicted ends (estimates above the run times),
the profile gains their processors over ``[t, old predicted end)`` on their clusters
and nowhere else (the per-cluster latest such end is ``hole_end``). The profiles are
then rebuilt as arrays from the running jobs and the waiting jobs re-reserved in queue
order, but each leading job whose reservation :func:`_kept` proves unchanged keeps it
without a search: every start before its reservation failed on some step, and a
failed start can only succeed now if its window meets a hole, i.e. if it is no later
than ``min(hole end, reservation)`` on a cluster with a hole (or is ``t``, where
predicted ends within the time tolerance count as ``t``); :func:`_kept` tries exactly
those (a start at the reservation time on a lower-index cluster also moves it). The
first job that fails the check, or arrived since, and every job after it are searched
afresh. A search starts at a lower bound: during one pass the profile only loses
processors, so a job cannot start before a job earlier in the pass that needed no more
processors for no longer did (:func:`.profile.bound_query`); on later clusters it stops
at the best start found so far, or is skipped when its bound is already later. When a
rate model moves a predicted end, every reservation is recomputed (no prefix is kept).

Cost of a session after early finishes (k jobs kept, q - k re-reserved, steps per
cluster O(r + q / m)): O(r log r + m x steps) to rebuild, O(m x h) per kept job (h: the
steps before the holes' ends, or its bound) and O(m x (w + log n)) per re-reserved one,
w the steps a search scans from its bound: O(q x m x steps) at worst, as a full
recompute, and about q x m x w in practice. The cost stays quadratic in the queue per
early finish because that many reservations really change: an early finish under
overload moves the reservations of about 60 % of the waiting jobs (at 20,000 jobs on
one cluster the first change comes at about an eighth of the queue and 62 % of the
reservations move, a third of them to a later time). Any exact method that keeps
explicit reservations must recompute them, and the schedules being bit-identical rules
out shifting a block of reservations by a common offset (the floating-point sums
differ).

Measured (issue 55; ``Result.counters``: ``reservations_moved``, ``reservations_searched``,
``searches``, ``search_steps``) under overload: offered load 1.5, estimates 1-3x the run
times, 20,000 jobs (``benchmarks/bench_engine.py``, conservative table), CPU time of
paired runs on 2 shared cores. One cluster of 128 (mean queue 2,460): 3.18 x 10^7 moved
reservations, 3.87 x 10^7 searched ones (the rest of the recomputed jobs are kept by
:func:`_kept`), 163 steps scanned per search from its bound; about 21 s per run, 650-700
ns per move (33 s, 1.0 us per move, when every search walked the row step by step and
every new boundary shifted it element by element; 85 s before issue 24's kept prefix
and bounds). 4 x 64 at speeds 0.5/1/1.5/2: 3.18 x 10^7 moves, 3.7 searches per searched
job, 33-37 s, 1.05-1.16 us per move (38-42 s before: the bounds and the short rows of
four clusters gain less). 10^5 jobs on 1 x 128 (one run each): 8.2 x 10^8 moves, 454
steps per search, 829 s CPU, 1.01 us per move (1,971 s, 2.4 us per move, before: the
rows are longer, and so was each element-by-element shift).
Where the time of a recompute goes (perf, the 1 x 128 run's sessions replayed): the
searches 31 % (each moved reservation's search still rejects about 24 candidate
windows, starts with p free processors but not for d seconds, after its lower bound,
each a data-dependent branch), the lower-bound table 13 %, the memmove of a row after
a new boundary (about 160 steps) 11 %, the kept prefix 11 %, numba's reference counts
8 %, the loop itself the rest: the issue's 100 ns per move is not met. An unrolled list
of 32-step blocks with stale per-width bounds on the longest window starting in each
block halved the windows tried (10.8 per move) in a prototype, but its bookkeeping
cost as much as it saved.
"""

from __future__ import annotations

import numba
import numpy as np

from ..events import start_job
from ..placement import NO_PLACE, place
from ..profile import (
    bound_query,
    bound_record,
    bound_table,
    cut_steps,
    earliest_from,
    list_add,
    list_add_at,
    list_advance,
    list_earliest,
    list_from_arrays,
    list_rebuild,
    reserve,
    running_profiles,
)
from ..rates import apply_rates, tolerance
from ..segtree import ANY, seg_first_le, seg_set
from ..state import (
    DIRTY,
    FULL,
    HOLES,
    QLEN,
    REBUILD,
    RES_MOVED,
    RES_SEARCHED,
    RES_SEARCHES,
    RES_STEPS,
    RLEN,
)
from .greedy import head

__all__ = ["conservative"]


@numba.njit(cache=True, inline="always")
def _start_or_hold(state, j, t, rate_code, params, starts, best, allowed):
    """Conservative, one job whose earliest times over the clusters are ``starts``
    (minimum ``best``): start it now if ``best`` is ``t`` and a tied cluster has the
    processors; otherwise record its reservation on the lowest-index cluster with the
    earliest time (counted in ``ctr[RES_MOVED]`` when it had another reservation). Returns
    (cluster, started)."""
    if best == t:
        for c in range(starts.size):
            allowed[c] = starts[c] == t
        c = place(state, j, t, allowed)
        if c != NO_PLACE:
            start_job(state, j, c, t)
            apply_rates(state, t, rate_code, params)
            return c, True
    c = np.argmin(starts)
    old = state.res_time[j]
    if old < np.inf and (old != best or state.res_clus[j] != c):
        state.ctr[RES_MOVED] += 1
    state.res_time[j] = best
    state.res_clus[j] = c
    seg_set(state.rtree, state.qrank[j], best)
    return c, False


@numba.njit(cache=True)
def _reserve_or_start(state, j, t, rate_code, params, scratch, cursor, offset):
    """Conservative, one job in queue order: its earliest time over the clusters; start
    it now if that is ``t`` and a tied cluster has the processors, else reserve it on the
    lowest-index cluster with the earliest time.

    ``cursor[offset[c] + p]`` (node, node before) is, within one pass in queue order, the
    first node of cluster ``c`` that may have ``p`` free processors: a pass only takes
    processors away, so every node before it still has fewer, and later searches for
    ``p`` start there (-1: not known yet)."""
    cap, speed = state.cap, state.speed
    m = cap.size
    p = state.procs[j]
    starts, nodes, before, allowed = scratch
    best = np.inf
    state.ctr[RES_SEARCHED] += 1
    for c in range(m):
        starts[c] = np.inf
        if cap[c] >= p:
            slot = offset[c] + p
            k, prev = cursor[slot, 0], cursor[slot, 1]
            if k < 0:
                k, prev = state.p_head[c], -1
            state.ctr[RES_SEARCHES] += 1
            starts[c], nodes[c], before[c], first, first_prev = list_earliest(
                state, k, prev, p, state.estimate[j] / speed[c]
            )
            cursor[slot, 0], cursor[slot, 1] = first, first_prev
            best = min(best, starts[c])
    c, started = _start_or_hold(state, j, t, rate_code, params, starts, best, allowed)
    if started:
        list_add_at(state, state.p_head[c], -1, t, state.pend[j], -p, False)
    else:
        end = best + state.estimate[j] / speed[c]
        list_add_at(state, nodes[c], before[c], best, end, -p, False)


BOUND_QUEUE = 256  # waiting jobs per cluster from which a recompute keeps lower bounds
BOUND_STEPS = 128  # ... and profile steps from which a search uses them


@numba.njit(cache=True, inline="always")
def _first_step(table, c, p, d, t, times, size):
    """First step a search for (p, d) on cluster ``c`` must look at: the first at or after
    the lower bound kept in ``table`` (0 without one)."""
    if table.shape[0] > 0 and size >= BOUND_STEPS:
        lb = bound_query(table, c, p, d)
        if lb > t:
            return np.searchsorted(times[c, :size], lb)
    return 0


@numba.njit(cache=True, inline="always")
def _record(table, c, p, d, s, size):
    if table.shape[0] > 0 and size >= BOUND_STEPS and s < np.inf:
        bound_record(table, c, p, d, s)


@numba.njit(cache=True)
def _kept(state, j, t, times, frees, sizes, table):
    """Whether waiting job ``j``'s reservation (res_time > t) is still its earliest start
    (lowest cluster index on ties) in the array profiles, which hold the running jobs and
    the reservations of the jobs before it, all unchanged since the last session except
    that jobs ended before their predicted ends (``hole_end``).

    Only a start whose window meets one of those holes can have become possible: on a
    cluster with a hole ending at ``e``, a start no later than ``min(e, res_time)``;
    elsewhere, a start at ``t`` (the running jobs' predicted ends within the time
    tolerance of ``t`` count as ``t``). Every other start failed before on a step that
    has not gained processors since."""
    cap, speed, hole = state.cap, state.speed, state.hole_end
    p = state.procs[j]
    res = state.res_time[j]
    ck = state.res_clus[j]
    for c in range(cap.size):
        if cap[c] >= p:
            d = state.estimate[j] / speed[c]
            limit = min(res, hole[c]) if hole[c] > t else t
            k0 = _first_step(table, c, p, d, t, times, sizes[c])
            s, _, m, exact = earliest_from(times, frees, c, sizes[c], p, d, k0, limit)
            state.ctr[RES_STEPS] += m - k0
            if exact and (s < res or (s == res and c < ck)):
                return False
    for c in range(cap.size):  # no cluster offers an earlier start
        if cap[c] >= p:
            _record(table, c, p, state.estimate[j] / speed[c], res, sizes[c])
    return True


@numba.njit(cache=True)
def _recompute_in_arrays(state, t, rate_code, params, holes, dirty):
    """Every waiting job's reservation, in queue order, on array profiles rebuilt from
    the running jobs (contiguous arrays scan faster than the node pool when much is
    recomputed); the result becomes the kept profile. With ``holes`` (the profile only
    gained processors, from jobs that ended before their predicted ends), the leading
    jobs whose reservations :func:`_kept` proves unchanged are re-reserved without a
    search, up to the first job whose reservation changes or that arrived since the
    last session."""
    cap, speed = state.cap, state.speed
    m = cap.size
    times, frees, sizes = running_profiles(state, t, 2 * state.ctr[QLEN] + 2)
    starts = np.empty(m)
    allowed = np.empty(m, np.bool_)
    table = bound_table(m if state.ctr[QLEN] >= BOUND_QUEUE * m else 0)
    kk = np.empty(m, np.int64)
    mm = np.empty(m, np.int64)
    wtree, at_rank, procs, estimate = state.wtree, state.at_rank, state.procs, state.estimate
    kept = holes
    after = t + tolerance(t)
    searched = searches = steps = 0
    r = 0
    while True:
        r = seg_first_le(wtree, r, ANY)
        if r < 0:
            break
        j = at_rank[r]
        p = procs[j]
        if kept:
            kept = r < dirty and state.res_time[j] > after
            if kept and _kept(state, j, t, times, frees, sizes, table):
                c = state.res_clus[j]
                d = estimate[j] / speed[c]
                sizes[c] = reserve(times[c], frees[c], sizes[c], state.res_time[j], d, p)
                r += 1
                continue
            kept = False
        best = np.inf
        for c in range(m):
            starts[c] = np.inf
            if cap[c] >= p:
                d = estimate[j] / speed[c]
                k0 = 0
                if table.shape[0] > 0 and sizes[c] >= BOUND_STEPS:
                    lb = bound_query(table, c, p, d)
                    if lb > best:  # cannot start before the best start found so far
                        starts[c] = lb
                        continue
                    if lb > t:
                        k0 = np.searchsorted(times[c, : sizes[c]], lb)
                s, kk[c], mm[c], _ = earliest_from(times, frees, c, sizes[c], p, d, k0, best)
                searches += 1
                steps += mm[c] - k0
                starts[c] = s
                _record(table, c, p, d, s, sizes[c])
                best = min(best, s)
        searched += 1
        c, _ = _start_or_hold(state, j, t, rate_code, params, starts, best, allowed)
        e = best + estimate[j] / speed[c]
        sizes[c] = cut_steps(times, frees, c, sizes[c], kk[c], mm[c], e, p)
        r += 1
    state.ctr[RES_SEARCHED] += searched
    state.ctr[RES_SEARCHES] += searches
    state.ctr[RES_STEPS] += steps
    list_from_arrays(state, times, frees, sizes)


ARRAY_BUDGET = 4_000_000  # profile entries (clusters x steps) for the array recompute


@numba.njit(cache=True)
def conservative(state, t, rate_code, params):
    """Conservative backfilling with reservations kept between sessions (see the module
    docstring for when they are recomputed)."""
    m = state.cap.size
    n = state.submit.size
    dirty = min(state.ctr[DIRTY], n)
    state.ctr[DIRTY] = n  # starts in this session may lower it for the next one
    rebuild = state.ctr[REBUILD]
    if rebuild == 0:
        for c in range(m):
            list_advance(state, c, t)
        # reservations at t (one cluster: start them) or behind t (recompute from there)
        r = 0
        while True:
            r = seg_first_le(state.rtree, r, t + tolerance(t))
            if r < 0 or r >= dirty:
                break
            j = state.at_rank[r]
            if m == 1 and state.res_time[j] == t:
                if state.free[0] >= state.procs[j]:
                    start_job(state, j, 0, t)
                    apply_rates(state, t, rate_code, params)
                r += 1
                continue
            dirty = r
            break
        head_rank = head(state)
        if head_rank >= 0 and dirty <= head_rank:
            rebuild = FULL
    if rebuild != 0:
        state.ctr[REBUILD] = 0
        if m * (2 * state.ctr[QLEN] + state.ctr[RLEN] + 4) <= ARRAY_BUDGET:
            _recompute_in_arrays(state, t, rate_code, params, rebuild == HOLES, dirty)
            state.hole_end[:] = -np.inf
            return
        list_rebuild(state, t)
        state.hole_end[:] = -np.inf
        dirty = 0
    elif dirty < n:  # take the dirty suffix's old reservations out of the profile
        r = dirty
        while True:
            r = seg_first_le(state.wtree, r, ANY)
            if r < 0:
                break
            j = state.at_rank[r]
            if state.res_time[j] < np.inf:
                c = state.res_clus[j]
                s = state.res_time[j]
                list_add(state, c, s, s + state.estimate[j] / state.speed[c], state.procs[j])
            r += 1
    scratch = (np.empty(m), np.empty(m, np.int64), np.empty(m, np.int64), np.empty(m, np.bool_))
    offset = np.zeros(m, np.int64)
    for c in range(1, m):
        offset[c] = offset[c - 1] + state.cap[c - 1] + 1
    cursor = np.full((offset[m - 1] + state.cap[m - 1] + 1, 2), -1, np.int64)
    r = dirty
    while r < n:
        r = seg_first_le(state.wtree, r, ANY)
        if r < 0:
            break
        _reserve_or_start(state, state.at_rank[r], t, rate_code, params, scratch, cursor, offset)
        r += 1
