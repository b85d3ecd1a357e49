"""EASY backfilling (numba kernel; rules: package docstring).

Cost per session: that of ``fcfs`` (:mod:`.greedy`), plus the head's shadow from a
profile of the running jobs (O(r log r + m)) and a backfilling pass that descends the
queue tree for jobs that fit either anywhere or, on the head's cluster, by ending before
the shadow (widths and estimates are two trees over the same ranks); only jobs that pass
that test are visited.
"""

from __future__ import annotations

import numba
import numpy as np

from ..events import start_job
from ..placement import NO_PLACE, place
from ..profile import earliest_start, running_profiles
from ..rates import apply_rates, work_until
from ..segtree import seg_first_le2
from .greedy import start_from_head

__all__ = ["easy"]


@numba.njit(cache=True)
def easy(state, t, rate_code, params, everywhere):
    """EASY: start from the head while jobs fit; the first that does not gets the
    shadow time; later jobs start now if they fit and, on the head's cluster, end by the
    shadow or use no more than the processors left over at the shadow."""
    rh = start_from_head(state, t, rate_code, params, everywhere)
    if rh < 0:
        return
    h = state.at_rank[rh]
    cap, speed, free = state.cap, state.speed, state.free
    m = cap.size
    times, frees, sizes = running_profiles(state, t)
    shadow = np.inf
    ch = 0
    for c in range(m):
        if cap[c] >= state.procs[h]:
            s = earliest_start(
                times[c], frees[c], sizes[c], state.procs[h], state.estimate[h] / speed[c]
            )
            if s < shadow:
                shadow, ch = s, c
    extra = -state.procs[h]
    for k in range(sizes[ch]):
        if times[ch, k] <= shadow:
            extra = frees[ch, k] - state.procs[h]
    allowed = np.ones(m, np.bool_)
    window = work_until(t, shadow, speed[ch])  # implied by ends_early below (pruning)
    r = rh + 1
    while True:
        elsewhere = 0
        for c in range(m):
            if c != ch:
                elsewhere = max(elsewhere, free[c])
        sure = max(elsewhere, min(free[ch], extra))
        r = seg_first_le2(state.wtree, state.etree, r, sure, free[ch], window)
        if r < 0:
            return
        j = state.at_rank[r]
        ends_early = t + state.estimate[j] / speed[ch] <= shadow
        for c in range(m):
            allowed[c] = c != ch or ends_early or state.procs[j] <= extra
        c = place(state, j, t, allowed)
        if c != NO_PLACE:
            start_job(state, j, c, t)
            apply_rates(state, t, rate_code, params)
            if c == ch and not ends_early:
                extra -= state.procs[j]
        r += 1
