"""Conservative backfilling's kept reservations, as the engine's events change them
(numba kernels). The events call these only when the queue keeps reservations
(``KEEP_RESERVATIONS``, :mod:`.queue`); the session that computes the reservations is
:mod:`.selection.conservative`.

Per waiting job: ``res_time`` and ``res_clus`` (its reservation; inf and -1 when none),
``rtree`` (reservation times over queue ranks, :mod:`.segtree`); per run:
``ctr[DIRTY]`` (the first queue rank whose reservation the next session recomputes),
``ctr[REBUILD]`` and ``hole_end`` (running jobs that ended before their predicted ends,
see :mod:`.selection.conservative`), and the profiles in the node pool (:mod:`.profile`).
"""

from __future__ import annotations

import numba
import numpy as np

from .rates import tolerance
from .segtree import seg_first_le, seg_set
from .state import DIRTY, HOLES, REBUILD

__all__ = ["on_enqueue", "on_dequeue", "after_start", "on_release"]


@numba.njit(cache=True, inline="always")
def on_enqueue(state, r):
    """A job joined the queue at rank ``r``: its reservation is computed next session."""
    state.ctr[DIRTY] = min(state.ctr[DIRTY], r)


@numba.njit(cache=True, inline="always")
def on_dequeue(state, j, r):
    """Waiting job ``j`` (rank ``r``) starts: its reservation goes."""
    seg_set(state.rtree, r, np.inf)
    state.res_time[j] = np.inf


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


@numba.njit(cache=True, inline="always")
def after_start(state, j, c, t):
    """Job ``j`` started at ``t`` on ``c`` (``COALLOCATED``: several sites; conservative
    backfilling does not co-allocate)."""
    if c >= 0:
        _empty_reservations(state, j, c, t)


@numba.njit(cache=True, inline="always")
def on_release(state, j, c, t):
    """Job ``j`` ended at ``t`` on cluster ``c``: if before its predicted end, the
    profile gained its processors until then."""
    if state.pend[j] > t + tolerance(t):
        if state.ctr[REBUILD] == 0:
            state.ctr[REBUILD] = HOLES
        if c >= 0:
            state.hole_end[c] = max(state.hole_end[c], state.pend[j])
