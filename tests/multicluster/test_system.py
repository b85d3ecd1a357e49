"""One form for a system of clusters (issue 54): :func:`as_system` checks and converts the
clusters once, at the public entry, and every function below takes the :class:`System`
as it is."""

import numpy as np
import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.multicluster import Cluster, as_system, simulate, tla_scores
from hpcmodels.multicluster.dispatch import dispatch, queueing_fractions, simulate_dispatched
from hpcmodels.multicluster.lookahead import RunningJob, WaitingJob
from hpcmodels.papers.across.methods import run_method

CLUSTERS = [Cluster("a", 4, 1.0), Cluster("b", 8, 2.0), Cluster("c", 2, 0.5)]
JOBS = pd.DataFrame(
    {
        "submit": np.arange(12, dtype=float) * 3.0,
        "runtime": np.linspace(5.0, 40.0, 12),
        "procs": np.array([1, 2, 4, 1, 2, 1, 3, 2, 1, 4, 2, 1], np.int64),
    }
)


def test_a_system_holds_the_clusters_names_sizes_and_speeds_in_order():
    system = as_system(c for c in CLUSTERS)  # a generator, read once
    assert system.clusters == tuple(CLUSTERS) and list(system) == CLUSTERS
    assert system.names == ["a", "b", "c"] and len(system) == 3 and system[1] == CLUSTERS[1]
    assert system.procs.dtype == np.int64 and system.procs.tolist() == [4, 8, 2]
    assert system.speeds.dtype == np.float64 and system.speeds.tolist() == [1.0, 2.0, 0.5]
    assert as_system(system) is system  # handed down as it is, not converted again


@pytest.mark.parametrize(
    "clusters, error, match",
    [
        (CLUSTERS[0], InvalidType, "clusters must be a list"),
        ("ab", InvalidType, "clusters must be a list"),
        ({"a": 4}, InvalidType, "clusters must be a list"),
        (4, InvalidType, "clusters must be a list"),
        (None, InvalidType, "clusters must be a list"),
        ([], InvalidParameter, "at least one cluster"),
        (iter(()), InvalidParameter, "at least one cluster"),
        ([CLUSTERS[0], ("b", 8)], InvalidType, "Cluster objects"),
        ([CLUSTERS[0], Cluster("a", 2)], InvalidParameter, "both named 'a'"),
        ([Cluster("x", 2**52), Cluster("y", 2**52 + 1)], InvalidParameter, "at most 2\\*\\*53"),
    ],
)
def test_bad_clusters_are_refused_naming_the_problem(clusters, error, match):
    with pytest.raises(error, match=match):
        as_system(clusters)


def test_every_entry_gives_the_same_result_for_a_system_as_for_its_list():
    system = as_system(CLUSTERS)
    a, b = simulate(JOBS, CLUSTERS, "easy", "best_fit"), simulate(JOBS, system, "easy", "best_fit")
    pd.testing.assert_frame_equal(a.jobs, b.jobs)
    assert a.metrics == b.metrics and a.clusters == b.clusters == CLUSTERS
    fractions = queueing_fractions(JOBS, CLUSTERS, "ort")
    assert np.array_equal(fractions, queueing_fractions(JOBS, system, "ort"))
    sent = dispatch(JOBS, CLUSTERS, fractions, "random", seed=3)
    pd.testing.assert_frame_equal(sent, dispatch(JOBS, system, fractions, "random", seed=3))
    served = simulate_dispatched(sent, system)
    assert served.metrics == simulate_dispatched(sent, CLUSTERS).metrics
    assert served.clusters == CLUSTERS
    running, waiting = [RunningJob(1, 4, 10.0)], [WaitingJob(2, 0.0, 5.0), WaitingJob(4, 0.0, 8.0)]
    assert tla_scores(system, running, waiting) == tla_scores(CLUSTERS, running, waiting)


@pytest.mark.parametrize("method", ["ORT, round robin", "Random", "Best Fit"])
def test_a_method_reads_clusters_given_once_as_a_generator(method):
    """``run_method`` hands the clusters to several functions; before they were one value,
    a generator was used up by the first (the dispatchers' fractions) and the second
    refused it: 'need at least one cluster'."""
    listed = run_method(method, JOBS, CLUSTERS, seed=1)
    once = run_method(method, JOBS, (c for c in CLUSTERS), seed=1)
    listed.pop("seconds_per_job"), once.pop("seconds_per_job")
    assert once == listed


def test_a_system_carries_its_networks_links_computed_once_at_the_entry(monkeypatch):
    from hpcmodels.bandwidth import Network

    system = as_system(CLUSTERS, Network(bsbw=100.0, link_mbps=(100.0, 200.0, 300.0)))
    assert system.links.dtype == np.float64 and system.links.tolist() == [100.0, 200.0, 300.0]
    assert as_system(CLUSTERS).links.size == 0  # no network, no links
    same = as_system(system, Network(bsbw=100.0, link_mbps=50.0))
    assert same.links.tolist() == [50.0] * 3 and same.procs is system.procs
    with pytest.raises(InvalidParameter, match="link_mbps has 2 links for 3 clusters"):
        as_system(CLUSTERS, Network(bsbw=100.0, link_mbps=(100.0, 200.0)))
    calls = []
    original = Network.link_capacities
    monkeypatch.setattr(
        Network, "link_capacities", lambda self, m: calls.append(m) or original(self, m)
    )
    wide = JOBS.assign(procs=JOBS["procs"].where(JOBS.index != 3, 9))  # co-allocated at idle
    net = Network(bsbw=10.0, link_mbps=1000.0)
    res = simulate(wide, CLUSTERS, "fcfs", "first_fit", coallocation="b1", network=net)
    assert calls == [3]  # once, at the entry: the unplaceable check and the state share it
    assert res.jobs["start"].notna().all()


@pytest.mark.parametrize("network", ["net", 1000.0, float("nan"), [1000.0], {"bsbw": 1.0}])
def test_a_network_that_is_not_one_is_refused_naming_it(network):
    with pytest.raises(InvalidType, match="network must be a hpcmodels.bandwidth.Network"):
        as_system(CLUSTERS, network)
