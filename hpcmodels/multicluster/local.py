"""Jones 2005's local allocation (numba kernels): a job first tries the cluster it
arrived at (``origin``). ``local_first`` is LA then MIG: its own cluster when it fits,
else best fit over the others; ``local_only`` runs it on its own cluster or not at all.
"""

from __future__ import annotations

import numba

from .allocation import BEST_FIT, pick

__all__ = ["local_first", "local_only"]


@numba.njit(cache=True, inline="always")
def local_only(state, j, allowed):
    """Job ``j``'s own cluster if it is allowed and has the processors, else -1."""
    o = state.origin[j]
    if allowed[o] and state.free[o] >= state.procs[j]:
        return o
    return -1


@numba.njit(cache=True, inline="always")
def local_first(state, j, allowed):
    """Job ``j``'s own cluster if it fits there, else best fit among the allowed (-1:
    none fits)."""
    o = local_only(state, j, allowed)
    if o >= 0:
        return o
    return pick(BEST_FIT, state.free, state.speed, state.procs[j], allowed, 0.0)
