"""Results compare by value (issue 25): a user checking that a rerun gives the same
result writes ``a == b``. For every simulator's result class, two runs of the same input
are equal, a different run is not, comparing with another kind of object is simply
unequal, and no comparison raises NumPy's "truth value of an array is ambiguous"."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from hpcmodels.equality import same_value
from hpcmodels.mdp.model import CoallocationMDP
from hpcmodels.mdp.solve import value_iteration
from hpcmodels.multicluster import Cluster, RunningJob, WaitingJob, simulate, tla_scores
from hpcmodels.queueing import algorithm1
from hpcmodels.queueing.dispatch import simulate_dispatch
from hpcmodels.queueing.system import MultiCluster, Stream

JOBS = pd.DataFrame({"submit": [0.0, 1.0, 2.0, 2.5], "runtime": [5.0, 3.0, 4.0, 1.0],
                     "procs": [4, 8, 2, 6]})  # fmt: skip
CLUSTERS = [Cluster("A", 8, 2.0), Cluster("B", 8, 1.0)]
SYSTEM = MultiCluster((3, 5), (20, 16))


def _runs():
    """Per simulator: (a run, the same run again, a different run)."""
    lam = SYSTEM.arrival_rate(0.5)
    alpha = np.array([0.5, 0.5])
    dispatch = dict(n_jobs=2_000, warmup=0, cooldown=0)
    mdp = CoallocationMDP(1.0, 1.0, 0.5, truncation=8)
    waiting = [WaitingJob(3, -5.0, 10.0), WaitingJob(6, -4.0, 2.0)]
    return {
        "simulate": (lambda: simulate(JOBS, CLUSTERS, "fcfs", "best_fit"),
                     lambda: simulate(JOBS.assign(runtime=[5.0, 3.0, 4.0, 2.0]), CLUSTERS, "fcfs", "best_fit")),
        "simulate, co-allocated": (
            lambda: simulate(JOBS.assign(procs=[4, 12, 2, 6]), CLUSTERS, "fcfs",
                             coallocation="larger_first"),
            lambda: simulate(JOBS.assign(procs=[4, 12, 2, 7]), CLUSTERS, "fcfs",
                             coallocation="larger_first")),
        "simulate_dispatch": (
            lambda: simulate_dispatch(SYSTEM, alpha, "random", Stream(lam), seed=1, **dispatch),
            lambda: simulate_dispatch(SYSTEM, alpha, "random", Stream(lam), seed=2, **dispatch)),
        "algorithm1": (lambda: algorithm1(0, (3, 5), (20.0, 16.0), lam),
                       lambda: algorithm1(0, (3, 5), (20.0, 16.0), 0.5 * lam)),
        "value_iteration": (lambda: _no_clock(value_iteration(mdp)),
                            lambda: _no_clock(value_iteration(CoallocationMDP(1.0, 1.2, 0.5,
                                                                              truncation=8)))),
        "tla_scores": (lambda: tla_scores(CLUSTERS, [RunningJob("A", 1, 5.0)], waiting),
                       lambda: tla_scores(CLUSTERS, [RunningJob("B", 4, 5.0)], waiting)),
    }  # fmt: skip


def _no_clock(solution):
    """A solution with its wall time zeroed: the clock differs from run to run."""
    solution.seconds = 0.0
    return solution


@pytest.mark.parametrize("name", list(_runs()))
def test_equal_runs_compare_equal_and_different_ones_do_not(name):
    run, other = _runs()[name]
    a, b, c = run(), run(), other()
    assert a is not b
    assert a == b and not (a != b)
    assert a != c and not (a == c)
    assert a != "a result" and a is not None


def test_a_run_whose_metrics_are_nan_equals_its_rerun():
    wide = JOBS.assign(procs=[99, 99, 99, 99])
    a = simulate(wide, CLUSTERS, drop_too_wide=True)
    b = simulate(wide, CLUSTERS, drop_too_wide=True)
    assert np.isnan(a.metrics["att"]) and a == b


def test_results_are_unhashable_rather_than_wrongly_hashed():
    with pytest.raises(TypeError):
        hash(simulate(JOBS, CLUSTERS))


@pytest.mark.parametrize(
    "a, b, equal",
    [
        (np.array([1.0, np.nan]), np.array([1.0, np.nan]), True),
        (np.array([1.0, 2.0]), np.array([1.0, 2.0, 3.0]), False),
        (np.array(["x", "y"]), np.array(["x", "y"]), True),
        (sp.csr_array(np.eye(2)), sp.csr_array(np.eye(2)), True),
        (sp.csr_array(np.eye(2)), np.eye(2), False),
        ({"a": np.zeros(2)}, {"a": np.zeros(2)}, True),
        ({"a": 1.0}, {"b": 1.0}, False),
        ([1.0, float("nan")], [1.0, float("nan")], True),
        ((1, 2), [1, 2], False),
        (pd.DataFrame({"x": [1.0]}), pd.DataFrame({"x": [1.0]}), True),
        (pd.DataFrame({"x": [1.0]}), pd.Series([1.0]), False),
        (float("nan"), float("nan"), True),
    ],
)
def test_same_value_rule(a, b, equal):
    assert same_value(a, b) is equal
