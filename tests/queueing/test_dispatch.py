import numpy as np
import pytest

from hpcmodels.queueing import (
    SpikeSlack,
    mean_miss_rate_of,
    mean_response_time_of,
    ort_allocation,
    weighted_allocation,
)
from hpcmodels.queueing.dispatch import replicate, simulate_dispatch, summarize
from hpcmodels.queueing.system import (
    MultiCluster,
    Stream,
    bounded_pareto_mean,
    hyperexp_params,
)

TABLE2 = MultiCluster((3, 5, 7, 9), (20, 16, 12, 8))
RUN = dict(n_jobs=120_000, warmup=20_000, cooldown=10_000)


@pytest.mark.parametrize(
    ("system", "workload", "which", "slack"),
    [
        (TABLE2, 0.5, "ort", (0.0, 30.0)),
        (TABLE2, 0.8, "weighted", (0.0, 10.0)),
        (MultiCluster((4, 4, 4, 4), (15, 3, 3, 3)), 0.5, "ort", (0.0, 10.0)),
        (MultiCluster((1, 2), (10, 4)), 0.7, "weighted", SpikeSlack((2.0, 20.0), (0.5, 0.5))),
    ],
)
def test_random_dispatch_matches_the_mmm_model(system, workload, which, slack):
    """Weighted random splitting of a Poisson stream gives independent M/M/m queues,
    so the simulated means must agree with Eqs. 9-10 and 16-17 within their 99 % CI."""
    lam = system.arrival_rate(workload)
    alpha = (
        ort_allocation(system.nodes, system.rates, lam)
        if which == "ort"
        else weighted_allocation(system.nodes, system.rates)
    )
    runs = replicate(system, alpha, "random", Stream(lam), slack=slack, seeds=range(8), **RUN)
    r_mean, r_half = summarize(runs.mean_response, confidence=0.99)
    m_mean, m_half = summarize(runs.miss_rate, confidence=0.99)
    assert abs(r_mean - mean_response_time_of(system.nodes, system.rates, lam, alpha)) <= r_half
    expected_miss = mean_miss_rate_of(system.nodes, system.rates, lam, alpha, slack)
    assert abs(m_mean - expected_miss) <= m_half + 1e-6


def test_round_robin_realises_the_fractions_exactly():
    lam = TABLE2.arrival_rate(0.3)
    alpha = np.array([0.5, 0.25, 0.125, 0.125])
    r = simulate_dispatch(
        TABLE2, alpha, "round_robin", Stream(lam), n_jobs=8000, warmup=0, cooldown=0
    )
    assert r.shares == pytest.approx(alpha, abs=1 / 8000)
    zero = simulate_dispatch(
        TABLE2, [0.7, 0.3, 0, 0], "round_robin", Stream(lam), n_jobs=5000, warmup=0, cooldown=0
    )
    assert zero.shares[2:] == pytest.approx([0, 0])


def test_round_robin_beats_random_and_dll_bounds_both():
    lam = TABLE2.arrival_rate(0.5)
    alpha = ort_allocation(TABLE2.nodes, TABLE2.rates, lam)
    means = {
        d: replicate(TABLE2, alpha, d, Stream(lam), seeds=range(3), **RUN).mean_response.mean()
        for d in ("random", "round_robin", "dll")
    }
    assert means["dll"] < means["round_robin"] < means["random"]


def test_dlm_waits_least():
    lam = TABLE2.arrival_rate(0.8)
    alpha = weighted_allocation(TABLE2.nodes, TABLE2.rates)
    wait = {
        d: replicate(TABLE2, alpha, d, Stream(lam), seeds=range(2), **RUN).mean_wait.mean()
        for d in ("round_robin", "dlm")
    }
    assert wait["dlm"] < wait["round_robin"]


def test_same_seed_same_numbers():
    lam = TABLE2.arrival_rate(0.6)
    alpha = weighted_allocation(TABLE2.nodes, TABLE2.rates)
    stream = Stream(lam, arrival_cv=2.0, sizes="bounded_pareto")
    a = simulate_dispatch(TABLE2, alpha, "random", stream, slack=(0, 30), seed=7, **RUN)
    b = simulate_dispatch(TABLE2, alpha, "random", stream, slack=(0, 30), seed=7, **RUN)
    c = simulate_dispatch(TABLE2, alpha, "random", stream, slack=(0, 30), seed=8, **RUN)
    assert a.mean_response == b.mean_response and a.miss_rate == b.miss_rate
    assert a.mean_response != c.mean_response


def test_hyperexponential_arrivals_have_the_requested_cv():
    rng = np.random.default_rng(3)
    for cv in (1.0, 2.0, 3.0):
        x = Stream(0.5, arrival_cv=cv).interarrivals(rng, 400_000)
        assert x.mean() == pytest.approx(2.0, rel=0.02)
        assert x.std() / x.mean() == pytest.approx(cv, rel=0.03)
    p1, m1, m2 = hyperexp_params(1.0, 3.0)
    assert p1 * m1 == pytest.approx(0.5) and (1 - p1) * m2 == pytest.approx(0.5)


def test_bounded_pareto_sizes():
    rng = np.random.default_rng(4)
    x = Stream(1.0, sizes="bounded_pareto").job_sizes(rng, 400_000)
    assert x.min() >= 15.0 and x.max() <= 4241.0
    assert bounded_pareto_mean(15.0, 4241.0, 1.0) == pytest.approx(84.96, abs=0.01)
    assert x.mean() == pytest.approx(84.96, rel=0.03)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: simulate_dispatch(TABLE2, [0.25] * 4, "fastest", Stream(1.0)), "dispatcher"),
        (lambda: simulate_dispatch(TABLE2, [0.5] * 4, "random", Stream(1.0)), "sum to 1"),
        (lambda: simulate_dispatch(TABLE2, [0.5] * 2, "random", Stream(1.0)), "2 entries"),
        (
            lambda: simulate_dispatch(
                TABLE2, [0.25] * 4, "random", Stream(1.0), n_jobs=100, warmup=60, cooldown=50
            ),
            "warmup",
        ),
        (lambda: Stream(1.0, arrival_cv=0.5), "arrival_cv"),
        (lambda: Stream(-1.0), "arrival_rate"),
        (lambda: Stream(1.0, sizes="weibull"), "sizes"),
        (lambda: MultiCluster((3, 0), (1, 1)), "nodes"),
        (lambda: MultiCluster((3, 2), (1, -1)), "rates"),
        (lambda: TABLE2.arrival_rate(1.0), "workload"),
    ],
)
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
