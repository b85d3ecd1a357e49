"""The co-allocation policies' table (numba kernels): whether a job that fits no single
cluster starts across sites, and how it is split.

Codes are positions in :data:`.allocation.COALLOCATIONS`: 0 none; Huang 2006's
heuristics (``fixed_order``, ``larger_first``, ``smaller_first``,
:func:`.allocation.coallocate`) start a job across sites whenever all free processors
together suffice; Jones 2005's bandwidth-aware modules (``a1``, ``b1`` ... ``b4``,
:mod:`.coallocation_modules`) also look at the links and may decline. Three hooks,
each dispatching by code: :func:`propose` (the placement: may the job start now across
sites?), :func:`split` (the start: which sites give how many processors) and
:func:`check_links` (debug invariant after a start). Adding a heuristic: a branch of
:func:`.allocation.coallocate` or a module in :mod:`.coallocation_modules`, its name in
``COALLOCATIONS``, and one line in each hook it changes.
"""

from __future__ import annotations

import numba
import numpy as np

from .allocation import coallocate
from .coallocation_modules import A1, module_split, widest_split
from .state import (
    BSBW,
    CHUNK,
    COAL,
    COALLOCATED,
    DEBUG,
    LSLT,
    MAX_LEVEL,
    MODULE_CALLS,
    N_SPLIT,
    PLACED_SPLIT,
)

__all__ = ["NO_PLACE", "propose", "split", "check_links", "coallocation_bound"]

NO_PLACE = -2  # the job cannot start now


@numba.njit(cache=True, inline="always")
def _module_split(state, p, off):
    """The run's bandwidth-aware module's split of ``p`` processors, written at
    ``split_site[off:]`` / ``split_procs[off:]``; the number of sites (0: declined)."""
    net = state.net
    return module_split(
        state.cfg[COAL],
        state.free,
        state.link_load,
        state.link_cap,
        p,
        net[BSBW],
        net[LSLT],
        net[CHUNK],
        state.split_site,
        state.split_procs,
        off,
    )


@numba.njit(cache=True, inline="always")
def propose(state, p):
    """``COALLOCATED`` when a job of ``p`` processors that fits no allowed single
    cluster starts now across sites, else ``NO_PLACE``. A module's split is written where
    :func:`split` keeps it: the split buffers' free tail (the engine keeps room for a
    whole split there), its length in ``ctr[PLACED_SPLIT]``."""
    coal = state.cfg[COAL]
    if coal >= A1:
        state.ctr[MODULE_CALLS] += 1
        used = _module_split(state, p, state.ctr[N_SPLIT])
        state.ctr[PLACED_SPLIT] = used
        if used > 0:
            return COALLOCATED
        return NO_PLACE
    if coal > 0 and state.free.sum() >= p:
        return COALLOCATED
    return NO_PLACE


@numba.njit(cache=True, inline="always")
def split(state, j, off):
    """Start job ``j`` across sites: take its processors, write its split at ``off``
    (sites, processors) and return (the slowest site's speed, the number of sites)."""
    code = state.cfg[COAL]
    if code >= A1:  # a bandwidth-aware module (Jones 2005)
        used = state.ctr[PLACED_SPLIT]  # propose() just wrote the split at off
        state.ctr[PLACED_SPLIT] = 0
        if used == 0:
            used = _module_split(state, state.procs[j], off)
        rate = np.inf
        for k in range(off, off + used):
            state.free[state.split_site[k]] -= state.split_procs[k]
            rate = min(rate, state.speed[state.split_site[k]])
        return rate, used
    return coallocate(
        code, state.free, state.speed, state.procs[j], state.split_site, state.split_procs, off
    )


@numba.njit(cache=True)
def check_links(state):
    """Debug invariant after a co-allocated start: A1 never pushes a link past the
    saturation threshold."""
    if state.cfg[DEBUG] and state.cfg[COAL] == A1:
        if state.fctr[MAX_LEVEL] > state.net[LSLT] * (1 + 1e-9):
            raise AssertionError("A1 pushed a link beyond the saturation threshold")


@numba.njit(cache=True)
def coallocation_bound(state):
    """An upper bound on the width a bandwidth-aware co-allocation module can place now
    (:func:`.coallocation_modules.widest_split`)."""
    return widest_split(
        state.cfg[COAL], state.free, state.link_load, state.link_cap, state.net[LSLT]
    )
