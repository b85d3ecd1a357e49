"""Issue 51, "the engine checks each job, not the schedule": what a whole schedule needs
of the time axis (sums that stay finite, durations that survive rounding at the time
stamps given, time columns in seconds), written as the hostile user's call and the
clean outcome expected. Each refused call ran before this round and returned NaN
metrics, zero-length jobs or durations read in nanoseconds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter
from hpcmodels.multicluster import Cluster, simulate

ONE = [Cluster("a", 4)]
TWO = [Cluster("fast", 4, 2.0), Cluster("slow", 4, 0.5)]


def jobs(submit, runtime, procs=4, **more) -> pd.DataFrame:
    n = len(runtime)
    return pd.DataFrame({"submit": submit, "runtime": runtime, "procs": [procs] * n, **more})


# ------------------------------------------------------------ sums past the largest float


@pytest.mark.parametrize(
    ("frame", "clusters", "kw"),
    [
        (jobs([0.0, 0.0, 1.0], [1e308, 1e308, 5.0]), ONE, {}),  # two finite runtimes add to inf
        (jobs([0.0] * 3, [7e307] * 3), ONE, {}),  # three of them
        (jobs([0.0, 1e308], [1e2, 9e307]), ONE, {}),  # a late submit plus a long runtime's sum
        (jobs([0.0, 0.0], [1e308, 1.0]), TWO, {}),  # the slow cluster (speed 0.5) doubles it
    ],
)
def test_runtimes_that_add_up_to_infinity_are_refused(frame, clusters, kw):
    with pytest.raises(InvalidParameter, match="largest float|overflow the time axis"):
        simulate(frame, clusters, **kw)


def test_a_crowding_factor_counts_in_the_time_axis():
    # 1e307 s at a tenth of the speed ends past the largest float
    frame = jobs([0.0, 0.0], [1e307, 1.0], procs=1)
    with pytest.raises(InvalidParameter, match="overflow the time axis|largest float"):
        simulate(frame, ONE, rate_model=("crowding", [1, 0.01]))


def test_every_kept_job_still_starts_when_the_sum_stays_finite():
    frame = jobs([0.0, 0.0, 1.0], [1e307, 1e307, 1e300])
    res = simulate(frame, ONE)
    assert res.jobs["start"].notna().all() and np.isfinite(res.jobs["end"]).all()
    assert np.isfinite(res.metrics["att"]) and res.metrics["dropped"] == 0


# ------------------------------------------------------------ durations lost to rounding


@pytest.mark.parametrize(
    ("submit", "runtime"),
    [
        ([1.7e18, 1.7e18 + 10], [100.0, 100.0]),  # epoch nanoseconds: one float step is 256 s
        ([1.7e18, 1.7e18], [255.0, 0.0]),  # just under one step
        ([2.0**60, 2.0**60], [1.0, 1.0]),
        ([1e9, 1e9], [1e-8, 1.0]),  # one step at 1e9 s is 1.2e-7 s
    ],
)
def test_a_runtime_below_the_time_resolution_at_its_submit_is_refused(submit, runtime):
    with pytest.raises(InvalidParameter, match="time resolution.*lost to rounding"):
        simulate(jobs(submit, runtime), ONE)


def test_an_estimate_below_the_time_resolution_is_refused():
    frame = jobs([1.7e18, 1.7e18], [1000.0, 1000.0], estimate=[100.0, 1000.0])
    with pytest.raises(InvalidParameter, match="estimate = 100.0 s is below the time resolution"):
        simulate(frame, ONE, "easy")


def test_a_runtime_lost_at_a_late_start_is_refused_after_the_run():
    # the second job is submitted at 0 (where 1e-8 s is representable) but starts at 1e9 s
    frame = jobs([0.0, 0.0], [1e9, 1e-8])
    with pytest.raises(InvalidParameter, match="lost to rounding at its start = 1000000000.0"):
        simulate(frame, ONE)


@pytest.mark.parametrize(
    ("submit", "runtime"),
    [
        ([1.7e9, 1.7e9 + 10], [100.0, 1.0]),  # epoch seconds: exact to 2.4e-7 s
        ([1e9, 1e9 + 1], [1e-5, 3e-5]),  # the papers' shortest synthetic runtimes at 1e9 s
        ([1.7e18, 1.7e18 + 512], [0.0, 1024.0]),  # zero work, and whole float steps
    ],
)
def test_runtimes_that_survive_rounding_still_run(submit, runtime):
    res = simulate(jobs(submit, runtime), ONE)
    assert (res.jobs["end"] - res.jobs["start"] > 0).tolist() == [r > 0 for r in runtime]


# ------------------------------------------------------------ units of the time columns


@pytest.mark.parametrize("unit", ["ns", "us", "ms", "s"])
def test_a_timedelta_runtime_column_is_read_in_seconds(unit):
    seconds = jobs([0.0, 1.0, 2.5], [100.0, 20.0, 0.5])
    as_delta = seconds.assign(runtime=pd.to_timedelta([100_000, 20_000, 500], unit="ms"))
    as_delta["runtime"] = as_delta["runtime"].astype(f"timedelta64[{unit}]")
    if unit == "s":  # 0.5 s is no whole second: compare the whole seconds only
        seconds, as_delta = seconds.iloc[:2], as_delta.iloc[:2]
    ours = simulate(as_delta, ONE)
    assert ours.jobs[["start", "end"]].equals(simulate(seconds, ONE).jobs[["start", "end"]])


def test_timedelta_submit_and_estimate_columns_are_read_in_seconds():
    seconds = jobs([0.0, 60.0], [30.0, 30.0], estimate=[45.0, 90.0])
    delta = seconds.assign(
        submit=pd.to_timedelta(seconds["submit"], unit="s"),
        estimate=pd.to_timedelta(seconds["estimate"], unit="s"),
    )
    assert simulate(delta, ONE, "easy").metrics == simulate(seconds, ONE, "easy").metrics


@pytest.mark.parametrize(
    ("column", "values", "says"),
    [
        ("submit", pd.to_datetime(["2026-01-01", "2026-01-02"]), "a date .datetime64."),
        ("runtime", pd.to_datetime(["2026-01-01", "2026-01-02"]), "a date .datetime64."),
        (
            "procs",
            pd.to_timedelta([4, 4], unit="s"),
            "a duration .timedelta64.: it must hold a whole",
        ),
        ("runtime", pd.to_timedelta([1, None], unit="s"), "NaT"),
        (
            "runtime",
            pd.Series([np.timedelta64(100, "ns"), np.timedelta64(5, "s")], dtype=object),
            "not numeric.*whole column of timedelta64",
        ),
        ("submit", pd.Series([np.datetime64("2026-01-01"), 0.0], dtype=object), "not numeric"),
    ],
)
def test_a_time_column_that_is_no_number_of_seconds_is_refused(column, values, says):
    frame = jobs([0.0, 1.0], [10.0, 10.0])
    frame[column] = values
    with pytest.raises(InvalidParameter, match=f"jobs column '{column}'.*{says}"):
        simulate(frame, ONE)
