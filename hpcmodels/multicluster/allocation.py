"""Placement policies (numba kernels): single-site allocation and cross-site co-allocation.

Single site (Huang & Chang 2006, Section 3; Shih 2013): first, best, worst, median and
random fit, and fastest first; median fit in two readings of "the site with the median
number of available processors" when an even number of sites fit: ``median_fit`` takes
the lower median, ``median_fit_upper`` the upper one. Co-allocation site selection
(Huang & Chang 2006, Section 3): fixed order, larger first, smaller first. Exact rules:
package docstring. The look-ahead allocations ``ai2`` and ``tla`` (Shih 2013) are in
:mod:`.ai2` and :mod:`.lookahead`; Jones 2005's local allocation then migration
(``local_first``), local allocation only (``local_only``) and bandwidth-aware
co-allocation modules (``a1``, ``b1`` ... ``b4``) are in :mod:`.coallocation_modules`;
:mod:`.placement` dispatches between them and these.
"""

from __future__ import annotations

import numba
import numpy as np

from .coallocation_modules import MODULES

__all__ = ["ALLOCATIONS", "COALLOCATIONS", "pick", "coallocate"]

ALLOCATIONS = (
    "first_fit",
    "best_fit",
    "worst_fit",
    "median_fit",
    "random_fit",
    "fastest_first",
    "ai2",
    "tla",
    "local_first",
    "local_only",
    "median_fit_upper",
)
COALLOCATIONS = (None, "fixed_order", "larger_first", "smaller_first", *MODULES)
FIRST_FIT, BEST_FIT, WORST_FIT, MEDIAN_FIT, RANDOM_FIT, FASTEST_FIRST, AI2, TLA = range(8)
LOCAL_FIRST, LOCAL_ONLY, MEDIAN_FIT_UPPER = 8, 9, 10
# the codes are the positions of the names in ALLOCATIONS (the engine passes the index)
assert [ALLOCATIONS[c] for c in (MEDIAN_FIT, RANDOM_FIT, LOCAL_ONLY, MEDIAN_FIT_UPPER)] == [
    "median_fit",
    "random_fit",
    "local_only",
    "median_fit_upper",
]
FIXED_ORDER, LARGER_FIRST, SMALLER_FIRST = 1, 2, 3
# the codes are the positions of the names in COALLOCATIONS (the engine passes the index)
assert [COALLOCATIONS[c] for c in (FIXED_ORDER, LARGER_FIRST, SMALLER_FIRST)] == [
    "fixed_order",
    "larger_first",
    "smaller_first",
]


@numba.njit(cache=True)
def pick(policy, free, speed, p, allowed, u):
    """Cluster for a job of ``p`` processors among the allowed clusters with enough free
    processors, by ``policy``; -1 when none fits. ``u`` in [0, 1) serves random fit.
    Median fit sorts the ``k`` candidates by (free processors, index) and takes element
    ``(k - 1) // 2`` (``median_fit``: the lower median when ``k`` is even) or ``k // 2``
    (``median_fit_upper``: the upper median); for odd ``k`` both are the median. Huang &
    Chang 2006 (Section 3) say "the site with the median number of available processors"
    without saying which of two middle sites. Nothing is allocated except for median fit
    (a sort of the candidates)."""
    if policy == MEDIAN_FIT or policy == MEDIAN_FIT_UPPER:
        return _median_fit(policy, free, speed, p, allowed)
    return pick_at(policy, free, 0, speed, p, allowed, u)


@numba.njit(cache=True)
def _median_fit(policy, free, speed, p, allowed):
    n = free.size
    k = 0
    for c in range(n):
        if allowed[c] and free[c] >= p:
            k += 1
    if k == 0:
        return -1
    cands = np.empty(k, np.int64)
    keys = np.empty(k)
    i = 0
    for c in range(n):
        if allowed[c] and free[c] >= p:
            cands[i] = c
            keys[i] = free[c] * (n + 1.0) + c  # (free, index) order
            i += 1
    middle = k // 2 if policy == MEDIAN_FIT_UPPER else (k - 1) // 2
    return cands[np.argsort(keys)[middle]]


@numba.njit(cache=True, inline="always")
def pick_at(policy, free, off, speed, p, allowed, u):
    """:func:`pick` for every policy but median fit, with the ``m = speed.size``
    clusters' free processors at ``free[off:off + m]`` (TLA's lock step keeps its
    branches' side by side in one array). TLA's simulation calls it at each step, so it
    allocates nothing, calls nothing and reads every array in its last loop: numba then
    counts no references in it, nor where it is inlined (an array that dies on one path
    only costs two atomic operations a call)."""
    n = speed.size
    best = -1
    target = -1
    if policy == RANDOM_FIT:
        k = 0
        for c in range(n):
            if free[off + c] >= p and allowed[c]:
                k += 1
        target = min(int(u * k), k - 1)  # the target-th candidate in index order
    for c in range(n):
        f = free[off + c]
        if f < p or not allowed[c]:
            continue
        if policy == RANDOM_FIT:
            if target == 0:
                best = c
            target -= 1
        elif best < 0:
            best = c  # first fit keeps it
        elif policy == BEST_FIT and f < free[off + best]:
            best = c
        elif policy == WORST_FIT and f > free[off + best]:
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
        else:  # FIXED_ORDER: the clusters' own order
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
