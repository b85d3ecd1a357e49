"""Placement policies (numba kernels): single-site allocation and cross-site co-allocation.

Single site (Huang & Chang 2006, Section 3; Shih 2013): first, best, worst, median and
random fit, and fastest first. Co-allocation site selection (Huang & Chang 2006,
Section 3): fixed order, larger first, smaller first. Exact rules: package docstring.

:func:`place` is the engine's one placement call. It receives the whole engine state
(free processors, running jobs with their predicted ends, the waiting queue, estimates),
so that a policy may look beyond the free processors; the policies here read only the
free processors and the speeds.
"""

from __future__ import annotations

import numba
import numpy as np

from .state import ALLOC, COAL, COALLOCATED, U_PTR

__all__ = ["ALLOCATIONS", "COALLOCATIONS", "NO_PLACE", "pick", "coallocate", "place"]

ALLOCATIONS = ("first_fit", "best_fit", "worst_fit", "median_fit", "random_fit", "fastest_first")
COALLOCATIONS = (None, "fixed_order", "larger_first", "smaller_first")
FIRST_FIT, BEST_FIT, WORST_FIT, MEDIAN_FIT, RANDOM_FIT, FASTEST_FIRST = range(6)
FIXED_ORDER, LARGER_FIRST, SMALLER_FIRST = 1, 2, 3
NO_PLACE = -2  # returned by place(): the job cannot start now


@numba.njit(cache=True)
def pick(policy, free, speed, p, allowed, u):
    """Cluster for a job of ``p`` processors among the allowed clusters with enough free
    processors, by ``policy``; -1 when none fits. ``u`` in [0, 1) serves random fit."""
    n = free.size
    cands = np.empty(n, np.int64)
    k = 0
    for c in range(n):
        if allowed[c] and free[c] >= p:
            cands[k] = c
            k += 1
    if k == 0:
        return -1
    best = cands[0]
    if policy == FIRST_FIT:
        return best
    if policy == RANDOM_FIT:
        return cands[min(int(u * k), k - 1)]
    if policy == MEDIAN_FIT:
        keys = np.empty(k)
        for i in range(k):
            keys[i] = free[cands[i]] * (n + 1.0) + cands[i]  # (free, index) order
        return cands[np.argsort(keys)[(k - 1) // 2]]
    for i in range(1, k):
        c = cands[i]
        if policy == BEST_FIT and free[c] < free[best]:
            best = c
        elif policy == WORST_FIT and free[c] > free[best]:
            best = c
        elif policy == FASTEST_FIRST and speed[c] > speed[best]:
            best = c
    return best


@numba.njit(cache=True)
def coallocate(heuristic, free, speed, p, sites, widths, off):
    """Take processors for ``p`` across sites in the heuristic's order: all free ones of
    each site but the last, which gives the rest; sites with none free are skipped.
    Writes the sites and their processor counts at ``sites[off:]`` / ``widths[off:]``,
    lowers ``free`` and returns (slowest speed among the sites used, sites used)."""
    n = free.size
    keys = np.empty(n)
    for c in range(n):
        if heuristic == LARGER_FIRST:
            keys[c] = -free[c] * (n + 1.0) + c
        elif heuristic == SMALLER_FIRST:
            keys[c] = free[c] * (n + 1.0) + c
        else:
            keys[c] = c
    remaining = p
    slowest = np.inf
    used = 0
    for c in np.argsort(keys):
        if remaining == 0:
            break
        if free[c] == 0:
            continue
        take = min(free[c], remaining)
        sites[off + used] = c
        widths[off + used] = take
        used += 1
        free[c] -= take
        remaining -= take
        slowest = min(slowest, speed[c])
    return slowest, used


@numba.njit(cache=True)
def place(state, j, t, allowed):
    """Where waiting job ``j`` starts at ``t``: a cluster index (single site, among the
    ``allowed`` clusters, by the run's allocation policy), ``COALLOCATED`` (-1: across
    sites by the co-allocation heuristic, when no single cluster fits and all free
    processors together suffice), or ``NO_PLACE``. Nothing is changed; the engine's
    ``start_job`` does the starting (and consumes random fit's uniform)."""
    policy = state.cfg[ALLOC]
    p = state.procs[j]
    u_ptr = state.ctr[U_PTR]
    u = state.uniforms[u_ptr] if u_ptr < state.uniforms.size else 0.0
    c = pick(policy, state.free, state.speed, p, allowed, u)
    if c >= 0:
        return c
    if state.cfg[COAL] > 0 and state.free.sum() >= p:
        return COALLOCATED
    return NO_PLACE
