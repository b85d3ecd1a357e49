"""Paper checks for He et al. 2006: what the notebook reports must stay true."""

import numpy as np
import pandas as pd
import pytest

from hpcmodels.papers import he2006 as he

TINY = he.SimSettings(n_jobs=20_000, warmup=4_000, cooldown=4_000, seeds=2, progress=False)


def test_table3_ort_and_weighted_are_exact_omr_within_tolerance():
    t3 = he.table3()
    assert len(t3) == 12
    by = t3.set_index("quantity")
    for strategy in ("ORT", "W"):
        rows = by[by.index.str.contains(f" {strategy} ")]
        assert (rows["verdict"] == "exact").all(), rows
    omr = by[by.index.str.contains(" OMR ")]
    assert (omr["verdict"] == "within tolerance").all()
    assert (omr["diff"].abs() > 5e-4).any()  # the printed OMR values are not the optimum


def test_table3_reports_algorithm1_as_published():
    t3 = he.table3().set_index("quantity")
    assert not t3.loc["w=0.1 ORT cluster 1", "algorithm1_converged"]
    assert np.isnan(t3.loc["w=0.1 W cluster 1", "algorithm1"])


def test_table4_ort_and_weighted_exact_and_ordering_claims_hold():
    t4 = he.table4()
    assert (t4[~t4["quantity"].str.contains("OMR")]["verdict"] == "exact").all()
    assert all(row["verdict"] == "qualitative" for row in he.table4_checks(t4))


def test_fig4_quick_check_reproduces_the_68_percent_decrease():
    df = he.fig4(TINY)
    row = he.fig4_checks(df)[0]
    assert row["paper"] == 68.0
    assert abs(row["ours"] - 68.0) <= he.SIM_TOLERANCE


def test_fig5_structural_bound_is_stated():
    row = he.fig5_checks(he.fig5(TINY))[0]
    assert row["verdict"] == "differs"
    assert "mean service time 8.4 s" in row["reason"]


def test_sweeps_have_every_point_and_algorithm():
    df = he.fig3(TINY, workloads=(0.2, 0.6))
    assert len(df) == 2 * len(he.ALGORITHMS)
    assert set(df["algorithm"]) == set(he.ALGORITHMS)
    assert df[["mean_response", "response_ci", "miss_rate"]].notna().all().all()
    dynamic = df["algorithm"].isin(["DLL", "DLM"])
    assert df.loc[dynamic, "analytic_response"].isna().all()
    assert df.loc[~dynamic, "analytic_response"].notna().all()


def test_every_check_has_a_verdict_and_differences_have_reasons():
    rows = he.fig3_checks(he.fig3(TINY)) + he.fig6_checks(he.fig6(TINY))
    rows += he.fig8_checks(he.fig8a(TINY), he.fig8b((0.1, 0.5, 0.9)), he.omr_thresholds((0.5,)))
    frame = pd.DataFrame(rows)
    assert set(frame["verdict"]) <= {"exact", "within tolerance", "qualitative", "differs"}
    assert (frame.loc[frame["verdict"] == "differs", "reason"].str.len() > 0).all()


def test_deterioration_is_zero_at_the_initial_workload_and_grows():
    assert he.deterioration(he.TABLE2, 0.3, 0.3) == pytest.approx(0.0, abs=1e-9)
    values = [he.deterioration(he.TABLE2, 0.3, 0.3 * (1 + d)) for d in (0.05, 0.1, 0.2)]
    assert values == sorted(values) and values[0] > 0
    threshold = he.change_threshold(he.TABLE2, 0.3, 3.0, +1)
    assert he.deterioration(he.TABLE2, 0.3, 0.3 * (1 + threshold / 100)) == pytest.approx(
        3.0, abs=1e-3
    )


def test_unknown_names_are_clear_errors():
    with pytest.raises(ValueError, match="strategy"):
        he.fractions("FASTEST", he.TABLE2, 1.0)
    with pytest.raises(ValueError, match="algorithm"):
        he.simulate_points([he.Point({}, he.TABLE2, 0.5)], ["ORT-XX"], TINY)


def test_allocation_summary_matches_table3():
    summary = he.allocation_summary(he.TABLE2, 0.1)
    assert summary.loc["ORT", "cluster 1"] == pytest.approx(0.752, abs=5e-4)
    assert summary.loc["ORT", "mean response (s)"] < summary.loc["W", "mean response (s)"]
    assert summary.loc["OMR", "miss rate"] <= summary.loc["W", "miss rate"]


@pytest.mark.slow
def test_paper_scale_fig4_and_fig3():
    paper = he.SimSettings.paper(progress=False)
    row = he.fig4_checks(he.fig4(paper))[0]
    assert abs(row["ours"] - 68.0) <= he.SIM_TOLERANCE
    df = he.fig3(paper)
    assert he.fig3_checks(df)[3]["verdict"] == "qualitative"  # ORT-Rand beats W-/OMR-Rand
