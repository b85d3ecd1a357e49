"""Free-processor profiles over time for backfilling (numba kernels).

A profile of one cluster is a step function: ``free`` processors on ``[time_k,
time_k+1)``, the last step lasting forever (Mu'alem & Feitelson 2001). It is made by
the running jobs' predicted ends (:func:`.rates.predicted_end`, never before now) and,
for conservative backfilling, the waiting jobs' reservations.

* EASY builds a throw-away profile of the running jobs at each session
  (:func:`running_profiles`, arrays, O(r log r)).
* Conservative keeps one profile per cluster for the whole run, as a linked list in a
  node pool inside the engine state (``p_time``, ``p_free``, ``p_next``, ``p_head``):
  reservations are cut in and taken out where they change, steps that fall behind
  the clock are dropped (:func:`list_advance`), equal neighbours are merged, and the
  list is rebuilt from the running jobs only when a predicted end moved
  (:func:`list_rebuild`). Searching for the earliest start skips, after a failing step,
  every start that would contain it, so it costs O(steps) rather than O(steps x window).
* When many reservations are recomputed (after early finishes), conservative rebuilds
  the profiles as arrays (one row per cluster): :func:`earliest_from` searches a row
  from a given step up to a limit and returns the steps it found, :func:`cut_steps`
  reserves there without searching again, and a lower-bound table
  (:func:`bound_table`, :func:`bound_query`, :func:`bound_record`) lets a search start
  where an earlier search of the same pass proves nothing can fit before. The search
  reads 64 steps at a time as a bit mask, and a new step boundary moves the rest of the
  row by ``memmove`` (:mod:`.vector`; issue 55).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .rates import predicted_end, tolerance
from .state import P_FREE, P_USED, RES_STEPS, RLEN
from .vector import WIDTH, at_least_mask, move_items, trailing_zeros

__all__ = [
    "earliest_start",
    "earliest_from",
    "reserve",
    "cut_steps",
    "bound_table",
    "bound_query",
    "bound_record",
    "running_profiles",
    "init_pool",
    "list_rebuild",
    "list_from_arrays",
    "list_advance",
    "list_add",
    "list_add_at",
    "list_earliest",
]


# ------------------------------------------------------------------ array profiles (EASY)
@numba.njit(cache=True)
def earliest_start(times, frees, size, p, d):
    """Earliest step start at which ``p`` processors stay free for ``d`` seconds (a
    zero ``d`` needs them at that instant only); inf if never."""
    k = 0
    while k < size:
        if frees[k] < p:
            k += 1
            continue
        s = times[k]
        m = k + 1
        while m < size and times[m] < s + d:
            if frees[m] < p:
                break
            m += 1
        else:
            return s
        k = m  # every start up to the failing step contains it: skip them
    return np.inf


@numba.njit(cache=True, inline="always")
def _above(i):
    """The bits above bit ``i`` (0 <= i <= 63) of an int64."""
    return 0 if i >= WIDTH - 1 else (-1) << (i + 1)


@numba.njit(cache=True)
def earliest_from(times, frees, c, size, p, d, k, limit):
    """:func:`earliest_start` on row ``c`` of array profiles, searching from step ``k`` on
    (no earlier step start may fit) and giving up at the first candidate start after
    ``limit``.

    Returns (time, its step, the first step at or after ``time + d`` (``size`` if none),
    exact): the earliest start when ``exact``; otherwise a candidate start after
    ``limit``, at most the earliest start (every candidate before it failed).

    The same candidates as a step-by-step walk, in the same order, with the same sums
    (``time + d``): a start is tried at each step with at least ``p`` free processors
    that follows one with fewer (or is step ``k``), and fails at the first step with
    fewer before ``time + d``. The row is read 64 steps at a time as a bit mask of the
    steps with at least ``p`` free (:func:`.vector.at_least_mask`; C-contiguous rows),
    so that a failed start and the steps skipped after it cost a few bit operations, not
    one unpredictable branch per step."""
    base = c * frees.shape[1]
    while k < size:
        n = size - k
        if n >= WIDTH:
            fits, valid, n = at_least_mask(frees, base + k, p), -1, WIDTH
        else:
            fits, valid = 0, (1 << n) - 1
            for i in range(n):
                if frees[c, k + i] >= p:
                    fits |= 1 << i
        while fits != 0:  # candidate starts in steps k .. k + n - 1
            i = trailing_zeros(fits)
            s = times[c, k + i]
            if s > limit:
                return s, k + i, k + i, False
            e = s + d
            blocked = ~fits & _above(i) & valid
            if blocked != 0:  # the first step with fewer than p free after the start
                j = trailing_zeros(blocked)
                if times[c, k + j] < e:
                    fits &= _above(j)  # starts up to that step contain it
                    continue
                m = k + i + 1
                while times[c, m] < e:
                    m += 1
                return s, k + i, m, True
            m = k + i + 1  # every later step of the block has p free
            while m < k + n and times[c, m] < e:
                m += 1
            if m < k + n:
                return s, k + i, m, True
            while m < size and times[c, m] < e:
                if frees[c, m] < p:
                    break
                m += 1
            else:
                return s, k + i, m, True
            k = m  # failed at step m, after this block
            break
        else:
            k += n
    return np.inf, size, size, True


@numba.njit(cache=True)
def cut_steps(times, frees, c, size, k, m, e, p):
    """:func:`reserve` on row ``c`` from the steps :func:`earliest_from` found: ``p``
    processors out of steps ``k`` (start ``times[c, k]``) up to the end ``e``, ``m``
    being the first step after ``k`` at or after ``e``; ``e`` becomes a step boundary
    (the steps after it move up one place, by ``memmove``: :func:`.vector.move_items`).
    Returns the new size."""
    if e <= times[c, k]:
        return size
    if m == size or times[c, m] != e:
        base = c * times.shape[1]
        move_items(times, base + m + 1, base + m, size - m)
        move_items(frees, base + m + 1, base + m, size - m)
        times[c, m] = e
        frees[c, m] = frees[c, m - 1]
        size += 1
    for i in range(k, m):
        frees[c, i] -= p
    return size


# Lower bounds on earliest starts within one pass of reservations in queue order: the
# profile only loses processors during a pass, so a job needing p processors for d
# seconds cannot start before the earliest start found earlier in the pass for any
# (p', d') with p' <= p and d' <= d on the same cluster. A max Fenwick tree over
# (width class, duration class) per cluster keeps the largest such start; the classes
# are non-decreasing in p and d, so a strictly lower class means a strictly smaller value.
LB_P = 96  # width classes: 1..64 exact, then four per octave (clamped)
LB_D = 64  # duration classes: 0 s, then four per octave from 1/2 s (clamped)


@numba.njit(cache=True)
def _quarter(m):
    """Quarter-octave index 0..3 of a mantissa m in [0.5, 1)."""
    if m >= 0.8408964152537145:  # 2**-0.25
        return 3
    if m >= 0.7071067811865476:  # 2**-0.5
        return 2
    if m >= 0.5946035575013605:  # 2**-0.75
        return 1
    return 0


@numba.njit(cache=True)
def _width_class(p):
    if p <= 64:
        return p
    m, e = math.frexp(float(p))
    return min(65 + 4 * (e - 7) + _quarter(m), LB_P)


@numba.njit(cache=True)
def _duration_class(d):
    if d <= 0.0:
        return 1
    m, e = math.frexp(d)
    return max(2, min(2 + 4 * e + _quarter(m), LB_D))


@numba.njit(cache=True)
def bound_table(m):
    """An empty lower-bound table for ``m`` clusters."""
    return np.full((m, LB_P + 1, LB_D + 1), -np.inf)


@numba.njit(cache=True)
def bound_query(table, c, p, d):
    """Largest start recorded on cluster ``c`` for a (p', d') known to be <= (p, d)
    (-inf if none)."""
    i = _width_class(p)
    if p > 64:
        i -= 1  # a class above 16 holds several widths, some of them > p
    jd = _duration_class(d)
    if d > 0.0:
        jd -= 1
    best = -np.inf
    while i > 0:
        j = jd
        while j > 0:
            if table[c, i, j] > best:
                best = table[c, i, j]
            j -= j & (-j)
        i -= i & (-i)
    return best


@numba.njit(cache=True)
def bound_record(table, c, p, d, s):
    """Record that ``p`` processors for ``d`` seconds cannot start before ``s`` on
    cluster ``c`` (for the rest of the pass)."""
    i = _width_class(p)
    jd = _duration_class(d)
    while i <= LB_P:
        j = jd
        while j <= LB_D:
            if table[c, i, j] < s:
                table[c, i, j] = s
            j += j & (-j)
        i += i & (-i)


@numba.njit(cache=True)
def _split(times, frees, size, x):
    """Make ``x`` (not before ``times[0]``) a step boundary; return (index of the step
    starting at x, new size)."""
    k = max(np.searchsorted(times[:size], x, "right") - 1, 0)
    if times[k] == x:
        return k, size
    move_items(times, k + 2, k + 1, size - k - 1)
    move_items(frees, k + 2, k + 1, size - k - 1)
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


@numba.njit(cache=True)
def running_profiles(state, t, room=0):
    """Per-cluster profiles of the running single-site jobs at ``t``: (times, frees,
    sizes) with row ``c`` for cluster ``c`` and room for ``room`` more steps per row."""
    cap = state.cap
    m = cap.size
    rlen = state.ctr[RLEN]
    ends = np.empty(rlen)
    cl = np.empty(rlen, np.int64)
    width = np.empty(rlen, np.int64)
    count = np.zeros(m + 1, np.int64)
    for k in range(rlen):
        j = state.heap[k]
        cl[k] = state.clus[j]
        ends[k] = predicted_end(state, j, t)
        width[k] = state.procs[j]
        if cl[k] >= 0:
            count[cl[k] + 1] += 1
    by_end = np.argsort(ends, kind="mergesort")
    widest = 2
    for c in range(m):
        widest = max(widest, count[c + 1] + 1)
        count[c + 1] += count[c]
    bucket = np.empty(max(rlen, 1), np.int64)  # running jobs by cluster, each by end
    fill = count[:m].copy()
    for k in by_end:
        if cl[k] >= 0:
            bucket[fill[cl[k]]] = k
            fill[cl[k]] += 1
    times = np.empty((m, widest + room))
    frees = np.empty((m, widest + room), np.int64)
    sizes = np.ones(m, np.int64)
    for c in range(m):
        busy = 0
        for i in range(count[c], count[c + 1]):
            if ends[bucket[i]] > t:
                busy += width[bucket[i]]
        times[c, 0] = t
        frees[c, 0] = cap[c] - busy
        size = 1
        for i in range(count[c], count[c + 1]):
            k = bucket[i]
            if ends[k] <= t:
                continue
            if ends[k] > times[c, size - 1]:
                times[c, size] = ends[k]
                frees[c, size] = frees[c, size - 1]
                size += 1
            frees[c, size - 1] += width[k]
        sizes[c] = size
    return times, frees, sizes


# ------------------------------------------------------ linked-list profiles (conservative)
@numba.njit(cache=True)
def _node(state, time, free, nxt):
    k = state.ctr[P_FREE]
    if k >= 0:
        state.ctr[P_FREE] = state.p_next[k]
    else:
        k = state.ctr[P_USED]
        if k >= state.p_next.size:
            raise RuntimeError("profile node pool exhausted")
        state.ctr[P_USED] = k + 1
    state.p_time[k] = time
    state.p_free[k] = free
    state.p_next[k] = nxt
    return k


@numba.njit(cache=True)
def _release(state, k):
    state.p_next[k] = state.ctr[P_FREE]
    state.ctr[P_FREE] = k


@numba.njit(cache=True)
def init_pool(state):
    """Every pool node free again, in O(1): an empty free list and the bump pointer back
    at node 0, so that a rebuilt profile lies in consecutive nodes."""
    state.ctr[P_FREE] = -1
    state.ctr[P_USED] = 0


@numba.njit(cache=True)
def list_rebuild(state, t):
    """Every cluster's profile from the running single-site jobs' predicted ends at ``t``
    (reservations are left out: the caller re-reserves the waiting jobs)."""
    times, frees, sizes = running_profiles(state, t)
    list_from_arrays(state, times, frees, sizes)


@numba.njit(cache=True)
def list_from_arrays(state, times, frees, sizes):
    """Every cluster's linked-list profile := the array profile of row ``c``."""
    init_pool(state)  # every cluster is rebuilt: all nodes are free
    for c in range(state.cap.size):
        last = -1
        for i in range(sizes[c] - 1, -1, -1):
            last = _node(state, times[c, i], frees[c, i], last)
        state.p_head[c] = last


@numba.njit(cache=True)
def list_advance(state, c, t):
    """Move cluster ``c``'s profile to start at ``t``: steps starting by ``t`` (within the
    time tolerance) are dropped, the head step taking the latest one's free count."""
    head = state.p_head[c]
    limit = t + tolerance(t)
    nxt = state.p_next[head]
    while nxt >= 0 and state.p_time[nxt] <= limit:
        state.p_free[head] = state.p_free[nxt]
        state.p_next[head] = state.p_next[nxt]
        _release(state, nxt)
        nxt = state.p_next[head]
    state.p_time[head] = t


@numba.njit(cache=True)
def _split_at(state, prev, x):
    """Make ``x`` a step boundary after node ``prev`` (whose step contains ``x``); return
    the node starting at ``x``."""
    if state.p_time[prev] == x:
        return prev
    k = _node(state, x, state.p_free[prev], state.p_next[prev])
    state.p_next[prev] = k
    return k


@numba.njit(cache=True)
def _find(state, c, x):
    """(node whose step contains ``x``, its predecessor or -1)."""
    prev = -1
    k = state.p_head[c]
    while state.p_next[k] >= 0 and state.p_time[state.p_next[k]] <= x:
        prev = k
        k = state.p_next[k]
    return k, prev


@numba.njit(cache=True)
def _merge_after(state, k):
    """Drop the node after ``k`` if it has the same free count."""
    nxt = state.p_next[k]
    if nxt >= 0 and state.p_free[nxt] == state.p_free[k]:
        state.p_next[k] = state.p_next[nxt]
        _release(state, nxt)


@numba.njit(cache=True)
def list_add(state, c, s, e, delta):
    """Add ``delta`` processors to cluster ``c``'s profile over ``[s, e)``, clipped to
    start at the head's time (nothing when the interval is empty)."""
    s = max(s, state.p_time[state.p_head[c]])
    if e > s:
        k, prev = _find(state, c, s)
        list_add_at(state, k, prev, s, e, delta, True)


@numba.njit(cache=True)
def list_add_at(state, k, prev, s, e, delta, merge=True):
    """:func:`list_add` from node ``k``, whose step contains ``s`` (``prev``: the node
    before it, or -1), so that no search from the head is needed. ``merge=False`` keeps
    every node (no node is released), so that node indices held by a caller stay
    valid."""
    first = _split_at(state, k, s)
    if first != k:
        prev = k
    m = first
    last = first
    while m >= 0 and state.p_time[m] < e:
        nxt = state.p_next[m]
        if nxt < 0 or state.p_time[nxt] > e:
            if e < np.inf:
                _split_at(state, m, e)
        state.p_free[m] += delta
        last = m
        m = state.p_next[m]
    if merge:
        _merge_after(state, last)
        if prev >= 0:
            _merge_after(state, prev)


@numba.njit(cache=True)
def list_earliest(state, k, prev, p, d):
    """Earliest step start, searching from node ``k`` (``prev``: the node before it or
    -1; ``k = p_head[c]`` searches all of cluster ``c``), at which ``p`` processors stay
    free for ``d`` seconds (a zero ``d``: at that instant). Returns (time, its node, the
    node before it, the first node with at least ``p`` free, the node before that);
    the time is inf and the nodes -1 if there is none. The nodes visited are counted in
    ``ctr[RES_STEPS]``."""
    first, first_prev = -1, -1
    steps = 0
    while k >= 0:
        steps += 1
        if state.p_free[k] < p:
            prev = k
            k = state.p_next[k]
            continue
        if first < 0:
            first, first_prev = k, prev
        s = state.p_time[k]
        before = prev
        m = state.p_next[k]
        ok = True
        while m >= 0 and state.p_time[m] < s + d:
            if state.p_free[m] < p:
                ok = False
                break
            prev = m
            m = state.p_next[m]
            steps += 1
        if ok:
            state.ctr[RES_STEPS] += steps
            return s, k, before, first, first_prev
        k = m
    state.ctr[RES_STEPS] += steps
    return np.inf, -1, -1, first, first_prev
