"""Checks of one engine result (``res`` from ``simulate``) on the drawn jobs ``df`` and
clusters ``spec`` (pairs of processors and speed): :func:`assert_same` against the
pure-Python oracle's schedule, :func:`assert_invariants` against the engine's own
guarantees. Shared by the engine's tests in ``tests/multicluster/``."""

import math

import numpy as np
import pytest

from engine_oracle import METRICS, oracle_metrics


def assert_same(res, ref, df, spec):
    got = res.jobs
    assert len(got) == len(df)
    for col in df.columns:
        np.testing.assert_array_equal(got[col].to_numpy(float), df[col].to_numpy(float))
    cl_got = [int(c) for c in got["cluster"]]
    cl_ref = [int(c) for c in ref["cluster"]]
    if cl_got != cl_ref or not np.allclose(got["start"], ref["start"], rtol=0, atol=1e-9):
        table = df.assign(
            start=ref["start"], end=ref["end"], cluster=ref["cluster"],
            e_start=got["start"].to_numpy(), e_end=got["end"].to_numpy(), e_cluster=cl_got,
        )  # fmt: skip
        pytest.fail(f"engine != oracle on clusters {spec}:\n{table.to_string()}")
    np.testing.assert_allclose(got["end"], ref["end"], rtol=0, atol=1e-9)
    want = oracle_metrics(df, ref, spec)
    for key in METRICS:
        a, b = res.metrics[key], want[key]
        if math.isnan(b):
            assert math.isnan(a), (key, a, b)
        else:
            assert a == pytest.approx(b, rel=1e-9, abs=_slack(key, got, df)), (key, a, b)


def _slack(key: str, got, df) -> float:
    """Absolute slack of a metric: 1e-12, and for the time-averaged queue length the
    width of the time stamps too. The engine integrates the queue over every event
    stamp (ends included), the oracle over submits and starts only, so at large time
    stamps each of the 2n intervals may round by an ulp of the stamp, with at most n jobs
    waiting: up to 2 n**2 ulps of area over the span. At t = 3e7 s an ulp is 3.7e-9 s,
    above 1e-9 of an area of a few job-seconds (a drawn case: 1.9e-9 relative); near
    t = 0 the slack is below 1e-12."""
    n = len(df)
    last = float(got["end"].max())
    span = last - float(df["submit"].min())
    if key != "mean_queue_length" or span <= 0:
        return 1e-12
    return 1e-12 + 2 * n * n * float(np.spacing(last)) / span


def assert_invariants(res, df, spec, slowdown=1.0):
    """Checks on the engine's own output, independent of the oracle."""
    got = res.jobs
    sizes = [p for p, _ in spec]
    speeds = [s for _, s in spec]
    n, m = len(df), len(spec)
    start = got["start"].to_numpy(float)
    end = got["end"].to_numpy(float)
    cluster = got["cluster"].to_numpy()
    procs = df["procs"].to_numpy()
    runtime = df["runtime"].to_numpy(float)
    alloc = res.allocation.toarray()
    assert alloc.shape == (n, m)

    assert np.all(start >= df["submit"].to_numpy(float)), "a job started before its submit"
    np.testing.assert_array_equal(alloc.sum(axis=1), procs)
    assert np.all(alloc >= 0)
    for j in range(n):
        if cluster[j] >= 0:
            assert alloc[j, cluster[j]] == procs[j]
            expected = runtime[j] / speeds[cluster[j]]
        else:
            assert cluster[j] == -1
            sites = [c for c in range(m) if alloc[j, c] > 0]
            assert len(sites) >= 2, "co-allocated on fewer than two sites"
            expected = runtime[j] * slowdown / min(speeds[c] for c in sites)
        # an end is rounded where it is (an ulp is 1.2e-7 s at 1e9 s) and may join a time
        # stamp up to TIME_RTOL x |end| later (the package docstring's time ties)
        width = max(1e-12, 2.0**-47 * abs(end[j]))
        assert end[j] - start[j] == pytest.approx(expected, rel=1e-12, abs=width)

    for c in range(m):  # no processor over-committed: sweep (time, +/-procs), ends first
        events = []
        for j in range(n):
            if alloc[j, c] > 0 and end[j] > start[j]:
                events += [(start[j], 1, alloc[j, c]), (end[j], 0, -alloc[j, c])]
        used = 0
        for _, _, delta in sorted(events):
            used += delta
            assert 0 <= used <= sizes[c], f"cluster {c} over-committed"
