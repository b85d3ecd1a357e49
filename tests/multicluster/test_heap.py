"""The heaps of :mod:`hpcmodels.multicluster.heap`: the running-jobs heap against a dict
of keys and :mod:`heapq`, TLA's release heap against :mod:`heapq`.

The engine keeps its running jobs in ``heap[:size]`` keyed by ``end`` and relies on:
``heap[0]`` holds a smallest key (the next finish, ``events.next_time``); ``heap_pop``
returns a job with the smallest key and, in the slot just past the new end, leaves the
popped job (``process_events`` parks popped jobs there); ``hpos`` is every present
job's slot and -1 for the others (``heap_update`` after a rate change, ``heap_remove``);
``heap[:size]`` is exactly the running set (``running_profiles`` reads it).

Ties: the heap documents no order among equal keys, and pops them in no particular order
(not first-in first-out, see :func:`test_ties_pop_in_heap_order_not_insertion_order`);
the engine pops every job of a time stamp before it releases any.

TLA's look-ahead (Shih et al. 2013, Section 3.2) keeps each simulated branch's pending
releases (a time, and a key: the cluster and processors packed) in a release heap at an
offset ``base`` of shared arrays (the lock-step scorer lays its branches' heaps side by
side; a branch alone has base 0). It relies on: slot ``base`` holds an earliest release; push, pop and heapify
keep the multiset of releases and touch nothing outside ``base .. base + size``; the
pops come out in time order. Ties again have no documented order, but the layout the
sift rules give is pinned by a hand-worked example
(:func:`test_release_heap_hand_worked_push_and_pop`).
"""

from __future__ import annotations

import heapq
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.multicluster.heap import (
    heap_pop,
    heap_push,
    heap_remove,
    heap_update,
    release_heap,
    release_heapify,
    release_pop,
    release_push,
)


def _empty(n):
    return np.empty(n, np.int64), np.full(n, -1, np.int64), np.zeros(n)


def _check(heap, hpos, key, size, present):
    """Heap property, slot index, and the set of jobs against the model ``present``."""
    assert sorted(heap[:size].tolist()) == sorted(present)
    for i in range(1, size):
        assert key[heap[(i - 1) // 2]] <= key[heap[i]], (i, heap[:size], key)
    for i in range(size):
        assert hpos[heap[i]] == i
    for j in range(hpos.size):
        if j not in present:
            assert hpos[j] == -1
    if size:
        assert key[heap[0]] == min(key[j] for j in present)


def test_hand_worked_push_and_pop():
    # keys 5, 3, 8, 1 for jobs 0..3, pushed in that order:
    #   push 0: [0]; push 1 (3 < 5): sifts up -> [1, 0]; push 2 (8 > 3): [1, 0, 2];
    #   push 3 (1): slot 3, parent slot 1 (job 0, key 5) -> swap -> [1, 3, 2, 0],
    #   parent slot 0 (job 1, key 3) -> swap -> [3, 1, 2, 0].
    heap, hpos, key = _empty(4)
    key[:] = [5.0, 3.0, 8.0, 1.0]
    size = 0
    for j in range(4):
        size = heap_push(heap, hpos, key, size, j)
    assert size == 4
    assert heap.tolist() == [3, 1, 2, 0]
    assert hpos.tolist() == [3, 1, 2, 0]
    # pop: job 3 (key 1); the last slot's job 0 moves to the root -> [0, 1, 2 | 3],
    # sifts down past its smaller child job 1 (3 < 5) -> [1, 0, 2 | 3]; job 3 is parked
    # in slot 3, its hpos -1.
    j, size = heap_pop(heap, hpos, key, size)
    assert (j, size) == (3, 3)
    assert heap.tolist() == [1, 0, 2, 3]
    assert hpos.tolist() == [1, 0, 2, -1]
    # job 2's key drops from 8 to 0: it climbs from slot 2 to the root -> [2, 0, 1]
    key[2] = 0.0
    heap_update(heap, hpos, key, size, 2)
    assert heap[:3].tolist() == [2, 0, 1]
    assert hpos.tolist() == [1, 2, 0, -1]
    # remove job 2 (the root): job 1 (last slot) moves up, key 3 < 5 keeps it -> [1, 0]
    size = heap_remove(heap, hpos, key, size, 2)
    assert size == 2
    assert heap[:2].tolist() == [1, 0]
    assert hpos.tolist() == [1, 0, -1, -1]


def test_remove_from_another_subtree_sifts_up():
    # keys 0, 5, 1, 6, 7, 2 for jobs 0..5 pushed in order: no push moves anything, so
    # heap = [0, 1, 2, 3, 4, 5]. Removing job 3 (slot 3, under job 1 with key 5) moves
    # the last slot's job 5 (key 2, from the other subtree) there: 2 < 5, so it must
    # climb to slot 1 -> [0, 5, 2, 1, 4]; a sift down alone would leave 5 above 2.
    heap, hpos, key = _empty(6)
    key[:] = [0.0, 5.0, 1.0, 6.0, 7.0, 2.0]
    size = 0
    for j in range(6):
        size = heap_push(heap, hpos, key, size, j)
    assert heap.tolist() == [0, 1, 2, 3, 4, 5]
    size = heap_remove(heap, hpos, key, size, 3)
    assert size == 5
    assert heap[:5].tolist() == [0, 5, 2, 1, 4]
    assert hpos.tolist() == [0, 3, 2, -1, 4, 1]


def test_ties_pop_in_heap_order_not_insertion_order():
    # three jobs with the same key: push gives [0, 1, 2] (no swap on equal keys); pop 0
    # moves job 2 to the root, which stays (1 < 1 is false); so the order is 0, 2, 1.
    heap, hpos, key = _empty(3)
    key[:] = 7.0
    size = 0
    for j in range(3):
        size = heap_push(heap, hpos, key, size, j)
    popped = []
    while size:
        j, size = heap_pop(heap, hpos, key, size)
        popped.append(j)
    assert popped == [0, 2, 1]
    assert hpos.tolist() == [-1, -1, -1]


@settings(max_examples=300, deadline=None)
@given(keys=st.lists(st.sampled_from([0.0, 1.0, 1.5, 2.0, 1e9, np.inf]), max_size=40))
def test_pops_come_out_sorted(keys):
    n = len(keys)
    heap, hpos, key = _empty(max(n, 1))
    key[:n] = keys
    size = 0
    for j in range(n):
        size = heap_push(heap, hpos, key, size, j)
    _check(heap, hpos, key, size, list(range(n)))
    out = []
    while size:
        j, size = heap_pop(heap, hpos, key, size)
        assert heap[size] == j  # parked just past the heap's end
        out.append(j)
    assert sorted(out) == list(range(n))
    assert [keys[j] for j in out] == sorted(keys)


# one operation: (kind, job, new key); kinds: push (weighted, so that heaps grow to a
# few levels), pop, remove, update. ``job`` names an absent job for push (the smallest
# absent one from it on) and a present one for remove and update (modulo their number).
OPS = st.tuples(
    st.sampled_from(["push", "push", "push", "pop", "remove", "update"]),
    st.integers(0, 15),
    st.one_of(st.integers(-5, 40).map(float), st.sampled_from([2.0 + 2**-40, np.inf])),
)


@settings(max_examples=300, deadline=None)
@given(ops=st.lists(OPS, min_size=10, max_size=80))
def test_random_operations_against_a_dict(ops):
    n = 16
    heap, hpos, key = _empty(n)
    size = 0
    present = {}
    for kind, j, k in ops:
        absent = [i for i in range(n) if i not in present]
        if kind == "push":
            if not absent:
                continue
            j = min((i for i in absent if i >= j), default=absent[0])
            key[j] = k
            present[j] = k
            size = heap_push(heap, hpos, key, size, j)
        elif not present:
            continue
        elif kind == "pop":
            smallest = min(present.values())
            got, size = heap_pop(heap, hpos, key, size)
            assert present.pop(got) == smallest
            assert hpos[got] == -1
            assert heap[size] == got
        elif kind == "remove":
            j = sorted(present)[j % len(present)]
            size = heap_remove(heap, hpos, key, size, j)
            del present[j]
        else:  # update: the key moves either way
            j = sorted(present)[j % len(present)]
            key[j] = k
            present[j] = k
            heap_update(heap, hpos, key, size, j)
        assert size == len(present)
        _check(heap, hpos, key, size, list(present))


@settings(max_examples=300, deadline=None)
@given(ops=st.lists(st.one_of(st.none(), st.sampled_from([0.0, 1.0, 1.5, 3.0, 1e9])), max_size=60))
def test_job_heap_pushes_and_pops_as_heapq(ops):
    """Pushes (a key) and pops (None) in any order: each pop's key is heapq's."""
    heap, hpos, key = _empty(len(ops) + 1)
    size, oracle, j = 0, [], 0
    for op in ops:
        if op is None:
            if not oracle:
                continue
            got, size = heap_pop(heap, hpos, key, size)
            assert key[got] == heapq.heappop(oracle)
        else:
            key[j] = op
            size = heap_push(heap, hpos, key, size, j)
            heapq.heappush(oracle, op)
            j += 1
        assert size == len(oracle)
        if size:
            assert key[heap[0]] == oracle[0]


# ------------------------------------------------------------------ the release heap
def _releases(room):
    return np.full(room, -7.0), np.full(room, -7, np.int64)


def _release_check(time, key, base, size):
    """The heap property over slots ``base .. base + size - 1``."""
    for i in range(1, size):
        assert time[base + (i - 1) // 2] <= time[base + i], (i, time[base : base + size])


def _contents(time, key, base, size):
    lo, hi = base, base + size
    return Counter(zip(time[lo:hi].tolist(), key[lo:hi].tolist(), strict=True))


def test_release_heap_hand_worked_push_and_pop():
    # at base 2 of arrays of 7 (slots 0 and 1 are another heap's: never touched).
    # push (5, k0), (3, k1), (5, k2), (3, k3), (1, k4):
    #   k0: [5k0]; k1: its parent 5k0 > 3 moves down -> [3k1, 5k0]; k2: parent 3k1 <= 5
    #   stays -> [3k1, 5k0, 5k2]; k3 at slot 3: parent 5k0 moves down, then parent 3k1
    #   (equal) stays -> [3k1, 3k3, 5k2, 5k0]; k4 at slot 4: 3k3 and 3k1 move down ->
    #   [1k4, 3k1, 5k2, 5k0, 3k3].
    time, key = _releases(7)
    size = 0
    for k, t in enumerate([5.0, 3.0, 5.0, 3.0, 1.0]):
        slot = release_push(time, key, 2, size, t, k)
        size += 1
    assert slot == 0
    assert time[2:].tolist() == [1.0, 3.0, 5.0, 5.0, 3.0]
    assert key[2:].tolist() == [4, 1, 2, 0, 3]
    # pop 1k4: the last entry 3k3 fills the root's hole, where its child 3k1 (equal)
    # leaves it -> [3k3, 3k1, 5k2, 5k0]
    size = release_pop(time, key, 2, size)
    assert size == 4 and key[2:6].tolist() == [3, 1, 2, 0]
    # pop 3k3: 5k0 to the root, the smaller child 3k1 moves up -> [3k1, 5k0, 5k2]; pop
    # 3k1: 5k2 to the root, its child 5k0 (equal) leaves it -> [5k2, 5k0]
    size = release_pop(time, key, 2, size)
    assert key[2:5].tolist() == [1, 0, 2]
    size = release_pop(time, key, 2, size)
    assert size == 2 and key[2:4].tolist() == [2, 0]
    assert time[:2].tolist() == [-7.0, -7.0] and key[:2].tolist() == [-7, -7]


def test_release_heap_equal_children_the_left_one_moves_up():
    # [1k0, 2k1, 2k2, 9k3]; pop: 9k3 fills the root's hole, its children 2k1 and 2k2 are
    # equal: the left one moves up -> [2k1, 9k3, 2k2]
    time, key = _releases(4)
    size = 0
    for k, t in enumerate([1.0, 2.0, 2.0, 9.0]):
        release_push(time, key, 0, size, t, k)
        size += 1
    assert key.tolist() == [0, 1, 2, 3]
    size = release_pop(time, key, 0, size)
    assert key[:size].tolist() == [1, 3, 2]


# one operation on one of two heaps side by side: (heap 0 or 1, push or pop, time, key);
# times from a small set, so that they tie
RELEASE_OPS = st.tuples(
    st.integers(0, 1),
    st.sampled_from(["push", "push", "pop"]),
    st.sampled_from([0.0, 1.0, 1.0 + 2**-40, 2.5, 7.0, 1e9]),
    st.integers(0, 2**62),
)


@settings(max_examples=300, deadline=None)
@given(ops=st.lists(RELEASE_OPS, max_size=80))
def test_release_heaps_side_by_side_against_heapq(ops):
    """Two release heaps in one pair of arrays (the lock-step layout: bases 0 and
    ``room``): after each push or pop, each heap holds its heapq oracle's releases, its
    root has the oracle's earliest time, and a pop takes a release of that time."""
    room = len(ops) + 1
    time, key = _releases(2 * room + 1)
    sizes, oracles = [0, 0], [[], []]
    for h, kind, t, k in ops:
        base = h * room
        if kind == "push":
            slot = release_push(time, key, base, sizes[h], t, k)
            assert (time[base + slot], key[base + slot]) == (t, k)
            heapq.heappush(oracles[h], (t, k))
            sizes[h] += 1
        elif sizes[h]:
            root = (float(time[base]), int(key[base]))
            assert root[0] == oracles[h][0][0]
            sizes[h] = release_pop(time, key, base, sizes[h])
            oracles[h].remove(root)
            heapq.heapify(oracles[h])
        for j in (0, 1):
            _release_check(time, key, j * room, sizes[j])
            assert _contents(time, key, j * room, sizes[j]) == Counter(oracles[j])
    assert time[-1] == -7.0 and key[-1] == -7  # past both heaps


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.sampled_from([0.0, 1.0, 2.0, 5.5, np.inf]), st.integers(0, 3)), max_size=40
    ),
    base=st.integers(0, 3),
)
def test_release_heapify_then_pops_come_out_as_heapq(rows, base):
    """Any arrays made a heap (:func:`release_heap` at base 0, :func:`release_heapify`
    at an offset) pop their releases in time order, as heapq's heapsort does."""
    n = len(rows)
    t = np.array([r[0] for r in rows], np.float64)
    k = np.array([r[1] for r in rows], np.int64) * 100 + np.arange(n)
    built = release_heap(t, k, n + 2)
    assert built[0].size == n + 2
    time, key = _releases(base + n + 1)
    time[base : base + n], key[base : base + n] = t, k
    release_heapify(time, key, base, n)
    oracle = list(zip(t.tolist(), k.tolist(), strict=True))
    heapq.heapify(oracle)
    want = [heapq.heappop(oracle) for _ in range(n)]
    for heap, at in ((built, 0), ((time, key), base)):
        _release_check(*heap, at, n)
        assert _contents(*heap, at, n) == Counter(want)
        size, got = n, []
        while size:
            got.append((heap[0][at], heap[1][at]))
            size = release_pop(*heap, at, size)
        assert [g[0] for g in got] == [w[0] for w in want]
        assert sorted(got) == sorted(want)
    assert time[:base].tolist() == [-7.0] * base and time[base + n] == -7.0
