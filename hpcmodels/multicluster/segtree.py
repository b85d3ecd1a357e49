"""A min segment tree over a window of queue ranks (numba kernels): the engine's waiting queue.

``tree`` has ``2 * size`` entries (``size`` a power of two) and spans the ranks
``base .. base + size - 1``, where ``base = tree[0]`` (the entry a heap-ordered tree
leaves free): leaf ``size + r - base`` holds the value of the job of rank ``r`` (``inf``
when that job is not waiting), every inner node the minimum of its two children.
Setting a leaf and finding the first rank at or after ``lo`` whose value is at most
``x`` cost O(log size), so a scheduling session visits only the waiting jobs that can
start, never the whole queue.

Ranks are global (the queue order's, :func:`.selection.queue_ranks`): the window is
only where the tree keeps them. Every rank outside it must be ``inf`` (not waiting);
:func:`seg_window` moves the window, in O(size), when a rank outside it must be set
(:func:`.queue.enqueue`). A window of the waiting jobs rather than of every job of the
run is what makes each walk short: at 400,000 jobs per cluster a tree over every rank
is 21 levels deep, and each level cost the event loop 5-8 ns per event, measured by
padding the tree with empty levels (``docs/architecture.md``).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "WINDOW_MIN",
    "seg_new",
    "seg_base",
    "seg_window",
    "seg_set",
    "seg_first_le",
    "seg_first_le2",
]

ANY = 1e300
"""A bound every waiting job's value meets: ``seg_first_le(tree, lo, ANY)`` is the first
waiting job at or after rank ``lo``."""

WINDOW_MIN = 64
"""The narrowest window :func:`.queue.enqueue` keeps (6 levels): a refit, O(window),
then comes at most once per 32 submissions even when one job waits."""


@numba.njit(cache=True)
def seg_new(size, base=0):
    """An empty tree (every leaf ``inf``) of ``size`` leaves (a power of two) spanning
    the ranks ``base .. base + size - 1``."""
    tree = np.full(2 * size, np.inf)
    tree[0] = base
    return tree


@numba.njit(cache=True, inline="always")
def seg_base(tree):
    """The first rank of the tree's window."""
    return np.int64(tree[0])


@numba.njit(cache=True)
def seg_window(tree, base, size):
    """A new tree of ``size`` leaves spanning ``base .. base + size - 1`` with the
    leaves of ``tree``; every finite leaf of ``tree`` must lie in the new window.
    O(size + old size)."""
    old_size = tree.size // 2
    old_base = seg_base(tree)
    new = seg_new(size, base)
    lo = max(base, old_base)
    hi = min(base + size, old_base + old_size)
    for r in range(lo, hi):
        new[size + r - base] = tree[old_size + r - old_base]
    for i in range(size - 1, 0, -1):
        a, b = new[2 * i], new[2 * i + 1]
        new[i] = a if a < b else b
    return new


@numba.njit(cache=True)
def seg_set(tree, r, value):
    """Leaf of rank ``r`` := ``value`` (``r`` inside the window)."""
    size = tree.size // 2
    i = size + r - seg_base(tree)
    tree[i] = value
    i //= 2
    while i >= 1:
        a, b = tree[2 * i], tree[2 * i + 1]
        tree[i] = a if a < b else b
        i //= 2


@numba.njit(cache=True)
def seg_first_le(tree, lo, x):
    """Smallest rank ``r >= lo`` whose value is ``<= x``; -1 if none."""
    size = tree.size // 2
    base = seg_base(tree)
    lo = max(lo - base, 0)  # ranks before the window are not waiting
    if lo >= size or tree[1] > x:
        return -1
    if lo == 0:  # the whole tree: descend from the root
        i = 1
        while i < size:
            i = 2 * i if tree[2 * i] <= x else 2 * i + 1
        return i - size + base
    i = size + lo
    if tree[i] <= x:
        return lo + base
    # climb until a right sibling subtree holds a candidate
    while True:
        if i == 1:
            return -1
        if i % 2 == 0 and tree[i + 1] <= x:
            i += 1
            break
        i //= 2
    while i < size:  # descend to the leftmost candidate leaf
        i = 2 * i if tree[2 * i] <= x else 2 * i + 1
    return i - size + base


@numba.njit(cache=True)
def _ok2(a, b, i, x, y, z):
    """Can subtree ``i`` hold a leaf with a <= x, or with a <= y and b <= z?"""
    return a[i] <= x or (a[i] <= y and b[i] <= z)


@numba.njit(cache=True)
def seg_first_le2(a, b, lo, x, y, z):
    """Smallest rank ``r >= lo`` with ``a[r] <= x`` or (``a[r] <= y`` and ``b[r] <= z``),
    over two trees of the same window; -1 if none. The subtree test is a necessary
    condition (minima of ``a`` and ``b`` may come from different leaves), so the search
    may enter a subtree in vain; the leaf test is exact."""
    size = a.size // 2
    base = seg_base(a)
    r = lo
    while r < base + size:
        # first leaf >= r passing the necessary test on a alone
        r = seg_first_le(a, r, max(x, y))
        if r < 0:
            return -1
        leaf = size + r - base
        if a[leaf] <= x or (a[leaf] <= y and b[leaf] <= z):
            return r
        # climb to the highest ancestor whose subtree starts at r and cannot hold a match
        i = leaf
        while i > 1 and i % 2 == 0 and not _ok2(a, b, i // 2, x, y, z):
            i //= 2
        # skip past that subtree
        level_size = 1
        j = i
        while j < size:
            j *= 2
            level_size *= 2
        r = (j - size) + level_size + base
    return -1
