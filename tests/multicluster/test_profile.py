"""Free-processor profiles (:mod:`hpcmodels.multicluster.profile`) against brute force.

A profile is a right-continuous step function of time: ``free`` processors on
``[time_k, time_k+1)``, the last step forever. The oracles here evaluate that function
literally: the running jobs' sum (``cap`` minus the widths of the single-site jobs whose
predicted end, counted as ``t`` within ``TIME_RTOL x max(|t|, 1)`` of ``t``, is after
the instant) minus the reservations covering the instant, and the earliest start of ``p``
processors for ``d`` seconds as the first breakpoint whose window ``[s, s + d)`` (the
instant ``s`` when ``d`` is 0) never has fewer than ``p`` free. Two step functions whose
breakpoints all lie in a set ``U`` are equal at every time from ``t`` on when they are
equal at every point of ``U``, so the oracles compare at ``U`` and check that every
breakpoint of the structure is in ``U``.

What the engine relies on (``selection/``): EASY's shadow time (``running_profiles`` +
``earliest_start``); conservative backfilling's array recompute (``running_profiles`` +
``earliest_from`` + ``cut_steps``, ``reserve`` of kept reservations, the lower-bound
table) and its kept linked lists (``list_from_arrays`` / ``list_rebuild``,
``list_earliest`` from a cursor node, ``list_add_at`` without merging, ``list_add``
with merging, ``list_advance`` at each session, the node pool's free list).
"""

from __future__ import annotations

import math
from bisect import bisect_right

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.multicluster.profile import (
    bound_query,
    bound_record,
    bound_table,
    cut_steps,
    earliest_from,
    earliest_start,
    init_pool,
    list_add,
    list_add_at,
    list_advance,
    list_earliest,
    list_from_arrays,
    list_rebuild,
    reserve,
    running_profiles,
)
from hpcmodels.multicluster.rates import TIME_RTOL
from hpcmodels.multicluster.state import COALLOCATED, P_FREE, P_USED, RLEN, new_state

INF = math.inf


def tol(t):
    """rates.tolerance, literally from its docstring."""
    return TIME_RTOL * max(abs(t), 1.0)


def _grid():
    """Times around a few bases: each base, its float neighbours, and the edge of its
    time stamp (``b + tol(b)``) with the float just past it."""
    out = set()
    for b in (0.0, 1.0, 3.0, 10.0, 25.0, 6e7, 6e7 + 50.0):
        edge = b + tol(b)
        out |= {b, np.nextafter(b, INF), np.nextafter(b, -INF), edge, np.nextafter(edge, INF)}
    return sorted(float(x) for x in out if x >= 0.0)


GRID = _grid()
TIMES = st.sampled_from(GRID)
DURATIONS = st.sampled_from([0.0, 0.5, 1.0, 2.0, 7.0, 15.0, 1e3, 6e7])


# ----------------------------------------------------------------------------- oracles
def value_at(steps, x):
    """The step function ``steps`` [(time, free), ...] at ``x`` (not before its start)."""
    times = [tm for tm, _ in steps]
    k = bisect_right(times, x) - 1
    assert k >= 0, (x, steps)
    return steps[k][1]


def effective_end(pe, t):
    """rates.predicted_end: an end within the time stamp of ``t`` counts as ``t``."""
    return t if pe <= t + tol(t) else pe


def running_free(cap, running, t, x):
    """Free processors at ``x >= t``: ``cap`` minus the running jobs not ended by ``x``."""
    return cap - sum(w for w, pe in running if effective_end(pe, t) > x)


def brute_earliest(free, points, p, d):
    """First point ``s`` of ``points`` (sorted) with ``free >= p`` on ``[s, s + d)`` (at
    ``s`` when ``d`` is 0), the free count being constant between points; inf if none."""
    for s in points:
        if free(s) >= p and all(free(x) >= p for x in points if s <= x < s + d):
            return s
    return INF


def minimal(steps):
    """``steps`` with every step equal to its predecessor dropped."""
    out = []
    for tm, f in steps:
        if not out or out[-1][1] != f:
            out.append((tm, f))
    return out


def assert_strictly_increasing(times):
    assert all(a < b for a, b in zip(times[:-1], times[1:], strict=True)), times


# ----------------------------------------------------------------------------- states
def make_state(cap, n=40):
    """A conservative engine state with clusters ``cap`` and room for ``n`` jobs (their
    data is filled in by the tests); the profile pool has ``len(cap) + 4 n + 8`` nodes."""
    cap = np.asarray(cap, np.int64)
    m = cap.size
    return new_state(
        np.zeros(n), np.ones(n), np.ones(n, np.int64), np.ones(n), cap, np.ones(m),
        np.arange(n), np.zeros(8, np.int64), 1.0, np.zeros(1), True,
    )  # fmt: skip


def set_running(state, jobs):
    """Running jobs [(cluster, width, predicted end), ...] as the engine keeps them:
    ``heap[:RLEN]``, ``clus``, ``procs``, ``pend``."""
    heap, clus, procs, pend, ctr = state.heap, state.clus, state.procs, state.pend, state.ctr
    for j, (c, w, pe) in enumerate(jobs):
        heap[j] = j
        clus[j] = c
        procs[j] = w
        pend[j] = pe
    ctr[RLEN] = len(jobs)


class Pool:
    """Python view of the state's node pool (the arrays share the state's memory)."""

    def __init__(self, state):
        self.state = state
        self.time, self.free, self.next = state.p_time, state.p_free, state.p_next
        self.head, self.ctr = state.p_head, state.ctr

    def nodes(self, c):
        out, k = [], self.head[c]
        while k >= 0:
            out.append(k)
            k = self.next[k]
        return out

    def steps(self, c):
        return [(float(self.time[k]), int(self.free[k])) for k in self.nodes(c)]

    def check(self):
        """Every node handed out (below P_USED) is in exactly one cluster's list or on
        the free list: none lost, none shared."""
        used = [k for c in range(self.head.size) for k in self.nodes(c)]
        spare, k = [], self.ctr[P_FREE]
        while k >= 0:
            spare.append(k)
            k = self.next[k]
        assert sorted(used + spare) == list(range(self.ctr[P_USED]))


# ------------------------------------------------------------------ running_profiles
def test_hand_worked_running_profile():
    # cluster 0: 10 processors at t = 100; jobs (width, predicted end): (3, 150),
    # (2, 120), (4, 150), (1, 100 + 1e-13: within tol(100) = 3.6e-12, so it counts as
    # ended at 100); a co-allocated job (width 5) is not in any single-site profile.
    # busy at 100: 3 + 2 + 4 = 9 -> 1 free; at 120 the width-2 job ends -> 3; at 150 both
    # others -> 10. Cluster 1 (4 processors) runs nothing: one step (100, 4).
    state = make_state([10, 4])
    set_running(
        state,
        [(0, 3, 150.0), (0, 2, 120.0), (0, 4, 150.0), (0, 1, 100.0 + 1e-13),
         (COALLOCATED, 5, 130.0)],
    )  # fmt: skip
    times, frees, sizes = running_profiles(state, 100.0, 3)
    assert sizes.tolist() == [3, 1]
    assert times[0, :3].tolist() == [100.0, 120.0, 150.0]
    assert frees[0, :3].tolist() == [1, 3, 10]
    assert (times[1, 0], frees[1, 0]) == (100.0, 4)
    assert times.shape[1] >= 3 + 3  # room for 3 more steps per row
    # the same at t = 100 + 4e-12: now the 1e-13 job ended before t, the others not
    times, frees, sizes = running_profiles(state, 100.0 + 4e-12, 0)
    assert frees[0, :3].tolist() == [1, 3, 10]


@st.composite
def running_sets(draw, clusters=3):
    """(caps, t, [(cluster, width, predicted end)]) with no cluster over-committed."""
    m = draw(st.integers(1, clusters))
    t = draw(TIMES)
    jobs = draw(st.lists(st.tuples(st.integers(-1, m - 1), st.integers(1, 4), TIMES), max_size=8))
    caps = [sum(w for c, w, _ in jobs if c == k) + draw(st.integers(0, 3)) for k in range(m)]
    caps = [max(cp, 1) for cp in caps]
    return caps, t, jobs


@settings(max_examples=300, deadline=None)
@given(rs=running_sets(), room=st.integers(0, 3))
def test_running_profiles_is_the_sum_of_the_running_jobs(rs, room):
    caps, t, jobs = rs
    state = make_state(caps)
    set_running(state, jobs)
    times, frees, sizes = running_profiles(state, t, room)
    assert times.shape[1] >= sizes.max() + room
    for c, cap in enumerate(caps):
        running = [(w, pe) for k, w, pe in jobs if k == c]
        steps = list(zip(times[c, : sizes[c]].tolist(), frees[c, : sizes[c]].tolist(), strict=True))
        # breakpoints: t and every distinct effective end after t, nothing else
        ends = {effective_end(pe, t) for _, pe in running} - {t}
        assert [tm for tm, _ in steps] == sorted({t} | ends)
        for tm, f in steps:
            assert f == running_free(cap, running, t, tm), (c, tm, steps, running)
        assert steps[-1][1] == cap  # every running job ends
        assert steps == minimal(steps)  # each end frees processors: no equal neighbours


# ------------------------------------------------------------ earliest_start / _from
def test_hand_worked_earliest_start():
    # steps: 2 free on [0, 10), 5 on [10, 20), 1 on [20, 30), 6 from 30
    times = np.array([0.0, 10.0, 20.0, 30.0])
    frees = np.array([2, 5, 1, 6])
    # 4 for 5 s: step 0 has 2; at 10 the window [10, 15) stays in step 1 (5 free) -> 10
    assert earliest_start(times, frees, 4, 4, 5.0) == 10.0
    # 4 for 15 s: at 10 the window reaches step 2 (1 free): fails; step 2 itself has 1;
    # at 30 -> 30
    assert earliest_start(times, frees, 4, 4, 15.0) == 30.0
    # 2 for 30 s: at 0 the window [0, 30) meets step 2 (1 free): fails, and so does every
    # start up to step 2 (skipped); 30 -> 30. 2 for 10 s: [0, 10) -> 0
    assert earliest_start(times, frees, 4, 2, 30.0) == 30.0
    assert earliest_start(times, frees, 4, 2, 10.0) == 0.0
    # a zero duration needs the processors at the instant only: 5 at 10
    assert earliest_start(times, frees, 4, 5, 0.0) == 10.0
    # 7 never (at most 6 free); the size argument hides step 3: 6 for 1 s -> never
    assert earliest_start(times, frees, 4, 7, 1.0) == INF
    assert earliest_start(times, frees, 3, 6, 1.0) == INF
    # earliest_from on row 1 of a 2-row profile (row 0 is noise), 4 for 15 s:
    rows_t = np.vstack([np.full(4, -1.0), times])
    rows_f = np.vstack([np.full(4, 99), frees])
    # with limit 20 the candidate 10 fails, then 30 > 20: a candidate, not exact
    assert earliest_from(rows_t, rows_f, 1, 4, 4, 15.0, 0, 20.0) == (30.0, 3, 3, False)
    # limit 30: 30 is exact; the first step at or after 30 + 15 is past the end (4)
    assert earliest_from(rows_t, rows_f, 1, 4, 4, 15.0, 0, 30.0) == (30.0, 3, 4, True)
    # 4 for 5 s: 10 (step 1), the first step at or after 15 is step 2
    assert earliest_from(rows_t, rows_f, 1, 4, 4, 5.0, 0, INF) == (10.0, 1, 2, True)
    # never: (inf, size, size, exact)
    assert earliest_from(rows_t, rows_f, 1, 4, 7, 1.0, 0, INF) == (INF, 4, 4, True)


@st.composite
def array_profiles(draw):
    """(times strictly increasing, frees) of 1-8 steps; frees need not be monotone."""
    times = sorted(set(draw(st.lists(TIMES, min_size=1, max_size=8))))
    frees = draw(st.lists(st.integers(0, 6), min_size=len(times), max_size=len(times)))
    return times, frees


@settings(max_examples=300, deadline=None)
@given(
    prof=array_profiles(),
    p=st.integers(0, 7),
    d=DURATIONS,
    k0=st.integers(0, 8),
    limit=st.one_of(TIMES, st.just(INF)),
)
def test_earliest_start_and_from_against_brute_force(prof, p, d, k0, limit):
    times, frees = prof
    size = len(times)
    steps = list(zip(times, frees, strict=True))

    def free(x):
        return value_at(steps, x)

    want = brute_earliest(free, times, p, d)
    assert earliest_start(np.array(times), np.array(frees), size, p, d) == want
    # earliest_from on row 1 of two, from step k0: the earliest start among steps >= k0
    k0 = min(k0, size)
    rows_t = np.vstack([np.zeros(size), times])
    rows_f = np.vstack([np.full(size, 99), frees])
    want_from = brute_earliest(free, times[k0:], p, d)
    s, k, m, exact = earliest_from(rows_t, rows_f, 1, size, p, d, k0, limit)
    if exact:
        assert s == want_from
        assert s <= limit or s == INF
        if s == INF:
            assert (k, m) == (size, size)
        else:
            assert times[k] == s
            # m: the first step after k at or after s + d (size if none)
            after = [i for i in range(k + 1, size) if times[i] >= s + d]
            assert m == (after[0] if after else size)
    else:
        # a candidate after the limit, no later than the earliest start
        assert limit < s <= want_from
        assert times[k] == s and frees[k] >= p


def walk_earliest_from(times, frees, size, p, d, k, limit):
    """``earliest_from`` as it was before it read 64 steps per bit mask (issue 55): one
    step at a time; the new search must return exactly this, candidates included."""
    while k < size:
        if frees[k] < p:
            k += 1
            continue
        s = times[k]
        if s > limit:
            return s, k, k, False
        m = k + 1
        while m < size and times[m] < s + d:
            if frees[m] < p:
                break
            m += 1
        else:
            return s, k, m, True
        k = m
    return INF, size, size, True


@st.composite
def long_rows(draw):
    """A row of 1-300 steps (most searches cross 64-step blocks), times strictly
    increasing by 1-4 s from a base near 0 or 1e9 (sums s + d then round), frees 0-6
    with long stretches of one value (runs longer and shorter than a block)."""
    size = draw(st.integers(1, 300))
    base = draw(st.sampled_from([0.0, 1e9 + 0.25]))
    gaps = draw(st.lists(st.integers(1, 4), min_size=size, max_size=size))
    runs = draw(st.lists(st.tuples(st.integers(0, 6), st.integers(1, 90)), min_size=1, max_size=20))
    frees = [f for f, n in runs for _ in range(n)]
    frees = (frees * (size // len(frees) + 1))[:size]
    if draw(st.booleans()):  # the row's last step blocks every width: a window can end there
        frees[-1] = 0
    times = base + np.cumsum(np.array(gaps, float))
    return times, np.array(frees, np.int64)


@settings(max_examples=400, deadline=None)
@given(
    row=long_rows(),
    p=st.integers(0, 7),
    d=st.sampled_from([0.0, 0.5, 1.0, 3.0, 4.0, 9.0, 40.0, 130.0, 1e4]),
    k0=st.one_of(st.integers(0, 300), st.integers(-70, -1)),
    limit_at=st.one_of(st.none(), st.integers(0, 299)),
    room=st.integers(0, 70),
)
def test_earliest_from_on_long_rows_is_the_step_walk(row, p, d, k0, limit_at, room):
    """Rows up to 300 steps in a wider array (``room`` spare columns, a noise row before
    and after): the bit-mask search returns what the step-by-step walk returns (start,
    steps, exactness, the candidate after the limit) and, when exact, the brute-force
    earliest start. A negative ``k0`` starts that many steps before the row's end (a
    block shorter than 64 steps)."""
    times, frees = row
    size = times.size
    k0 = max(size + k0, 0) if k0 < 0 else min(k0, size)
    limit = INF if limit_at is None else float(times[min(limit_at, size - 1)])
    width = size + room
    rows_t = np.full((3, width), -5.0)
    rows_f = np.full((3, width), 99, np.int64)
    rows_t[1, :size], rows_f[1, :size] = times, frees
    rows_t[1, size:], rows_f[1, size:] = 1e300, 99  # spare columns the search must not read
    got = earliest_from(rows_t, rows_f, 1, size, p, d, k0, limit)
    assert got == walk_earliest_from(times, frees, size, p, d, k0, limit)
    if got[3]:
        steps = list(zip(times.tolist(), frees.tolist(), strict=True))
        want = brute_earliest(lambda x: value_at(steps, x), times.tolist()[k0:], p, d)
        assert got[0] == want


def test_hand_worked_earliest_from_across_blocks():
    """130 steps 1 s apart (times 0..129); 3 free everywhere but steps 10, 70 and 128
    (0 free). 3 processors for 60 s: the start at 0 fails at 10, 11 fails at 70 (in the
    second 64-step block), 71 fails at 128; 129, the last step, lasts forever: m = 130.
    For 50 s: 11 (the window 11..60 lies in the first block), m = 61. For 55 s from step
    65: 71, ending at 126; with limit 70: the candidate 71, inexact."""
    times = np.arange(130.0)
    frees = np.full(130, 3, np.int64)
    frees[[10, 70, 128]] = 0
    t2, f2 = times[None, :].copy(), frees[None, :].copy()
    assert earliest_from(t2, f2, 0, 130, 3, 60.0, 0, INF) == (129.0, 129, 130, True)
    assert earliest_from(t2, f2, 0, 130, 3, 50.0, 0, INF) == (11.0, 11, 61, True)
    assert earliest_from(t2, f2, 0, 130, 3, 55.0, 65, INF) == (71.0, 71, 126, True)
    assert earliest_from(t2, f2, 0, 130, 3, 55.0, 65, 70.0) == (71.0, 71, 71, False)
    # 4 processors: never (inf, size, size, exact)
    assert earliest_from(t2, f2, 0, 130, 4, 1.0, 0, INF) == (INF, 130, 130, True)
    # the first 129 steps: the row's last step (128) is the blocker. 3 for 60 s from step
    # 71 fails there (57 s): never. From step 100 (a block of 29 steps): 3 for 20 s fits
    # at 100 (m = 120); 3 for 40 s fails at 128 (28 s): never
    assert earliest_from(t2, f2, 0, 129, 3, 60.0, 71, INF) == (INF, 129, 129, True)
    assert earliest_from(t2, f2, 0, 129, 3, 20.0, 100, INF) == (100.0, 100, 120, True)
    assert earliest_from(t2, f2, 0, 129, 3, 40.0, 100, INF) == (INF, 129, 129, True)


# ------------------------------------------------------------------ reserve / cut_steps
def test_hand_worked_reserve_and_cut_steps():
    # [0, 10): 5, [10, 20): 3, from 20: 8; reserve 2 over [5, 15): split at 5 and 15 ->
    # 0: 5, 5: 3, 10: 1, 15: 3, 20: 8
    times = np.zeros(8)
    frees = np.zeros(8, np.int64)
    times[:3], frees[:3] = [0.0, 10.0, 20.0], [5, 3, 8]
    size = reserve(times, frees, 3, 5.0, 10.0, 2)
    assert size == 5
    assert times[:5].tolist() == [0.0, 5.0, 10.0, 15.0, 20.0]
    assert frees[:5].tolist() == [5, 3, 1, 3, 8]
    # on existing boundaries [10, 20), 1 more: no new step
    size = reserve(times, frees, size, 10.0, 10.0, 1)
    assert size == 5
    assert frees[:5].tolist() == [5, 3, 0, 2, 8]
    # a zero duration reserves nothing
    assert reserve(times, frees, size, 3.0, 0.0, 4) == 5
    assert frees[:5].tolist() == [5, 3, 0, 2, 8]
    # cut_steps, as the array recompute does: 3 for 25 s on the original profile ->
    # earliest_from finds 0 (steps 0-2 have 5, 3, 8 >= 3), m = 3 (the size: no step at or
    # after 25); 25 becomes a boundary with step 2's 8, steps 0-2 lose 3
    rows_t, rows_f = np.zeros((1, 8)), np.zeros((1, 8), np.int64)
    rows_t[0, :3], rows_f[0, :3] = [0.0, 10.0, 20.0], [5, 3, 8]
    s, k, m, exact = earliest_from(rows_t, rows_f, 0, 3, 3, 25.0, 0, INF)
    assert (s, k, m, exact) == (0.0, 0, 3, True)
    size = cut_steps(rows_t, rows_f, 0, 3, k, m, s + 25.0, 3)
    assert size == 4
    assert rows_t[0, :4].tolist() == [0.0, 10.0, 20.0, 25.0]
    assert rows_f[0, :4].tolist() == [2, 0, 5, 8]


@settings(max_examples=300, deadline=None)
@given(
    prof=array_profiles(),
    s=TIMES,
    d=DURATIONS,
    p=st.integers(-2, 4),
)
def test_reserve_is_the_profile_minus_the_reservation(prof, s, d, p):
    times, frees = prof
    s = max(s, times[0])  # a reservation never starts before the profile
    size = len(times)
    t_arr, f_arr = np.zeros(size + 2), np.zeros(size + 2, np.int64)
    t_arr[:size], f_arr[:size] = times, frees
    new = reserve(t_arr, f_arr, size, s, d, p)
    after = list(zip(t_arr[:new].tolist(), f_arr[:new].tolist(), strict=True))
    assert_strictly_increasing([tm for tm, _ in after])
    points = set(times)
    if d > 0:
        points |= {s, s + d}
    assert {tm for tm, _ in after} == points  # s and s + d become boundaries, no more
    for x in points:
        want = value_at(list(zip(times, frees, strict=True)), x) - (p if s <= x < s + d else 0)
        assert value_at(after, x) == want, (x, after)


# ---------------------------------------------------------- one reservation pass (oracle)
@st.composite
def passes(draw):
    """A cluster (index 1 of 2) at t with running jobs and a queue of (p, d) jobs."""
    t = draw(TIMES)
    running = draw(st.lists(st.tuples(st.integers(1, 4), TIMES), max_size=6))
    cap = sum(w for w, _ in running) + draw(st.integers(0, 3))
    cap = max(cap, 1)
    queue = draw(st.lists(st.tuples(st.integers(1, cap), DURATIONS), min_size=1, max_size=8))
    other = draw(st.lists(st.tuples(st.integers(1, 2), TIMES), max_size=3))
    return t, cap, running, queue, other


@settings(max_examples=300, deadline=None)
@given(case=passes())
def test_a_pass_of_reservations_against_brute_force(case):
    """Jobs reserved in queue order at their earliest starts, as conservative backfilling
    does, four ways: arrays with earliest_start + reserve (EASY's search, kept
    reservations), arrays with earliest_from + cut_steps (the array recompute), the
    linked list with list_earliest from the cursor + list_add_at without merging
    (``_reserve_or_start``), and the linked list with list_add merging. Each start equals
    the brute-force earliest start and each profile equals cap - running - reserved."""
    t, cap, running, queue, other = case
    c = 1
    caps = [sum(w for w, _ in other) + 1, cap]
    state = make_state(caps)
    set_running(state, [(0, w, pe) for w, pe in other] + [(c, w, pe) for w, pe in running])
    room = 2 * len(queue) + 2
    a_t, a_f, a_s = running_profiles(state, t, room)  # earliest_start + reserve
    b_t, b_f, b_s = running_profiles(state, t, room)  # earliest_from + cut_steps
    list_rebuild(state, t)  # linked list, no merging (the cursor's nodes stay valid)
    pool = Pool(state)
    other_steps = pool.steps(0)
    merged = make_state(caps)  # linked list, list_add merging
    set_running(merged, [(c, w, pe) for w, pe in running])
    list_rebuild(merged, t)
    mpool = Pool(merged)
    assert pool.steps(c) == list(
        zip(a_t[c, : a_s[c]].tolist(), a_f[c, : a_s[c]].tolist(), strict=True)
    )
    assert mpool.steps(c) == pool.steps(c)

    reserved = []  # (s, e, p)
    points = {t} | {effective_end(pe, t) for _, pe in running}
    cursor = {}  # p -> (first node with >= p free, node before it), as _reserve_or_start

    def free(x):
        return running_free(cap, running, t, x) - sum(p for s, e, p in reserved if s <= x < e)

    for p, d in queue:
        want = brute_earliest(free, sorted(points), p, d)
        assert want < INF  # p <= cap: once everything ends
        # (a) EASY's search and reserve
        s_a = earliest_start(a_t[c], a_f[c], a_s[c], p, d)
        # (b) the array recompute
        s_b, k, m, exact = earliest_from(b_t, b_f, c, b_s[c], p, d, 0, INF)
        # (c) the kept list from the cursor
        k0, prev0 = cursor.get(p, (-1, -1))
        if k0 < 0:
            k0, prev0 = pool.head[c], -1
        # what the cursor relies on: reservations only take processors away, so every
        # node before the cursor node still has fewer than p free
        # (the cursor's node before it may be stale, a split having come between them:
        # list_add_at without merging never reads it)
        nodes = pool.nodes(c)
        assert k0 in nodes
        assert all(pool.free[x] < p for x in nodes[: nodes.index(k0)])
        s_c, node, before, first, first_prev = list_earliest(state, k0, prev0, p, d)
        # (d) the merged list from its head
        s_d = list_earliest(merged, mpool.head[c], -1, p, d)[0]
        assert (s_a, s_b, s_c, s_d) == (want,) * 4, (p, d, reserved)
        assert exact

        # the nodes list_earliest returns: the start's node, its predecessor, the first
        # node (from k0) with p free and its predecessor (at k0: the prev it was given)
        def before_of(x, k0=k0, prev0=prev0, nodes=nodes):
            if x == k0:
                return prev0
            return -1 if x == nodes[0] else nodes[nodes.index(x) - 1]

        assert pool.time[node] == want and before == before_of(node)
        assert pool.free[first] >= p and first_prev == before_of(first)
        i = nodes.index(first)
        assert nodes.index(k0) <= i <= nodes.index(node)
        assert all(pool.free[x] < p for x in nodes[nodes.index(k0) : i])
        cursor[p] = (first, first_prev)
        # reserve everywhere
        e = want + d
        a_s[c] = reserve(a_t[c], a_f[c], a_s[c], want, d, p)
        b_s[c] = cut_steps(b_t, b_f, c, b_s[c], k, m, e, p)
        list_add_at(state, node, before, want, e, -p, False)
        list_add(merged, c, want, e, -p)
        reserved.append((want, e, p))
        if e > want:
            points |= {want, e}
        # every representation is the brute-force free count at every point of U
        profiles = {
            "reserve": list(zip(a_t[c, : a_s[c]].tolist(), a_f[c, : a_s[c]].tolist(), strict=True)),
            "cut_steps": list(
                zip(b_t[c, : b_s[c]].tolist(), b_f[c, : b_s[c]].tolist(), strict=True)
            ),
            "list_add_at": pool.steps(c),
            "list_add": mpool.steps(c),
        }
        for name, steps in profiles.items():
            assert_strictly_increasing([tm for tm, _ in steps])
            assert steps[0][0] == t, name
            assert {tm for tm, _ in steps} <= points | {want}, name
            for x in points:
                assert value_at(steps, x) == free(x), (name, x, steps, reserved)
        # the arrays agree exactly (the same boundaries); the merged list is minimal
        assert profiles["reserve"] == profiles["cut_steps"]
        assert profiles["list_add"] == minimal(profiles["list_add"])
        assert pool.steps(0) == other_steps  # the other cluster is untouched
        pool.check()
        mpool.check()


# ------------------------------------------------------------------ linked lists
def _list_state(rows):
    """A state whose clusters' lists are ``rows`` [[(time, free), ...], ...]."""
    width = max(len(r) for r in rows)
    times, frees = np.zeros((len(rows), width)), np.zeros((len(rows), width), np.int64)
    for c, r in enumerate(rows):
        times[c, : len(r)] = [tm for tm, _ in r]
        frees[c, : len(r)] = [f for _, f in r]
    state = make_state([10] * len(rows))
    list_from_arrays(state, times, frees, np.array([len(r) for r in rows]))
    return state, Pool(state)


def test_list_from_arrays_lays_rows_out_in_consecutive_nodes():
    # each row is laid out from its last step back, so its head is its highest node
    state, pool = _list_state([[(0.0, 4), (10.0, 2)], [(0.0, 7)], [(1.0, 1), (2.0, 3), (5.0, 1)]])
    assert pool.nodes(0) == [1, 0]
    assert pool.nodes(1) == [2]
    assert pool.nodes(2) == [5, 4, 3]
    assert pool.steps(2) == [(1.0, 1), (2.0, 3), (5.0, 1)]  # equal non-neighbours kept
    assert state.ctr[P_USED] == 6 and state.ctr[P_FREE] == -1
    # rebuilding starts the pool over
    list_from_arrays(state, np.array([[3.0], [3.0], [3.0]]), np.full((3, 1), 2), np.ones(3, int))
    assert [pool.nodes(c) for c in range(3)] == [[0], [1], [2]]
    assert state.ctr[P_USED] == 3
    init_pool(state)
    assert (state.ctr[P_FREE], state.ctr[P_USED]) == (-1, 0)


def test_pool_exhaustion_is_an_error():
    state = make_state([10], n=0)  # 1 + 4 * 0 + 8 = 9 nodes
    times = np.arange(10.0).reshape(1, 10)
    with pytest.raises(RuntimeError, match="pool exhausted"):
        list_from_arrays(state, times, np.arange(10).reshape(1, 10), np.array([10]))


def test_hand_worked_list_add_merges_equal_neighbours():
    # (0, 4), (10, 2), (20, 8): 2 more over [10, 20) makes (10, 4) equal to the head's 4:
    # merged -> (0, 4), (20, 8), and the node goes back to the pool
    state, pool = _list_state([[(0.0, 4), (10.0, 2), (20.0, 8)]])
    list_add(state, 0, 10.0, 20.0, 2)
    assert pool.steps(0) == [(0.0, 4), (20.0, 8)]
    assert state.ctr[P_FREE] == 1  # node 1 (time 10) released
    pool.check()
    # 1 fewer over [5, 25): split at 5 and 25 -> (0, 4), (5, 3), (20, 7), (25, 8); the
    # split at 5 reuses the released node 1
    list_add(state, 0, 5.0, 25.0, -1)
    assert pool.steps(0) == [(0.0, 4), (5.0, 3), (20.0, 7), (25.0, 8)]
    assert pool.nodes(0)[1] == 1
    pool.check()
    # clipped to the head: [-5, 5) adds to [0, 5) only -> (0, 5), (5, 3), ...
    list_add(state, 0, -5.0, 5.0, 1)
    assert pool.steps(0) == [(0.0, 5), (5.0, 3), (20.0, 7), (25.0, 8)]
    # an interval ending by the head changes nothing; an endless one adds to every step
    list_add(state, 0, -5.0, 0.0, 9)
    list_add(state, 0, 20.0, INF, -7)
    assert pool.steps(0) == [(0.0, 5), (5.0, 3), (20.0, 0), (25.0, 1)]
    pool.check()


def test_hand_worked_list_advance_and_the_time_tolerance():
    # tol(10) = 10 x 2**-48 = 3.55e-14 and one ulp at 10 is 1.78e-15: a step 1 ulp after
    # 10 is in the time stamp of 10, a step 2 x tol(10) after it is not
    up = np.nextafter(10.0, INF)
    far = 10.0 + 2 * tol(10.0)
    rows = [[(0.0, 4), (10.0, 2), (up, 6), (far, 5), (20.0, 8)]]
    state, pool = _list_state(rows)
    list_advance(state, 0, 5.0)  # nothing before 5 + tol(5) but the head: it moves to 5
    assert pool.steps(0) == [(5.0, 4), (10.0, 2), (up, 6), (far, 5), (20.0, 8)]
    # at 10: the steps at 10 and at 10 + 1 ulp are dropped; the head takes the later
    # one's 6 free; the step at 10 + 2 tol stays
    list_advance(state, 0, 10.0)
    assert pool.steps(0) == [(10.0, 6), (far, 5), (20.0, 8)]
    pool.check()
    # from just below 10 (2 ulps): 10 and 10 + 1 ulp are within its tolerance too
    state, pool = _list_state(rows)
    below = np.nextafter(np.nextafter(10.0, -INF), -INF)
    list_advance(state, 0, below)
    assert pool.steps(0) == [(below, 6), (far, 5), (20.0, 8)]
    # past the end: one step with the last free count
    list_advance(state, 0, 100.0)
    assert pool.steps(0) == [(100.0, 8)]
    pool.check()


def test_hand_worked_list_earliest_nodes():
    # nodes a, b, c, d: (0, 2), (10, 5), (20, 1), (30, 6); 4 for 15 s: the first node
    # with 4 free is b (before it a); the window [10, 25) fails at c; d at 30 fits
    state, pool = _list_state([[(0.0, 2), (10.0, 5), (20.0, 1), (30.0, 6)]])
    a, b, c, d = pool.nodes(0)
    assert list_earliest(state, a, -1, 4, 15.0) == (30.0, d, c, b, a)
    # from c (a cursor; b before it): 7 never fits and no node has 7
    assert list_earliest(state, c, b, 7, 1.0) == (INF, -1, -1, -1, -1)
    # from c, 4 for 1 s: d, and d is also the first node with 4 free
    assert list_earliest(state, c, b, 4, 1.0) == (30.0, d, c, d, c)
    # 2 at the instant 0: the head
    assert list_earliest(state, a, -1, 2, 0.0) == (0.0, a, -1, a, -1)


@st.composite
def minimal_rows(draw):
    """A minimal profile (no equal neighbours) starting at a grid time."""
    times = sorted(set(draw(st.lists(TIMES, min_size=1, max_size=7))))
    frees = [draw(st.integers(0, 6))]
    for _ in times[1:]:
        frees.append((frees[-1] + draw(st.integers(1, 6))) % 7)  # 0..6, not the last
    return list(zip(times, frees, strict=True))


LIST_OPS = st.one_of(
    st.tuples(st.just("add"), TIMES, st.one_of(TIMES, st.just(INF)), st.integers(-3, 3)),
    st.tuples(st.just("advance"), TIMES, TIMES, st.just(0)),
)


@settings(max_examples=300, deadline=None)
@given(row=minimal_rows(), ops=st.lists(LIST_OPS, min_size=1, max_size=12))
def test_list_add_and_advance_against_a_step_function(row, ops):
    """list_add (merging) and list_advance (clock never going back) on a minimal profile:
    the list stays minimal, equals the step function changed by hand, and the pool
    loses and shares no node. Advancing to ``now`` drops every step starting by
    ``now + tol(now)``; the head starts at ``now`` with the free count of the last step
    it dropped (the function at ``now + tol(now)``)."""
    state, pool = _list_state([row, [(0.0, 3)]])
    steps = list(row)
    for kind, a, b, delta in ops:
        head = steps[0][0]
        if kind == "add":
            s = max(a, head)
            list_add(state, 0, a, b, delta)
            if b > s and delta:
                bounds = sorted({tm for tm, _ in steps} | {s} | ({b} if b < INF else set()))
                steps = minimal(
                    [(x, value_at(steps, x) + (delta if s <= x < b else 0)) for x in bounds]
                )
        else:
            now = max(a, head)
            limit = now + tol(now)
            list_advance(state, 0, now)
            steps = [(now, value_at(steps, limit))] + [(tm, f) for tm, f in steps if tm > limit]
        got = pool.steps(0)
        assert got == steps, (kind, a, b, delta)
        assert got == minimal(got)
        assert pool.steps(1) == [(0.0, 3)]
        pool.check()


@settings(max_examples=300, deadline=None)
@given(
    row=minimal_rows(),
    start=st.integers(0, 6),
    p=st.integers(0, 7),
    d=DURATIONS,
)
def test_list_earliest_from_any_node(row, start, p, d):
    state, pool = _list_state([row])
    nodes = pool.nodes(0)
    start = min(start, len(nodes) - 1)
    k0, prev0 = nodes[start], (nodes[start - 1] if start else -1)
    tail = row[start:]
    want = brute_earliest(lambda x: value_at(tail, x), [tm for tm, _ in tail], p, d)
    s, node, before, first, first_prev = list_earliest(state, k0, prev0, p, d)
    assert s == want
    if s == INF:
        assert (node, before) == (-1, -1)
    else:
        i = nodes.index(node)
        assert pool.time[node] == s and i >= start
        assert before == (nodes[i - 1] if i else -1)
    fits = [i for i in range(start, len(nodes)) if row[i][1] >= p]
    if fits:
        assert first == nodes[fits[0]]
        assert first_prev == (nodes[fits[0] - 1] if fits[0] else -1)
    else:
        assert (first, first_prev) == (-1, -1)


# ------------------------------------------------------------------ lower-bound table
def test_hand_worked_bounds():
    table = bound_table(2)
    assert bound_query(table, 0, 4, 10.0) == -INF
    # 4 processors for 10 s cannot start before 50 on cluster 0
    bound_record(table, 0, 4, 10.0, 50.0)
    assert bound_query(table, 0, 4, 20.0) == 50.0  # wider window: at least as late
    assert bound_query(table, 0, 5, 20.0) == 50.0  # and wider job
    assert bound_query(table, 0, 3, 20.0) == -INF  # narrower job: no bound
    assert bound_query(table, 0, 4, 10.0) == -INF  # the same duration class: no bound
    assert bound_query(table, 1, 8, 100.0) == -INF  # another cluster
    # a zero duration: exact class; d = 0 records bound every duration
    bound_record(table, 1, 2, 0.0, 7.0)
    assert bound_query(table, 1, 2, 0.0) == 7.0
    assert bound_query(table, 1, 2, 0.5) == 7.0
    assert bound_query(table, 1, 1, 0.0) == -INF
    # the largest recorded start wins
    bound_record(table, 0, 1, 1.0, 80.0)
    assert bound_query(table, 0, 5, 20.0) == 80.0
    # above 64, four width classes per octave: 65 and 66 share the class [64, 76.1), so
    # a record for 66 bounds neither 65 nor 66 itself, but 200 (class [181, 215.3))
    bound_record(table, 1, 66, 0.0, 9.0)
    assert bound_query(table, 1, 65, 0.0) == 7.0  # the record for 2 processors only
    assert bound_query(table, 1, 66, 0.0) == 7.0
    assert bound_query(table, 1, 200, 0.0) == 9.0


# widths and durations on both sides of class boundaries (64 | 65, 76 | 77, 128 | 129;
# 0 | 0.1, 0.5, 1 | 1.1)
WIDTHS = st.sampled_from([1, 2, 3, 63, 64, 65, 66, 76, 77, 100, 128, 129, 200, 4096])
BOUND_DURATIONS = st.sampled_from([0.0, 0.1, 0.5, 1.0, 1.1, 2.0, 10.0, 1e3])


@settings(max_examples=300, deadline=None)
@given(
    records=st.lists(
        st.tuples(st.integers(0, 1), WIDTHS, BOUND_DURATIONS, st.floats(0.0, 1e6)), max_size=20
    ),
    queries=st.lists(
        st.tuples(st.integers(0, 1), WIDTHS, BOUND_DURATIONS), min_size=1, max_size=10
    ),
)
def test_bound_query_is_a_recorded_start_of_a_smaller_job(records, queries):
    """A bound is a lower bound on the earliest start only if it comes from a job no
    wider and no longer (the profile only loses processors within a pass): the query
    never exceeds the largest such record. It finds every record certainly smaller:
    widths up to 64 exact, a width at most half of one above 64 (a lower class), a zero
    duration, or any duration at most half of one of at least 1 s (1 s up to 1,000 s:
    no class clamped)."""
    table = bound_table(2)
    for c, p, d, s in records:
        bound_record(table, c, p, d, s)
    for c, p, d in queries:
        got = bound_query(table, c, p, d)
        smaller = [s for c2, p2, d2, s in records if c2 == c and p2 <= p and d2 <= d]
        assert got == -INF or got in smaller
        assert got <= max(smaller, default=-INF)

        def surely_smaller(p2, d2, p=p, d=d):
            width = p2 <= p if p <= 64 else 2 * p2 <= p
            return width and (d2 == 0.0 or (d >= 1.0 and 2 * d2 <= d))

        sure = [s for c2, p2, d2, s in records if c2 == c and surely_smaller(p2, d2)]
        assert got >= max(sure, default=-INF)
