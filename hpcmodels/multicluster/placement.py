"""The allocation policies' table (numba kernel): :func:`place`, the engine's one
placement call.

It receives the whole engine state (free processors, running jobs with their predicted
ends, the waiting queue, estimates), so that a policy may look beyond the free
processors. Each policy is a kernel in its own module: the fits (``first_fit`` ...
``fastest_first``, :func:`.allocation.pick`), the look-ahead allocations ``ai2``
(:mod:`.ai2`) and ``tla`` (:mod:`.lookahead`), Jones 2005's ``local_first`` and
``local_only`` (:mod:`.local`). :func:`place` dispatches by the policy's code (its
position in :data:`.allocation.ALLOCATIONS`); a job that fits no single cluster is then
offered to the co-allocation policy (:func:`.coallocation.propose`). Adding an
allocation policy: its kernel, its name in ``ALLOCATIONS`` and one line in
:func:`place`.
"""

from __future__ import annotations

import numba

from .ai2 import ai2_place
from .allocation import AI2, LOCAL_FIRST, LOCAL_ONLY, TLA, pick
from .coallocation import NO_PLACE, propose
from .local import local_first, local_only
from .lookahead import tla_place
from .state import ALLOC, U_PTR

__all__ = ["NO_PLACE", "place"]


@numba.njit(cache=True, inline="always")
def _fit(state, policy, j, allowed):
    """The fits of :func:`.allocation.pick`; random fit takes the next of its uniforms
    (consumed by the start, :func:`.events.start_job`)."""
    u_ptr = state.ctr[U_PTR]
    u = state.uniforms[u_ptr] if u_ptr < state.uniforms.size else 0.0
    return pick(policy, state.free, state.speed, state.procs[j], allowed, u)


@numba.njit(cache=True)
def place(state, j, t, allowed):
    """Where waiting job ``j`` starts at ``t``: a cluster index (single site, among the
    ``allowed`` clusters, by the run's allocation policy), ``COALLOCATED`` (-1: across
    sites by the co-allocation policy, :func:`.coallocation.propose`), or ``NO_PLACE``.
    Nothing is changed but the look-ahead's plan and counters; the engine's
    ``start_job`` does the starting (and consumes random fit's uniform)."""
    policy = state.cfg[ALLOC]
    if policy == LOCAL_FIRST:
        c = local_first(state, j, allowed)
    elif policy == LOCAL_ONLY:
        c = local_only(state, j, allowed)
        if c < 0:
            return NO_PLACE
    elif policy == TLA:
        c = tla_place(state, j, t, allowed)
    elif policy == AI2:
        c = ai2_place(state, j, t, allowed)
    else:
        c = _fit(state, policy, j, allowed)
    if c >= 0:
        return c
    return propose(state, state.procs[j])
