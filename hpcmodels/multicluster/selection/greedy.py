"""The selections without backfilling (numba kernels): ``fcfs`` starts jobs from the head
of the queue while they have a placement; ``first_available``, ``smallest_first`` and
``largest_first`` make one pass in queue order starting every job that has a placement;
``first_available_once`` starts only the first of them (rules: package docstring).

Cost per session (n jobs, r running, m clusters, s jobs started): O((s + 1)(log n + m)),
whatever the queue length, when every job up to the total free count has a placement; a
co-allocation module that declines (Jones 2005's A1 and B modules) adds O(log n + m p)
per job it declines.
"""

from __future__ import annotations

import numba

from ..coallocation import coallocation_bound
from ..coallocation_modules import A1
from ..events import start_job
from ..placement import NO_PLACE, place
from ..rates import apply_rates
from ..segtree import ANY, seg_first_le
from ..state import COAL, DEBUG, LAST_FCFS_START, QLEN

__all__ = ["head", "start_from_head", "one_pass", "fcfs"]


@numba.njit(cache=True)
def head(state):
    """Rank of the first waiting job in queue order (-1 if none)."""
    return seg_first_le(state.wtree, 0, ANY)


@numba.njit(cache=True)
def start_from_head(state, t, rate_code, params, everywhere):
    """Start head jobs while they have a placement; return the blocked head's rank
    (-1 when the queue empties)."""
    while True:
        r = head(state)
        if r < 0:
            return -1
        j = state.at_rank[r]
        c = place(state, j, t, everywhere)
        if c == NO_PLACE:
            return r
        start_job(state, j, c, t)
        apply_rates(state, t, rate_code, params)


@numba.njit(cache=True, inline="always")  # once per session: no call
def _widest_start(state, coal):
    """The widest job that may start now: on one cluster, or across sites with
    co-allocation (code ``coal``; a module's :func:`.coallocation.coallocation_bound`)."""
    free = state.free
    most, total = free[0], free[0]
    for c in range(1, free.size):  # a loop, not free.max(): no call per session
        most = max(most, free[c])
        total += free[c]
    if coal >= A1:
        return max(most, coallocation_bound(state))
    return total if coal > 0 else most


@numba.njit(cache=True)
def one_pass(state, t, rate_code, params, everywhere, once, declined):
    """first_available / smallest_first / largest_first: one pass in queue order,
    starting every job that has a placement (``once``: only the first of them).

    With a bandwidth-aware co-allocation module (Jones 2005) whether a job can start
    depends only on its width (local allocation implies migration), the free nodes and
    the links' loads, which change only when a job starts or ends. So a width the module
    declined (``declined[p]``) is not tried again until a job starts or ends: the engine
    clears ``declined`` after a batch of finishes (:func:`..engine.run`), this pass after
    each start; a session after arrivals alone asks the module nothing it declined
    before. The B modules' widths are bounded by the free nodes of the clusters they may
    use."""
    coal = state.cfg[COAL]
    modules = coal >= A1
    r = 0
    bound = _widest_start(state, coal)
    while True:
        r = seg_first_le(state.wtree, r, bound)
        if r < 0:
            return
        j = state.at_rank[r]
        p = state.procs[j]
        if modules and declined[p]:
            r += 1
            continue
        c = place(state, j, t, everywhere)
        if c != NO_PLACE:
            start_job(state, j, c, t)
            apply_rates(state, t, rate_code, params)
            if modules:
                declined[:] = False
            if once:
                return
            bound = _widest_start(state, coal)  # only a start moves it
        elif modules:
            declined[p] = True
        r += 1


@numba.njit(cache=True)
def fcfs(state, t, rate_code, params, everywhere):
    """First come, first served: start from the head while jobs have a placement. In
    debug mode, check that starts never go back in time."""
    waiting = state.ctr[QLEN]
    start_from_head(state, t, rate_code, params, everywhere)
    if state.cfg[DEBUG] and state.ctr[QLEN] < waiting:
        if t < state.fctr[LAST_FCFS_START]:
            raise AssertionError("FCFS order violated")
        state.fctr[LAST_FCFS_START] = t
