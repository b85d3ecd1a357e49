"""Parameters read loosely (issue 51): a parameter that cannot apply where it is given is
an error naming it and saying when it applies, a flag is a bool, a path is a path, and
an explorer's argument outside its slider's range is refused rather than moved to the
nearer end. Each test is the hostile call and the clean error it gets; beside each, one
call with a valid value that still works."""

from __future__ import annotations

import pandas as pd
import pytest

from hpcmodels.bandwidth import Network
from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.explorers import policy_explorer
from hpcmodels.multicluster import Cluster, TLAOptions, simulate

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
