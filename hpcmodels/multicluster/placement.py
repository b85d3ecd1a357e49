"""The engine's one placement call (numba kernel): :func:`place`.

It receives the whole engine state (free processors, running jobs with their predicted
ends, the waiting queue, estimates), so that a policy may look beyond the free
processors: the look-ahead allocations ``ai2`` (:mod:`.ai2`) and ``tla`` (:mod:`.lookahead`) replay
the queue; the others (:mod:`.allocation`) read the free processors and speeds only.
"""

from __future__ import annotations

import numba

from .ai2 import ai2_place
from .allocation import AI2, BEST_FIT, LOCAL_FIRST, LOCAL_ONLY, TLA, pick
from .coallocation_modules import A1, module_split, widest_split
from .lookahead import tla_place
from .state import (
    ALLOC,
    BSBW,
    CHUNK,
    COAL,
    COALLOCATED,
    LSLT,
    MODULE_CALLS,
    N_SPLIT,
    PLACED_SPLIT,
    U_PTR,
)

__all__ = ["NO_PLACE", "place", "coallocation_bound"]

NO_PLACE = -2  # returned by place(): the job cannot start now


@numba.njit(cache=True)
def place(state, j, t, allowed):
    """Where waiting job ``j`` starts at ``t``: a cluster index (single site, among the
    ``allowed`` clusters, by the run's allocation policy), ``COALLOCATED`` (-1: across
    sites by the co-allocation heuristic, when no single cluster fits and all free
    processors together suffice; with a bandwidth-aware module, when the module finds a
    split), or ``NO_PLACE``. ``local_first`` is Jones 2005's LA then MIG: the job's own
    cluster when it fits, else best fit; ``local_only`` the own cluster or nothing.
    Nothing is changed but the look-ahead's plan and counters; the engine's
    ``start_job`` does the starting (and consumes random fit's uniform)."""
    policy = state.cfg[ALLOC]
    p = state.procs[j]
    o = state.origin[j]
    if policy == LOCAL_FIRST or policy == LOCAL_ONLY:
        if allowed[o] and state.free[o] >= p:
            return o
        if policy == LOCAL_ONLY:
            return NO_PLACE
        c = pick(BEST_FIT, state.free, state.speed, p, allowed, 0.0)
    elif policy == TLA:
        c = tla_place(state, j, t, allowed)
    elif policy == AI2:
        c = ai2_place(state, j, t, allowed)
    else:
        u_ptr = state.ctr[U_PTR]
        u = state.uniforms[u_ptr] if u_ptr < state.uniforms.size else 0.0
        c = pick(policy, state.free, state.speed, p, allowed, u)
    if c >= 0:
        return c
    coal = state.cfg[COAL]
    if coal >= A1:
        state.ctr[MODULE_CALLS] += 1
        # written where start_job will keep it: the split buffers' free tail (the engine
        # keeps room for a whole split there), its length in ctr[PLACED_SPLIT]
        used = module_split(
            coal,
            state.free,
            state.link_load,
            state.link_cap,
            p,
            state.net[BSBW],
            state.net[LSLT],
            state.net[CHUNK],
            state.split_site,
            state.split_procs,
            state.ctr[N_SPLIT],
        )
        state.ctr[PLACED_SPLIT] = used
        if used > 0:
            return COALLOCATED
        return NO_PLACE
    if coal > 0 and state.free.sum() >= p:
        return COALLOCATED
    return NO_PLACE


@numba.njit(cache=True)
def coallocation_bound(state):
    """An upper bound on the width a bandwidth-aware co-allocation module can place now
    (:func:`.coallocation_modules.widest_split`)."""
    return widest_split(
        state.cfg[COAL], state.free, state.link_load, state.link_cap, state.net[LSLT]
    )
