"""``turnaround_above`` (multicluster/bound.py) and ``att_gap`` (bandwidth): the bound
never exceeds the run's ATT at any pause, a run at or below the level is simulate's run
exactly, a run above it is answered above it (early or at the end), an overloaded run
stops early, and a bisection on the gaps gives the same crossing as on full runs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from drawn_jobs import clusters_of, jobs_frame
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.bandwidth import SECTION4, run_point
from hpcmodels.bandwidth.experiment import att_gap, workload
from hpcmodels.errors import InvalidParameter
from hpcmodels.multicluster import simulate
from hpcmodels.multicluster.bound import turnaround_above, turnaround_floor
from hpcmodels.multicluster.engine import PAUSED, run
from hpcmodels.multicluster.engine import prepare_run as prepare
from hpcmodels.papers.jones2005.points import with_clusters

POLICIES = [
    dict(selection="fcfs", allocation="first_fit"),
    dict(selection="easy", allocation="best_fit"),
    dict(selection="first_available", allocation="first_fit", coallocation="larger_first"),
]
SYSTEM = [(8, 1.0), (4, 2.0)]
rows = st.lists(
    st.tuples(
        st.integers(0, 60),
        st.integers(0, 40),
        st.integers(1, 8),
    ),
    min_size=1,
    max_size=30,
)


def _options(policy: dict) -> dict:
    return dict(
        coallocation=policy.get("coallocation"),
        slowdown=1.5 if policy.get("coallocation") else 1.0,
        seed=0,
        drop_too_wide=False,
        rate_model=None,
        tla=None,
        network=None,
        debug=True,
    )


@settings(max_examples=60, deadline=None)
@given(rows=rows, policy=st.sampled_from(POLICIES), cuts=st.lists(st.integers(0, 120), max_size=6))
def test_the_floor_never_exceeds_the_final_att(rows, policy, cuts):
    jobs = jobs_frame(sorted(rows))
    clusters = clusters_of(SYSTEM)
    att = simulate(jobs, clusters, policy["selection"], policy["allocation"],
                   **{k: v for k, v in _options(policy).items() if k != "debug"}).metrics["att"]  # fmt: skip
    prepared = prepare(
        jobs, clusters, policy["selection"], policy["allocation"], **_options(policy)
    )
    state = prepared.state
    for until in sorted(cuts):
        if run(state, prepared.rate_code, prepared.params, float(until)) != PAUSED:
            break
        assert turnaround_floor(state, float(until)) <= att * (1 + 1e-12) + 1e-9


@settings(max_examples=60, deadline=None)
@given(
    rows=rows,
    policy=st.sampled_from(POLICIES),
    share=st.floats(0.0, 2.0),
    windows=st.integers(1, 8),
)
def test_the_answer_is_the_run_s_att_or_a_bound_above_the_level(rows, policy, share, windows):
    jobs = jobs_frame(sorted(rows))
    clusters = clusters_of(SYSTEM)
    options = {k: v for k, v in _options(policy).items() if k not in ("debug", "seed")}
    full = simulate(jobs, clusters, policy["selection"], policy["allocation"], **options)
    att = full.metrics["att"]
    level = share * att
    value, result = turnaround_above(
        jobs, clusters, level, policy["selection"], policy["allocation"], windows=windows, **options
    )
    if result is not None:  # ran to the end: simulate's run
        assert value == att
        pd.testing.assert_frame_equal(result.jobs, full.jobs)
    else:
        assert level < value <= att * (1 + 1e-12)
    assert (value > level) == (att > level)


def test_an_overloaded_run_stops_early_and_a_stable_one_runs_to_the_end():
    submit = np.arange(2000.0)  # one job per second, each 8 processors for 10 s on 8
    jobs = pd.DataFrame({"submit": submit, "runtime": 10.0, "procs": 8})
    clusters = clusters_of([(8, 1.0)])
    att = simulate(jobs, clusters).metrics["att"]
    value, result = turnaround_above(jobs, clusters, 100.0)
    assert result is None and 100.0 < value < att
    value, result = turnaround_above(jobs, clusters, att)  # at the level: not above
    assert result is not None and value == att


def test_a_floor_within_its_rounding_slack_of_the_level_runs_on():
    """The floor and the ATT are sums in another order (the rule for pruning bounds):
    a floor above the level by less than FLOOR_SLACK relative does not stop the run.
    A (0 s, 1,000 s) and B (1,000 s, 1 s) on one processor: at the first pause (500 s)
    the floor is (500 + 1) / 2 = 250.5, the ATT (1,000 + 1) / 2 = 500.5."""
    from hpcmodels.multicluster.bound import FLOOR_SLACK

    jobs = pd.DataFrame({"submit": [0.0, 1000.0], "runtime": [1000.0, 1.0], "procs": [1, 1]})
    clusters = clusters_of([(1, 1.0)])
    value, result = turnaround_above(jobs, clusters, 250.5 * (1 - FLOOR_SLACK / 10), windows=2)
    assert result is not None and value == 500.5
    value, result = turnaround_above(jobs, clusters, 250.5 * (1 - FLOOR_SLACK * 10), windows=2)
    assert result is None and value == 250.5


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(level=float("nan")), "level"),
        (dict(level=float("inf")), "level"),
        (dict(level="1"), "level"),
        (dict(level=1.0, windows=0), "windows"),
        (dict(level=1.0, windows=2.5), "windows"),
    ],
)
def test_bad_input_is_refused_naming_the_field(kwargs, field):
    jobs = pd.DataFrame({"submit": [0.0], "runtime": [1.0], "procs": [1]})
    with pytest.raises(InvalidParameter, match=field):
        turnaround_above(jobs, clusters_of([(1, 1.0)]), **kwargs)


def test_an_unknown_option_is_refused_naming_it():
    jobs = pd.DataFrame({"submit": [0.0], "runtime": [1.0], "procs": [1]})
    with pytest.raises(InvalidParameter, match="'colour'"):
        turnaround_above(jobs, clusters_of([(1, 1.0)]), 1.0, colour=1)


@pytest.mark.parametrize("strategy, kw", [("first_fit", dict(bsbw=1200.0)),
                                          ("first_fit", dict(bsbw=3000.0)),
                                          ("fixed_penalty", dict(penalty=1.3))])  # fmt: skip
def test_att_gap_has_the_sign_of_the_full_run_and_its_value_below_the_level(strategy, kw):
    setup = with_clusters(SECTION4.scaled(3000), 2)
    att = run_point(strategy, setup, seed=1, **kw)["att"]
    for level in (0.5 * att, att, 2.0 * att):
        gap = att_gap(strategy, setup, level, seed=1, **kw)
        assert (gap > 0) == (att > level)
        if att <= level:
            assert gap == att - level
    assert workload(setup, 1) is workload(setup, 1)  # both runs read one cached workload


@pytest.mark.parametrize(
    "args, kwargs, field",
    [
        (("first_fit", None, 1.0), {}, "setup"),
        (("first_fit", "SECTION4", 1.0), {}, "setup"),
        (("first_fit", SECTION4, float("nan")), {}, "level"),
        (("first_fit", SECTION4, float("-inf")), {}, "level"),
        (("first_fit", SECTION4, "100"), {}, "level"),
        (("first_fit", SECTION4, 1.0), dict(bsbw=float("nan")), "bsbw"),
        (("first_fit", SECTION4, 1.0), dict(bsbw=-1.0), "bsbw"),
        (("first_fit", SECTION4, 1.0), dict(chunk=1.5), "chunk"),
        (("first_fit", SECTION4, 1.0), dict(seed=-1), "seed"),
        (("first_fit", SECTION4, 1.0), dict(seed=1.5), "seed"),
        (("first_fit", SECTION4, 1.0), dict(selection="lifo"), "selection"),
        (("teleport", SECTION4, 1.0), {}, "teleport"),
    ],
)
def test_att_gap_refuses_bad_input_naming_the_field(args, kwargs, field):
    """``att_gap`` is public (the bisections call it): it meets hostile arguments with
    run_point's checks and turnaround_above's, before any workload is drawn."""
    with pytest.raises(InvalidParameter, match=field):
        att_gap(*args, **kwargs)
