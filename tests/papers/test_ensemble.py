"""Verdicts from ensembles (hpcmodels.papers.ensemble): the mean-of-k rule, paired claims, the
trace replicates' runtime scale, and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.errors import HpcmodelsError, InvalidParameter, InvalidType
from hpcmodels.papers.ensemble import (
    CLAIM_REPLICATES,
    RUNTIME_JITTER,
    ensemble_statistic,
    ensemble_value,
    mean_of_k,
    paired_claim,
    runtime_scale,
    statistic_of_k,
    summarize,
    with_replicates,
)

RUNS = np.array([1050.0, 1075.0, 1090.0, 1062.0, 1101.0, 1083.0, 1070.0, 1095.0, 1058.0, 1088.0])


def test_summary_of_replicates():
    s = summarize(RUNS)
    assert s.mean == pytest.approx(RUNS.mean())
    assert s.sd == pytest.approx(RUNS.std(ddof=1))
    assert (s.low, s.high, s.n) == (1050.0, 1101.0, 10)
    assert s.ci == pytest.approx(2.262157 * s.sd / math.sqrt(10), rel=1e-6)  # t(0.975, 9)
    assert "runs 1050 to 1101, 10 runs" in s.text()


def test_the_range_of_a_mean_of_k_narrows_like_one_over_root_k():
    lo1, hi1 = mean_of_k(RUNS, 1)
    lo9, hi9 = mean_of_k(RUNS, 9)
    assert RUNS.min() <= lo1 < hi1 <= RUNS.max()
    assert lo1 < lo9 < RUNS.mean() < hi9 < hi1
    assert (hi9 - lo9) / (hi1 - lo1) == pytest.approx(1 / 3, rel=0.25)
    assert mean_of_k(RUNS, 9) == (lo9, hi9)  # a fixed resampling seed: same replicates, same range


def test_a_printed_value_inside_our_range_is_within_tolerance():
    row = ensemble_value("6.3", "MO ATT (s)", "1087", RUNS, kind="time")
    assert row["verdict"] == "within tolerance" and "95 % range of one run" in row["reason"]
    assert row["replicates"] == 10 and row["ours"] == pytest.approx(RUNS.mean())


def test_outside_the_range_but_within_the_kinds_tolerance():
    # 5 % of 1130 is 56.5 s: our mean 1077 s lies within it, the print beyond every run
    row = ensemble_value("6.3", "MO ATT (s)", "1130", RUNS, kind="time")
    assert row["verdict"] == "within tolerance" and "time tolerance" in row["reason"]


def test_a_value_far_outside_says_how_many_standard_deviations():
    row = ensemble_value("6.3", "MO ATT (s)", "1300", RUNS, kind="time", k=5, cause="measured")
    assert row["verdict"] == "differs"
    sd5 = RUNS.std(ddof=1) / math.sqrt(5)
    assert row["sigmas"] == pytest.approx((1300 - RUNS.mean()) / sd5)
    assert f"{row['sigmas']:.1f} standard deviations of the mean of 5 runs" in row["reason"]
    assert "measured" in row["reason"]


def test_a_deterministic_trace_gives_its_distance_in_units_and_tolerances_not_sigmas():
    """Issue 50: replicates that differ only by the 1 +- 1e-4 runtime scale have no
    sampling error, so a differing row says how far in the quantity's units and as a
    share of the tolerance; the same numbers otherwise give the sigmas."""
    args = ("2.1", "Table 2", "1300", RUNS)
    row = ensemble_value(*args, kind="time", cause="measured", deterministic=True)
    assert row["verdict"] == "differs" and math.isnan(row["sigmas"])
    assert "standard deviations" not in row["reason"]
    tol = 0.05 * 1300
    share = abs(RUNS.mean() - 1300) / tol
    assert f"our mean lies {RUNS.mean() - 1300:+.4g} from the paper's value" in row["reason"]
    assert f"{share:.3g} times the time tolerance ({tol:.3g})" in row["reason"]
    assert "sensitivity to a 1e-4 change of the runtimes" in row["reason"]
    plain = ensemble_value(*args, kind="time", cause="measured")
    assert "standard deviations" in plain["reason"] and plain["verdict"] == row["verdict"]
    table = np.column_stack([RUNS, TLA])
    row = ensemble_statistic("T4", "gain", "90", table, _gain, kind="percent",
                             deterministic=True)  # fmt: skip
    assert row["verdict"] == "differs" and "standard deviations" not in row["reason"]
    with pytest.raises(InvalidParameter, match="deterministic"):
        ensemble_value(*args, kind="time", deterministic="yes")


def test_the_mean_of_k_decides_where_one_run_would_not():
    """A print 1.2 sd from our mean: inside the range of one run, outside that of the
    mean of 10 runs (the paper averaged 10 runs, so ours must too)."""
    runs = np.random.default_rng(1).normal(100.0, 10.0, 40)
    printed = f"{runs.mean() + 1.2 * runs.std(ddof=1):.3f}"
    assert (
        ensemble_value("x", "q", printed, runs, kind="count", k=1)["verdict"] == "within tolerance"
    )
    assert ensemble_value("x", "q", printed, runs, kind="count", k=10)["verdict"] == "differs"


def test_a_paired_claim_holds_where_unpaired_intervals_overlap():
    """B better than A by 5 s on every one of 10 streams whose ATTs spread over 50 s:
    the separate intervals overlap, the paired one excludes zero."""
    a = RUNS
    b = RUNS - 5.0 + np.random.default_rng(0).normal(0, 1, RUNS.size)
    sa, sb = summarize(a), summarize(b)
    assert abs(sa.mean - sb.mean) < sa.ci + sb.ci  # unpaired: cannot tell
    row = paired_claim("6.3", "B beats A", b, a, a_name="B", b_name="A")
    assert row["verdict"] == "qualitative" and "B better in 10 of 10" in row["ours"]


def test_a_paired_claim_that_our_runs_cannot_decide_or_that_is_reversed():
    noise = np.random.default_rng(2).normal(0, 1, 10)
    row = paired_claim("x", "B beats A", RUNS + noise, RUNS)
    assert row["verdict"] == "differs" and "contains 0" in row["reason"]
    row = paired_claim("x", "B beats A", RUNS + 10 + noise, RUNS, a_name="B", b_name="A")
    assert row["verdict"] == "differs" and row["reason"].startswith("reversed: A beats B")
    up = paired_claim("x", "B higher", RUNS + 10 + noise, RUNS, higher_is_better=True)
    assert up["verdict"] == "qualitative"


def test_a_claim_on_fewer_than_ten_replicates_says_why_and_never_silently():
    row = paired_claim("x", "B beats A", RUNS[:3] - 5, RUNS[:3], a_name="B", b_name="A")
    assert row["replicates"] == 3 and CLAIM_REPLICATES == 10
    with pytest.raises(InvalidParameter, match="replicates: 3 is fewer than 10"):
        with_replicates(row, 3)  # no reason given: an error, not a silent row
    few = with_replicates(row, 3, "10 would take 6 h")
    assert few["verdict"] == row["verdict"] and few["ours"] == row["ours"]
    assert few["reason"].endswith("on 3 replicates, fewer than 10: 10 would take 6 h")
    ten = paired_claim("x", "B beats A", RUNS - 5, RUNS)
    assert with_replicates(ten, 10, "unused") == dict(ten, replicates=10)  # no reason added
    assert with_replicates(row, 12)["reason"] == row["reason"]


@pytest.mark.parametrize(
    "call, error, field",
    [
        (lambda r: with_replicates({"kind": "value"}, 10), InvalidType, "claim row"),
        (lambda r: with_replicates("row", 10), InvalidType, "claim row"),
        (lambda r: with_replicates(r, 0), InvalidParameter, "replicates"),
        (lambda r: with_replicates(r, 2.5), InvalidParameter, "replicates"),
        (lambda r: with_replicates(r, float("nan")), InvalidParameter, "replicates"),
        (lambda r: with_replicates(r, True), InvalidParameter, "replicates"),
        (lambda r: with_replicates(r, 3, why=None), InvalidType, "why"),
        (lambda r: with_replicates(r, 3, why="  "), InvalidParameter, "why"),
    ],
)
def test_with_replicates_meets_bad_input_naming_the_field(call, error, field):
    row = paired_claim("x", "B beats A", RUNS - 5, RUNS)
    with pytest.raises(error) as err:
        call(row)
    assert field in str(err.value)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=30), st.integers(1, 12))
def test_the_range_of_the_mean_lies_within_the_runs(runs, k):
    lo, hi = mean_of_k(runs, k)
    assert min(runs) - 1e-6 <= lo <= hi <= max(runs) + 1e-6


def test_runtime_scale_of_trace_replicates():
    assert runtime_scale(0) == 1.0  # replicate 0 is the log itself
    scales = [runtime_scale(r) for r in range(1, 200)]
    assert all(abs(s - 1) <= RUNTIME_JITTER for s in scales)
    assert len(set(scales)) == len(scales) and runtime_scale(7) == runtime_scale(7)


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: summarize([]), "values"),
        (lambda: summarize([1.0, float("nan")]), "values[1]"),
        (lambda: summarize([1.0, float("inf")]), "values[1]"),
        (lambda: summarize("abc"), "values"),
        (lambda: summarize([[1.0, 2.0]]), "values"),
        (lambda: mean_of_k(RUNS, 0), "k"),
        (lambda: mean_of_k(RUNS, 2.5), "k"),
        (lambda: mean_of_k(RUNS, True), "k"),
        (lambda: mean_of_k(RUNS, 2, confidence=1.0), "confidence"),
        (lambda: ensemble_value("x", "q", "1", RUNS, kind="speed"), "kind"),
        (lambda: ensemble_value("x", "q", "n/a", RUNS, kind="time"), "paper"),
        (lambda: ensemble_value("x", "q", float("nan"), RUNS, kind="time"), "paper"),
        (lambda: ensemble_value("x", "q", True, RUNS, kind="time"), "paper"),
        (lambda: paired_claim("x", "c", RUNS, RUNS[:5]), "pair"),
        (lambda: paired_claim("x", "c", [1.0], [2.0]), "at least 2"),
        (lambda: runtime_scale(-1), "replicate"),
        (lambda: runtime_scale(1.5), "replicate"),
    ],
)
def test_bad_input_is_an_error_naming_the_field(call, field):
    with pytest.raises(InvalidParameter, match=None) as err:
        call()
    assert isinstance(err.value, HpcmodelsError) and isinstance(err.value, ValueError)
    assert field in str(err.value)


# ------------------------------------------- a value computed from several means (paired)
TLA = RUNS * 0.8  # a second series of the same replicates


def _gain(means):
    """Improvement % of column 1 over column 0 (a Table 4-like statistic); a zero column
    0 gives inf or NaN, which the rule must refuse."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return 100 * (means[:, 0] - means[:, 1]) / means[:, 0]


def test_the_statistic_of_one_column_mean_is_the_mean_of_k_rule():
    for k in (1, 4, 10):
        lo, hi, _ = statistic_of_k(RUNS[:, None], lambda m: m[:, 0], k)
        assert (lo, hi) == pytest.approx(mean_of_k(RUNS, k), rel=1e-12)


def test_resampling_keeps_whole_replicates_so_paired_series_stay_paired():
    # column 1 is 0.8 x column 0 in every replicate: the gain is 20 % in every resample,
    # which resampling the two columns independently would not give
    lo, hi, sd = statistic_of_k(np.column_stack([RUNS, TLA]), _gain, 10)
    assert lo == pytest.approx(20.0) and hi == pytest.approx(20.0) and sd < 1e-9


def test_a_printed_statistic_is_judged_on_our_statistic_of_k_means():
    rng = np.random.default_rng(5)
    table = np.column_stack([RUNS, RUNS * rng.uniform(0.6, 1.0, RUNS.size)])
    ours = _gain(table.mean(axis=0)[None, :])[0]
    row = ensemble_statistic("Table 4", "gain %", f"{ours:.4f}", table, _gain, kind="percent", k=10)
    assert row["verdict"] == "within tolerance" and row["ours"] == pytest.approx(ours)
    singles = _gain(table)
    assert (row["low"], row["high"], row["replicates"]) == (singles.min(), singles.max(), 10)
    far = ensemble_statistic("Table 4", "gain %", ours + 30, table, _gain, kind="percent", k=10)
    assert far["verdict"] == "differs" and far["sigmas"] > 3
    assert "standard deviations of the mean of 10 runs" in far["reason"]
    lo, hi = (float(v) for v in far["range_k"].split(" to "))
    assert lo < ours < hi  # our 95 % range of the mean of 10 runs holds our value


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: statistic_of_k(RUNS, _gain, 2), "table"),
        (lambda: statistic_of_k(np.empty((0, 2)), _gain, 2), "table"),
        (lambda: statistic_of_k([[1.0, 2.0], [float("nan"), 1.0]], _gain), "table row 1"),
        (lambda: statistic_of_k([[1.0, 2.0], [3.0, 1.0]], _gain, 0), "k"),
        (lambda: statistic_of_k([[1.0, 2.0], [3.0, 1.0]], lambda m: m, 2), "statistic"),
        (lambda: statistic_of_k([[0.0, 2.0], [0.0, 1.0]], _gain, 2), "statistic"),
        (lambda: ensemble_statistic("x", "q", "z", [[1.0, 2.0]], _gain, kind="percent"), "paper"),
    ],
)
def test_the_statistic_rule_meets_bad_input_naming_the_field(call, field):
    with pytest.raises(InvalidParameter) as err:
        call()
    assert field in str(err.value)


# ---------------------------------------------------------------- the store's bad input


def test_the_store_meets_bad_input_with_errors_naming_it(tmp_path, monkeypatch):
    import pandas as pd

    from hpcmodels.papers import shih2013, store

    with pytest.raises(InvalidParameter, match="unknown paper 'nope'"):
        store.store_path("nope")
    monkeypatch.delattr(shih2013, "ensemble_points")  # a paper module without ensembles
    with pytest.raises(InvalidParameter, match="'shih2013' has no paper-scale ensembles yet"):
        store.compute_store("shih2013", folder=tmp_path)
    monkeypatch.undo()
    assert store.read_store("jones2005", tmp_path) is None  # not computed: None, not an error
    pd.DataFrame({"item": ["a"], "value": [1.0]}).to_parquet(tmp_path / "jones2005.parquet")
    with pytest.raises(InvalidParameter, match=r"lacks column\(s\) \['replicate'\]"):
        store.read_store("jones2005", tmp_path)
    frame = pd.DataFrame({"item": ["a", "a"], "replicate": [1, 0], "value": [2.0, 1.0]})
    assert list(store.values(frame, "a")) == [1.0, 2.0]  # replicate order
    with pytest.raises(InvalidParameter, match="no rows for item 'b'"):
        store.values(frame, "b")
    with pytest.raises(InvalidParameter, match="gave no finite value"):
        store._rows([{"replicate": 0}], [{"a": float("nan")}])
    assert (
        store.beside(frame.assign(quantity="q"), None)["verdict (paper scale)"]
        .eq("not computed")
        .all()
    )


def test_beside_shows_a_paper_scale_not_run_row_without_numbers():
    """A paper-scale row whose log is missing here (``not_run``: no mean, no replicates)
    sits beside its quick row with its verdict and reason and no value."""
    import pandas as pd

    from hpcmodels.papers import store
    from hpcmodels.papers.verdicts import not_run

    quick = pd.DataFrame([{"item": "Table 4", "quantity": "B1 cell", "verdict": "not run"},
                          {"item": "Table 4", "quantity": "A1 cell", "verdict": "differs"}])  # fmt: skip
    scale = pd.DataFrame([not_run("Table 4", "B1 cell", 12, "log missing: DAS2-fs0-2003-1"),
                          ensemble_value("Table 4", "A1 cell", "1087", RUNS, kind="time")])  # fmt: skip
    both = store.beside(quick, scale).set_index("quantity")
    assert both.loc["B1 cell", "verdict (paper scale)"] == "not run"
    assert both.loc["B1 cell", "paper scale"] == ""
    assert "DAS2-fs0" in both.loc["B1 cell", "reason (paper scale)"]
    assert both.loc["A1 cell", "paper scale"].endswith("10 runs)")
