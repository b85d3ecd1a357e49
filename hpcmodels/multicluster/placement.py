"""The engine's one placement call (numba kernel): :func:`place`.

It receives the whole engine state (free processors, running jobs with their predicted
ends, the waiting queue, estimates), so that a policy may look beyond the free
processors: the look-ahead allocations ``ai2`` and ``tla`` (:mod:`.lookahead`) replay
the queue; the others (:mod:`.allocation`) read the free processors and speeds only.
"""

from __future__ import annotations

import numba

from .allocation import AI2, TLA, pick
from .lookahead import ai2_place, tla_place
from .state import ALLOC, COAL, COALLOCATED, U_PTR

__all__ = ["NO_PLACE", "place"]

NO_PLACE = -2  # returned by place(): the job cannot start now


@numba.njit(cache=True)
def place(state, j, t, allowed):
    """Where waiting job ``j`` starts at ``t``: a cluster index (single site, among the
    ``allowed`` clusters, by the run's allocation policy), ``COALLOCATED`` (-1: across
    sites by the co-allocation heuristic, when no single cluster fits and all free
    processors together suffice), or ``NO_PLACE``. Nothing is changed but the
    look-ahead's plan and counters; the engine's ``start_job`` does the starting (and
    consumes random fit's uniform)."""
    policy = state.cfg[ALLOC]
    p = state.procs[j]
    if policy == TLA:
        c = tla_place(state, j, t, allowed)
    elif policy == AI2:
        c = ai2_place(state, j, t, allowed)
    else:
        u_ptr = state.ctr[U_PTR]
        u = state.uniforms[u_ptr] if u_ptr < state.uniforms.size else 0.0
        c = pick(policy, state.free, state.speed, p, allowed, u)
    if c >= 0:
        return c
    if state.cfg[COAL] > 0 and state.free.sum() >= p:
        return COALLOCATED
    return NO_PLACE
