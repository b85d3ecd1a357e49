"""AI2, the adaptive allocation TLA is compared with (Shih et al. 2013, Section 2.3).

AI2 (Section 2.3). Two branches: the target by best fit, or by fastest first; the other
jobs of the same session (the following head jobs while one fits now, first come first
served) by fastest first. The branch whose session consumes more computing power
(processors x speed, summed) wins; a tie goes to fastest first. O(s m) for ``s`` jobs in
the session.
"""

from __future__ import annotations

import numba
import numpy as np

from .allocation import BEST_FIT, FASTEST_FIRST, pick
from .segtree import ANY, seg_first_le


@numba.njit(cache=True)
def _session_power(state, j, first):
    """Computing power (processors x speed) the session at the current instant uses when
    ``j`` goes to ``first`` and the following head jobs (queue order) go by fastest first
    while one fits."""
    free = state.free.copy()
    allowed = np.ones(free.size, np.bool_)
    free[first] -= state.procs[j]
    power = state.procs[j] * state.speed[first]
    r = seg_first_le(state.wtree, 0, ANY)
    while r >= 0:
        i = state.at_rank[r]
        if i != j:
            c = pick(FASTEST_FIRST, free, state.speed, state.procs[i], allowed, 0.0)
            if c < 0:
                break
            free[c] -= state.procs[i]
            power += state.procs[i] * state.speed[c]
        r = seg_first_le(state.wtree, r + 1, ANY)
    return power


@numba.njit(cache=True)
def ai2_place(state, j, t, allowed):
    """AI2's cluster for waiting job ``j`` among the allowed clusters (-1: none fits)."""
    p = state.procs[j]
    ff = pick(FASTEST_FIRST, state.free, state.speed, p, allowed, 0.0)
    bf = pick(BEST_FIT, state.free, state.speed, p, allowed, 0.0)
    if ff < 0 or bf == ff:
        return ff
    if _session_power(state, j, bf) > _session_power(state, j, ff):
        return bf
    return ff
