"""Property tests: the numba engine against the pure-Python oracle (tests/engine_oracle.py),
plus invariants every schedule must satisfy."""

import itertools

import numpy as np
import pandas as pd
import pytest
from drawn_jobs import clusters_of, jobs_frame
from engine_checks import assert_invariants, assert_same
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.multicluster import simulate

from engine_oracle import ALLOCATIONS, COALLOCATIONS, SELECTIONS, oracle

SPEEDS = (0.5, 1.0, 2.0)


OFFSETS = (1e6 + 0.1, 3e7 + 1 / 3, 3e7 + 0.7, 1e9 + 0.3)
"""Large time stamps for the differential tests: where an ulp is 1e-10 to 1.2e-7 s, two
arithmetic forms of one test (``t + e / s <= x`` against ``e <= (x - t) s``) disagree on
estimates that end exactly at a shadow or a reservation's end, which near t = 0 they do
not (the rounding of 3e7 + 1/3, a speed of 1.5 and the grid below put such ends
everywhere)."""


@st.composite
def workloads(draw, coallocation=False, exact_estimates=False, zero_runtimes=True, offset=0.0):
    """(jobs frame, [(procs, speed)]): 1-3 clusters of 1-8 processors, 1-25 jobs on a
    coarse time grid (ties are frequent), runtimes 0-20, estimates sometimes off by 2x;
    every submit time ``offset`` later (a float: the grid is rounded there)."""
    m = draw(st.integers(1, 3))
    speeds = SPEEDS + (1.5,) if offset else SPEEDS  # 1.5: ends that round
    spec = [(draw(st.integers(1, 8)), draw(st.sampled_from(speeds))) for _ in range(m)]
    widest = sum(p for p, _ in spec) if coallocation else max(p for p, _ in spec)
    n = draw(st.integers(1, 25))
    rows = draw(
        st.lists(
            st.tuples(
                st.integers(0, 8).map(lambda k: 2 * k),
                st.one_of(st.just(0), st.integers(0, 20)) if zero_runtimes else st.integers(1, 20),
                st.integers(1, widest),
                st.sampled_from((1.0, 0.5, 2.0)),
            ),
            min_size=n,
            max_size=n,
        )
    )
    df = jobs_frame(rows)
    df["submit"] = df["submit"] + offset
    if exact_estimates:
        if draw(st.booleans()):
            df["estimate"] = df["runtime"]
    elif draw(st.integers(0, 2)) > 0:
        df["estimate"] = [float(r[1]) * r[3] for r in rows]
    return df, spec


def arrival_order(df):
    return sorted(range(len(df)), key=lambda j: (df["submit"].iloc[j], j))


PAIRS = list(itertools.product(SELECTIONS, ALLOCATIONS))


@pytest.mark.parametrize(("selection", "allocation"), PAIRS)
@settings(max_examples=50, deadline=None)
@given(data=workloads(), seed=st.integers(0, 3))
def test_engine_matches_oracle(selection, allocation, data, seed):
    df, spec = data
    res = simulate(df, clusters_of(spec), selection, allocation, seed=seed)
    ref = oracle(df, spec, selection, allocation, seed=seed)
    assert_same(res, ref, df, spec)
    assert_invariants(res, df, spec)
    if selection == "fcfs":  # arrival order => start order
        starts = [res.jobs["start"].iloc[j] for j in arrival_order(df)]
        assert starts == sorted(starts)


@pytest.mark.parametrize(("selection", "allocation"), PAIRS)
@settings(max_examples=60, deadline=None)
@given(data=st.sampled_from(OFFSETS).flatmap(lambda x: workloads(offset=x)), seed=st.integers(0, 3))
def test_engine_matches_oracle_at_large_time_stamps(selection, allocation, data, seed):
    """The same differential test on workloads shifted to 10^6-10^9 s (issue 50: EASY
    skipped jobs ending exactly at the shadow there, and every test ran near t = 0)."""
    df, spec = data
    res = simulate(df, clusters_of(spec), selection, allocation, seed=seed, debug=True)
    assert_same(res, oracle(df, spec, selection, allocation, seed=seed), df, spec)
    assert_invariants(res, df, spec)


@pytest.mark.parametrize(
    ("selection", "coallocation", "slowdown"),
    list(
        itertools.product(("fcfs", "first_available", "smallest_first"), COALLOCATIONS, (1.0, 2.5))
    ),
)
@settings(max_examples=30, deadline=None)
@given(data=workloads(coallocation=True), allocation=st.sampled_from(ALLOCATIONS))
def test_engine_matches_oracle_with_coallocation(
    selection, coallocation, slowdown, data, allocation
):
    df, spec = data
    kw = dict(coallocation=coallocation, slowdown=slowdown, seed=1)
    res = simulate(df, clusters_of(spec), selection, allocation, **kw)
    ref = oracle(df, spec, selection, allocation, **kw)
    assert_same(res, ref, df, spec)
    assert_invariants(res, df, spec, slowdown)
    for j in range(len(df)):  # the oracle's own co-allocation split agrees with the engine
        assert tuple(int(v) for v in res.allocation.toarray()[j]) == ref["alloc"].iloc[j]


def _reservation_kept(df, spec, allocation):
    ref = oracle(df, spec, "conservative", allocation)
    return ref, [
        j for j in range(len(df)) if ref["start"].iloc[j] > ref["first_reservation"].iloc[j]
    ]


@settings(max_examples=150, deadline=None)
@given(
    data=workloads(exact_estimates=True, zero_runtimes=False),
    allocation=st.sampled_from(ALLOCATIONS),
)
def test_conservative_never_delays_a_reservation_with_exact_estimates(data, allocation):
    """With exact, positive estimates a job never starts later than the reservation it
    got when it arrived. This holds on one cluster for every allocation policy and on
    several clusters for first_fit (a reservation sits on the lowest-index cluster with
    the earliest time, which is where first_fit starts it). Zero estimates are excluded:
    see test_zero_length_reservations_block_nobody."""
    df, spec = data
    if len(spec) > 1:
        allocation = "first_fit"
    ref, late = _reservation_kept(df, spec, allocation)
    assert not late, ref
    res = simulate(df, clusters_of(spec), "conservative", allocation)
    assert np.all(res.jobs["start"].to_numpy() <= ref["first_reservation"].to_numpy() + 1e-9)


def test_conservative_reservations_can_slip_when_the_policy_starts_elsewhere():
    """On several clusters another policy may start a job at its reservation time on a
    different tied cluster than the one it was reserved on, and push a later job back:
    A(2), B(3). Y (0, 5, 3) -> B, X (0, 5, 2) -> A. J1 (1, 10, 2): 5 on A and B -> held on
    A. J2 (1, 10, 3): only B, held at 5. At t=5 worst_fit starts J1 on B (3 free > 2),
    so J2 waits until 15 instead of its reservation at 5."""
    df = pd.DataFrame(
        {"submit": [0.0, 0.0, 1.0, 1.0], "runtime": [5.0, 5.0, 10.0, 10.0], "procs": [3, 2, 2, 3]}
    )
    spec = [(2, 1.0), (3, 1.0)]
    ref, late = _reservation_kept(df, spec, "worst_fit")
    assert late == [3]
    assert list(ref["first_reservation"]) == [0, 0, 5, 5]
    assert list(ref["start"]) == [0, 0, 5, 15]
    res = simulate(df, clusters_of(spec), "conservative", "worst_fit")
    assert list(res.jobs["start"]) == [0, 0, 5, 15]
    ref, late = _reservation_kept(df, spec, "first_fit")
    assert not late


def test_zero_length_reservations_block_nobody():
    """A reservation of estimate 0 is the empty interval [tau, tau) and blocks nobody, so
    a zero-estimate job can be passed by a later one (the one exception to "no job is
    ever delayed by a job behind it"). A(2, 0.5), conservative:
    t=0: J0 (0, 0, 1) starts and ends at 0 (its finish is handled in the next session).
    J1 (0, 0, 2): its earliest time is 0 (J0 counts until 0 only) but only 1 processor
    is free now -> reserved [0, 0). J2 (0, 1, 1) fits [0, 2) -> starts.
    Second session at t=0 (J0's finish): J1 finds 1 free; reserved at 2 -> [2, 2)."""
    df = pd.DataFrame({"submit": [0.0, 0.0, 0.0], "runtime": [0.0, 0.0, 1.0], "procs": [1, 2, 1]})
    spec = [(2, 0.5)]
    ref, late = _reservation_kept(df, spec, "first_fit")
    assert late == [1]
    assert list(ref["start"]) == [0, 2, 0]
    res = simulate(df, clusters_of(spec), "conservative", "first_fit")
    assert list(res.jobs["start"]) == [0, 2, 0]


def _burst_then_trickle(seed: int, n: int = 300) -> pd.DataFrame:
    """``n`` jobs on 8 + 8 processors: the first third arrives in one burst (the queue
    grows past the queue tree's first window of 64 ranks), the rest one at a time (the
    window slides along the ranks)."""
    rng = np.random.default_rng(seed)
    burst = n // 3
    gaps = np.r_[np.zeros(burst), rng.exponential(6.0, n - burst)]
    rows = zip(np.cumsum(gaps), rng.integers(1, 30, n), rng.integers(1, 9, n), strict=True)
    return jobs_frame(list(rows))


@pytest.mark.parametrize("selection", SELECTIONS)
@pytest.mark.parametrize("seed", (0, 1))
def test_a_queue_that_outgrows_and_slides_its_window_matches_the_oracle(selection, seed):
    """The queue's trees span a window of ranks that must hold every waiting job
    (:mod:`hpcmodels.multicluster.queue`): with 300 jobs the window grows and moves,
    which the small drawn workloads above never make it do. Debug mode checks after
    every session that the window holds exactly the waiting jobs."""
    from hpcmodels.multicluster.engine import SIMULATE_DEFAULTS, prepare_run, run_to_end
    from hpcmodels.multicluster.segtree import seg_base

    df, spec = _burst_then_trickle(seed), [(8, 1.0), (8, 2.0)]
    res = simulate(df, clusters_of(spec), selection, "first_fit", seed=seed, debug=True)
    assert_same(res, oracle(df, spec, selection, "first_fit", seed=seed), df, spec)
    kw = SIMULATE_DEFAULTS | dict(seed=seed, debug=True)
    run = prepare_run(df, clusters_of(spec), selection, "first_fit", **kw)
    tree = run_to_end(run.state, run.rate_code, run.params).wtree
    if selection in ("smallest_first", "largest_first"):  # ranks do not rise with arrival
        assert seg_base(tree) == 0 and tree.size == 2 * 512  # every rank, as before
    else:  # the window moved along the ranks and stayed narrower than the run
        assert seg_base(tree) > 0 and tree.size < 2 * 512
