"""Tests of the reconstructed Feitelson 1996 model (spec shared/models/feitelson96.md).

Statistical tolerances are stated at each check; they are several standard errors wide
for the fixed seeds used, so the tests are deterministic and not flaky.
"""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from hpcmodels.workloads.models.feitelson96 import (
    Feitelson96Params,
    feitelson96,
    offered_load,
)

DEFAULTS = Feitelson96Params()
N = 128


@pytest.fixture(scope="module")
def big() -> pd.DataFrame:
    """200,000 records with the defaults (load 0.5, N = 128)."""
    return feitelson96(200_000, seed=1)


def _first_executions(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["preceding_job"].isna()]


# --- the provisional parameter values reproduce the spec's analytic numbers (§2-§5, §9)
def test_provisional_rule_and_spec_analytic_values():
    prob = DEFAULTS.size_probabilities(N)
    n = np.arange(1, N + 1)
    weights = n**-1.5 * np.where((n >= 2) & ((n & (n - 1)) == 0), 4.0, 1.0)
    np.testing.assert_allclose(prob, weights / weights.sum(), rtol=1e-12)
    power = (n & (n - 1)) == 0
    assert prob[0] == pytest.approx(0.2454, abs=1e-4)  # §9 fraction serial
    assert prob[power].sum() == pytest.approx(0.7818, abs=1e-4)
    assert prob[power & (n > 1)].sum() / (1 - prob[0]) == pytest.approx(0.7108, abs=1e-4)
    assert np.dot(n, prob) == pytest.approx(6.83, abs=0.01)
    q = DEFAULTS.run_length_probabilities()
    assert q[0] == pytest.approx(0.746, abs=1e-3) and q.size == 100  # §4
    assert DEFAULTS.mean_run_length() == pytest.approx(1.7995, abs=1e-4)
    assert DEFAULTS.mean_work(N) == pytest.approx(29_143, rel=1e-4)  # §5 E[n r]
    rate = DEFAULTS.arrival_rate(0.45, N)
    assert rate == pytest.approx(1.0983e-3, rel=1e-4)
    assert 1 / rate == pytest.approx(910.5, abs=0.1)
    p_long = DEFAULTS.long_branch_probability(np.array([1, N]), N)
    np.testing.assert_allclose(p_long, [0.2, 0.8])


def test_small_size_knob_multiplies_sizes_2_to_8():
    boosted = Feitelson96Params(small_size_boost=2.0).size_weights(N)
    plain = DEFAULTS.size_weights(N)
    ratio = boosted / plain
    np.testing.assert_allclose(ratio[1:8], 2.0)
    np.testing.assert_allclose(ratio[[0, *range(8, N)]], 1.0)


# --- §2 size distribution -------------------------------------------------------------
def test_size_frequencies_follow_the_provisional_distribution(big):
    """First executions are independent size draws: chi-square against the exact pmf
    (categories with expected count < 20 merged), and key shares within 5 SE."""
    assert big["procs"].between(1, N).all()
    assert (big["procs"] == np.round(big["procs"])).all()
    sizes = _first_executions(big)["procs"].to_numpy().astype(int)
    prob = DEFAULTS.size_probabilities(N)
    observed = np.bincount(sizes, minlength=N + 1)[1:]
    expected = prob * sizes.size
    order = np.argsort(expected)[::-1]
    keep = order[expected[order] >= 20]
    rest = np.setdiff1d(np.arange(N), keep)
    obs = np.append(observed[keep], observed[rest].sum())
    exp = np.append(expected[keep], expected[rest].sum())
    assert stats.chisquare(obs, exp).pvalue > 1e-4
    n = np.arange(1, N + 1)
    power = (n & (n - 1)) == 0
    for share, p in ((sizes == 1, prob[0]), (power[sizes - 1], prob[power].sum())):
        se = math.sqrt(p * (1 - p) / sizes.size)
        assert abs(share.mean() - p) < 5 * se
    # record level: repetitions copy sizes, so the shares hold there too (looser: chains)
    assert (big["procs"] == 1).mean() == pytest.approx(prob[0], abs=0.015)


def test_powers_of_two_are_emphasised(big):
    counts = big["procs"].value_counts()
    for k in (2, 4, 8, 16, 32):
        assert counts.get(k, 0) > counts.get(k + 1, 0) + counts.get(k - 1, 0) * 0.5


# --- §3 runtime -------------------------------------------------------------------------
def test_runtime_is_positively_correlated_with_size_and_highly_variable(big):
    first = _first_executions(big)
    rho = stats.spearmanr(first["procs"], first["runtime"]).statistic
    assert rho > 0.03  # [V] weak positive correlation (about 0.065 here, SE 0.003)
    runtime = first["runtime"]
    assert runtime.std() / runtime.mean() > 1  # [V] CV > 1
    assert (big["runtime"] >= 1).all() and (big["runtime"] == np.round(big["runtime"])).all()
    # mean runtime per size group against E[r | n] of the parameters, within 5 SE
    prob = DEFAULTS.size_probabilities(N)
    n = np.arange(1, N + 1)
    mean_r = DEFAULTS.mean_runtime(n, N)
    for lo, hi in ((1, 1), (2, 8), (9, 128)):
        group = first[first["procs"].between(lo, hi)]["runtime"]
        w = prob[lo - 1 : hi]
        expected = np.dot(w, mean_r[lo - 1 : hi]) / w.sum()
        se = group.std() / math.sqrt(len(group))
        assert abs(group.mean() - expected) < 5 * se, (lo, hi)
    serial = first[first["procs"] == 1]["runtime"].mean()
    large = first[first["procs"] >= 32]["runtime"].mean()
    assert large > 2 * serial


# --- §4 / §6 repetitions --------------------------------------------------------------
def _chain_roots(df: pd.DataFrame) -> np.ndarray:
    pred = df["preceding_job"].to_numpy()
    root = np.arange(len(df))
    for i in np.flatnonzero(~np.isnan(pred)):
        root[i] = root[int(pred[i]) - 1]
    return root


def test_repetitions_follow_the_provisional_rules(big):
    rep = big[big["preceding_job"].notna()]
    pred = big.set_index("job").loc[rep["preceding_job"].astype(int)]
    assert (rep["preceding_job"].to_numpy() < rep["job"].to_numpy()).all()
    np.testing.assert_array_equal(rep["procs"].to_numpy(), pred["procs"].to_numpy())
    np.testing.assert_array_equal(rep["runtime"].to_numpy(), pred["runtime"].to_numpy())
    # submitted when the previous run ends (if it never waits), think time 0
    np.testing.assert_allclose(
        rep["submit"].to_numpy(), (pred["submit"] + pred["runtime"]).to_numpy(), atol=1e-6
    )
    assert (rep["think_time"] == 0).all() and big.loc[
        big["preceding_job"].isna(), "think_time"
    ].isna().all()
    # share of records that are repetitions: 1 - 1/E[R] = 0.444 (§9), within 0.01
    assert len(rep) / len(big) == pytest.approx(1 - 1 / DEFAULTS.mean_run_length(), abs=0.01)


def test_run_lengths_are_zipf_2_5_truncated_at_100(big):
    """Chains starting in the first half of the window are complete (chains last at most
    ~10^7 s, the half window ~4.5 * 10^7 s); their lengths follow P(R=k) ∝ k^-2.5."""
    root = _chain_roots(big)
    lengths = np.bincount(root, minlength=len(big))
    starts = np.flatnonzero(big["preceding_job"].isna().to_numpy())
    early = starts[big["submit"].to_numpy()[starts] < 0.5 * big["submit"].max()]
    r = lengths[early]
    q = DEFAULTS.run_length_probabilities()
    assert r.max() <= 100
    for k in (1, 2, 3, 4):
        se = math.sqrt(q[k - 1] * (1 - q[k - 1]) / r.size)
        assert abs((r == k).mean() - q[k - 1]) < 5 * se, k
    sd = math.sqrt(np.dot(np.arange(1, 101) ** 2, q) - DEFAULTS.mean_run_length() ** 2)
    assert abs(r.mean() - DEFAULTS.mean_run_length()) < 5 * sd / math.sqrt(r.size)


# --- §5 offered load -------------------------------------------------------------------
@pytest.mark.parametrize(("load", "machine_size", "seeds"), [(0.5, 128, 8), (0.8, 64, 6)])
def test_offered_load_matches_the_load_parameter(load, machine_size, seeds):
    """Measured load Σ n r / (N · last submit); heavy tails give ~4% sd per 200k-record
    run, so the mean over the seeds must lie within 6% of the target."""
    loads = [offered_load(feitelson96(200_000, machine_size, s, load=load), machine_size)
             for s in range(seeds)]  # fmt: skip
    assert np.mean(loads) == pytest.approx(load, rel=0.06)


# --- output format, reproducibility, attrs --------------------------------------------
def test_swf_format_and_attrs():
    df = feitelson96(2_000, seed=3)
    assert len(df) == 2_000 and df["job"].dtype == np.int64
    assert (df["job"].to_numpy() == np.arange(1, 2_001)).all()
    assert all(df[c].dtype == np.float64 for c in df.columns if c != "job")
    assert (np.diff(df["submit"]) >= 0).all() and df["submit"].iloc[0] >= 0
    assert (df["status"] == 1).all() and (df["req_procs"] == df["procs"]).all()
    assert df[["wait", "avg_cpu", "req_time", "user", "queue"]].isna().all().all()
    attrs = df.attrs
    assert attrs["model"] == "feitelson96"
    assert attrs["status"] == "reconstructed model"
    assert "provisional" in attrs["reconstruction"] and "exact" not in attrs["status"]
    assert attrs["parameters"]["load"] == 0.5  # neutral default, not 0.45
    assert attrs["parameters"]["power_of_two_boost"] == 4.0
    assert attrs["MaxProcs"] == attrs["MaxNodes"] == N and attrs["MaxJobs"] == 2_000
    assert any("RECONSTRUCTED" in note for note in attrs["Note"])


def test_same_seed_same_output_and_prefix_property():
    a = feitelson96(5_000, seed=11)
    pd.testing.assert_frame_equal(a, feitelson96(5_000, seed=11))
    assert not a["submit"].equals(feitelson96(5_000, seed=12)["submit"])
    head = feitelson96(1_000, seed=11)
    pd.testing.assert_frame_equal(head, a.head(1_000))


def test_overrides_and_params_object():
    df = feitelson96(3_000, seed=2, run_length_max=1)
    assert df["preceding_job"].isna().all()
    params = Feitelson96Params(power_of_two_boost=1.0)
    df2 = feitelson96(3_000, seed=2, params=params, think_time=5.0)
    assert df2.attrs["parameters"]["power_of_two_boost"] == 1.0
    assert (df2.loc[df2["preceding_job"].notna(), "think_time"] == 5.0).all()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_jobs": 0}, "n_jobs"),
        ({"n_jobs": 2.5}, "n_jobs"),
        ({"n_jobs": True}, "n_jobs"),
        ({"machine_size": 0}, "machine_size"),
        ({"load": 0.0}, "load"),
        ({"load": -1.0}, "load"),
        ({"load": math.inf}, "load"),
        ({"load": math.nan}, "load"),
        ({"p_long_serial": 1.5}, "p_long_serial"),
        ({"p_long_full": -0.1}, "p_long_full"),
        ({"short_mean": 0.0}, "short_mean"),
        ({"run_length_max": 0}, "run_length_max"),
        ({"think_time": -1.0}, "think_time"),
        ({"no_such_parameter": 1.0}, "no_such_parameter"),
    ],
)
def test_bad_input_raises_value_error_naming_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        feitelson96(**{"n_jobs": 10, **kwargs})


@given(
    n_jobs=st.integers(1, 400),
    machine_size=st.integers(1, 600),
    load=st.floats(0.01, 10.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_invariants_for_any_valid_input(n_jobs, machine_size, load, seed):
    df = feitelson96(n_jobs, machine_size, seed, load=load)
    assert len(df) == n_jobs
    assert df["procs"].between(1, machine_size).all()
    assert (df["runtime"] >= 1).all() and (np.diff(df["submit"]) >= 0).all()
    pred = df["preceding_job"].dropna()
    assert (pred < df.loc[pred.index, "job"]).all() and (pred >= 1).all()


def test_top_level_attrs_follow_the_project_convention():
    attrs = feitelson96(100, 64, 3, load=0.7).attrs
    assert (attrs["seed"], attrs["machine_size"], attrs["load"]) == (3, 64, 0.7)
