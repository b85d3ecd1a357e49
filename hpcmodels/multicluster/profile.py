"""Free-processor profiles over time for backfilling (numba kernels).

A profile of one cluster is a step function: ``frees[k]`` processors are free on
``[times[k], times[k+1])``, the last step lasting forever. It starts from the running
jobs' predicted ends, ``max(start + estimate / speed, now)``, and reservations are cut
into it (Mu'alem & Feitelson 2001, conservative backfilling).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["build_profile", "earliest_start", "reserve"]


@numba.njit(cache=True)
def build_profile(c, t, cap, speed, run, rlen, start, estimate, procs, clus, times, frees):
    """Fill ``times``/``frees`` for cluster ``c`` at time ``t``; return the step count."""
    ends = np.empty(rlen)
    widths = np.empty(rlen, np.int64)
    m = 0
    busy = 0
    for k in range(rlen):
        j = run[k]
        if clus[j] == c:
            ends[m] = max(start[j] + estimate[j] / speed, t)
            widths[m] = procs[j]
            if ends[m] > t:
                busy += procs[j]
            m += 1
    order = np.argsort(ends[:m], kind="mergesort")
    times[0] = t
    frees[0] = cap - busy
    size = 1
    for i in order:
        if ends[i] <= t:
            continue
        if ends[i] > times[size - 1]:
            times[size] = ends[i]
            frees[size] = frees[size - 1]
            size += 1
        frees[size - 1] += widths[i]
    return size


@numba.njit(cache=True)
def earliest_start(times, frees, size, p, d):
    """Earliest step start at which ``p`` processors stay free for ``d`` seconds."""
    for k in range(size):
        if frees[k] < p:
            continue
        s = times[k]
        ok = True
        m = k + 1
        while m < size and times[m] < s + d:
            if frees[m] < p:
                ok = False
                break
            m += 1
        if ok:
            return s
    return np.inf


@numba.njit(cache=True)
def _split(times, frees, size, x):
    """Make ``x`` a step boundary; return (index of the step starting at x, new size)."""
    k = size - 1
    while k > 0 and times[k] > x:
        k -= 1
    if times[k] == x:
        return k, size
    for m in range(size, k + 1, -1):
        times[m] = times[m - 1]
        frees[m] = frees[m - 1]
    times[k + 1] = x
    frees[k + 1] = frees[k]
    return k + 1, size + 1


@numba.njit(cache=True)
def reserve(times, frees, size, s, d, p):
    """Cut a reservation of ``p`` processors over ``[s, s + d)``; return the new size."""
    if d <= 0:
        return size
    first, size = _split(times, frees, size, s)
    last, size = _split(times, frees, size, s + d)
    for m in range(first, last):
        frees[m] -= p
    return size
