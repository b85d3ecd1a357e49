"""An indexed binary min-heap of job indices keyed by an external array (numba kernels).

``heap[:size]`` holds job indices, ``hpos[j]`` is job ``j``'s slot (-1 when absent) and
``key[j]`` its key (the engine: a running job's end time). Push, pop and re-keying cost
O(log size); the engine's running set uses it so that the next finish is found without
scanning every running job.
"""

from __future__ import annotations

import numba

__all__ = ["heap_push", "heap_pop", "heap_update", "heap_remove"]


@numba.njit(cache=True)
def _swap(heap, hpos, a, b):
    ja, jb = heap[a], heap[b]
    heap[a], heap[b] = jb, ja
    hpos[jb], hpos[ja] = a, b


@numba.njit(cache=True)
def _up(heap, hpos, key, i):
    while i > 0:
        parent = (i - 1) // 2
        if key[heap[i]] < key[heap[parent]]:
            _swap(heap, hpos, i, parent)
            i = parent
        else:
            break


@numba.njit(cache=True)
def _down(heap, hpos, key, i, size):
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        small = left
        right = left + 1
        if right < size and key[heap[right]] < key[heap[left]]:
            small = right
        if key[heap[small]] < key[heap[i]]:
            _swap(heap, hpos, i, small)
            i = small
        else:
            break


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
