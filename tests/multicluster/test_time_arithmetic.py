"""One time-arithmetic rule (:mod:`hpcmodels.multicluster.rates`, "pruning bounds"): a
bound that skips candidates is implied by the admission test it serves, at every time
stamp. Until 2026-11-28 EASY pruned its backfilling candidates by ``estimate <= (shadow
- t) x speed x (1 + 1e-12)`` while admitting by ``t + estimate / speed <= shadow``; at
t = 3e7 s the two disagree on estimates that end within an ulp of the shadow, and a third
of the whole SDSC SP2 log's job starts moved at high load (issue 50). These cases fail
that code (44 of the 120 drawn below)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.multicluster import Cluster, simulate
from hpcmodels.multicluster.rates import work_until

from engine_oracle import oracle

STAMPS = (1e6 + 0.1, 3e7 + 1 / 3, 1e9 + 0.3)


def _ends_at_the_shadow(stamp: float, seed: int, n: int = 40):
    """``n`` three-job cases on one cluster of 4 processors at speed 1.5: A (3
    processors) runs from ``stamp``; B (4, the head) waits for A's predicted end, the
    shadow (EASY) or its reservation (conservative); C (1 processor) arrives 1-3 s later
    with an estimate that ends at that time up to a few quarter-ulps of ``stamp``, either
    side. Yields (jobs, C's arrival, whether ``t + estimate / speed <= shadow``)."""
    rng = np.random.default_rng(seed)
    speed = 1.5
    for _ in range(n):
        a = float(rng.uniform(5, 50))
        t = stamp + float(rng.integers(1, 4))
        shadow = stamp + a / speed
        c = (shadow - t) * speed + float(rng.integers(-3, 4)) * np.spacing(stamp) / 4
        jobs = pd.DataFrame(
            {"submit": [stamp, stamp, t], "runtime": [a, 5.0, c], "procs": [3, 4, 1]}
        )
        yield jobs, t, bool(t + c / speed <= shadow)


@pytest.mark.parametrize("stamp", STAMPS)
def test_easy_backfills_every_job_that_ends_by_the_shadow(stamp):
    clusters = [Cluster("a", 4, 1.5)]
    admitted = 0
    for jobs, t, ends_by_shadow in _ends_at_the_shadow(stamp, seed=int(stamp) % 1000):
        res = simulate(jobs, clusters, "easy", "first_fit", debug=True)
        assert (res.jobs["start"].iloc[2] == t) == ends_by_shadow, jobs.to_dict("list")
        ref = oracle(jobs, [(4, 1.5)], "easy", "first_fit")
        np.testing.assert_array_equal(res.jobs["start"].to_numpy(), ref["start"].to_numpy())
        admitted += ends_by_shadow
    assert 0 < admitted < 40  # both sides of the shadow were drawn


@pytest.mark.parametrize("stamp", STAMPS)
def test_conservative_backfills_every_job_that_ends_by_a_reservation(stamp):
    clusters = [Cluster("a", 4, 1.5)]
    for jobs, t, ends_by_reservation in _ends_at_the_shadow(stamp, seed=int(stamp) % 1000):
        res = simulate(jobs, clusters, "conservative", "first_fit", debug=True)
        assert (res.jobs["start"].iloc[2] == t) == ends_by_reservation, jobs.to_dict("list")
        ref = oracle(jobs, [(4, 1.5)], "conservative", "first_fit")
        np.testing.assert_array_equal(res.jobs["start"].to_numpy(), ref["start"].to_numpy())


@settings(max_examples=400, deadline=None)
@given(
    t=st.floats(0, 2e9),
    x=st.floats(0, 1e6),
    speed=st.sampled_from((0.37, 0.5, 1.0, 1.5, 3.0)),
    ulps=st.integers(-8, 8),
)
def test_work_until_is_implied_by_the_admission_test(t, x, speed, ulps):
    """Every estimate that passes ``t + estimate / speed <= limit`` is at most
    ``work_until(t, limit, speed)``, for limits within a few ulps of such an end."""
    limit = t + x
    limit = float(limit + ulps * np.spacing(limit))
    if limit < t:
        return
    estimate = (limit - t) * speed
    for k in range(-4, 5):
        e = estimate + k * np.spacing(max(estimate, 1e-300))
        if e >= 0 and t + e / speed <= limit:
            assert e <= work_until(t, limit, speed), (t, limit, speed, e)
    assert work_until(t, np.inf, speed) == np.inf
