"""The waiting queue's min segment tree (:mod:`hpcmodels.multicluster.segtree`) against a
plain array of leaf values.

The engine keeps ``wtree`` (procs), ``etree`` (estimate) and ``rtree`` (reservation time)
over queue ranks, ``inf`` for a rank that is not waiting, and relies on: every inner node
is the minimum of its children after any ``seg_set``; ``seg_first_le(tree, lo, x)`` is
the first rank ``>= lo`` whose value is ``<= x`` (-1 if none: the queue walk stops);
``seg_first_le2(a, b, lo, x, y, z)`` is the first rank ``>= lo`` with ``a <= x`` or
(``a <= y`` and ``b <= z``) (EASY's backfill candidates). The trees span a window of
ranks (``tree[0]`` is its first rank) and :func:`seg_window` moves it: every query takes
and returns global ranks, whatever the window, as long as every rank outside it is not
waiting.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.multicluster.segtree import (
    seg_base,
    seg_first_le,
    seg_first_le2,
    seg_new,
    seg_set,
    seg_window,
)

ANY = 1e300  # selection.ANY: a bound every waiting job meets
INF = np.inf


def _tree(values, base=0):
    """A tree whose leaves are ``values`` (length a power of two) at ranks ``base ..``,
    built by seg_set."""
    tree = seg_new(len(values), base)
    for r, v in enumerate(values):
        seg_set(tree, base + r, v)
    return tree


def first_le(values, lo, x):
    """Brute force of seg_first_le."""
    for r in range(max(lo, 0), len(values)):
        if values[r] <= x:
            return r
    return -1


def first_le2(a, b, lo, x, y, z):
    """Brute force of seg_first_le2."""
    for r in range(max(lo, 0), len(a)):
        if a[r] <= x or (a[r] <= y and b[r] <= z):
            return r
    return -1


def _check_tree(tree, values):
    size = len(values)
    assert tree[size:].tolist() == list(values)
    for i in range(1, size):
        assert tree[i] == min(tree[2 * i], tree[2 * i + 1]), i


def test_hand_worked_queries():
    # leaves [3, inf, 1, 2]: tree[2] = min(3, inf) = 3, tree[3] = min(1, 2) = 1, root 1
    tree = _tree([3.0, INF, 1.0, 2.0])
    assert tree[1:4].tolist() == [1.0, 3.0, 1.0]
    # lo = 0, x = 2: the left subtree's min 3 > 2, so rank 2 (value 1) in the right one
    assert seg_first_le(tree, 0, 2.0) == 2
    # x = 3: rank 0 itself
    assert seg_first_le(tree, 0, 3.0) == 0
    # lo = 1, x = 3: rank 1 is inf; climb from leaf 5 (a right child) to node 2 (left
    # child), whose sibling node 3 has min 1 <= 3; its leftmost leaf <= 3 is rank 2
    assert seg_first_le(tree, 1, 3.0) == 2
    # lo = 3, x = 1: rank 3 is 2 > 1 and nothing follows
    assert seg_first_le(tree, 3, 1.0) == -1
    # x below every value, lo past the end
    assert seg_first_le(tree, 0, 0.5) == -1
    assert seg_first_le(tree, 4, ANY) == -1
    # rank 0 leaves the queue: the root's min is unchanged (1), node 2 becomes inf
    seg_set(tree, 0, INF)
    assert tree[1:4].tolist() == [1.0, INF, 1.0]
    assert seg_first_le(tree, 0, ANY) == 2


def test_hand_worked_two_trees():
    # a (procs) = [8, 4, 2, 6], b (estimate) = [1, 9, 9, 1]
    # x = 3 (fits anywhere), y = 6 (fits on the head's cluster), z = 5 (ends by shadow):
    #   rank 0: 8 > 6 no; rank 1: 4 <= 6 but 9 > 5 no; rank 2: 2 <= 3 yes -> 2
    a, b = _tree([8.0, 4.0, 2.0, 6.0]), _tree([1.0, 9.0, 9.0, 1.0])
    assert seg_first_le2(a, b, 0, 3.0, 6.0, 5.0) == 2
    # from rank 3: 6 > 3 but 6 <= 6 and 1 <= 5 -> 3
    assert seg_first_le2(a, b, 3, 3.0, 6.0, 5.0) == 3
    # x = 1: ranks 0-2 fail as above except rank 2 (2 > 1, 2 <= 6 but 9 > 5); rank 3 -> 3
    assert seg_first_le2(a, b, 0, 1.0, 6.0, 5.0) == 3
    # z = 0: only a <= x counts; x = 1 -> none
    assert seg_first_le2(a, b, 0, 1.0, 6.0, 0.0) == -1


def test_one_leaf():
    tree = _tree([5.0])
    assert tree.tolist() == [0.0, 5.0]  # tree[0]: the first rank of the window
    assert seg_first_le(tree, 0, 5.0) == 0
    assert seg_first_le(tree, 0, 4.0) == -1
    assert seg_first_le(tree, 1, ANY) == -1
    assert seg_first_le2(tree, _tree([1.0]), 0, 4.0, 5.0, 1.0) == 0
    assert seg_first_le2(tree, _tree([1.0]), 0, 4.0, 5.0, 0.5) == -1


VALUES = st.sampled_from([0.0, 1.0, 2.0, 3.0, 4.0, 7.0, 64.0, INF])
BOUNDS = st.sampled_from([-1.0, 0.0, 1.0, 2.5, 3.0, 4.0, 63.0, 64.0, ANY, INF])


@st.composite
def trees(draw, count=1):
    """(size, ``count`` lists of ``size`` leaf values), size a power of two up to 64."""
    size = 2 ** draw(st.integers(0, 6))
    return size, *(draw(st.lists(VALUES, min_size=size, max_size=size)) for _ in range(count))


@settings(max_examples=300, deadline=None)
@given(
    tv=trees(),
    sets=st.lists(st.tuples(st.integers(0, 63), VALUES), max_size=20),
    queries=st.lists(st.tuples(st.integers(0, 66), BOUNDS), min_size=1, max_size=20),
)
def test_first_le_against_an_array(tv, sets, queries):
    size, values = tv
    values = list(values)
    tree = _tree(values)
    _check_tree(tree, values)
    for r, v in sets:
        r %= size
        values[r] = v
        seg_set(tree, r, v)
        _check_tree(tree, values)
    for lo, x in queries:
        assert seg_first_le(tree, lo, x) == first_le(values, lo, x), (values, lo, x)
    # the engine's queue walk: r = first(r); ...; r += 1 visits every rank <= x in order
    for x in (1.0, 4.0, ANY):
        seen, r = [], seg_first_le(tree, 0, x)
        while r >= 0:
            seen.append(r)
            r = seg_first_le(tree, r + 1, x)
        assert seen == [r for r, v in enumerate(values) if v <= x]


@settings(max_examples=300, deadline=None)
@given(
    tv=trees(2),
    queries=st.lists(
        st.tuples(st.integers(0, 66), BOUNDS, BOUNDS, BOUNDS), min_size=1, max_size=20
    ),
)
def test_first_le2_against_arrays(tv, queries):
    size, a_values, b_values = tv
    a, b = _tree(a_values), _tree(b_values)
    for lo, x, y, z in queries:
        got = seg_first_le2(a, b, lo, x, y, z)
        assert got == first_le2(a_values, b_values, lo, x, y, z), (a_values, b_values, lo)


@settings(max_examples=300, deadline=None)
@given(
    tv=trees(2),
    base=st.integers(0, 100),
    queries=st.lists(
        st.tuples(st.integers(0, 170), BOUNDS, BOUNDS, BOUNDS), min_size=1, max_size=20
    ),
)
def test_a_window_answers_in_global_ranks(tv, base, queries):
    """Leaves at ranks ``base ..``: a query from rank ``lo`` answers as the same leaves
    at ranks ``0 ..`` queried from ``lo - base`` (from 0 when ``lo`` is before the
    window), shifted by ``base``: ranks outside the window never match."""
    size, a_values, b_values = tv
    a, b = _tree(a_values, base), _tree(b_values, base)
    assert seg_base(a) == base

    def shifted(r):
        return r + base if r >= 0 else -1

    for lo, x, y, z in queries:
        local = max(lo - base, 0)
        want = shifted(first_le(a_values, local, x))
        assert seg_first_le(a, lo, x) == want, (a_values, base, lo, x)
        want = shifted(first_le2(a_values, b_values, local, x, y, z))
        assert seg_first_le2(a, b, lo, x, y, z) == want, (a_values, b_values, base, lo)


@settings(max_examples=300, deadline=None)
@given(
    tv=trees(),
    base=st.integers(0, 40),
    shift=st.integers(-40, 40),
    grow=st.integers(-3, 3),
    queries=st.lists(st.tuples(st.integers(0, 200), BOUNDS), min_size=1, max_size=20),
)
def test_moving_the_window_keeps_every_leaf(tv, base, shift, grow, queries):
    """seg_window: a new window that holds every finite leaf answers as the old one, and
    its inner nodes are the minima of their children."""
    size, values = tv
    tree = _tree(values, base)
    finite = [base + r for r, v in enumerate(values) if v < INF]
    new_size = 2 ** max(0, int(np.log2(size)) + grow)
    new_base = max(0, base + shift)
    if finite and not (new_base <= finite[0] and finite[-1] < new_base + new_size):
        new_base = finite[0]
        while finite[-1] >= new_base + new_size:
            new_size *= 2
    moved = seg_window(tree, new_base, new_size)
    assert seg_base(moved) == new_base and moved.size == 2 * new_size
    whole = [INF] * (new_base + new_size + base + size)
    for r, v in enumerate(values):
        whole[base + r] = v
    window = whole[new_base : new_base + new_size]
    _check_tree(moved, window)
    for lo, x in queries:
        r = first_le(window, max(lo - new_base, 0), x)
        assert seg_first_le(moved, lo, x) == (r + new_base if r >= 0 else -1), (values, lo, x)
