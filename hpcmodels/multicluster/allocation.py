"""Placement policies (numba kernels): single-site allocation and cross-site co-allocation.

Single site (Huang & Chang 2006, Section 3; Shih 2013): first, best, worst, median and
random fit, and fastest first. Co-allocation site selection (Huang & Chang 2006,
Section 3): fixed order, larger first, smaller first. Exact rules: package docstring.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["ALLOCATIONS", "COALLOCATIONS", "pick", "coallocate"]

ALLOCATIONS = ("first_fit", "best_fit", "worst_fit", "median_fit", "random_fit", "fastest_first")
COALLOCATIONS = (None, "fixed_order", "larger_first", "smaller_first")
FIRST_FIT, BEST_FIT, WORST_FIT, MEDIAN_FIT, RANDOM_FIT, FASTEST_FIRST = range(6)
FIXED_ORDER, LARGER_FIRST, SMALLER_FIRST = 1, 2, 3


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
def coallocate(heuristic, free, speed, p, row):
    """Take processors for ``p`` across sites in the heuristic's order: all free ones of
    each site but the last, which gives the rest. Fills ``row`` (processors per site),
    lowers ``free`` and returns the slowest speed among the sites used."""
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
    for c in np.argsort(keys):
        if remaining == 0:
            break
        if free[c] == 0:
            continue
        take = min(free[c], remaining)
        row[c] = take
        free[c] -= take
        remaining -= take
        slowest = min(slowest, speed[c])
    return slowest
