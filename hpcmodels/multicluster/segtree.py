"""A min segment tree over queue ranks (numba kernels): the engine's waiting queue.

``tree`` has ``2 * size`` entries (``size`` a power of two); leaf ``size + r`` holds the
value of the job of rank ``r`` (``inf`` when that job is not waiting), every inner node
the minimum of its two children. Setting a leaf and finding the first rank at or after
``lo`` whose value is at most ``x`` cost O(log n), so a scheduling session visits only
the waiting jobs that can start, never the whole queue.
"""

from __future__ import annotations

import numba

__all__ = ["seg_set", "seg_first_le", "seg_first_le2"]

ANY = 1e300
"""A bound every waiting job's value meets: ``seg_first_le(tree, lo, ANY)`` is the first
waiting job at or after rank ``lo``."""


@numba.njit(cache=True)
def seg_set(tree, r, value):
    """Leaf of rank ``r`` := ``value``."""
    size = tree.size // 2
    i = size + r
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
    if lo >= size or tree[1] > x:
        return -1
    if lo == 0:  # the whole tree: descend from the root
        i = 1
        while i < size:
            i = 2 * i if tree[2 * i] <= x else 2 * i + 1
        return i - size
    i = size + lo
    if tree[i] <= x:
        return lo
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
    return i - size


@numba.njit(cache=True)
def _ok2(a, b, i, x, y, z):
    """Can subtree ``i`` hold a leaf with a <= x, or with a <= y and b <= z?"""
    return a[i] <= x or (a[i] <= y and b[i] <= z)


@numba.njit(cache=True)
def seg_first_le2(a, b, lo, x, y, z):
    """Smallest rank ``r >= lo`` with ``a[r] <= x`` or (``a[r] <= y`` and ``b[r] <= z``),
    over two trees of the same ranks; -1 if none. The subtree test is a necessary
    condition (minima of ``a`` and ``b`` may come from different leaves), so the search
    may enter a subtree in vain; the leaf test is exact."""
    size = a.size // 2
    r = lo
    while r < size:
        # first leaf >= r passing the necessary test on a alone
        r = seg_first_le(a, r, max(x, y))
        if r < 0:
            return -1
        leaf = size + r
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
        r = (j - size) + level_size
    return -1
