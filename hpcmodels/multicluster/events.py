"""The engine's events (numba kernels): next event time, finishes, submissions, starts.

At each event time ``t`` every job ending at ``t`` frees its processors, then every job
submitted at ``t`` joins the queue, then one scheduling session runs (package
docstring). Times within the tolerance of :func:`.rates.tolerance` of the earliest
pending event form one time stamp, the latest of them: a finishing job's recorded end is
that stamp, and no job starts before its submit time.
"""

from __future__ import annotations

import numba
import numpy as np

from .allocation import RANDOM_FIT, coallocate
from .coallocation_modules import A1, module_split
from .heap import heap_pop, heap_push
from .rates import apply_rates, refresh_links, tolerance
from .segtree import seg_first_le, seg_set
from .state import (
    ALLOC,
    BSBW,
    CHUNK,
    COAL,
    CONSERVATIVE,
    DEBUG,
    DIRTY,
    EASY,
    EVENTS,
    FCFS,
    HOLES,
    LAST_FCFS_START,
    LAST_T,
    LSLT,
    MAX_LEVEL,
    N_SPLIT,
    NOW,
    NXT,
    PLACED_SPLIT,
    Q_AREA,
    QLEN,
    REBUILD,
    RLEN,
    SEL,
    U_PTR,
)

__all__ = ["next_time", "start_job", "process_events"]


@numba.njit(cache=True)
def next_time(state):
    """Earliest pending event (a finish or a submission); inf when none is left."""
    t = np.inf
    if state.ctr[RLEN] > 0:
        t = state.end[state.heap[0]]
    nxt = state.ctr[NXT]
    if nxt < state.submit.size:
        t = min(t, state.submit[state.order[nxt]])
    return t


@numba.njit(cache=True)
def _empty_reservations(state, j, c, t):
    """Conservative, after job ``j`` started at ``t`` on cluster ``c``: lower
    ``ctr[DIRTY]`` (read by the next session) to the first waiting job before ``j`` in
    queue order whose reservation on ``c`` has an empty window (estimate 0, or too small
    to move its start in floating point) inside ``j``'s window ``[t, pend)``.

    Such a reservation takes no processors from the profile, so ``j``'s search could not
    respect it, yet it needs its processors free at its instant: with ``j`` running it
    may no longer fit there, and the package's rule recomputes it at the next event
    (the start of every other waiting job is consistent with the profile that placed
    it). A reservation's window is empty only for estimates at most ``|time| x 2**-53 x
    speed``, found in O(log n) each through ``etree`` (the waiting jobs' estimates)."""
    end = state.pend[j]
    if not end > t:
        return
    speed = state.speed[c]
    bound = max(abs(t), abs(end)) * 2.0**-52 * speed
    limit = min(state.qrank[j], state.ctr[DIRTY])
    r = 0
    while True:
        r = seg_first_le(state.etree, r, bound)
        if r < 0 or r >= limit:
            return
        z = state.at_rank[r]
        s = state.res_time[z]
        if state.res_clus[z] == c and s < end and s + state.estimate[z] / speed == s:
            state.ctr[DIRTY] = r
            return
        r += 1


@numba.njit(cache=True)
def start_job(state, j, c, t):
    """Start waiting job ``j`` at ``t`` on cluster ``c`` (``COALLOCATED``: across sites
    by the co-allocation heuristic; its work is then ``runtime x slowdown`` at the
    slowest site's speed). Random fit's uniform is consumed here."""
    sel = state.cfg[SEL]
    r = state.qrank[j]
    seg_set(state.wtree, r, np.inf)
    if sel == EASY:
        seg_set(state.etree, r, np.inf)
    elif sel == CONSERVATIVE:
        seg_set(state.etree, r, np.inf)
        seg_set(state.rtree, r, np.inf)
        state.res_time[j] = np.inf
    state.ctr[QLEN] -= 1
    if state.cfg[DEBUG]:
        if t < state.submit[j]:
            raise AssertionError("a job started before its submit time")
        if sel == FCFS:
            if t < state.fctr[LAST_FCFS_START]:
                raise AssertionError("FCFS order violated")
            state.fctr[LAST_FCFS_START] = t
    state.start[j] = t
    state.anchor[j] = t
    state.clus[j] = c
    if c >= 0:
        if state.free[c] < state.procs[j]:
            raise AssertionError("started a job on a cluster without enough free processors")
        state.free[c] -= state.procs[j]
        rate = state.speed[c]
        work, work_est = state.runtime[j], state.estimate[j]
        if state.cfg[ALLOC] == RANDOM_FIT:
            state.ctr[U_PTR] += 1
    else:
        off = state.ctr[N_SPLIT]
        code = state.cfg[COAL]
        if code >= A1:  # a bandwidth-aware module (Jones 2005)
            used = state.ctr[PLACED_SPLIT]  # place() just wrote the split at off
            state.ctr[PLACED_SPLIT] = 0
            if used == 0:
                net = state.net
                used = module_split(
                    code,
                    state.free,
                    state.link_load,
                    state.link_cap,
                    state.procs[j],
                    net[BSBW],
                    net[LSLT],
                    net[CHUNK],
                    state.split_site,
                    state.split_procs,
                    off,
                )
            rate = np.inf
            for k in range(off, off + used):
                state.free[state.split_site[k]] -= state.split_procs[k]
                rate = min(rate, state.speed[state.split_site[k]])
        else:
            rate, used = coallocate(
                code,
                state.free,
                state.speed,
                state.procs[j],
                state.split_site,
                state.split_procs,
                off,
            )
        state.split_off[j] = off
        state.split_len[j] = used
        state.ctr[N_SPLIT] = off + used
        work = state.runtime[j] * state.slowdown
        work_est = state.estimate[j] * state.slowdown
    state.rate[j] = rate
    state.rem[j] = work
    state.rem_est[j] = work_est
    state.end[j] = t + work / rate
    state.pend[j] = t + work_est / rate
    state.ctr[RLEN] = heap_push(state.heap, state.hpos, state.end, state.ctr[RLEN], j)
    if sel == CONSERVATIVE and c >= 0:
        _empty_reservations(state, j, c, t)
    if c < 0:
        refresh_links(state)
        if state.cfg[DEBUG] and state.cfg[COAL] == A1:
            if state.fctr[MAX_LEVEL] > state.net[LSLT] * (1 + 1e-9):
                raise AssertionError("A1 pushed a link beyond the saturation threshold")


@numba.njit(cache=True)
def _release(state, j, t):
    c = state.clus[j]
    if c >= 0:
        state.free[c] += state.procs[j]
    else:
        off = state.split_off[j]
        for k in range(off, off + state.split_len[j]):
            state.free[state.split_site[k]] += state.split_procs[k]
    if state.cfg[SEL] == CONSERVATIVE and state.pend[j] > t + tolerance(t):
        # ended before its predicted end: the profile gained its processors until then
        if state.ctr[REBUILD] == 0:
            state.ctr[REBUILD] = HOLES
        if c >= 0:
            state.hole_end[c] = max(state.hole_end[c], state.pend[j])
    state.end[j] = t
    state.rem[j] = 0.0
    return c < 0


@numba.njit(cache=True)
def process_events(state, rate_code, params):
    """Apply the events of the next time stamp: finishes (then the rate model), then
    submissions. Returns (stamp, number of finishes); the stamp is inf when no event
    is left."""
    t0 = next_time(state)
    if t0 == np.inf:
        return t0, 0
    limit = t0 + tolerance(t0)
    n = state.submit.size
    # the stamp: the latest time in the group
    stamp = t0
    rlen = state.ctr[RLEN]
    size = rlen
    while size > 0 and state.end[state.heap[0]] <= limit:
        j, size = heap_pop(state.heap, state.hpos, state.end, size)
        state.heap[size] = j  # popped jobs are parked past the heap's end
        stamp = max(stamp, state.end[j])
    nxt = state.ctr[NXT]
    while nxt < n and state.submit[state.order[nxt]] <= limit:
        stamp = max(stamp, state.submit[state.order[nxt]])
        nxt += 1
    state.ctr[EVENTS] += 1
    state.fctr[Q_AREA] += state.ctr[QLEN] * (stamp - state.fctr[LAST_T])
    state.fctr[LAST_T] = stamp
    state.fctr[NOW] = stamp
    state.ctr[RLEN] = size
    links = False
    for k in range(size, rlen):  # finishes first
        links |= _release(state, state.heap[k], stamp)
    if links:
        refresh_links(state)
    if rlen > size:
        apply_rates(state, stamp, rate_code, params)
    sel = state.cfg[SEL]
    for k in range(state.ctr[NXT], nxt):  # then submissions, in input order
        j = state.order[k]
        r = state.qrank[j]
        seg_set(state.wtree, r, state.procs[j])
        if sel == EASY:
            seg_set(state.etree, r, state.estimate[j])
        elif sel == CONSERVATIVE:
            seg_set(state.etree, r, state.estimate[j])
            state.ctr[DIRTY] = min(state.ctr[DIRTY], r)
        state.ctr[QLEN] += 1
    state.ctr[NXT] = nxt
    return stamp, rlen - size
