"""Binary min-heaps on arrays (numba kernels): the engine's running jobs and TLA's releases.

The package's sift-up and sift-down, in the two layouts it needs:

* the **job heap**, indexed: ``heap[:size]`` holds job indices, ``hpos[j]`` is job
  ``j``'s slot (-1 when absent) and ``key[j]`` its key (the engine: a running job's end
  time). Push, pop, removal and re-keying cost O(log size); the engine's running set uses
  it so that the next finish is found without scanning every running job
  (:func:`heap_push`, :func:`heap_pop`, :func:`heap_remove`, :func:`heap_update`).
* the **release heap** of TLA's look-ahead (Shih et al. 2013, Section 3.2, Fig. 3): the
  processors that come back to a cluster at a time, as ``time`` (float) and ``key``
  (int: TLA packs the cluster and the processors in it) ordered by ``time``. A heap
  holds the entries ``base .. base + size - 1`` of its arrays, slots counted from
  ``base``, so that one pair of arrays holds the heaps of several branches side by side
  (TLA's lock step, which scores every candidate cluster at once; a branch alone has
  ``base`` 0). An entry moves as a hole: the one being placed is written once, where it
  stops (:func:`release_push`, :func:`release_pop`, :func:`release_sift_down`,
  :func:`release_heapify`, :func:`release_heap`).

Neither heap orders equal keys in any documented way.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "heap_push",
    "heap_pop",
    "heap_update",
    "heap_remove",
    "release_push",
    "release_pop",
    "release_sift_down",
    "release_heapify",
    "release_heap",
]


# ------------------------------------------------------------------ the job heap
@numba.njit(cache=True)
def _swap(heap, hpos, a, b):
    ja, jb = heap[a], heap[b]
    heap[a], heap[b] = jb, ja
    hpos[jb], hpos[ja] = a, b


@numba.njit(cache=True)
def _up(heap, hpos, key, i):
    while i > 0 and key[heap[i]] < key[heap[(i - 1) // 2]]:
        _swap(heap, hpos, i, (i - 1) // 2)
        i = (i - 1) // 2


@numba.njit(cache=True)
def _down(heap, hpos, key, i, size):
    while 2 * i + 1 < size:
        small = 2 * i + 1
        if small + 1 < size and key[heap[small + 1]] < key[heap[small]]:
            small += 1
        if not key[heap[small]] < key[heap[i]]:
            return
        _swap(heap, hpos, i, small)
        i = small


@numba.njit(cache=True)
def heap_push(heap, hpos, key, size, j):
    """Add job ``j``; return the new size."""
    heap[size] = j
    hpos[j] = size
    _up(heap, hpos, key, size)
    return size + 1


@numba.njit(cache=True)
def heap_remove(heap, hpos, key, size, j):
    """Remove job ``j`` (wherever it is); return the new size."""
    i = hpos[j]
    last = size - 1
    if i != last:
        _swap(heap, hpos, i, last)
    hpos[j] = -1
    if i != last:
        _up(heap, hpos, key, i)
        _down(heap, hpos, key, i, last)
    return last


@numba.njit(cache=True)
def heap_pop(heap, hpos, key, size):
    """Remove the job with the smallest key; return (job, new size)."""
    j = heap[0]
    return j, heap_remove(heap, hpos, key, size, j)


@numba.njit(cache=True)
def heap_update(heap, hpos, key, size, j):
    """Restore the heap after ``key[j]`` changed (either way)."""
    i = hpos[j]
    _up(heap, hpos, key, i)
    _down(heap, hpos, key, hpos[j], size)


# ------------------------------------------------------------------ the release heap
# ``release_sift_down`` and ``release_pop`` are inlined where they are called (numba's
# ``inline="always"``): a kernel that takes arrays and calls another pays numba's
# reference counts on those arrays at each call, which would cost TLA's simulation step
# as much as the step itself; inlined leaf kernels, and calls to leaf kernels
# (``release_push``), cost none.
@numba.njit(cache=True, inline="always")
def release_sift_down(time, key, base, hole, size, src):
    """Fill the hole at slot ``hole`` of the release heap at ``base`` (``size`` entries;
    below the hole a heap) with the entry at slot ``src`` (the hole itself, or a slot
    past the end): smaller children move up until the entry's time is at most theirs."""
    t, k = time[base + src], key[base + src]
    i = hole
    while 2 * i + 1 < size:
        child = 2 * i + 1
        if child + 1 < size and time[base + child + 1] < time[base + child]:
            child += 1
        if time[base + child] >= t:
            break
        time[base + i], key[base + i] = time[base + child], key[base + child]
        i = child
    time[base + i], key[base + i] = t, k


@numba.njit(cache=True)
def release_push(time, key, base, size, t, k):
    """Add the release ``(t, k)`` to the heap at ``base`` of ``size`` entries (room for
    one more); return its slot. The heap then holds ``size + 1`` entries."""
    i = size
    while i > 0 and not time[base + (i - 1) // 2] <= t:  # an equal parent stays
        parent = base + (i - 1) // 2
        time[base + i], key[base + i] = time[parent], key[parent]
        i = (i - 1) // 2
    time[base + i], key[base + i] = t, k
    return i


@numba.njit(cache=True, inline="always")
def release_pop(time, key, base, size):
    """Remove the root (the earliest release, read at slot ``base`` before the call)
    from the heap at ``base`` of ``size`` >= 1 entries; return the new size. The last
    entry fills the root's hole."""
    size -= 1
    release_sift_down(time, key, base, 0, size, size)
    return size


@numba.njit(cache=True)
def release_heapify(time, key, base, size):
    """Order the ``size`` entries from ``base`` as a release heap (Floyd's bottom-up
    construction, O(size))."""
    for i in range(size // 2 - 1, -1, -1):
        release_sift_down(time, key, base, i, size, i)


@numba.njit(cache=True)
def release_heap(rel_time, rel_key, room):
    """The releases ``(rel_time, rel_key)`` as a new release heap ``(time, key)`` of
    ``room`` >= their number entries."""
    n = rel_time.size
    time, key = np.empty(room), np.empty(room, np.int64)
    time[:n], key[:n] = rel_time, rel_key
    release_heapify(time, key, 0, n)
    return time, key
