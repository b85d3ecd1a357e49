"""The running-jobs heap (:mod:`hpcmodels.multicluster.heap`) against a dict of keys.

The engine keeps its running jobs in ``heap[:size]`` keyed by ``end`` and relies on:
``heap[0]`` holds a smallest key (the next finish, ``events.next_time``); ``heap_pop``
returns a job with the smallest key and, in the slot just past the new end, leaves the
popped job (``process_events`` parks popped jobs there); ``hpos`` is every present
job's slot and -1 for the others (``heap_update`` after a rate change, ``heap_remove``);
``heap[:size]`` is exactly the running set (``running_profiles`` reads it).

Ties: the heap documents no order among equal keys, and pops them in no particular order
(not first-in first-out, see :func:`test_ties_pop_in_heap_order_not_insertion_order`);
the engine pops every job of a time stamp before it releases any.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.multicluster.heap import heap_pop, heap_push, heap_remove, heap_update


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
