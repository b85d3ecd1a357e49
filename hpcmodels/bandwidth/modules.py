"""Jones et al. 2005, Section 5: the bandwidth-aware co-allocation modules A1 and B1-B4.

The modules the engine runs (their rules, ``module_split``, ``a1_ranges``,
``widest_split``, the codes ``A1`` ... ``B4`` and ``MODULES``) live in the engine's
layer, :mod:`hpcmodels.multicluster.coallocation_modules`, and are re-exported here.
This module adds the paper's own A1 solver, :func:`a1_brute_force` (Section 6.4's
nested loops, O(p^m) per decision: the reference that :func:`module_split`'s A1 is
tested against and timed beside), and :func:`decide_many`, which runs many decisions
in one call to time them.
"""

from __future__ import annotations

import numba
import numpy as np

from ..multicluster.coallocation_modules import (
    A1,
    B1,
    B2,
    B3,
    B4,
    MODULES,
    a1_ranges,
    module_split,
    widest_split,
    write_counts,
)
from ..multicluster.linkshare import demand_kernel

__all__ = [
    "MODULES",
    "A1",
    "B1",
    "B2",
    "B3",
    "B4",
    "module_split",
    "a1_ranges",
    "widest_split",
    "a1_brute_force",
    "decide_many",
]


@numba.njit(cache=True)
def a1_brute_force(free, load, cap, p, bsbw, lslt, sites, widths, off):
    """The paper's A1 solver (Section 6.4): m nested loops, each from 0 to p, returning
    the first vector that meets Eq. 11 (partial sums above p are cut, the
    "branch-and-bound" of Section 5). O(p^m) per decision; the same answer as
    :func:`module_split` (tested), kept to time the paper's algorithm beside ours."""
    m = free.size
    x = np.zeros(m, np.int64)
    while True:
        total = 0
        ok = True
        for i in range(m):
            total += x[i]
            if x[i] > free[i] or (
                x[i] > 0
                and load[i] + demand_kernel(x[i], p, bsbw) > lslt * cap[i] * (1.0 + 1e-12) + 1e-12
            ):
                ok = False
        if ok and total == p:
            return write_counts(x, sites, widths, off)
        i = m - 1  # odometer: the last cluster's loop is innermost
        while i >= 0:
            x[i] += 1
            partial = 0
            for k in range(i + 1):
                partial += x[k]
            if x[i] <= p and partial <= p:
                break
            x[i] = 0
            i -= 1
        if i < 0:
            return 0


@numba.njit(cache=True)
def decide_many(code, frees, loads, cap, ps, bsbw, lslt, chunk, brute_force):
    """Run one co-allocation decision per row of ``frees`` / ``loads`` / ``ps`` (to time
    them); returns how many placed a job. ``brute_force`` times the paper's A1 loops."""
    m = cap.size
    sites, widths = np.empty(m, np.int64), np.empty(m, np.int64)
    placed = 0
    for k in range(ps.size):
        if brute_force:
            used = a1_brute_force(frees[k], loads[k], cap, ps[k], bsbw, lslt, sites, widths, 0)
        else:
            used = module_split(
                code, frees[k], loads[k], cap, ps[k], bsbw, lslt, chunk, sites, widths, 0
            )
        placed += used > 0
    return placed
