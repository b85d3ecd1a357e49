"""Parameters read loosely (issue 51): a parameter that cannot apply where it is given is
an error naming it and saying when it applies, a flag is a bool, a path is a path, and
an explorer's argument outside its slider's range is refused rather than moved to the
nearer end. Each test is the hostile call and the clean error it gets; beside each, one
call with a valid value that still works."""

from __future__ import annotations

import pandas as pd
import pytest

from hpcmodels.bandwidth import Network, run_point
from hpcmodels.bandwidth.experiment import Setup, att_gap
from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.explorers import policy_explorer
from hpcmodels.multicluster import Cluster, TLAOptions, simulate
from hpcmodels.papers.across import methods as across_methods
from hpcmodels.papers.across.ground import ground_clusters

REFUSED = (InvalidParameter, InvalidType)
CLUSTERS = [Cluster("a", 4), Cluster("b", 4)]
JOBS = pd.DataFrame({"submit": [0.0, 1.0, 2.0], "runtime": [10.0, 10.0, 4.0], "procs": [3, 6, 2]})
NET = Network(bsbw=500.0)
STATIC = Network(bsbw=500.0, dynamic=False)
HUANG_JOBS = pd.DataFrame({"submit": [0.0, 5.0], "runtime": [10.0, 20.0], "procs": [2, 6]})


# ---------------------------------------------------------------- simulate's knobs


@pytest.mark.parametrize(
    ("kw", "name"),
    [
        (dict(slowdown=2.0), "slowdown"),  # no co-allocation: nothing to slow down
        (dict(slowdown=1.5, allocation="best_fit"), "slowdown"),
        (dict(slowdown=2, coallocation="a1", network=NET), "slowdown"),  # the links price it
        (dict(slowdown=1.0 + 1e-9, coallocation="b3", network=NET), "slowdown"),
        (dict(tla=TLAOptions()), "tla"),  # first fit reads no TLA knob
        (dict(tla=TLAOptions(depth=3), allocation="ai2"), "tla"),
        (dict(tla=TLAOptions(), allocation="best_fit", coallocation="fixed_order"), "tla"),
        (dict(network=NET), "network"),  # no co-allocation: no link is ever loaded
        (dict(network=STATIC), "network"),
        (dict(network=STATIC, coallocation="larger_first"), "network"),  # runs at full speed
        (dict(network=NET, allocation="ai2"), "network"),
    ],
)
def test_simulate_refuses_a_knob_that_does_not_apply(kw, name):
    with pytest.raises(REFUSED, match=name):
        simulate(JOBS, CLUSTERS, **kw)


def test_simulate_reads_each_knob_where_it_applies():
    base = simulate(JOBS, CLUSTERS, coallocation="fixed_order")
    slow = simulate(JOBS, CLUSTERS, coallocation="fixed_order", slowdown=2.0)
    co = slow.jobs["cluster"] == -1
    assert co.any() and (slow.jobs["end"] - slow.jobs["start"])[co].tolist() == [20.0]
    assert slow.metrics["att"] > base.metrics["att"]
    narrow = JOBS.assign(procs=[3, 4, 2])  # TLA does not co-allocate
    tla = simulate(narrow, CLUSTERS, allocation="tla", tla=TLAOptions(depth=2))
    assert "tla_activations" in tla.counters
    for module, network in (("a1", NET), ("b3", STATIC), ("larger_first", NET)):
        res = simulate(JOBS, CLUSTERS, coallocation=module, network=network, drop_too_wide=True)
        assert "max_link_level" in res.counters
    defaults = simulate(narrow, CLUSTERS, slowdown=1.0, tla=None, network=None)
    assert defaults.metrics == simulate(narrow, CLUSTERS).metrics


def test_section_4_runs_pass_tla_knobs_to_the_tla_runs_only():
    from hpcmodels.papers.shih2013 import run_configurations

    runs = run_configurations(
        ["A1"],
        ["low"],
        [0.0],
        n_jobs=300,
        tla=TLAOptions(depth=2),
        client="serial",
        progress=False,
    )
    assert runs["att"].notna().all() and runs["tla_activations"].notna().sum() == 1


def test_the_huang_explorer_passes_its_slowdown_only_to_huang_heuristics(capsys):
    # one cluster: no co-allocation, so the slowdown slider's 6 is not passed to the runs
    policy_explorer(HUANG_JOBS.assign(procs=[2, 3]), [Cluster("a", 4)], slowdown=6.0)
    shown = capsys.readouterr().out
    assert "configuration A:" not in shown and "configuration B:" not in shown
    assert "Styler" in shown  # both runs went through: their table is shown


# ---------------------------------------------------------------- Jones's and 06's points

SMALL = Setup(clusters=2, nodes=20, jobs_per_cluster=300, min_nodes=5, max_nodes=18)


@pytest.mark.parametrize("strategy", ["a1", "b3", "first_fit", "ideal", "migration_only"])
def test_a_jones_point_refuses_a_penalty_it_would_ignore(strategy):
    with pytest.raises(InvalidParameter, match="penalty"):
        run_point(strategy, SMALL, penalty=1.5)
    with pytest.raises(InvalidParameter, match="penalty"):
        att_gap(strategy, SMALL, 1e9, penalty=1.2)


def test_the_fixed_penalty_point_reads_its_penalty():
    row = run_point("fixed_penalty", SMALL, penalty=1.5)
    assert row["coallocated"] > 0 and row["penalty"] == pytest.approx(1.5)
    assert run_point("a1", SMALL, penalty=None)["strategy"] == "a1"


CROSS = pd.DataFrame(
    {"submit": [0.0, 1.0, 2.0], "runtime": [50.0, 50.0, 5.0], "procs": [100, 200, 4]}
).assign(origin=[0, 1, 2])


@pytest.mark.parametrize(
    ("method", "kw"),
    [
        ("TLA", dict(slowdown=2.0)),  # never co-allocates
        ("Migration Only", dict(links=None, slowdown=2.0)),
        ("ORT, round robin", dict(links=None, slowdown=2.0)),  # a dispatcher
        ("Fixed Order", dict(slowdown=2.0)),  # its jobs pay on the (default) links
        ("Jones First-Fit", dict(slowdown=3.0)),
    ],
)
def test_an_across_method_refuses_a_slowdown_it_would_ignore(method, kw):
    with pytest.raises(InvalidParameter, match="slowdown"):
        across_methods.run_method(method, CROSS, ground_clusters(0, 0), **kw)


def test_an_across_method_reads_the_slowdown_where_it_co_allocates_without_links():
    clusters = ground_clusters(0, 0)
    fixed = across_methods.run_method("Fixed Order", CROSS, clusters, links=None, slowdown=2.0)
    plain = across_methods.run_method("Fixed Order", CROSS, clusters, links=None)
    assert fixed["coallocated"] > 0 and fixed["att"] > plain["att"]
    wide = across_methods.Links(bsbw=50.0)
    assert across_methods.run_method("B1", CROSS, clusters, links=wide)["coallocated"] > 0
