"""Engine v2: time ties, the rate hook, pausing a run, sparse results, bad input.

The rate-hook test drives a toy model (every running job at half speed while more than
``k`` jobs run) against a brute-force pure-Python simulation of the same rule.
"""

import math

import numpy as np
import pandas as pd
import pytest
from drawn_jobs import clusters_of
from engine_checks import assert_invariants, assert_same
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.multicluster import (
    SELECTIONS,
    Cluster,
    build_state,
    run,
    simulate,
)
from hpcmodels.multicluster.engine import DONE, PAUSED, _as_jobs

from engine_oracle import ALLOCATIONS, oracle  # the oracle's (look-ahead: test_lookahead.py)

# ---------------------------------------------------------------- time ties


def test_ends_that_differ_by_rounding_are_one_time_stamp():
    """On speed-1.5 clusters 137/1.5 + 27/1.5 and 76 + 50/1.5 differ by one ulp. A(1),
    B(1), both speed 1.5: J0 (0, 137) on A until 91.33; J1 (91.33.., 27) on A; J2 (76, 50)
    on B. Both end at "109.33": one time stamp (the later value), so the waiting J3 and
    J4 (100, 10) start together there, worst fit putting J3 on A and J4 on B."""
    t1 = 137 / 1.5
    jobs = pd.DataFrame(
        {"submit": [0.0, t1, 76.0, 100.0, 100.0], "runtime": [137.0, 27.0, 50.0, 10.0, 10.0],
         "procs": [1, 1, 1, 1, 1]}
    )  # fmt: skip
    assert t1 + 27 / 1.5 != 76 + 50 / 1.5  # the rounding this test is about
    stamp = max(t1 + 27 / 1.5, 76 + 50 / 1.5)
    spec = [(1, 1.5), (1, 1.5)]
    res = simulate(jobs, clusters_of(spec), "fcfs", "worst_fit")
    got = res.jobs
    assert got["end"][1] == got["end"][2] == stamp
    assert got["start"][3] == got["start"][4] == stamp
    ref = oracle(jobs, spec, "fcfs", "worst_fit")
    assert list(ref["start"]) == list(got["start"])


def test_distinct_events_close_together_stay_distinct():
    """The tie rule covers rounding only: at t = 6e7 s (the end of a Jones 2005 stream)
    a finish and a submission 1e-6 s later are two events. One processor: J0 (0, 6e7)
    ends at exactly 6e7, J1 arrives 1e-6 s later and starts then. The old 1e-9 relative
    rule fused the two (0.06 s wide there): J0's end was recorded at 6e7 + 1e-6."""
    t = 6e7
    jobs = pd.DataFrame({"submit": [0.0, t + 1e-6], "runtime": [t, 5.0], "procs": [1, 1]})
    res = simulate(jobs, [Cluster("A", 1)], "fcfs")
    assert res.counters["events"] == 4  # two submissions, two finishes: none fused
    assert res.jobs["start"][1] == t + 1e-6
    assert res.jobs["end"][0] == t


def test_the_oracle_keeps_the_engines_tie_rule():
    from hpcmodels.multicluster import TIME_RTOL

    from engine_oracle import TIME_RTOL as oracle_rtol

    assert oracle_rtol == TIME_RTOL == 2.0**-48


@st.composite
def tie_workloads(draw):
    """Clusters of speeds 1.5 and 3.0 and integer runtimes and submits: many ends that
    agree in exact arithmetic but not in floating point."""
    m = draw(st.integers(1, 3))
    spec = [(draw(st.integers(1, 6)), draw(st.sampled_from((1.5, 3.0)))) for _ in range(m)]
    n = draw(st.integers(1, 20))
    rows = draw(
        st.lists(
            st.tuples(st.integers(0, 30), st.integers(1, 60), st.integers(1, max(p for p, _ in spec))),
            min_size=n, max_size=n,
        )
    )  # fmt: skip
    df = pd.DataFrame(
        {"submit": [float(r[0]) for r in rows], "runtime": [float(r[1]) for r in rows],
         "procs": np.array([r[2] for r in rows], np.int64)}
    )  # fmt: skip
    return df, spec


@pytest.mark.parametrize("selection", SELECTIONS)
@settings(max_examples=60, deadline=None)
@given(data=tie_workloads(), allocation=st.sampled_from(ALLOCATIONS))
def test_engine_matches_oracle_where_rounding_splits_ties(selection, data, allocation):
    df, spec = data
    res = simulate(df, clusters_of(spec), selection, allocation, seed=3, debug=True)
    ref = oracle(df, spec, selection, allocation, seed=3)
    assert_same(res, ref, df, spec)
    assert_invariants(res, df, spec)


# ---------------------------------------------------------------- the rate hook


def halving(k):
    """The built-in "crowding" rate model as the toy of the issue: every running job at
    half its base rate while more than ``k`` jobs run."""
    return ("crowding", np.array([k, 0.5]))


def brute_force_halving(jobs, procs_total, k):
    """FCFS on one speed-1 cluster with the halving rule, by brute force: at every event
    the running jobs' remaining work is advanced at their current rate. Returns (start,
    end, the work each job received, whether some end moved later, earlier)."""
    n = len(jobs)
    submit = list(jobs["submit"])
    work = list(jobs["runtime"])
    procs = list(jobs["procs"])
    order = sorted(range(n), key=lambda j: (submit[j], j))
    start, end = [math.nan] * n, [math.nan] * n
    rem, done = list(work), [0.0] * n
    rate = {}
    free, queue, nxt, t = procs_total, [], 0, 0.0
    moved_later = moved_earlier = False
    while nxt < n or rate or queue:
        times = [t + rem[j] / rate[j] for j in rate]
        if nxt < n:
            times.append(submit[order[nxt]])
        t_next = min(times)
        limit = t_next + 1e-9 * max(abs(t_next), 1.0)
        group = [x for x in times if x <= limit]
        t_new = max(group)
        for j in list(rate):  # advance, then finishes
            step = rate[j] * (t_new - t)
            rem[j] -= step
            done[j] += step
            if t + (rem[j] + step) / rate[j] <= limit:
                end[j] = t_new
                free += procs[j]
                del rate[j]
        t = t_new
        while nxt < n and submit[order[nxt]] <= limit:
            queue.append(order[nxt])
            nxt += 1
        while queue and procs[queue[0]] <= free:
            j = queue.pop(0)
            start[j] = t
            free -= procs[j]
            rate[j] = 1.0
        factor = 0.5 if len(rate) > k else 1.0
        for j in rate:
            if rate[j] != factor:
                before = t + rem[j] / rate[j]
                after = t + rem[j] / factor
                moved_later |= after > before
                moved_earlier |= after < before
                rate[j] = factor
    return start, end, done, moved_later, moved_earlier


@settings(max_examples=80, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.integers(0, 40), st.integers(1, 30), st.integers(1, 4)),
        min_size=1,
        max_size=25,
    ),
    k=st.integers(1, 3),
)
def test_rate_hook_matches_brute_force(rows, k):
    jobs = pd.DataFrame(
        {"submit": [float(r[0]) for r in rows], "runtime": [float(r[1]) for r in rows],
         "procs": [r[2] for r in rows]}
    )  # fmt: skip
    res = simulate(jobs, [Cluster("a", 4)], "fcfs", rate_model=halving(k),
                   debug=True)  # fmt: skip
    start, end, done, _, _ = brute_force_halving(jobs, 4, k)
    np.testing.assert_allclose(res.jobs["start"], start, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(res.jobs["end"], end, rtol=1e-9, atol=1e-9)
    # every job's work is completed exactly once (rates integrated over its run)
    np.testing.assert_allclose(done, jobs["runtime"], rtol=1e-9, atol=1e-9)


def test_rate_hook_moves_ends_both_ways():
    """A(4), k = 1. J0 (0, 10, 1) runs alone at rate 1. At 2 J1 (2, 4, 1) starts: two
    run, both halve; J0's end moves later (10 -> 18), J1 runs at 0.5. J1 has done 4 by
    10: it ends at 10, J0 alone again at rate 1 with 10 - 2 - 4 = 4 left: its end moves
    earlier, from 18 to 14."""
    jobs = pd.DataFrame({"submit": [0.0, 2.0], "runtime": [10.0, 4.0], "procs": [1, 1]})
    res = simulate(jobs, [Cluster("a", 4)], "fcfs", rate_model=halving(1))
    assert list(res.jobs["end"]) == [14.0, 10.0]
    _, end, _, later, earlier = brute_force_halving(jobs, 4, 1)
    assert end == [14.0, 10.0] and later and earlier


def test_default_rate_model_changes_nothing():
    jobs = pd.DataFrame({"submit": [0.0, 1.0, 1.0], "runtime": [9.0, 3.0, 6.0], "procs": [2, 1, 2]})
    clusters = [Cluster("a", 2, 1.5), Cluster("b", 2, 3.0)]
    plain = simulate(jobs, clusters, "easy", "best_fit")
    hooked = simulate(jobs, clusters, "easy", "best_fit", rate_model=("crowding", [10, 0.5]))
    pd.testing.assert_frame_equal(plain.jobs, hooked.jobs)


# ---------------------------------------------------------------- pausing a run


def _state(jobs, clusters, selection="conservative"):
    data = _as_jobs(jobs)
    cap = np.array([c.procs for c in clusters], np.int64)
    speed = np.array([c.speed for c in clusters])
    return build_state(data, cap, speed, SELECTIONS.index(selection), 0, 0, 1.0, 0, True)


@pytest.mark.parametrize("selection", SELECTIONS)
def test_a_paused_run_goes_on_to_the_same_schedule(selection):
    """``run(..., until)`` stops before the first event after ``until`` (PAUSED); a
    second call runs the state to the end, and the schedule is that of a run never
    paused."""
    rng = np.random.default_rng(7)
    n = 200
    jobs = pd.DataFrame(
        {"submit": np.sort(rng.integers(0, 2000, n)).astype(float),
         "runtime": rng.integers(1, 300, n).astype(float), "procs": rng.integers(1, 9, n),
         "estimate": rng.integers(1, 600, n).astype(float)}
    )  # fmt: skip
    clusters = [Cluster("a", 8), Cluster("b", 6, 2.0)]
    reference = simulate(jobs, clusters, selection).jobs
    state = _state(jobs, clusters, selection)
    params = np.empty(0)
    assert run(state, 0, params, 1000.0) == PAUSED
    assert np.isnan(state.start).any()  # jobs are left to start after the pause
    assert run(state, 0, params, np.inf) == DONE
    np.testing.assert_array_equal(state.start, reference["start"].to_numpy())
    np.testing.assert_array_equal(state.end, reference["end"].to_numpy())


# ---------------------------------------------------------------- results and bad input


def test_allocation_is_sparse_on_many_clusters():
    rng = np.random.default_rng(1)
    n = 20_000
    jobs = pd.DataFrame(
        {"submit": np.sort(rng.random(n) * 1e5), "runtime": rng.random(n) * 500,
         "procs": rng.integers(1, 9, n)}
    )  # fmt: skip
    clusters = [Cluster(f"c{i}", 8) for i in range(300)]
    res = simulate(jobs, clusters, "fcfs", "best_fit")
    assert res.allocation.shape == (n, 300)
    assert res.allocation.nnz == n  # one entry per single-site job
    np.testing.assert_array_equal(res.allocation.sum(axis=1), jobs["procs"])
    assert res.allocation.data.nbytes + res.allocation.indices.nbytes < 1_000_000


def test_split_buffer_grows_when_every_job_spans_every_site():
    """300 jobs each across all 10 one-processor sites need 3,000 split entries, more
    than the initial buffer (n + processors + sites = 320): the engine pauses, grows the
    buffer and goes on, and every job's row in the allocation still holds its width."""
    n, m = 300, 10
    jobs = pd.DataFrame({"submit": np.arange(n, dtype=float), "runtime": np.full(n, 2.0),
                         "procs": np.full(n, m)})  # fmt: skip
    clusters = [Cluster(f"c{i}", 1) for i in range(m)]
    res = simulate(jobs, clusters, "fcfs", coallocation="fixed_order", debug=True)
    alloc = res.allocation.toarray()
    assert (alloc == 1).all()  # one processor on every site, for every job
    # one job at a time (each needs the whole grid): job i starts when job i-1 ends
    np.testing.assert_array_equal(res.jobs["start"], 2.0 * np.arange(n))


def test_every_job_dropped_gives_an_empty_result():
    jobs = pd.DataFrame({"submit": [0.0, 1.0], "runtime": [5.0, 5.0], "procs": [9, 10]})
    res = simulate(jobs, [Cluster("a", 8)], drop_too_wide=True)
    assert res.metrics["jobs"] == 0 and res.metrics["dropped"] == 2
    assert math.isnan(res.metrics["att"])
    assert res.jobs["start"].isna().all() and len(res.jobs) == 2
    assert res.allocation.nnz == 0


@pytest.mark.parametrize(
    ("column", "value", "match"),
    [
        ("submit", np.nan, "submit"),
        ("runtime", np.inf, "runtime"),
        ("procs", 0, "procs"),
        ("procs", 1.5, "procs"),
        ("estimate", -1.0, "estimate"),
        ("runtime", "ten", "runtime"),
    ],
)
def test_bad_job_values_are_named(column, value, match):
    jobs = pd.DataFrame({"submit": [0.0, 1.0], "runtime": [5.0, 5.0], "procs": [1, 2],
                         "estimate": [5.0, 5.0]}).astype(object)  # fmt: skip
    jobs.loc[1, column] = value
    with pytest.raises(ValueError, match=match):
        simulate(jobs, [Cluster("a", 8)])


@pytest.mark.parametrize("bad", [np.nan, np.inf, 0.5, "x", None])
def test_bad_slowdown_is_an_error(bad):
    jobs = pd.DataFrame({"submit": [0.0], "runtime": [5.0], "procs": [1]})
    with pytest.raises(ValueError, match="slowdown"):
        simulate(jobs, [Cluster("a", 8)], coallocation="fixed_order", slowdown=bad)


def test_empty_workload_is_an_error():
    with pytest.raises(ValueError, match="empty"):
        simulate(pd.DataFrame({"submit": [], "runtime": [], "procs": []}), [Cluster("a", 8)])


@pytest.mark.parametrize(
    ("model", "match"),
    [(("crowding", [1, 0.0]), "rate"), (("crowding", [1, np.nan]), "finite"),
     (("warp", [1]), "rate model"), (("crowding", [[1, 2]]), "finite")],
)  # fmt: skip
def test_bad_rate_models_are_errors(model, match):
    jobs = pd.DataFrame({"submit": [0.0, 0.0], "runtime": [5.0, 5.0], "procs": [1, 1]})
    with pytest.raises(ValueError, match=match):
        simulate(jobs, [Cluster("a", 8)], rate_model=model)


def _allocation_from_triples(state, keep, m):
    """The allocation as the engine built it before issue 55: coordinate triples, one per
    (job, site), from the state's clusters and split entries, then scipy's conversion
    (the oracle of the direct CSR builder)."""
    import scipy.sparse as sp

    rows, cols, vals = [], [], []
    kept_rows = np.flatnonzero(keep)
    for j, c in enumerate(state.clus):
        if c >= 0:
            rows.append(kept_rows[j]), cols.append(c), vals.append(state.procs[j])
        elif c == -1:  # co-allocated: its split entries, in order
            for k in range(state.split_off[j], state.split_off[j] + state.split_len[j]):
                rows.append(kept_rows[j])
                cols.append(state.split_site[k])
                vals.append(state.split_procs[k])
    return sp.csr_array((vals, (rows, cols)), shape=(keep.size, m), dtype=np.int64)


@settings(max_examples=40, deadline=None)
@given(
    widths=st.lists(st.integers(1, 14), min_size=1, max_size=40),
    coallocation=st.sampled_from([None, "fixed_order", "larger_first"]),
)
def test_the_allocation_matrix_holds_each_jobs_sites_and_widths(widths, coallocation):
    """The CSR built directly (issue 55: no coordinate triples) equals, entry by entry
    and in each row's order, the one built from coordinate triples: a single-site job
    its width on its cluster, a co-allocated job its split entries, a dropped job (wider
    than the system) nothing; int64 indices, as the triples gave."""
    from hpcmodels.multicluster.engine import (
        SIMULATE_DEFAULTS,
        _sparse_allocation,
        prepare_run,
        run_to_end,
    )
    from hpcmodels.multicluster.state import take_split_index

    m = 3
    jobs = pd.DataFrame({"submit": np.arange(len(widths), dtype=float),
                         "runtime": np.full(len(widths), 3.0), "procs": widths})  # fmt: skip
    clusters = [Cluster("a", 4), Cluster("b", 6), Cluster("c", 2)]
    options = dict(coallocation=coallocation, drop_too_wide=True, debug=True)
    run = prepare_run(jobs, clusters, "fcfs", "first_fit", **SIMULATE_DEFAULTS | options)
    if not hasattr(run, "state"):  # every job dropped
        assert run.allocation.nnz == 0 and run.allocation.shape == (len(widths), m)
        return
    state = run_to_end(run.state)
    ref = _allocation_from_triples(state, run.keep, m)
    ours = _sparse_allocation(state, run.keep, m, take_split_index(state))
    assert state.split_off.size == state.split_len.size == 0  # freed before the matrix
    assert ours.indices.dtype == ref.indices.dtype == np.int64
    assert ours.indptr.dtype == ref.indptr.dtype and ours.data.dtype == np.int64
    np.testing.assert_array_equal(ours.indptr, ref.indptr)
    np.testing.assert_array_equal(ours.indices, ref.indices)
    np.testing.assert_array_equal(ours.data, ref.data)
    sums = np.asarray(ours.sum(axis=1)).ravel()
    np.testing.assert_array_equal(sums, np.where(run.keep, widths, 0))


def test_simulate_defaults_are_what_prepare_run_takes_and_give_simulates_result():
    """SIMULATE_DEFAULTS (what callers that build a run in steps start from) names every
    keyword prepare_run requires, and a run built from it is simulate's with defaults."""
    import inspect

    from hpcmodels.multicluster.engine import SIMULATE_DEFAULTS, finish_run, prepare_run, run_to_end

    required = [
        name
        for name, p in inspect.signature(prepare_run).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    assert sorted(SIMULATE_DEFAULTS) == sorted(required)
    assert SIMULATE_DEFAULTS["slowdown"] == 1.0 and SIMULATE_DEFAULTS["coallocation"] is None
    jobs = pd.DataFrame({"submit": [0.0, 1.0, 2.0], "runtime": [5.0, 2.0, 1.0], "procs": [3, 2, 4]})
    clusters = [Cluster("a", 4), Cluster("b", 3)]
    run = prepare_run(jobs, clusters, "fcfs", "first_fit", **SIMULATE_DEFAULTS)
    run.state = run_to_end(run.state)
    pd.testing.assert_frame_equal(
        finish_run(run).jobs, simulate(jobs, clusters, "fcfs", "first_fit").jobs
    )
