"""Jones 2005 on the engine: schedules against the pure-Python oracle (Eqs. 6-7 applied
literally), the model's limits, A1's guarantee, and bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jones_oracle import jones_oracle

from hpcmodels.bandwidth import SECTION6, Network, Setup, run_point, workload
from hpcmodels.multicluster import Cluster, simulate

CLUSTERS = [Cluster("a", 10), Cluster("b", 8), Cluster("c", 12)]


@st.composite
def jobs_with_origin(draw):
    n = draw(st.integers(1, 18))
    gaps = draw(st.lists(st.sampled_from([0.0, 1.0, 2.5, 7.0]), min_size=n, max_size=n))
    return pd.DataFrame({
        "submit": np.cumsum(gaps),
        "runtime": draw(st.lists(st.floats(1.0, 60.0), min_size=n, max_size=n)),
        "procs": draw(st.lists(st.integers(2, 12), min_size=n, max_size=n)),
        "origin": draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)),
    })  # fmt: skip


def _engine(jobs, selection, allocation, module, network):
    kw = {}
    if module is not None:
        kw["coallocation"] = "larger_first" if module == "first_fit" else module
        kw["network"] = network
    res = simulate(jobs, CLUSTERS, selection, allocation, debug=True, **kw)
    return res


def _compare(jobs, selection, allocation, module, network):
    ours = _engine(jobs, selection, allocation, module, network)
    ref = jones_oracle(jobs, CLUSTERS, selection, allocation, module, network)
    np.testing.assert_array_equal(ours.jobs["cluster"], ref["cluster"])
    np.testing.assert_allclose(ours.jobs["start"], ref["start"], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.jobs["end"], ref["end"], rtol=1e-9, atol=1e-9)
    alloc = ours.allocation.toarray()
    np.testing.assert_array_equal(alloc, np.array(ref["alloc"].tolist()))


MODULES = ["first_fit", "a1", "b1", "b2", "b3", "b4"]


@pytest.mark.parametrize("module", MODULES)
@settings(max_examples=40, deadline=None)
@given(jobs=jobs_with_origin(), bsbw=st.sampled_from([50.0, 400.0, 900.0]),
       lslt=st.sampled_from([0.4, 1.0, 1.2]), data=st.data())  # fmt: skip
def test_modules_match_the_oracle(module, jobs, bsbw, lslt, data):
    selection = data.draw(st.sampled_from(["first_available", "first_available_once"]))
    network = Network(bsbw=bsbw, link_mbps=300.0, lslt=lslt, chunk=0.7, compute_fraction=0.4)
    _compare(jobs, selection, "local_first", module, network)


def test_b2_breaks_an_exact_tie_of_link_loads_by_index():
    """A job cut 7 + 5 over two links loads them equally in exact arithmetic (Eq. 1 is
    symmetric in n and N - n); B2 then takes the lower index first, as the oracle's exact
    loads do (found by the property test above: the float form of Eq. 1 differs there
    in the last bit)."""
    n = 18
    jobs = pd.DataFrame({
        "submit": 0.0,
        "runtime": [1.0, 1.0, 1.0, 2.0] + [1.0] * 14,
        "procs": [2, 2, 3, 12] + [2] * 12 + [3, 2],
        "origin": [1, 2, 0, 0] + [0] * (n - 4),
    })  # fmt: skip
    network = Network(bsbw=50.0, link_mbps=300.0, lslt=0.4, chunk=0.7, compute_fraction=0.4)
    _compare(jobs, "first_available", "local_first", "b2", network)
    split = _engine(jobs, "first_available", "local_first", "b2", network).allocation
    assert split.toarray()[16].tolist() == [1, 0, 2]


@pytest.mark.parametrize("allocation", ["local_only", "local_first"])
@settings(max_examples=40, deadline=None)
@given(jobs=jobs_with_origin())
def test_local_allocation_matches_the_oracle(allocation, jobs):
    jobs["procs"] = np.minimum(jobs["procs"], [CLUSTERS[o].procs for o in jobs["origin"]])
    _compare(jobs, "first_available", allocation, None, None)


def test_local_only_rejects_a_job_wider_than_its_own_cluster():
    jobs = pd.DataFrame({"submit": [0.0, 1.0], "runtime": [1.0, 1.0], "procs": [9, 9],
                         "origin": [1, 0]})  # fmt: skip
    with pytest.raises(ValueError, match="own cluster"):
        simulate(jobs, CLUSTERS, "first_available", "local_only")
    res = simulate(jobs, CLUSTERS, "first_available", "local_only", drop_too_wide=True)
    assert res.metrics["dropped"] == 1 and res.jobs["start"].iloc[1] == 1.0


def test_first_fit_without_communication_is_ideal():
    setup = Setup(clusters=3, jobs_per_cluster=2_000)
    jobs = workload(setup, 1)
    ideal = simulate(jobs, setup.system, "first_available", "local_first",
                     coallocation="larger_first")  # fmt: skip
    for network in (Network(bsbw=700.0, compute_fraction=1.0), Network(bsbw=0.0)):
        dyn = simulate(jobs, setup.system, "first_available", "local_first",
                       coallocation="larger_first", network=network)  # fmt: skip
        np.testing.assert_allclose(dyn.jobs["end"], ideal.jobs["end"], rtol=1e-12)
    slow = simulate(jobs, setup.system, "first_available", "local_first",
                    coallocation="larger_first", network=Network(bsbw=700.0))  # fmt: skip
    co = slow.jobs["cluster"] == -1
    ran = slow.jobs["end"] - slow.jobs["start"]
    assert (ran >= slow.jobs["runtime"] - 1e-9 * slow.jobs["end"]).all()  # rounding of end - start
    assert (ran[co] > slow.jobs["runtime"][co] * 1.01).any()


@pytest.mark.parametrize("lslt", [0.4, 0.8, 1.0, 1.2])
def test_a1_never_exceeds_the_threshold(lslt):
    row = run_point("a1", SECTION6.scaled(3_000), bsbw=800.0, lslt=lslt, debug=True)
    assert row["coallocated"] > 0
    assert row["max_link_level"] <= lslt * (1 + 1e-9)


def test_b_modules_overshoot_by_at_most_one_job():
    # a link at or past LSLT takes no more jobs: beyond it by at most one job's demand
    # (BSBW at most: Eq. 1 peaks at n = N / 2), over a 1000 Mbps link
    row = run_point("b1", SECTION6.scaled(3_000), bsbw=800.0, lslt=0.6)
    assert 0.6 < row["max_link_level"] <= 0.6 + 800.0 / 1000.0


def test_one_job_per_event_reading_is_no_better():
    setup = SECTION6.scaled(3_000)
    once = run_point("migration_only", setup, selection="first_available_once")
    one_pass = run_point("migration_only", setup)
    assert once["att"] > one_pass["att"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(allocation="local_first"), "origin"),
        (dict(coallocation="b1"), "network"),
        (
            dict(allocation="local_only", coallocation="larger_first", with_origin=True),
            "local_only",
        ),
        (dict(coallocation="a1", network="fast"), "network"),
        (dict(network=Network(bsbw=1.0), rate_model=("crowding", [1, 0.5])), "rate_model"),
        (dict(allocation="local_first", with_origin=True, origin=7), "origin"),
        (dict(allocation="local_first", with_origin=True, origin=-1), "origin"),
    ],
)
def test_engine_bad_input(kwargs, message):
    kwargs = dict(kwargs)
    jobs = pd.DataFrame({"submit": [0.0], "runtime": [1.0], "procs": [2]})
    if kwargs.pop("with_origin", False):
        jobs["origin"] = kwargs.pop("origin", 0)
    with pytest.raises(ValueError, match=message):
        simulate(jobs, CLUSTERS, "first_available", **kwargs)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: run_point("b5"), "strategy"),
        (lambda: run_point("fixed_penalty", SECTION6.scaled(10)), "penalty"),
        (lambda: run_point("fixed_penalty", SECTION6.scaled(10), penalty=float("nan")), "penalty"),
        (lambda: run_point("ideal", SECTION6.scaled(10), selection="fcfs"), "selection"),
        (lambda: Setup(clusters=0), "clusters"),
        (lambda: Setup(max_nodes=200), "max_nodes"),
        (lambda: Setup(mean_runtime=float("inf")), "mean_runtime"),
        (lambda: Setup(compute_fraction=2.0), "compute_fraction"),
        (lambda: workload(SECTION6.scaled(10), -1), "seed"),
        (lambda: run_point("a1", SECTION6.scaled(10), bsbw=float("nan")), "bsbw"),
        (lambda: run_point("b1", SECTION6.scaled(10), lslt=-0.5), "lslt"),
        (lambda: run_point("b3", SECTION6.scaled(10), chunk=1.5), "chunk"),
        (lambda: run_point("first_fit", SECTION6.scaled(10), bsbw="fast"), "bsbw"),
    ],
)
def test_experiment_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
