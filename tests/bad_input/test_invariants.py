"""Results that break an invariant without a word (issue 25): a score overwritten by a
cluster of the same name, a negative turnaround from a job submitted after the snapshot,
jobs that a co-allocation module can never place left unstarted with NaN metrics, an
allotment of zeros when a link's demands overflow, an error's class lost when it is
reworded; and the invariants themselves at scale: the engine on 1,000 clusters and
100,000 jobs (every job completes once, no cluster over-committed at any instant) and
the queueing allocations on 1,000 clusters (fractions finite, >= 0, summing to 1)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hpcmodels.bandwidth import Network, allot_bandwidth
from hpcmodels.bandwidth.model import allot_kernel
from hpcmodels.bandwidth.modules import A1, MODULES, module_split
from hpcmodels.errors import InvalidParameter, InvalidType, check_real, reworded
from hpcmodels.multicluster import Cluster, RunningJob, WaitingJob, simulate, tla_scores
from hpcmodels.queueing import (
    algorithm1,
    omr_allocation,
    ort_allocation,
    saturation_rate,
    weighted_allocation,
)

# ---------------------------------------------------------------- 1. duplicate names


def test_tla_scores_refuses_two_clusters_of_one_name():
    # before: one entry, the second cluster's score silently replacing the first's
    with pytest.raises(InvalidParameter, match=r"clusters 0 and 1 are both named 'a'"):
        tla_scores([Cluster("a", 8, 1.0), Cluster("a", 8, 2.0)], [], [(4, 0.0, 10.0)])


def test_simulate_refuses_two_clusters_of_one_name():
    jobs = pd.DataFrame({"submit": [0.0], "runtime": [1.0], "procs": [1]})
    clusters = [Cluster("x", 2), Cluster("y", 2), Cluster("x", 4)]
    with pytest.raises(InvalidParameter, match=r"clusters 0 and 2 are both named 'x'.*unique"):
        simulate(jobs, clusters)


def test_distinct_names_get_one_score_each():
    scores = tla_scores([Cluster("a", 8, 1.0), Cluster("b", 8, 2.0)], [], [(4, 0.0, 10.0)])
    assert sorted(scores) == ["a", "b"]
    assert scores["a"].att == 10.0 and scores["b"].att == 5.0


# ---------------------------------------------------------------- 2. submitted after now

TWO = [Cluster("a", 8, 1.0), Cluster("b", 8, 2.0)]


def test_tla_scores_refuses_a_waiting_job_submitted_after_now():
    # before: att -90 and -95, turnarounds that end before the job was submitted
    with pytest.raises(InvalidParameter, match=r"waiting\[0\]\.submit = 100\.0 .* now = 0\.0"):
        tla_scores(TWO, [], [(4, 100.0, 10.0)], now=0.0)
    waiting = [(4, 0.0, 10.0), (2, 5.0, 1.0), (8, 50.5, 1.0)]
    with pytest.raises(InvalidParameter, match=r"waiting\[2\]\.submit = 50\.5 .* now = 50\.0"):
        tla_scores(TWO, [], waiting, now=50.0)


def test_a_job_submitted_at_now_and_a_running_job_ended_before_now_are_taken():
    # the running job's 4 processors on a count as released at now: the 8-processor job
    # starts at now in both branches (on a when the target went to b, on b otherwise)
    waiting = [WaitingJob(4, 100.0, 10.0), WaitingJob(8, 100.0, 10.0)]
    scores = tla_scores(TWO, [RunningJob("a", 4, 90.0)], waiting, now=100.0)
    assert scores["a"].turnaround == [10.0, 5.0] and scores["a"].clusters == ["a", "b"]
    assert scores["b"].turnaround == [5.0, 10.0] and scores["b"].clusters == ["b", "a"]
    assert scores["a"].starts == scores["b"].starts == [100.0, 100.0]


@settings(max_examples=60, deadline=None)
@given(
    now=st.floats(-1e6, 1e6),
    waits=st.lists(st.tuples(st.integers(1, 8), st.floats(0, 1e4), st.floats(0, 1e3)),
                   min_size=1, max_size=6),
    running=st.lists(st.tuples(st.sampled_from("ab"), st.integers(1, 2), st.floats(-1e6, 1e6)),
                     max_size=3),
)  # fmt: skip
def test_every_turnaround_of_a_valid_snapshot_is_at_least_the_run_time(now, waits, running):
    # waiting jobs submitted up to 10^4 s before now: each simulated turnaround is at
    # least the job's run time on the fastest cluster, never negative
    waiting = [(p, now - back, est) for p, back, est in waits]
    for name, score in tla_scores(TWO, running, waiting, now=now).items():
        floor = np.array([est / 2.0 for _, _, est in waiting]) * (1 - 1e-12)
        assert np.all(np.array(score.turnaround) >= floor - 1e-9 * max(abs(now), 1)), name
        assert np.all(np.array(score.starts) >= now)


# ---------------------------------------------------------------- 3. modules that never place

CLUSTERS = [Cluster("a", 10), Cluster("b", 8), Cluster("c", 12)]
JOBS = pd.DataFrame({"submit": [0.0, 1.0, 2.0], "runtime": [5.0] * 3, "procs": [4, 25, 3],
                     "origin": [0, 1, 2]})  # fmt: skip
NET = Network(bsbw=500.0, link_mbps=300.0, lslt=1.0, chunk=0.9, compute_fraction=0.4)


@pytest.mark.parametrize("module", ["a1", "b3"])
def test_a_job_a_module_cannot_place_even_on_idle_clusters_is_refused(module):
    # before: job 1 never started (NaN start and end), dropped 0 and NaN metrics
    pattern = (rf"job 1 with 25 processors.*co-allocation module '{module}' cannot place it "
               r"even on idle clusters.*pass drop_too_wide=True to leave them out")  # fmt: skip
    with pytest.raises(InvalidParameter, match=pattern):
        simulate(JOBS, CLUSTERS, "first_available", "local_first", coallocation=module,
                 network=NET)  # fmt: skip


@pytest.mark.parametrize("module", ["a1", "b3"])
def test_with_drop_too_wide_the_unplaceable_job_is_left_out_and_counted(module):
    res = simulate(JOBS, CLUSTERS, "first_available", "local_first", coallocation=module,
                   network=NET, drop_too_wide=True)  # fmt: skip
    assert res.metrics["dropped"] == 1 and res.metrics["jobs"] == 2
    assert np.isnan(res.jobs["start"].iloc[1]) and res.jobs["cluster"].iloc[1] == -2
    assert res.jobs["start"].iloc[[0, 2]].tolist() == [0.0, 2.0]
    assert res.metrics["att"] == 5.0 and res.metrics["mean_wait"] == 0.0
    assert res.allocation[[1], :].nnz == 0


def test_a_module_that_can_place_the_wide_job_keeps_it():
    # B1 needs only 25 free nodes on links below LSLT: it co-allocates job 1 at t = 1
    res = simulate(JOBS, CLUSTERS, "first_available", "local_first", coallocation="b1",
                   network=NET)  # fmt: skip
    assert res.metrics["dropped"] == 0 and res.jobs["cluster"].iloc[1] == -1
    assert res.jobs["start"].iloc[1] == 1.0 and math.isfinite(res.metrics["att"])


def test_an_unplaceable_job_and_a_job_wider_than_all_clusters_are_counted_together():
    jobs = JOBS.assign(procs=[4, 25, 31])  # job 2 is wider than the 30 nodes together
    pattern = r"1 job\(s\) can never start \(and 1 wider than all clusters together\), e.g. job 1 "
    with pytest.raises(InvalidParameter, match=pattern):
        simulate(jobs, CLUSTERS, "fcfs", "first_fit", coallocation="a1", network=NET)
    res = simulate(jobs, CLUSTERS, "fcfs", "first_fit", coallocation="a1", network=NET,
                   drop_too_wide=True)  # fmt: skip
    assert res.metrics["dropped"] == 2
    assert res.jobs["start"].notna().tolist() == [True, False, False]


@st.composite
def module_runs(draw):
    """A small system, a stream on it (some jobs wider than every cluster, a few wider
    than all together) and a network; the module and the policies."""
    m = draw(st.integers(1, 4))
    caps = draw(st.lists(st.integers(1, 12), min_size=m, max_size=m))
    n = draw(st.integers(1, 12))
    gaps = draw(st.lists(st.sampled_from([0.0, 0.5, 3.0, 20.0]), min_size=n, max_size=n))
    jobs = pd.DataFrame({
        "submit": np.cumsum(gaps),
        "runtime": draw(st.lists(st.floats(1.0, 50.0), min_size=n, max_size=n)),
        "procs": draw(st.lists(st.integers(1, sum(caps) + 2), min_size=n, max_size=n)),
        "origin": draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n)),
    })  # fmt: skip
    links = draw(st.one_of(st.floats(10.0, 2000.0),
                           st.lists(st.floats(10.0, 2000.0), min_size=m, max_size=m)))  # fmt: skip
    network = Network(bsbw=draw(st.sampled_from([0.0, 50.0, 400.0, 900.0, 5000.0])),
                      link_mbps=links, lslt=draw(st.sampled_from([0.0, 0.2, 0.6, 1.0, 1.5])),
                      chunk=draw(st.sampled_from([0.0, 0.3, 0.7, 0.9, 1.0])),
                      compute_fraction=0.4, dynamic=draw(st.booleans()))  # fmt: skip
    selection = draw(st.sampled_from(["fcfs", "first_available", "first_available_once"]))
    allocation = draw(st.sampled_from(["local_first", "first_fit", "best_fit"]))
    clusters = [Cluster(f"c{i}", p) for i, p in enumerate(caps)]
    return jobs, clusters, selection, allocation, draw(st.sampled_from(MODULES)), network


@settings(max_examples=150, deadline=None)
@given(run=module_runs())
def test_with_drop_too_wide_every_kept_job_starts(run):
    jobs, clusters, selection, allocation, module, network = run
    res = simulate(jobs, clusters, selection, allocation, coallocation=module, network=network,
                   drop_too_wide=True, debug=True)  # fmt: skip
    started = res.jobs["start"].notna().to_numpy()
    assert res.metrics["dropped"] + started.sum() == len(jobs)
    assert np.array_equal(np.isfinite(res.jobs["end"].to_numpy()), started)
    cap = np.array([c.procs for c in clusters])
    assert np.all(jobs["procs"].to_numpy()[~started] > cap.max())  # only wide jobs dropped
    if started.any():
        for key in ("att", "mean_wait", "mean_bounded_slowdown", "makespan", "utilization"):
            assert math.isfinite(res.metrics[key]), key
    try:  # without the flag: the same run, or an error naming the flag
        again = simulate(jobs, clusters, selection, allocation, coallocation=module,
                         network=network)  # fmt: skip
    except InvalidParameter as err:
        assert "drop_too_wide=True" in str(err) and not started.all()
    else:
        assert started.all() and again.jobs["start"].notna().all()


@st.composite
def dominated_states(draw):
    """Two states of the same system, the second with at least as many free nodes and
    at most the link load of the first on every cluster, and a job width."""
    m = draw(st.integers(1, 5))
    cap = np.array(draw(st.lists(st.integers(1, 10), min_size=m, max_size=m)), np.int64)
    link = np.array(draw(st.lists(st.floats(10.0, 1000.0), min_size=m, max_size=m)))
    free_hi = np.array([draw(st.integers(0, c)) for c in cap], np.int64)
    free_lo = np.array([draw(st.integers(0, f)) for f in free_hi], np.int64)
    load_lo = np.array([draw(st.floats(0.0, 2.0)) for _ in range(m)]) * link
    load_hi = load_lo + np.array([draw(st.floats(0.0, 2.0)) for _ in range(m)]) * link
    if draw(st.booleans()):  # the better state is the idle system
        free_hi, load_lo = cap.copy(), np.zeros(m)
    p = draw(st.integers(1, int(cap.sum()) + 1))
    knobs = (draw(st.sampled_from([0.0, 50.0, 400.0, 900.0])),
             draw(st.sampled_from([0.0, 0.3, 1.0, 1.4])), draw(st.sampled_from([0.0, 0.5, 0.9])))  # fmt: skip
    return cap, link, (free_lo, load_hi), (free_hi, load_lo), p, knobs


@settings(max_examples=300, deadline=None)
@given(states=dominated_states(), module=st.sampled_from(MODULES))
def test_a_module_only_loses_options_as_free_nodes_fall_and_loads_rise(states, module):
    # the reason an unplaceable job can be judged on the idle system (engine.idle_unplaceable)
    cap, link, worse, better, p, (bsbw, lslt, chunk) = states
    code = A1 + MODULES.index(module)
    m = cap.size
    sites, widths = np.empty(m, np.int64), np.empty(m, np.int64)

    def placed(state):
        free, load = state
        return module_split(code, free.copy(), load, link, p, bsbw, lslt, chunk, sites, widths, 0)

    if placed(worse) > 0:
        assert placed(better) > 0


# ---------------------------------------------------------------- 4. overflowing demands


def _ratios_agree(demand, allotted):
    """Each job's allotted/required ratio is one number on every link it spans."""
    for d, a in zip(demand, allotted, strict=True):
        r = a[d > 0] / d[d > 0]
        if r.size:
            np.testing.assert_allclose(r, r[0], rtol=1e-12, atol=0)


def test_demands_whose_sum_overflows_are_allotted_not_zeroed():
    demand = np.array([[1e308, 1e308], [1e308, 0.0]])
    capacity = np.array([100.0, 50.0])
    out = allot_bandwidth(demand, capacity)  # before: all zeros (the link total was inf)
    np.testing.assert_array_equal(out, [[50.0, 50.0], [50.0, 0.0]])
    scaled = allot_bandwidth(np.ldexp(demand, -8), np.ldexp(capacity, -8))
    np.testing.assert_array_equal(out, np.ldexp(scaled, 8))


@settings(max_examples=100, deadline=None)
@given(
    jobs=st.integers(2, 6),
    links=st.integers(1, 4),
    data=st.data(),
)
def test_overflowing_demands_get_the_scaled_problem_s_allotment(jobs, links, data):
    mant = st.floats(0.5, 1.0, exclude_max=True)
    demand = np.array(data.draw(st.lists(st.tuples(*[mant] * links), min_size=jobs,
                                         max_size=jobs)))  # fmt: skip
    expo = np.array(data.draw(st.lists(st.tuples(*[st.integers(1015, 1024)] * links),
                                       min_size=jobs, max_size=jobs)))  # fmt: skip
    spans = np.array(data.draw(st.lists(st.tuples(*[st.booleans()] * links), min_size=jobs,
                                        max_size=jobs)))  # fmt: skip
    spans[:2, 0] = True  # two jobs at 2**1023 or more on link 0: its total overflows
    expo[:2, 0] = 1024
    demand = np.where(spans, np.ldexp(demand, expo), 0.0)
    capacity = np.ldexp(np.array(data.draw(st.lists(mant, min_size=links, max_size=links))),
                        data.draw(st.lists(st.integers(-20, 1020), min_size=links,
                                           max_size=links)))  # fmt: skip
    with np.errstate(over="ignore"):
        assert not np.isfinite(demand.sum(axis=0)).all()
    out = allot_bandwidth(demand, capacity)
    k = 12  # 6 jobs below 2**1024 each sum below 2**1027: 2**-12 keeps every total finite
    scaled = np.empty_like(demand)
    allot_kernel(np.ldexp(demand, -k), np.ldexp(capacity, -k), scaled)
    np.testing.assert_array_equal(out, np.ldexp(scaled, k))
    assert np.all(np.isfinite(out)) and np.all(out >= 0) and np.all(out <= demand)
    assert np.all(out[demand > 0] > 0)  # nothing zeroed
    # a link whose capacity is below 2**-1022 of its demand has a subnormal saturation
    # factor (the kernel's, at any scale): the bounds hold to the bits it keeps only
    total = np.ldexp(demand, -k).sum(axis=0)
    if np.all(np.ldexp(capacity, -k) >= np.ldexp(total, -1000)):
        assert np.all(out.sum(axis=0) <= capacity * (1 + 1e-12))
        _ratios_agree(demand, out)


def test_finite_totals_are_allotted_by_the_kernel_unscaled():
    demand = np.array([[300.0, 10.0, 0.0], [200.0, 0.0, 80.0], [0.0, 40.0, 90.0]])
    capacity = np.array([250.0, 100.0, 100.0])
    expected = np.empty_like(demand)
    allot_kernel(demand, capacity, expected)
    np.testing.assert_array_equal(allot_bandwidth(demand, capacity), expected)


# ---------------------------------------------------------------- 5. reworded errors


def test_reworded_keeps_the_error_class():
    for error in (InvalidParameter("a"), InvalidType("b")):
        again = reworded(error, "x must be 1")
        assert type(again) is type(error) and str(again) == "x must be 1"
    with pytest.raises(InvalidType, match="speed"):
        try:
            check_real("s", "fast")
        except InvalidParameter as err:
            raise reworded(err, "speed must be a number") from None


def test_a_string_link_capacity_stays_an_invalid_type():
    with pytest.raises(InvalidType, match="link_mbps") as caught:
        Network(bsbw=1.0, link_mbps="300")
    assert isinstance(caught.value, InvalidParameter) and isinstance(caught.value, TypeError)


def test_a_bad_number_for_one_link_capacity_is_reworded_as_invalid_parameter():
    for bad in (float("nan"), -1.0, 0, np.float64("inf")):
        rule = "Network.link_mbps must be finite and > 0"
        with pytest.raises(InvalidParameter, match=rule) as caught:
            Network(bsbw=1.0, link_mbps=bad)
        assert not isinstance(caught.value, TypeError), bad  # a number: no InvalidType


def test_rate_model_parameters_of_the_wrong_type_stay_an_invalid_type():
    jobs = pd.DataFrame({"submit": [0.0], "runtime": [1.0], "procs": [1]})
    # before: a plain InvalidParameter (the InvalidType of check_array was reworded away)
    for params in ("1 0.5", None, {"a": 1}):
        with pytest.raises(InvalidType, match=r"rate model parameters .*\(rate_model\)"):
            simulate(jobs, [Cluster("a", 2)], rate_model=("crowding", params))
    with pytest.raises(InvalidParameter, match=r"\(rate_model\)") as caught:
        simulate(jobs, [Cluster("a", 2)], rate_model=("crowding", [1, float("nan")]))
    assert not isinstance(caught.value, TypeError)


def test_algorithm1_keeps_the_class_of_a_bad_packed_slack():
    args = (1, [4, 4], [1.0, 1.0], 1.0)
    with pytest.raises(InvalidType, match="packed must be"):
        algorithm1(*args, None)
    # before: an InvalidType (a TypeError) for a pair of the right type, lo > hi
    with pytest.raises(InvalidParameter, match=r"packed must be .*lo=5\.0 > hi=1\.0") as caught:
        algorithm1(*args, (5.0, 1.0))
    assert not isinstance(caught.value, TypeError)
    with pytest.raises(InvalidType, match=r"algorithm1 needs a stable system .*nodes"):
        algorithm1(0, None, [1.0], 1.0)


# ---------------------------------------------------------------- 6a. the engine at scale


def _system(m: int, seed: int) -> list[Cluster]:
    rng = np.random.default_rng(seed)
    procs = rng.integers(1, 65, m)
    procs[0] = 64
    speed = rng.uniform(0.5, 2.0, m)
    return [Cluster(f"c{i}", int(p), float(s)) for i, (p, s) in enumerate(zip(procs, speed, strict=True))]  # fmt: skip


def _stream(n: int, clusters: list[Cluster], seed: int, widest: int) -> pd.DataFrame:
    """``n`` jobs of 1..``widest`` processors at 90 % of the system's capacity (by the
    runtimes at speed 1), estimates up to 3 times the runtime."""
    rng = np.random.default_rng(seed)
    total = sum(c.procs for c in clusters)
    procs = rng.integers(1, widest + 1, n)
    runtime = rng.exponential(100.0, n)
    gap = (procs * runtime).mean() / (0.9 * total)
    return pd.DataFrame({"submit": np.cumsum(rng.exponential(gap, n)), "runtime": runtime,
                         "procs": procs, "estimate": runtime * rng.uniform(1.0, 3.0, n)})  # fmt: skip


def _assert_schedule(res, jobs: pd.DataFrame, clusters: list[Cluster]) -> None:
    """Every job completes exactly once where the allocation says, and no cluster has
    more processors in use than it holds at any instant."""
    cap = np.array([c.procs for c in clusters])
    speed = np.array([c.speed for c in clusters])
    m, n = cap.size, len(jobs)
    start, end = res.jobs["start"].to_numpy(), res.jobs["end"].to_numpy()
    submit, procs = jobs["submit"].to_numpy(), jobs["procs"].to_numpy()
    cluster = res.jobs["cluster"].to_numpy()
    assert res.metrics["dropped"] == 0 and res.metrics["jobs"] == n
    assert np.all(np.isfinite(start)) and np.all(np.isfinite(end))
    assert np.all(start >= submit) and np.all(end >= start)
    assert np.all((cluster == -1) | ((cluster >= 0) & (cluster < m)))
    alloc = res.allocation.tocoo()
    assert alloc.shape == (n, m) and np.all(alloc.data > 0)
    np.testing.assert_array_equal(np.asarray(res.allocation.sum(axis=1)).ravel(), procs)
    single = cluster >= 0
    np.testing.assert_array_equal(res.allocation[np.flatnonzero(single), cluster[single]],
                                  procs[single])  # fmt: skip
    slowest = np.full(n, np.inf)  # a job runs at its slowest site's speed
    np.minimum.at(slowest, alloc.row, speed[alloc.col])
    run = jobs["runtime"].to_numpy() / slowest
    np.testing.assert_allclose(end - start, run, rtol=1e-9, atol=1e-6)
    # sweep: +procs at a start, -procs at an end, ends first at one instant
    rows, cols, vals = alloc.row, alloc.col, alloc.data.astype(np.int64)
    time = np.concatenate([end[rows], start[rows]])
    site = np.concatenate([cols, cols])
    delta = np.concatenate([-vals, vals])
    kind = np.concatenate([np.zeros(rows.size), np.ones(rows.size)])
    order = np.lexsort((kind, time, site))
    site, delta = site[order], delta[order]
    level = np.cumsum(delta)
    first = np.searchsorted(site, np.arange(m))  # each cluster's first event
    has = first < site.size
    base = np.zeros(m, np.int64)
    base[has] = level[first[has]] - delta[first[has]]
    in_use = level - base[site]
    peak = np.zeros(m, np.int64)
    np.maximum.at(peak, site, in_use)
    assert np.all(peak <= cap), f"over-committed: {np.flatnonzero(peak > cap)[:5]}"


PAIRS = [("fcfs", "first_fit", None), ("easy", "best_fit", None),
         ("first_available", "first_fit", "larger_first")]  # fmt: skip


@pytest.mark.parametrize(("selection", "allocation", "coallocation"), PAIRS)
def test_the_engine_keeps_its_invariants_at_scale(selection, allocation, coallocation):
    # 1,000 clusters, 100,000 jobs, debug on: 3 s, 9 s and 21 s on 2 shared cores
    clusters = _system(1000, seed=1)
    widest = 128 if coallocation else 64  # co-allocated jobs span up to 3 sites
    jobs = _stream(100_000, clusters, seed=2, widest=widest)
    res = simulate(jobs, clusters, selection, allocation, coallocation=coallocation, debug=True)
    _assert_schedule(res, jobs, clusters)
    if coallocation:
        assert (res.jobs["cluster"] == -1).sum() > 1000  # the co-allocation path is taken


def test_the_sweep_catches_an_over_committed_cluster():
    clusters = [Cluster("a", 4), Cluster("b", 4)]
    jobs = pd.DataFrame({"submit": [0.0, 0.0, 0.0], "runtime": [2.0, 2.0, 1.0],
                         "procs": [3, 2, 4]})  # fmt: skip
    res = simulate(jobs, clusters, debug=True)
    _assert_schedule(res, jobs, clusters)  # job 2 waits for a: sound
    res.allocation = res.allocation.tolil()
    res.allocation[1, :] = [2, 0]  # job 1 moved to a, beside job 0: 5 of 4 processors
    res.allocation = res.allocation.tocsr()
    res.jobs.loc[1, "cluster"] = 0
    with pytest.raises(AssertionError, match="over-committed"):
        _assert_schedule(res, jobs, clusters)


# ---------------------------------------------------------------- 6b. allocations at scale


def _queueing_system(m: int, seed: int):
    rng = np.random.default_rng(seed)
    nodes = rng.integers(1, 65, m)
    rates = rng.uniform(0.1, 10.0, m)
    return nodes, rates, 0.9 * saturation_rate(nodes, rates)


@settings(max_examples=12, deadline=None)
@given(m=st.integers(1, 1000), seed=st.integers(0, 2**32 - 1))
@example(m=1000, seed=0)
@example(m=1000, seed=1)
@example(m=1000, seed=2)
def test_allocations_are_fractions_summing_to_one(m, seed):
    nodes, rates, lam = _queueing_system(m, seed)
    for name, fractions in (("weighted", weighted_allocation(nodes, rates)),
                            ("ort", ort_allocation(nodes, rates, lam)),
                            ("omr", omr_allocation(nodes, rates, lam))):  # fmt: skip
        assert fractions.shape == (m,), name
        assert np.all(np.isfinite(fractions)) and np.all(fractions >= 0), name
        assert abs(fractions.sum() - 1.0) <= 1e-12, (name, 1.0 - fractions.sum())
        assert np.all(fractions * lam < nodes * rates), name  # every cluster stable
