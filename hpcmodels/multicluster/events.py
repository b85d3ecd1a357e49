"""The engine's events (numba kernels): next event time, finishes, submissions, starts.
They know no policy by name: the queue (:mod:`.queue`), the kept reservations
(:mod:`.reservations`, when the queue keeps them) and the co-allocation table
(:mod:`.coallocation`) do what the run's policies need.

At each event time ``t`` every job ending at ``t`` frees its processors, then every job
submitted at ``t`` joins the queue, then one scheduling session runs (package
docstring). Times within the tolerance of :func:`.rates.tolerance` of the earliest
pending event form one time stamp, the latest of them: a finishing job's recorded end is
that stamp, and no job starts before its submit time.
"""

from __future__ import annotations

import numba
import numpy as np

from .coallocation import check_links, split
from .heap import heap_pop, heap_push
from .queue import KEEP_RESERVATIONS, dequeue, enqueue
from .rates import apply_rates, refresh_links, tolerance
from .reservations import after_start, on_release
from .state import (
    DEBUG,
    EVENTS,
    LAST_T,
    N_SPLIT,
    NOW,
    NXT,
    Q_AREA,
    QLEN,
    QUEUE_KEEPS,
    RLEN,
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
def start_job(state, j, c, t):
    """Start waiting job ``j`` at ``t`` on cluster ``c`` (``COALLOCATED``: across sites
    by the co-allocation policy, :func:`.coallocation.split`; its work is then
    ``runtime x slowdown`` at the slowest site's speed). Random fit's uniform is
    consumed here."""
    dequeue(state, j)
    if state.cfg[DEBUG] and t < state.submit[j]:
        raise AssertionError("a job started before its submit time")
    state.start[j] = t
    state.anchor[j] = t
    state.clus[j] = c
    if c >= 0:
        if state.free[c] < state.procs[j]:
            raise AssertionError("started a job on a cluster without enough free processors")
        state.free[c] -= state.procs[j]
        rate = state.speed[c]
        work, work_est = state.runtime[j], state.estimate[j]
        state.ctr[U_PTR] += 1  # random fit's next uniform (the other fits read none)
    else:
        off = state.ctr[N_SPLIT]
        rate, used = split(state, j, off)
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
    if state.cfg[QUEUE_KEEPS] & KEEP_RESERVATIONS:
        after_start(state, j, c, t)
    if c < 0:
        refresh_links(state)
        check_links(state)


@numba.njit(cache=True)
def _release(state, j, t):
    c = state.clus[j]
    if c >= 0:
        state.free[c] += state.procs[j]
    else:
        off = state.split_off[j]
        for k in range(off, off + state.split_len[j]):
            state.free[state.split_site[k]] += state.split_procs[k]
    if state.cfg[QUEUE_KEEPS] & KEEP_RESERVATIONS:
        on_release(state, j, c, t)
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
    for k in range(state.ctr[NXT], nxt):  # then submissions, in input order
        enqueue(state, state.order[k])
    state.ctr[NXT] = nxt
    return stamp, rlen - size
