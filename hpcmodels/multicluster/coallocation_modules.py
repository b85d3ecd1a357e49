"""Jones et al. 2005, Section 5: the bandwidth-aware co-allocation modules (numba kernels
the engine runs).

A meta-scheduler tries, for each waiting job in queue order, local allocation (LA: the
job's own cluster), then migration (MIG: the cluster with the fewest free nodes that
fits the whole job, i.e. best fit), then one co-allocation module. The modules here
decide the split of a job of ``p`` nodes over clusters, reading the free nodes, each
link's load (the sum of the required bandwidths, Eq. 1, of the co-allocated jobs running
over it) and capacity. They write sites and node counts into ``sites[off:]`` /
``widths[off:]`` and return the number of sites used, 0 when the module declines; they
change nothing else.

* ``first_fit`` (Section 4.2) is the engine's ``larger_first`` co-allocation: clusters
  by most free nodes first, each giving all its free nodes until the job is covered.
* Class B modules first discount every cluster whose link's saturation level
  (load / capacity) has reached the link saturation level threshold LSLT (our reading of
  "saturated beyond a configurable threshold": a link at or above LSLT is discounted;
  below it, one more job may push it past). Then B1 fills largest free first, B2 least
  saturated link first (ties by index), B3 like B1 but only when the largest free
  eligible cluster takes a "large chunk" of at least ``ceil(chunk x p)`` nodes (it gives
  all its free nodes, "starting with the largest partition possible", as B1), and B4
  deals the nodes one at a time round-robin over the eligible clusters in index order.
* A1 (class A) knows the job's bandwidth: on each link the nodes it may place without
  pushing the link's load beyond LSLT x capacity are ``S_i = ([0, n1] U [n2, p]) n
  [0, free_i]`` (Eqs. 9-10, ``n1 <= n2`` the roots of Eq. 1 set equal to the available
  bandwidth; 0 nodes, which add no load, are always allowed), and it takes the first
  solution of ``X_i in S_i, sum X_i = p`` (Eq. 11) in the order of the paper's nested
  loops (cluster 1 outermost, each from 0 up: the lexicographically smallest vector).
  Instead of the paper's O(p^m) loops it finds that same solution with a suffix
  reachability table over the clusters: O(m p) per decision. (The paper's loops, which
  the tests and the timings compare with it: :func:`hpcmodels.bandwidth.modules.a1_brute_force`.)

The link demand of Eq. 1 comes from :mod:`.linkshare`; :mod:`hpcmodels.bandwidth.modules`
re-exports these names.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .linkshare import demand_kernel

__all__ = ["MODULES", "A1", "B1", "B2", "B3", "B4", "module_split", "a1_ranges", "widest_split"]

MODULES = ("a1", "b1", "b2", "b3", "b4")
A1, B1, B2, B3, B4 = range(4, 9)  # co-allocation codes of the engine (after Huang's three)


@numba.njit(cache=True)
def a1_ranges(p, free_i, avail, bsbw):
    """Eq. 10 for one link: the two node intervals ``(lo1, hi1, lo2, hi2)`` a job of
    ``p`` nodes may place on a cluster with ``free_i`` free nodes and ``avail`` bandwidth
    left below the threshold (an empty second interval has ``lo2 > hi2``). Eq. 9's roots
    ``n = p/2 (1 -+ sqrt(1 - avail / BSBW))`` (with Eq. 8's PPBW) are rounded inwards and
    then checked against Eq. 1 exactly, so that floating-point rounding never admits a
    count whose demand exceeds ``avail``."""
    top = min(p, free_i)
    if avail >= bsbw or bsbw <= 0.0:  # Eq. 1 peaks at BSBW (n = p / 2): any count fits
        return 0, top, 1, 0
    root = math.sqrt(1.0 - max(avail, 0.0) / bsbw)
    n1 = int(math.floor(0.5 * p * (1.0 - root)))
    n2 = int(math.ceil(0.5 * p * (1.0 + root)))
    limit = avail * (1.0 + 1e-12) + 1e-12
    while n1 > 0 and demand_kernel(n1, p, bsbw) > limit:
        n1 -= 1
    while n1 + 1 < n2 and demand_kernel(n1 + 1, p, bsbw) <= limit:
        n1 += 1
    while n2 < p and demand_kernel(n2, p, bsbw) > limit:
        n2 += 1
    while n2 - 1 > n1 and demand_kernel(n2 - 1, p, bsbw) <= limit:
        n2 -= 1
    return 0, min(max(n1, 0), top), n2, top


@numba.njit(cache=True)
def _a1(free, load, cap, p, bsbw, lslt, sites, widths, off):
    m = free.size
    most = 0  # the most nodes the clusters can take together: below p, no solution
    for i in range(m):  # checked before allocating anything: most declines end here
        _, hi1, lo2, hi2 = a1_ranges(p, free[i], lslt * cap[i] - load[i], bsbw)
        most += hi2 if lo2 <= hi2 else hi1
    if most < p:
        return 0
    ranges = np.empty((m, 4), np.int64)
    for i in range(m):
        lo1, hi1, lo2, hi2 = a1_ranges(p, free[i], lslt * cap[i] - load[i], bsbw)
        ranges[i, 0], ranges[i, 1], ranges[i, 2], ranges[i, 3] = lo1, hi1, lo2, hi2
    # reach[i, s]: clusters i..m-1 can take exactly s nodes
    reach = np.zeros((m + 1, p + 1), np.bool_)
    reach[m, 0] = True
    prefix = np.zeros(p + 2, np.int64)
    for i in range(m - 1, -1, -1):
        for s in range(p + 1):
            prefix[s + 1] = prefix[s] + (1 if reach[i + 1, s] else 0)
        for s in range(p + 1):
            for k in range(2):
                a, b = ranges[i, 2 * k], min(ranges[i, 2 * k + 1], s)
                if a <= b and prefix[s - a + 1] - prefix[s - b] > 0:
                    reach[i, s] = True
                    break
    if not reach[0, p]:
        return 0
    rest, used = p, 0
    for i in range(m):  # the smallest count of each cluster in turn that still completes
        count = 0
        for k in range(2):
            a, b = ranges[i, 2 * k], min(ranges[i, 2 * k + 1], rest)
            for x in range(a, b + 1):
                if reach[i + 1, rest - x]:
                    count = x
                    break
            else:
                continue
            break
        if count > 0:
            sites[off + used] = i
            widths[off + used] = count
            used += 1
        rest -= count
    return used


@numba.njit(cache=True)
def _eligible(load, cap, lslt, c):
    """Class B: cluster ``c``'s link is below the threshold (not discounted)."""
    return load[c] < lslt * cap[c]


@numba.njit(cache=True)
def _next_in_order(code, free, load, cap, lslt, after_key, after, with_free):
    """The eligible cluster (``with_free``: with a free node) that follows ``after``
    (key ``after_key``; -1 and -inf: the first) in module ``code``'s order: by key, least
    saturated link (B2) or most free nodes (B1, B3), ties by index. Returns (cluster,
    key), cluster -1 when none is left. O(m), no allocation: a split takes O(m) per site
    it uses instead of sorting every cluster."""
    best, best_key = -1, np.inf
    for c in range(free.size):
        if not _eligible(load, cap, lslt, c) or (with_free and free[c] == 0):
            continue
        key = load[c] / cap[c] if code == B2 else -float(free[c])
        if key < after_key or (key == after_key and c <= after):
            continue  # at or before ``after`` in the order
        if best < 0 or key < best_key:  # a tie keeps the smaller index, seen first
            best, best_key = c, key
    return best, best_key


@numba.njit(cache=True)
def _take_in_order(code, free, load, cap, lslt, p, sites, widths, off):
    """All free nodes of each eligible cluster in module ``code``'s order until ``p``
    are covered (the caller checked that the eligible clusters have ``p``)."""
    rest, used = p, 0
    c, key = -1, -np.inf
    while rest > 0:
        c, key = _next_in_order(code, free, load, cap, lslt, key, c, True)
        take = min(free[c], rest)
        sites[off + used] = c
        widths[off + used] = take
        used += 1
        rest -= take
    return used


@numba.njit(cache=True)
def module_split(code, free, load, cap, p, bsbw, lslt, chunk, sites, widths, off):
    """Split of a job of ``p`` nodes by co-allocation module ``code`` (module
    docstring); returns the number of sites written, 0 when the module declines."""
    m = free.size
    if code == A1:
        return _a1(free, load, cap, p, bsbw, lslt, sites, widths, off)
    total = 0
    for c in range(m):
        if _eligible(load, cap, lslt, c):
            total += free[c]
    if total < p:
        return 0
    if code == B3:
        first, _ = _next_in_order(code, free, load, cap, lslt, -np.inf, -1, False)
        if first < 0 or free[first] < math.ceil(chunk * p - 1e-9):
            return 0
    if code != B4:
        return _take_in_order(code, free, load, cap, lslt, p, sites, widths, off)
    counts = np.zeros(m, np.int64)
    rest = p
    while rest > 0:  # round robin, one node at a time
        for c in range(m):
            if rest > 0 and _eligible(load, cap, lslt, c) and counts[c] < free[c]:
                counts[c] += 1
                rest -= 1
    return write_counts(counts, sites, widths, off)


@numba.njit(cache=True)
def write_counts(counts, sites, widths, off):
    """Write the clusters with a positive node count and their counts; return how many."""
    used = 0
    for c in range(counts.size):
        if counts[c] > 0:
            sites[off + used] = c
            widths[off + used] = counts[c]
            used += 1
    return used


@numba.njit(cache=True)
def widest_split(code, free, load, cap, lslt):
    """An upper bound on the width module ``code`` can co-allocate now: the free nodes
    of the clusters whose links are below LSLT for the B modules, all free nodes for A1
    (whose feasible counts depend on the width)."""
    total = 0
    for c in range(free.size):
        if code == A1 or load[c] < lslt * cap[c]:
            total += free[c]
    return total
