"""Static dispatch (multicluster/dispatch.py): He 2006's dispatchers in front of the
engine. The smooth round robin hands out each cluster's share within one job, no job is
sent where it cannot run, each cluster serves its own queue (a run equals the engine on
each cluster alone), and on He's own model (sequential jobs, M/M/m clusters) the engine
gives He's simulator's mean response time for the same stream."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from drawn_jobs import clusters_of, jobs_frame
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.errors import InvalidParameter
from hpcmodels.multicluster import simulate
from hpcmodels.multicluster.dispatch import dispatch, queueing_fractions, simulate_dispatched
from hpcmodels.queueing import ort_allocation, weighted_allocation
from hpcmodels.queueing.dispatch import simulate_dispatch
from hpcmodels.queueing.system import MultiCluster, Stream

SYSTEM = clusters_of([(8, 1.0), (4, 2.0), (2, 0.5)])


def _stream(n: int, seed: int = 0, widest: int = 8) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "submit": np.cumsum(rng.exponential(5.0, n)),
            "runtime": rng.exponential(20.0, n),
            "procs": rng.integers(1, widest + 1, n),
        }
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(0.0, 1.0), min_size=3, max_size=3).filter(lambda w: sum(w) > 0.1),
    st.integers(1, 300),
)
def test_round_robin_gives_each_cluster_its_share_within_one_job(weights, n):
    alpha = np.asarray(weights) / sum(weights)
    jobs = _stream(n, widest=2)  # fits every cluster
    counts = np.bincount(dispatch(jobs, SYSTEM, alpha, "round_robin")["origin"], minlength=3)
    assert np.all(np.abs(counts - n * alpha) <= 1.0 + 1e-9)
    assert np.all(counts[alpha == 0] == 0)


def test_random_dispatch_follows_the_fractions_and_its_seed():
    alpha = np.array([0.5, 0.3, 0.2])
    jobs = _stream(20_000, widest=2)
    a = dispatch(jobs, SYSTEM, alpha, "random", seed=3)["origin"]
    assert a.equals(dispatch(jobs, SYSTEM, alpha, "random", seed=3)["origin"])
    assert not a.equals(dispatch(jobs, SYSTEM, alpha, "random", seed=4)["origin"])
    share = np.bincount(a, minlength=3) / len(jobs)
    assert np.allclose(share, alpha, atol=0.015)


@pytest.mark.parametrize("order", ["random", "round_robin"])
def test_no_job_is_sent_where_it_cannot_run_and_shares_renormalise(order):
    jobs = _stream(3_000, seed=1, widest=8)
    alpha = np.array([0.2, 0.4, 0.4])
    sent = dispatch(jobs, SYSTEM, alpha, order, seed=1)
    sizes = np.array([8, 4, 2])
    assert np.all(sent["procs"].to_numpy() <= sizes[sent["origin"].to_numpy()])
    wide = sent[sent["procs"] > 4]
    assert (wide["origin"] == 0).all()  # only cluster 0 holds them
    narrow = sent[sent["procs"] <= 2]
    share = np.bincount(narrow["origin"], minlength=3) / len(narrow)
    assert np.allclose(share, alpha, atol=0.05)


def test_a_job_fitting_only_zero_fraction_clusters_goes_to_the_widest_it_fits():
    jobs = jobs_frame([(0, 1, 8), (1, 1, 1), (2, 1, 3)])
    sent = dispatch(jobs, SYSTEM, [0.0, 0.0, 1.0], "round_robin")
    assert sent["origin"].tolist() == [0, 2, 0]


def test_dispatch_follows_submit_order_not_row_order():
    jobs = jobs_frame([(5, 1, 1), (0, 1, 1), (9, 1, 1)])
    sent = dispatch(jobs, SYSTEM, [0.5, 0.5, 0.0], "round_robin")
    assert sent["origin"].tolist() == [1, 0, 0]  # the job at t = 0 goes first, to cluster 0


def test_each_cluster_serves_its_own_queue():
    jobs = dispatch(_stream(400, seed=2), SYSTEM, [0.5, 0.3, 0.2], "random", seed=2)
    for selection in ("fcfs", "easy", "conservative"):
        res = simulate_dispatched(jobs, SYSTEM, selection)
        for c, cluster in enumerate(SYSTEM):
            mine = jobs["origin"] == c
            alone = simulate(jobs[mine].drop(columns="origin"), [cluster], selection, "first_fit")
            assert np.array_equal(res.jobs.loc[mine, "start"], alone.jobs["start"])
            assert np.array_equal(res.jobs.loc[mine, "end"], alone.jobs["end"])
        turnaround = res.jobs["end"] - res.jobs["submit"]
        assert res.metrics["att"] == pytest.approx(turnaround.mean(), rel=1e-12)
        assert (res.jobs["cluster"] == jobs["origin"]).all()


def test_a_blocked_cluster_does_not_hold_up_the_others():
    """One global FCFS queue with local_only would keep job 1 (cluster 1, idle) behind
    job 0 (cluster 0, busy); dispatched clusters do not wait for each other."""
    jobs = jobs_frame([(0, 10, 8), (1, 5, 8), (2, 1, 1)])
    jobs["origin"] = [0, 0, 1]
    res = simulate_dispatched(jobs, SYSTEM, "fcfs")
    assert res.jobs["start"].tolist() == [0.0, 10.0, 2.0]
    shared = simulate(jobs, SYSTEM, "fcfs", "local_only")
    assert shared.jobs["start"].tolist()[2] == 10.0


@pytest.mark.parametrize("seed", [0, 1])
def test_on_hes_model_the_engine_gives_hes_simulator_mean_response(seed):
    """He 2006's Table 2 style system: sequential jobs, FCFS M/M/m clusters, weighted
    round robin by ORT's fractions. Same stream (the queueing simulator's draws), same
    dispatch sequence, so the same schedule: the engine's mean response over the measured
    jobs equals He's simulator's."""
    system = MultiCluster(
        (3, 5, 7, 9), (20 / 84 * 10, 16 / 84 * 10, 12 / 84 * 10, 8 / 84 * 10), 10.0
    )
    stream = Stream(0.6 * float(np.dot(system.nodes, system.rates)))
    n, warm, cool = 4_000, 500, 500
    alpha = ort_allocation(system.nodes, system.rates, stream.arrival_rate)
    he = simulate_dispatch(system, alpha, "round_robin", stream, n_jobs=n, warmup=warm,
                           cooldown=cool, seed=seed)  # fmt: skip
    rng = np.random.default_rng(seed)
    jobs = pd.DataFrame({"submit": np.cumsum(stream.interarrivals(rng, n)),
                         "runtime": stream.job_sizes(rng, n), "procs": np.ones(n, np.int64)})  # fmt: skip
    clusters = clusters_of(list(zip(system.nodes, system.speeds, strict=True)))
    res = simulate_dispatched(dispatch(jobs, clusters, alpha, "round_robin"), clusters, "fcfs")
    response = (res.jobs["end"] - res.jobs["submit"]).to_numpy()[warm : n - cool]
    assert response.mean() == pytest.approx(he.mean_response, rel=1e-9)


def test_fractions_read_the_system_as_he_models_it():
    jobs = _stream(20_000, seed=4, widest=1)
    jobs["procs"] = 1
    cap, speed = np.array([8, 4, 2]), np.array([1.0, 2.0, 0.5])
    rates = speed / float(jobs["runtime"].mean())
    lam = len(jobs) / float(jobs["submit"].max() - jobs["submit"].min())
    assert np.allclose(queueing_fractions(jobs, SYSTEM, "ort"), ort_allocation(cap, rates, lam))
    assert np.allclose(
        queueing_fractions(jobs, SYSTEM, "weighted"), weighted_allocation(cap, rates)
    )
    assert np.allclose(queueing_fractions(jobs, SYSTEM, "equal"), 1 / 3)
    overloaded = jobs.assign(runtime=jobs["runtime"] * 100)  # loading far above 1
    assert np.allclose(queueing_fractions(overloaded, SYSTEM, "ort"), [8 / 17, 8 / 17, 1 / 17])


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda j: dispatch(j, SYSTEM, [0.5, 0.5], "round_robin"), "fractions"),
        (lambda j: dispatch(j, SYSTEM, [0.5, np.nan, 0.5], "round_robin"), "fractions"),
        (lambda j: dispatch(j, SYSTEM, [0.7, 0.7, -0.4], "round_robin"), "fractions"),
        (lambda j: dispatch(j, SYSTEM, [0.5, 0.4, 0.0], "round_robin"), "sum to 1"),
        (lambda j: dispatch(j, SYSTEM, "ort", "round_robin"), "fractions"),
        (lambda j: dispatch(j, SYSTEM, [None, 0.5, 0.5], "round_robin"), "fractions"),
        (lambda j: dispatch(j, SYSTEM, [np.inf, 0.0, 0.0], "round_robin"), "fractions"),
        (lambda j: dispatch(j, SYSTEM, [], "round_robin"), "fractions"),
        (lambda j: dispatch(j, SYSTEM, [1, 0, 0], "lottery"), "order"),
        (lambda j: dispatch(j, SYSTEM, [1, 0, 0], "random", seed=-1), "seed"),
        (lambda j: dispatch(j.drop(columns="procs"), SYSTEM, [1, 0, 0]), "procs"),
        (lambda j: dispatch(j.assign(procs=9), SYSTEM, [1, 0, 0]), "wider than every cluster"),
        (lambda j: dispatch(list(j), SYSTEM, [1, 0, 0]), "jobs must be a pandas DataFrame"),
        (lambda j: queueing_fractions(j, SYSTEM, "omr"), "rule"),
        (lambda j: queueing_fractions(j.iloc[:1], SYSTEM, "ort"), "positive time"),
        (lambda j: queueing_fractions(j.assign(runtime=0.0), SYSTEM, "ort"), "work"),
        (lambda j: simulate_dispatched(j, SYSTEM), "origin"),
        (lambda j: simulate_dispatched(j.assign(origin=3), SYSTEM), "origin"),
        (lambda j: simulate_dispatched(j.assign(origin=0.5), SYSTEM), "origin"),
        (lambda j: simulate_dispatched(j.iloc[:0].assign(origin=0), SYSTEM), "empty"),
    ],
)
def test_bad_input_is_refused_naming_the_field(call, field):
    with pytest.raises(InvalidParameter, match=field):
        call(_stream(20, widest=2))
