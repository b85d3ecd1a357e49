"""Conservative backfilling under overload with inexact estimates (requested times 1-3x
the run time): the engine keeps the reservations that an early finish cannot have
changed (selection/conservative.py) and must still schedule exactly like the rule "every reservation
recomputed at every event" (package docstring). Checked against the pure-Python oracle
on small overloaded workloads, and on larger ones against the engine itself with every
partial recompute forced into a full one."""

import numpy as np
import pandas as pd
import pytest
from drawn_jobs import clusters_of, jobs_frame
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.multicluster import Cluster, simulate
from hpcmodels.multicluster.engine import ALLOCATIONS as CODES
from hpcmodels.multicluster.engine import SELECTIONS, _as_jobs, build_state
from hpcmodels.multicluster.events import next_time, process_events
from hpcmodels.multicluster.selection import session
from hpcmodels.multicluster.state import FULL, HOLES, REBUILD

from engine_oracle import oracle

SPEEDS = (0.5, 1.0, 1.5, 2.0)
ALLOCATIONS = ("first_fit", "best_fit", "worst_fit", "random_fit", "fastest_first")


@st.composite
def overloaded(draw):
    """(jobs, [(procs, speed)]): 1-4 clusters of 2-8 processors, 10-40 jobs arriving
    faster than they can run (submits on a coarse grid, so ties are frequent), run
    times 0-20 and estimates 1-3x the run time (a few below it)."""
    m = draw(st.integers(1, 4))
    spec = [(draw(st.integers(2, 8)), draw(st.sampled_from(SPEEDS))) for _ in range(m)]
    widest = max(p for p, _ in spec)
    n = draw(st.integers(10, 40))
    rows = draw(
        st.lists(
            st.tuples(
                st.integers(0, n // 2),
                st.one_of(st.just(0), st.integers(1, 20)),
                st.integers(1, widest),
                st.sampled_from((1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 0.5)),
            ),
            min_size=n,
            max_size=n,
        )
    )
    df = jobs_frame(rows)
    df["estimate"] = [float(r[1]) * r[3] for r in rows]
    return df, spec


@settings(max_examples=150, deadline=None)
@given(data=overloaded(), allocation=st.sampled_from(ALLOCATIONS), seed=st.integers(0, 3))
def test_overloaded_conservative_matches_the_oracle(data, allocation, seed):
    df, spec = data
    res = simulate(df, clusters_of(spec), "conservative", allocation, seed=seed, debug=True)
    ref = oracle(df, spec, "conservative", allocation, seed=seed)
    got = res.jobs
    assert [int(c) for c in got["cluster"]] == [int(c) for c in ref["cluster"]]
    np.testing.assert_allclose(got["start"], ref["start"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(got["end"], ref["end"], rtol=0, atol=1e-9)


def synthetic(n, procs, speeds, seed, load=1.5):
    """Poisson arrivals at ``load`` times the capacity, exponential run times, widths
    1..min(64, smallest cluster), estimates 1-3x the run time, 5 % zero run times."""
    rng = np.random.default_rng(seed)
    runtime = rng.exponential(1000.0, n)
    runtime[rng.random(n) < 0.05] = 0.0
    width = rng.integers(1, min(64, min(procs)) + 1, n)
    estimate = runtime * rng.uniform(1.0, 3.0, n)
    rate = load * sum(p * s for p, s in zip(procs, speeds, strict=True)) / np.mean(runtime * width)
    submit = np.cumsum(rng.exponential(1.0 / rate, n))
    jobs = pd.DataFrame({"submit": submit, "runtime": runtime, "procs": width,
                         "estimate": estimate})  # fmt: skip
    return jobs, [
        Cluster(f"c{i}", p, s) for i, (p, s) in enumerate(zip(procs, speeds, strict=True))
    ]


def run_with_full_recomputes(jobs, clusters, allocation):
    """The engine's event loop, with every partial recompute after early finishes
    (HOLES) turned into a full one; returns (start, end, cluster, partial sessions)."""
    cap = np.array([c.procs for c in clusters], np.int64)
    speed = np.array([c.speed for c in clusters], float)
    state = build_state(_as_jobs(jobs), cap, speed, SELECTIONS.index("conservative"),
                        CODES.index(allocation), 0, 1.0, 0, False)  # fmt: skip
    params = np.empty(0)
    everywhere = np.ones(cap.size, np.bool_)  # the session's scratch, as engine.run makes it
    declined = np.zeros(cap.sum() + 1, np.bool_)
    partial = 0
    while next_time(state) < np.inf:
        stamp, _ = process_events(state, 0, params)
        if state.ctr[REBUILD] == HOLES:
            state.ctr[REBUILD] = FULL
            partial += 1
        session(state, stamp, 0, params, everywhere, declined)
    return state.start, state.end, state.clus, partial


@pytest.mark.parametrize(
    ("procs", "speeds", "allocation", "seed"),
    [
        ((128,), (1.0,), "first_fit", 0),
        ((64, 64, 64, 64), (0.5, 1.0, 1.5, 2.0), "first_fit", 1),
        ((64, 64, 64, 64), (0.5, 1.0, 1.5, 2.0), "best_fit", 2),
        ((64, 64, 32), (1.0, 1.0, 1.0), "worst_fit", 3),
    ],
)
def test_partial_recompute_is_bit_identical_to_a_full_one(procs, speeds, allocation, seed):
    """1,500 overloaded jobs (offered load 1.5, queue in the hundreds): the schedule is
    the same, bit for bit, whether each early finish re-reserves only from the first job
    it can move or every waiting job."""
    jobs, clusters = synthetic(1500, procs, speeds, seed)
    res = simulate(jobs, clusters, "conservative", allocation)
    start, end, clus, partial = run_with_full_recomputes(jobs, clusters, allocation)
    assert partial > 1000  # nearly every finish is early
    np.testing.assert_array_equal(res.jobs["start"].to_numpy(), start)
    np.testing.assert_array_equal(res.jobs["end"].to_numpy(), end)
    np.testing.assert_array_equal(res.jobs["cluster"].to_numpy(), clus)


def test_an_early_finish_can_move_a_reservation_to_a_lower_cluster_at_the_same_time():
    """A(2), B(2), conservative + first fit. At 0: X1 (0, 5, 1, est 5) and X0 (0, 2, 1,
    est 10) on A, Y (0, 5, 2, est 5) on B. At 1: J (1, 3, 2, est 3) fits A at 10 and B at
    5 -> reserved (5, B). At 2 X0 ends 8 s early: J now fits A at 5 too, the same time on
    a lower index, so its reservation moves to (5, A) although its time does not change.
    L (2, 4, 1, est 4) then cannot use A's free processor over [2, 6) (J holds A from 5)
    and is reserved (5, B); had J stayed on B, L would have started at 2 on A."""
    df = pd.DataFrame(
        {
            "submit": [0.0, 0.0, 0.0, 1.0, 2.0],
            "runtime": [5.0, 2.0, 5.0, 3.0, 4.0],
            "procs": [1, 1, 2, 2, 1],
            "estimate": [5.0, 10.0, 5.0, 3.0, 4.0],
        }
    )
    spec = [(2, 1.0), (2, 1.0)]
    expected = [(0, 5, 0), (0, 2, 0), (0, 5, 1), (5, 8, 0), (5, 9, 1)]
    ref = oracle(df, spec, "conservative", "first_fit")
    assert list(zip(ref["start"], ref["end"], ref["cluster"], strict=True)) == expected
    got = simulate(df, clusters_of(spec), "conservative", "first_fit", debug=True).jobs
    assert list(zip(got["start"], got["end"], got["cluster"], strict=True)) == expected


def test_a_start_inside_a_zero_length_reservation_moves_it_at_the_next_event():
    """C(6), conservative, estimates = run times (found by the oracle property test). At
    0: X (0, 7, 5) runs; Z0 (0 s, 2 procs) is reserved at 7, W (1 s, 4 procs) at 7 and
    Z (0 s, 2 procs) at 7, its empty window beside W's 4 processors. At 6 V (2 s, 1 proc)
    starts: Z's reservation takes no processors, so V's window [6, 8) fits around it.
    At 7 the rule recomputes Z with V running: 4 + 1 + 2 > 6, so Z starts at 8 (the
    engine once kept Z's reservation and started it at 7)."""
    df = pd.DataFrame(
        {
            "submit": [0.0, 0.0, 0.0, 0.0, 6.0],
            "runtime": [7.0, 0.0, 1.0, 0.0, 2.0],
            "procs": [5, 2, 4, 2, 1],
        }
    )
    expected = [(0, 7, 0), (7, 7, 0), (7, 8, 0), (8, 8, 0), (6, 8, 0)]
    for allocation in ("first_fit", "median_fit"):
        ref = oracle(df, [(6, 1.0)], "conservative", allocation)
        assert list(zip(ref["start"], ref["end"], ref["cluster"], strict=True)) == expected
        got = simulate(df, clusters_of([(6, 1.0)]), "conservative", allocation, debug=True).jobs
        assert list(zip(got["start"], got["end"], got["cluster"], strict=True)) == expected


def test_the_move_counter_counts_a_change_of_cluster_at_the_same_time():
    """The example above: J's reservation moves from (5, B) to (5, A), the only move;
    with exact estimates nothing ends early and no reservation moves. Other selections
    keep no reservations and report no such counters."""
    df = pd.DataFrame(
        {
            "submit": [0.0, 0.0, 0.0, 1.0, 2.0],
            "runtime": [5.0, 2.0, 5.0, 3.0, 4.0],
            "procs": [1, 1, 2, 2, 1],
            "estimate": [5.0, 10.0, 5.0, 3.0, 4.0],
        }
    )
    spec = clusters_of([(2, 1.0), (2, 1.0)])
    counters = simulate(df, spec, "conservative", "first_fit").counters
    assert counters["reservations_moved"] == 1
    assert counters["searches"] == 2 * counters["reservations_searched"]  # two clusters
    assert counters["search_steps"] > 0
    exact = df.assign(estimate=df["runtime"])
    assert simulate(exact, spec, "conservative", "first_fit").counters["reservations_moved"] == 0
    assert "reservations_moved" not in simulate(df, spec, "easy", "first_fit").counters


def test_on_one_cluster_with_exact_estimates_each_job_is_searched_once_and_never_moves():
    """(Without zero run times: a start inside an empty reservation's window moves it,
    :func:`hpcmodels.multicluster.reservations.after_start`.)"""
    jobs, clusters = synthetic(800, (64,), (1.0,), 5)
    jobs = jobs[jobs["runtime"] > 0].reset_index(drop=True)
    jobs["estimate"] = jobs["runtime"]
    counters = simulate(jobs, clusters, "conservative", "first_fit").counters
    assert counters["reservations_moved"] == 0
    assert counters["reservations_searched"] == counters["searches"] == len(jobs)


def test_early_finishes_under_overload_move_most_reservations():
    """1,500 overloaded jobs with estimates 1-3x: the counter sees the moves that the
    module docstring's cost is about (tens of thousands), each a recomputed one."""
    jobs, clusters = synthetic(1500, (128,), (1.0,), 0)
    counters = simulate(jobs, clusters, "conservative", "first_fit").counters
    assert 10_000 < counters["reservations_moved"] <= counters["reservations_searched"]
