"""Tests of the Jann et al. 1997 model: hyper-Erlang machinery, moment-matching fit,
fit from an SWF log and generation (spec shared/models/jann97.md).

The published parameters and the CTC SP2 log are not available, so the model itself
cannot be checked against the paper; the testable proxy is a round trip: generate from
known parameters, fit them back (spec §5, §8). Statistical tolerances are stated at
each check and are several standard errors wide for the fixed seeds used.
"""

import math
import os
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate

from hpcmodels.workloads.models.jann97 import (
    CTC_RANGES,
    HyperErlang,
    Jann97ParametersMissing,
    Jann97Params,
    RawMoments,
    fit_hyper_erlang,
    fit_jann97,
    jann97,
    raw_moments,
)
from hpcmodels.workloads.swf import read_swf, swf_frame

SPEC_EXAMPLE = HyperErlang(p=0.7, rate1=0.001, rate2=0.01, order=3)  # spec §5 step 4
SDSC = Path(os.environ.get("HPCMODELS_DATA", "/work/shared/workloads")) / (
    "SDSC-SP2-1998-4.2-cln.swf.gz"
)


def _ctc_like_params() -> Jann97Params:
    """Made-up test parameters on the ten CTC ranges (NOT the model's parameters)."""
    inter, run = [], []
    for r in range(len(CTC_RANGES)):
        scale = 1.0 + r % 3
        inter.append(HyperErlang(0.3, 1 / (3000 * scale), 1 / (300 * scale), 1 + r % 2))
        run.append(HyperErlang(0.25, 1 / 20_000, 1 / (400 * (r + 1)), 1))
    return Jann97Params(interarrival=inter, runtime=run, source="test parameters")


def _rel(a: float, b: float) -> float:
    return abs(a / b - 1)


# --- §2 hyper-Erlang ------------------------------------------------------------------
@pytest.mark.parametrize(
    "he",
    [
        HyperErlang(0.2, 1 / 20_000, 1 / 1_000, 1),
        SPEC_EXAMPLE,
        HyperErlang(0.5, 0.05, 0.2, 7),
        HyperErlang(1.0, 0.01, 0.01, 4),
    ],
)
def test_moment_formula_matches_sampling(he):
    """10^6 draws: m1 within 1%, m2 within 2%, m3 within 5% (the heaviest case here has
    a relative SE of about 1% on m3)."""
    x = he.sample(np.random.default_rng(7), 1_000_000)
    m = raw_moments(x)
    exact = he.moments()
    assert _rel(m.m1, exact.m1) < 0.01
    assert _rel(m.m2, exact.m2) < 0.02
    assert _rel(m.m3, exact.m3) < 0.05
    assert he.mean() == pytest.approx(exact.m1)
    assert he.cv() >= 1 / math.sqrt(he.order) - 1e-12


def test_density_integrates_to_one_and_gives_the_mean():
    he = SPEC_EXAMPLE
    total = integrate.quad(he.pdf, 0, np.inf, limit=200)[0]
    mean = integrate.quad(lambda t: t * he.pdf(t), 0, np.inf, limit=200)[0]
    assert total == pytest.approx(1.0, rel=1e-6)
    assert mean == pytest.approx(he.mean(), rel=1e-6)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"p": 1.5}, "p must"),
        ({"p": -0.1}, "p must"),
        ({"rate1": 0.0}, "rate1"),
        ({"rate2": math.inf}, "rate2"),
        ({"order": 0}, "order"),
        ({"order": 2.5}, "order"),
    ],
)
def test_hyper_erlang_rejects_bad_parameters(kwargs, match):
    base = {"p": 0.5, "rate1": 1.0, "rate2": 2.0, "order": 1}
    with pytest.raises(ValueError, match=match):
        HyperErlang(**{**base, **kwargs})


# --- §5 moment matching ---------------------------------------------------------------
def test_spec_example_smallest_order_is_three():
    """Spec §5 step 4: n = 3 is recovered exactly; n = 1 and 2 have no valid solution."""
    fit = fit_hyper_erlang(SPEC_EXAMPLE.moments())
    assert fit.order == 3
    assert fit.p == pytest.approx(0.7, rel=1e-9)
    assert fit.rate1 == pytest.approx(0.001, rel=1e-9)
    assert fit.rate2 == pytest.approx(0.01, rel=1e-9)
    for n in (1, 2):
        with pytest.raises(ValueError, match=f"order {n}"):
            fit_hyper_erlang(SPEC_EXAMPLE.moments(), order=n)
    larger = fit_hyper_erlang(SPEC_EXAMPLE.moments(), order=4)  # "larger n also admit"
    np.testing.assert_allclose(larger.moments(), SPEC_EXAMPLE.moments(), rtol=1e-9)


@given(
    order=st.integers(1, 7),
    p=st.floats(0.05, 0.95),
    log_rate1=st.floats(-5, -1),
    log_ratio=st.floats(math.log10(2), math.log10(50)),
)
def test_fit_round_trip_from_exact_moments(order, p, log_rate1, log_ratio):
    """At the true order the parameters come back (rel 1e-6); the automatic search
    returns an order <= the true one whose three moments match (rel 1e-6) — a lower
    order can match the same three moments, so only the moments are compared then."""
    rate1 = 10**log_rate1
    he = HyperErlang(p, rate1, rate1 * 10**log_ratio, order)
    exact = fit_hyper_erlang(he.moments(), order=order)
    assert exact.p == pytest.approx(p, rel=1e-6)
    assert exact.rate1 == pytest.approx(he.rate1, rel=1e-6)
    assert exact.rate2 == pytest.approx(he.rate2, rel=1e-6)
    auto = fit_hyper_erlang(he.moments())
    assert auto.order <= order
    np.testing.assert_allclose(auto.moments(), he.moments(), rtol=1e-6)


def test_fit_from_a_large_sample_is_approximate():
    """10^6 draws of the spec example: order 3, p within 0.03, λ1 within 5%; λ2 (the
    fast branch, set mostly by the slowly converging third moment) within 25%."""
    x = SPEC_EXAMPLE.sample(np.random.default_rng(3), 1_000_000)
    fit = fit_hyper_erlang(x)
    assert fit.order == 3
    assert abs(fit.p - 0.7) < 0.03
    assert _rel(fit.rate1, 0.001) < 0.05
    assert _rel(fit.rate2, 0.01) < 0.25
    np.testing.assert_allclose(fit.moments(), raw_moments(x), rtol=1e-6)  # exact match


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (RawMoments(1.0, 0.5, 1.0), "variance"),
        (RawMoments(1.0, 1.0, 1.0), "variance"),
        (RawMoments(-1.0, 2.0, 6.0), "mean"),
        (RawMoments(1.0, math.nan, 6.0), "finite"),
        (np.array([1.0]), "at least 2"),
        (np.array([1.0, -2.0, 3.0]), ">= 0"),
        (np.array([5.0, 5.0, 5.0]), "variance"),
    ],
)
def test_impossible_moments_raise(data, match):
    with pytest.raises(ValueError, match=match):
        fit_hyper_erlang(data)


def test_cv_below_what_the_order_allows_raises_and_fallback_is_explicit():
    erlang4 = HyperErlang(1.0, 0.01, 0.01, 4).moments()  # CV² = 1/4
    with pytest.raises(ValueError, match=r"CV² = 0.25 is below the minimum 1/n = 1 of order 1"):
        fit_hyper_erlang(erlang4, order=1)
    assert fit_hyper_erlang(erlang4).order == 4  # degenerate solution = pure Erlang
    low = RawMoments(1.0, 1.01, 1.0303)  # CV² = 0.01 needs order > 100
    with pytest.raises(ValueError, match="fallback=True"):
        fit_hyper_erlang(low)
    fallback = fit_hyper_erlang(low, fallback=True)  # spec §5 step 5
    assert fallback.order == 100 and fallback.mean() == pytest.approx(1.0)


# --- §5 fit from an SWF log -----------------------------------------------------------
RANGES4 = ((1, 1), (2, 4), (5, 16), (17, 64))
TRUE4 = Jann97Params(
    ranges=RANGES4,
    machine_size=64,
    interarrival=(
        HyperErlang(0.3, 1 / 3000, 1 / 300, 1),
        HyperErlang(0.2, 1 / 6000, 1 / 400, 1),
        HyperErlang(0.7, 1 / 1000, 1 / 100, 3),
        HyperErlang(0.3, 1 / 2500, 1 / 250, 1),
    ),
    runtime=(
        HyperErlang(0.2, 1 / 20_000, 1 / 1000, 1),
        HyperErlang(0.7, 1 / 2000, 1 / 200, 3),
        HyperErlang(0.3, 1 / 9000, 1 / 600, 1),
        HyperErlang(0.25, 1 / 30_000, 1 / 2000, 1),
    ),
    source="test parameters",
)


@pytest.fixture(scope="module")
def synthetic_log() -> pd.DataFrame:
    return jann97(200_000, 64, seed=5, params=TRUE4)


def test_fit_jann97_recovers_known_parameters(synthetic_log):
    """About 50,000 jobs per range. Tolerances: order exact; p within 0.05; λ1 (slow
    branch) within 10%; λ2 (fast branch) within 35%; mean within 5%; range
    probabilities within 0.01 (absolute)."""
    fit = fit_jann97(synthetic_log, ranges=RANGES4, max_procs=64, period=None)
    assert fit.ranges == RANGES4 and sum(fit.counts) == 200_000
    assert "reconstructed" in fit.source and "not the published" in fit.source
    for r in range(len(RANGES4)):
        for got, true in ((fit.interarrival[r], TRUE4.interarrival[r]),
                          (fit.runtime[r], TRUE4.runtime[r])):  # fmt: skip
            assert got.order == true.order, (r, got, true)
            assert abs(got.p - true.p) < 0.05, (r, got, true)
            assert _rel(got.rate1, true.rate1) < 0.10, (r, got, true)
            assert _rel(got.rate2, true.rate2) < 0.35, (r, got, true)
            assert _rel(got.mean(), true.mean()) < 0.05, (r, got, true)
    np.testing.assert_allclose(fit.range_probabilities, TRUE4.range_probabilities, atol=0.01)


def test_fit_jann97_matches_the_log_moments_exactly(synthetic_log):
    """Spec §8: each range's fitted distributions have the log's three sample moments."""
    fit = fit_jann97(synthetic_log, ranges=RANGES4, max_procs=64, period=None)
    procs = synthetic_log["procs"]
    for r, (lo, hi) in enumerate(RANGES4):
        part = synthetic_log[procs.between(lo, hi)]
        gaps = np.diff(part["submit"].to_numpy())
        np.testing.assert_allclose(fit.interarrival[r].moments(), raw_moments(gaps), rtol=1e-6)
        np.testing.assert_allclose(
            fit.runtime[r].moments(), raw_moments(part["runtime"]), rtol=1e-6
        )


def test_fit_jann97_applies_the_period_in_the_logs_time_zone():
    """A 40-day synthetic log starting 1996-06-20 00:00 US/Eastern; the default period
    keeps 1996-06-25 ... 1996-09-12 local time and reports the paper's 17,440 jobs."""
    tz = ZoneInfo("US/Eastern")
    start = datetime(1996, 6, 20, tzinfo=tz).timestamp()
    log = jann97(30_000, seed=2, params=_ctc_like_params())
    log.attrs = {"UnixStartTime": int(start), "TimeZoneString": "US/Eastern"}
    fit = fit_jann97(log)
    begin = datetime(1996, 6, 25, tzinfo=tz).timestamp() - start
    end = datetime(1996, 9, 13, tzinfo=tz).timestamp() - start
    expected = int(log["submit"].between(begin, end, inclusive="left").sum())
    assert 0 < expected < len(log)
    assert sum(fit.counts) == expected
    assert any("17440" in note for note in fit.notes)
    with pytest.raises(ValueError, match="period=None"):
        fit_jann97(log.assign(submit=log["submit"] + 1e9))  # nothing left in the period
    log.attrs = {}
    with pytest.raises(ValueError, match="UnixStartTime.*period=None"):
        fit_jann97(log)


def test_fit_jann97_ranges_without_jobs_have_no_stream():
    log = swf_frame(
        submit=np.arange(100.0) * 60 + np.random.default_rng(0).random(100),
        runtime=np.random.default_rng(1).exponential(500, 100).round() + 1,
        procs=np.where(np.arange(100) % 2 == 0, 1.0, 3.0),
    )
    fit = fit_jann97(log, period=None)
    assert fit.interarrival[1] is None and fit.runtime[1] is None  # range 2: no jobs
    assert fit.range_probabilities[1] == 0.0
    assert any("range 2: 0 jobs" in note for note in fit.notes)


@pytest.mark.skipif(not SDSC.is_file(), reason=f"real log {SDSC} not present")
def test_fit_jann97_smoke_on_the_sdsc_sp2_log():
    """Smoke test only (not the CTC log the model was fitted to)."""
    log = read_swf(SDSC)
    fit = fit_jann97(log, period=None, max_procs=128)
    assert sum(fit.counts) == 54_034  # runtime > 0, 1 <= procs <= 128
    assert fit.interarrival[-1] is None and fit.interarrival[-2] is None  # > 128 procs
    assert all(fit.interarrival[r] is not None for r in range(8))
    procs = log["procs"]
    ok = (log["runtime"] > 0) & procs.between(1, 128)
    part = log[ok & (procs == 1)]
    np.testing.assert_allclose(fit.runtime[0].moments(), raw_moments(part["runtime"]), rtol=1e-6)
    df = jann97(5_000, 128, seed=0, params=fit)
    assert len(df) == 5_000 and df["procs"].between(1, 128).all()


# --- generation -------------------------------------------------------------------------
def test_without_parameters_the_error_says_the_ctc_log_is_needed():
    with pytest.raises(Jann97ParametersMissing, match="CTC-SP2-1996") as info:
        jann97()
    assert isinstance(info.value, ValueError)
    assert "fit_jann97" in str(info.value) and "CTC SP2 1996 log" in str(info.value)


def test_generation_reproduces_range_shares_and_per_range_means():
    """200,000 jobs. Range shares within 0.01 (absolute); the mean gap and mean runtime
    of every range within 5 standard errors (SE = CV / sqrt(jobs in the range))."""
    params = _ctc_like_params()
    df = jann97(200_000, seed=9, params=params)
    assert len(df) == 200_000 and df["procs"].between(1, 322).all()
    for r, (lo, hi) in enumerate(params.ranges):
        part = df[df["procs"].between(lo, hi)]
        assert len(part) / len(df) == pytest.approx(params.range_probabilities[r], abs=0.01)
        gaps = np.diff(part["submit"].to_numpy())
        for values, dist in ((gaps, params.interarrival[r]), (part["runtime"], params.runtime[r])):
            se = dist.cv() / math.sqrt(len(values))
            assert _rel(float(np.mean(values)), dist.mean()) < 5 * se, (r, dist)
        if hi - lo >= 1:  # uniform sizes within the range: both ends occur
            assert part["procs"].min() == lo and part["procs"].max() == hi


def test_swf_format_attrs_and_size_rules():
    params = _ctc_like_params()
    df = jann97(3_000, seed=1, params=params)
    assert df["job"].dtype == np.int64 and (df["job"] == np.arange(1, 3_001)).all()
    assert all(df[c].dtype == np.float64 for c in df.columns if c != "job")
    assert (np.diff(df["submit"]) >= 0).all() and df["submit"].iloc[0] > 0
    assert (df["runtime"] >= 1).all() and (df["runtime"] == np.round(df["runtime"])).all()
    assert (df["status"] == 1).all() and (df["req_procs"] == df["procs"]).all()
    assert df[["wait", "preceding_job", "think_time", "user"]].isna().all().all()
    assert df.attrs["model"] == "jann97" and df.attrs["MaxProcs"] == 322
    assert df.attrs["source"] == "test parameters"
    assert df.attrs["parameters"]["within_range"] == "uniform"
    upper = jann97(3_000, seed=1, params=params, within_range="upper")
    assert set(upper["procs"].unique()) <= {hi for _, hi in CTC_RANGES}
    small = jann97(3_000, 100, seed=1, params=params)
    assert small["procs"].max() <= 100
    notes = small.attrs["parameters"]["machine_notes"]
    assert any("dropped" in n for n in notes) and any("truncated to 65-100" in n for n in notes)


def test_same_seed_same_output_and_prefix_property():
    params = _ctc_like_params()
    a = jann97(20_000, seed=4, params=params)
    pd.testing.assert_frame_equal(a, jann97(20_000, seed=4, params=params))
    assert not a["submit"].equals(jann97(20_000, seed=5, params=params)["submit"])
    pd.testing.assert_frame_equal(jann97(500, seed=4, params=params), a.head(500))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_jobs": 0}, "n_jobs"),
        ({"machine_size": 0}, "machine_size"),
        ({"within_range": "middle"}, "within_range"),
        ({"params": "CTC"}, "params"),
    ],
)
def test_bad_generation_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        jann97(**{"n_jobs": 10, "params": _ctc_like_params(), **kwargs})


def test_bad_parameter_tables():
    he = HyperErlang(0.5, 1.0, 2.0, 1)
    with pytest.raises(ValueError, match="entries"):
        Jann97Params(interarrival=(he,), runtime=(he, he), ranges=((1, 1), (2, 2)))
    with pytest.raises(ValueError, match="increasing"):
        Jann97Params(interarrival=(he, he), runtime=(he, he), ranges=((1, 4), (3, 8)))
    with pytest.raises(ValueError, match="both"):
        Jann97Params(interarrival=(he, None), runtime=(he, he), ranges=((1, 1), (2, 2)))
    with pytest.raises(ValueError, match="at least one"):
        Jann97Params(interarrival=(None,), runtime=(None,), ranges=((1, 1),))
