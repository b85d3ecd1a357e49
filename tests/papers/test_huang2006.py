"""Paper checks for Huang & Chang 2006 (quick: a subset of load factors and slowdowns),
and the comparison machinery of :mod:`hpcmodels.papers.huang2006` on synthetic tables."""

import numpy as np
import pandas as pd
import pytest

from hpcmodels.papers import huang2006 as huang
from hpcmodels.papers.huang2006 import rows as huang_rows
from hpcmodels.papers.huang2006 import simulation, workload
from hpcmodels.papers.verdicts import TOLERANCES
from hpcmodels.stats import t_interval

from logs import need_log


@pytest.fixture(scope="module")
def jobs_and_log():
    need_log(huang.CLEANED_LOG)
    return huang.load_jobs()


@pytest.fixture(scope="module")
def grid_runs(jobs_and_log):
    """Tables 5-9 at slowdowns 1 and 5, random fit over ten seeds."""
    _, log = jobs_and_log
    return huang.allocation_runs(log, [1.0, 5.0], seeds=range(10), progress=False)


# ------------------------------------------------------------------ the workload


def test_table1_queues_1_2_5_exact_and_3_4_never_exact(jobs_and_log):
    jobs, log = jobs_and_log
    t1 = huang.table1(jobs, log).set_index("quantity")
    for q in (1, 2, 5):
        rows = t1[t1.index.str.startswith(f"queue {q} ")]
        assert (rows["verdict"] == "exact").all(), rows
    if log == huang.CLEANED_LOG:
        for q in (3, 4):
            rows = t1[t1.index.str.startswith(f"queue {q} ")]
            assert not (rows["verdict"] == "exact").any(), rows  # another job set
            assert rows["reason"].str.contains("cleaned log").all()
        effect = huang.cleaning_effect(jobs)
        missing = effect.loc[4, "missing"]
        assert t1.loc["queue 4 jobs", "verdict"] == "differs"
        assert f"removed {missing:,.0f} completed jobs" in t1.loc["queue 4 jobs", "reason"]
        mean = effect.loc[4, "missing_mean_runtime"]
        assert f"averaged {mean:,.0f} s" in t1.loc["queue 4 mean_runtime", "reason"]


def test_cleaning_effect_adds_up(jobs_and_log):
    jobs, _ = jobs_and_log
    effect = huang.cleaning_effect(jobs)
    queues = effect.drop(index="all")
    assert queues["our_jobs"].sum() == len(jobs)
    assert effect.loc["all", "missing"] == huang.TOTAL_JOBS - len(jobs) == queues["missing"].sum()
    assert effect.loc["all", "count_ratio"] == pytest.approx(huang.TOTAL_JOBS / len(jobs))
    for q, row in queues[queues["missing"] > 0].iterrows():  # paper total = ours + missing
        paper = float(huang.TABLE1.loc[q, "jobs"]) * float(huang.TABLE1.loc[q, "mean_runtime"])
        ours = row["our_jobs"] * row["our_mean_runtime"]
        assert ours + row["missing"] * row["missing_mean_runtime"] == pytest.approx(paper)


def test_totals_rows_name_the_missing_jobs(jobs_and_log):
    jobs, log = jobs_and_log
    rows = pd.DataFrame(huang.totals_rows(jobs, log)).set_index("quantity")
    total = rows.loc["total completed jobs"]
    assert total["paper"] == huang.TOTAL_JOBS and total["ours"] == len(jobs)
    records = rows.loc["records in the SDSC SP2 log"]
    assert records["ours"] == jobs.attrs["records"]
    if log == huang.CLEANED_LOG:
        assert total["verdict"] == "differs"
        assert f"{huang.TOTAL_JOBS - len(jobs):,} completed jobs missing" in total["reason"]
        assert records["verdict"] == "differs"
        assert f"{huang.LOG_RECORDS:,}" in records["reason"]  # records + removed = 73,496


def test_the_runs_are_one_cached_sweep_and_a_failed_run_is_named(jobs_and_log, tmp_path,
                                                                  monkeypatch):  # fmt: skip
    """The same frame serially and from the sweep's cache (a second call simulates
    nothing, and the counts stay integers); a run that fails stops the table with its
    call and its error."""
    _, log = jobs_and_log
    serial = huang.policies_by_load(log, [1.0], client="serial", progress=False)
    assert list(serial["policy"]) == list(huang.POLICIES) and serial["jobs"].dtype == "int64"
    first = huang.policies_by_load(log, [1.0], cache=tmp_path, progress=False)
    pd.testing.assert_frame_equal(first, serial)
    assert len(list(tmp_path.rglob("*.parquet"))) == len(huang.POLICIES)

    def no_simulation(*args, **kwargs):
        raise OSError("no simulation expected")

    monkeypatch.setattr(simulation, "simulate", no_simulation)
    pd.testing.assert_frame_equal(huang.policies_by_load(log, [1.0], cache=tmp_path,
                                                         progress=False), serial)  # fmt: skip
    with pytest.raises(RuntimeError, match=r"5 of 5 points of simulate_run \(Tables 2-3\) failed; "
                       rf"the first, \{{'log': '{log}', 'clusters': \[Cluster.*'selection': 'fcfs', "
                       r".*'load_factor': 2.0\}: OSError: no simulation expected"):  # fmt: skip
        huang.policies_by_load(log, [2.0], cache=tmp_path, progress=False)


# ------------------------------------------------------------------ Section 2


def test_waiting_ratio_reading(jobs_and_log):
    """The per-job mean of wait / execution is the reading that reproduces Table 3."""
    _, log = jobs_and_log
    fcfs = huang.policies_by_load(log, [1.0], progress=False).set_index("policy").loc["FCFS"]
    paper = float(huang.TABLE3.loc[1.0, "FCFS"])
    assert 0.5 * paper < fcfs["mean_waiting_ratio"] < 2 * paper
    assert fcfs["waiting_ratio_of_means"] < 0.1 * paper


def test_section2_non_fcfs_policies_beat_fcfs(jobs_and_log):
    _, log = jobs_and_log
    df = huang.policies_by_load(log, [1.0, 3.0], progress=False)
    wait = huang.pivot(df, "mean_wait", list(huang.POLICIES))
    ratio = huang.pivot(df, "mean_waiting_ratio", list(huang.POLICIES))
    claims = pd.DataFrame(huang.section2_claims(wait, ratio)).set_index("quantity")
    assert claims.loc["all non-FCFS policies beat FCFS at every load factor", "verdict"] == (
        "qualitative"
    )


def _paper_tables():
    """Tables 2-3 and 5-9 as printed, laid out as ours (the upper-median column = the
    paper's median fit)."""
    num = {k: t.astype(float) for k, t in (("t2", huang.TABLE2), ("t3", huang.TABLE3),
                                            ("t5", huang.TABLE5), ("t6", huang.TABLE6),
                                            ("t7", huang.TABLE7), ("t8", huang.TABLE8),
                                            ("t9", huang.TABLE9))}  # fmt: skip
    for k in ("t5", "t6"):
        num[k][huang.MEDIAN_UPPER] = num[k]["Median Fit"]
    return num


def test_claims_hold_on_the_papers_own_tables():
    """Every claim, checked on the paper's own numbers, holds: the claims say what the
    paper says."""
    p = _paper_tables()
    claims = huang.section2_claims(p["t2"], p["t3"])
    claims += huang.section3_claims(p["t5"], p["t6"], p["t7"], p["t8"], p["t9"])
    bad = [(c["quantity"], c["reason"]) for c in claims if c["verdict"] != "qualitative"]
    assert not bad
    assert len(claims) == 5 + 1 + 12 + 2 + 4


def test_a_broken_order_differs_and_names_the_pair():
    p = _paper_tables()
    p["t5"].loc[2.0, "Median Fit"] = 0.9 * p["t5"].loc[2.0, "Best Fit"]  # lower than best
    claims = pd.DataFrame(huang.section3_claims(p["t5"], p["t6"], p["t7"], p["t8"], p["t9"]))
    claims = claims.set_index("quantity")
    lower = "best fit waits least at every slowdown ratio > 1 (median fit: lower median)"
    upper = "best fit waits least at every slowdown ratio > 1 (median fit: upper median)"
    assert claims.loc[lower, "verdict"] == "differs"
    assert "2: Median Fit 54.43 < Best Fit 60.48" in claims.loc[lower, "reason"]
    assert claims.loc[upper, "verdict"] == "qualitative"  # the other reading is untouched


def test_improvement_grows_claim_can_fail():
    p = _paper_tables()
    p["t9"].loc[5.0, "ratio integrated"] = 0.2  # x9.4 at slowdown 5 after x12.9 at 4
    claims = pd.DataFrame(huang.section3_claims(p["t5"], p["t6"], p["t7"], p["t8"], p["t9"]))
    row = claims.set_index("quantity").loc[
        "the improvement in waiting ratio grows with the slowdown ratio"
    ]
    assert row["verdict"] == "differs"
    assert "at 4 -> x9.4 at 5" in row["reason"]


# ------------------------------------------------------------------ Sections 3-4


def test_both_median_readings_computed_and_labelled(jobs_and_log, grid_runs):
    jobs, log = jobs_and_log
    df = huang.summarise_runs(grid_runs)
    t5 = huang.pivot(df, "mean_wait", huang.OUR_METHODS)
    assert t5.loc[1.0, "Median Fit"] == t5.loc[1.0, huang.MEDIAN_UPPER]  # one big cluster
    assert t5.loc[5.0, "Median Fit"] != t5.loc[5.0, huang.MEDIAN_UPPER]
    rows = pd.DataFrame(huang.slowdown_rows(df, log, len(jobs))).set_index(["item", "quantity"])
    lower = rows.loc[("Table 5", "slowdown 5, Median Fit")]
    upper = rows.loc[("Table 5", f"slowdown 5, {huang.MEDIAN_UPPER}")]
    assert lower["paper"] == upper["paper"] == 959.88  # both read the paper's column
    assert "lower median" in lower["reason"] and "median_fit)" in lower["reason"]
    assert "upper median" in upper["reason"] and "median_fit_upper" in upper["reason"]
    readings = huang.median_readings(df).loc["mean_wait"]
    assert (
        readings.loc[5.0, "lower"] == lower["ours"]
        and readings.loc[5.0, "upper"] == (upper["ours"])
    )
    # a reading that breaks the table's typical ratio names the other reading's value
    check = huang.ratio_check(huang.TABLE5.loc[t5.index], t5, readings=huang.READINGS)
    for name, row in ((("Median Fit"), lower), (huang.MEDIAN_UPPER, upper)):
        other = huang.MEDIAN_UPPER if name == "Median Fit" else "Median Fit"
        if check.loc[(5.0, name), "breaks"]:
            assert "BREAKS the typical ratio" in row["reason"]
            assert f"{other} gives {huang_rows.num(t5.loc[5.0, other])}" in row["reason"]


def test_random_fit_is_the_mean_over_seeds_with_its_interval(jobs_and_log, grid_runs,
                                                             monkeypatch):  # fmt: skip
    jobs, log = jobs_and_log
    rf = grid_runs[grid_runs["method"] == "Random Fit"]
    assert sorted(rf.loc[rf["slowdown ratio"] == 5.0, "seed"]) == list(range(10))
    assert grid_runs.loc[grid_runs["method"] != "Random Fit", "seed"].isna().all()
    seeds5 = rf.loc[rf["slowdown ratio"] == 5.0, "mean_wait"].to_numpy()
    assert np.ptp(seeds5) > 0  # the seeds do place jobs differently
    df = huang.summarise_runs(grid_runs).set_index(["slowdown ratio", "method"])
    mean, half = t_interval(seeds5)
    assert df.loc[(5.0, "Random Fit"), "mean_wait"] == pytest.approx(mean)
    assert df.loc[(5.0, "Random Fit"), "mean_wait_ci"] == pytest.approx(half)
    assert df.loc[(5.0, "Random Fit"), "runs"] == 10
    assert np.isnan(df.loc[(5.0, "First Fit"), "mean_wait_ci"])  # one deterministic run

    seen = []
    original = huang_rows.compare_value

    def spy(item, quantity, paper, ours, **kw):
        seen.append((item, quantity, ours, kw.get("ci")))
        return original(item, quantity, paper, ours, **kw)

    monkeypatch.setattr(huang_rows, "compare_value", spy)
    huang.slowdown_rows(df.reset_index(), log, len(jobs))
    got = {(i, q): (o, ci) for i, q, o, ci in seen}
    assert got[("Table 5", "slowdown 5, Random Fit")] == pytest.approx((mean, half))
    assert got[("Table 5", "slowdown 5, First Fit")][1] is None


def test_no_exact_on_the_cleaned_log(jobs_and_log, grid_runs):
    jobs, log = jobs_and_log
    df = huang.summarise_runs(grid_runs)
    rows = pd.DataFrame(huang.slowdown_rows(df, log, len(jobs)))
    if log == huang.CLEANED_LOG:
        assert not (rows["verdict"] == "exact").any()
        t9 = rows[rows["item"] == "Table 9"]
        assert len(t9) == 8 and t9["reason"].str.contains("input: the cleaned log").all()


def test_sections3_4_slowdown_1_alike_and_integrated_wins(grid_runs):
    df = huang.summarise_runs(grid_runs)
    t5 = huang.pivot(df, "mean_wait", huang.OUR_METHODS)
    t6 = huang.pivot(df, "mean_waiting_ratio", huang.OUR_METHODS)
    t7 = huang.pivot(df, "mean_wait", list(huang.HEURISTICS))
    t8 = huang.pivot(df, "mean_waiting_ratio", list(huang.HEURISTICS))
    t9 = huang.table9_frame(df)
    # with slowdown 1 the grid is one big cluster (random fit: a mean of equal values)
    assert np.ptp(t5.loc[1.0].to_numpy()) == pytest.approx(0, abs=1e-9)
    ci5 = huang.pivot(df, "mean_wait_ci", huang.OUR_METHODS)
    claims = pd.DataFrame(huang.section3_claims(t5, t6, t7, t8, t9, ci5)).set_index("quantity")
    assert claims.loc["with slowdown 1 the five methods perform alike", "verdict"] == (
        "qualitative"
    )
    wins = "the integrated approach beats the single-pool queue at every slowdown"
    assert claims.loc[wins, "verdict"] == "qualitative"
    assert claims.loc["more than 20 times lower waiting ratio at slowdown 5", "verdict"] == (
        "qualitative"
    )


# ------------------------------------------------------------------ comparison machinery


def _synthetic(broken: float = 0.2):
    """A 3 x 4 table of times; ours is 1.3 x paper except column "C" (``broken`` x)."""
    paper = pd.DataFrame([["10.00", "20.00", "30.00", "40.00"],
                          ["11.00", "22.00", "33.00", "44.00"],
                          ["12.00", "24.00", "36.00", "48.00"]],
                         index=pd.Index([1.0, 2.0, 3.0], name="x"),
                         columns=["A", "B", "C", "D"])  # fmt: skip
    ours = paper.astype(float) * 1.3
    ours["C"] = paper["C"].astype(float) * broken
    return paper, ours


def test_ratio_check_flags_the_column_that_breaks_the_typical_ratio():
    paper, ours = _synthetic()
    check = huang.ratio_check(paper, ours)
    assert check["typical"].iloc[0] == pytest.approx(1.3)
    broken = check[check["breaks"]].index.get_level_values("column")
    assert set(broken) == {"C"} and len(broken) == 3
    rows = pd.DataFrame(huang.table_rows("T", paper, ours, "x", huang.CLEANED_LOG, n_jobs=100))
    flagged = rows[rows["reason"].str.contains("BREAKS the typical ratio")]
    assert sorted(flagged["quantity"]) == ["x 1, C", "x 2, C", "x 3, C"]
    row = flagged.set_index("quantity").loc["x 2, C"]
    assert "ours/paper 0.2, table's typical ratio 1.3" in row["reason"]
    assert "1.3 x paper = 42.9" in row["reason"]  # expected 1.3 x 33
    assert "no measurement here explains it" in row["reason"]
    in_line = rows.set_index("quantity").loc["x 2, B", "reason"]
    assert "in line with the table's typical ratio" in in_line
    assert f"{huang.TOTAL_JOBS:,} / 100" in in_line


def test_a_cell_just_inside_the_tolerance_is_not_flagged():
    paper, ours = _synthetic(broken=1.3)
    tol = TOLERANCES["time"].relative
    ours.loc[2.0, "C"] = 1.3 * 33 * (1 + 0.9 * tol)  # inside 5 % of typical x paper
    ours.loc[3.0, "C"] = 1.3 * 36 * (1 + 1.5 * tol)  # outside
    check = huang.ratio_check(paper, ours)
    assert not check.loc[(2.0, "C"), "breaks"] and check.loc[(3.0, "C"), "breaks"]


def test_another_reading_is_compared_and_named():
    paper, ours = _synthetic()
    ours["C (other)"] = paper["C"].astype(float) * 1.31
    rows = pd.DataFrame(huang.table_rows("T", paper, ours, "x", huang.CLEANED_LOG,
                                         readings={"C (other)": "C"}))  # fmt: skip
    rows = rows.set_index("quantity")
    assert rows.loc["x 1, C (other)", "paper"] == 10.0 * 3  # reads the paper's column C
    assert "BREAKS" not in rows.loc["x 1, C (other)", "reason"]
    assert "C (other) gives 39.3 (ours/paper 1.31, in line with it)" in rows.loc["x 1, C",
                                                                                 "reason"]  # fmt: skip
    check = huang.ratio_check(paper, ours, readings={"C (other)": "C"})
    assert check["typical"].iloc[0] == pytest.approx(1.3)  # readings do not set the ratio


def test_no_exact_on_another_input_and_ci_widens_the_tolerance():
    paper, _ = _synthetic()
    same = paper.astype(float)
    on_full = pd.DataFrame(huang.table_rows("T", paper, same, "x", huang.FULL_LOG))
    on_cleaned = pd.DataFrame(huang.table_rows("T", paper, same, "x", huang.CLEANED_LOG))
    assert (on_full["verdict"] == "exact").all()
    assert (on_cleaned["verdict"] == "within tolerance").all()
    ours = same * 1.15  # 15 % off: outside the 5 % time tolerance
    ci = same * 0.2
    with_ci = pd.DataFrame(huang.table_rows("T", paper, ours, "x", huang.FULL_LOG, ci=ci))
    without = pd.DataFrame(huang.table_rows("T", paper, ours, "x", huang.FULL_LOG))
    assert (with_ci["verdict"] == "within tolerance").all()
    assert with_ci["reason"].str.contains("95 % CI half-width").all()
    assert (without["verdict"] == "differs").all()


def test_typical_ratios_summarise_each_table(grid_runs):
    df = huang.summarise_runs(grid_runs)
    summary = huang.typical_ratios(by_slowdown=df)
    assert list(summary.index) == ["Table 5", "Table 6", "Table 7", "Table 8", "Table 9"]
    t7 = huang.pivot(df, "mean_wait", list(huang.HEURISTICS))
    ratios = (t7 / huang.TABLE7.loc[t7.index].astype(float)).to_numpy().ravel()
    assert summary.loc["Table 7", "typical"] == pytest.approx(np.median(ratios))
    assert summary.loc["Table 7", "cells"] == ratios.size


def test_full_log_reproduces_table2_when_present():
    need_log(huang.FULL_LOG)
    jobs, log = huang.load_jobs()
    by_load = huang.policies_by_load(log, [1.0], progress=False)
    rows = pd.DataFrame(huang.load_rows(by_load, log, len(jobs)))
    rows = rows[rows["item"] == "Table 2"]
    assert (rows["verdict"] != "differs").mean() >= 0.6


# ------------------------------------------------------------------ without the log


def test_without_the_log_every_table_and_claim_is_not_run_naming_it(monkeypatch):
    """No SDSC SP2 log here (issue 25): nothing raises; every frame stands for missing
    data and every rows function gives ``not run`` rows whose reason names the log and
    how to get it, as notebook 02 runs them, and the explorer says so too."""
    from hpcmodels.errors import LogNotAvailable
    from hpcmodels.explorers import policy_explorer
    from hpcmodels.papers.verdicts import log_missing, missing_of, shown

    error = LogNotAvailable("SDSC-SP2-1998-4.2-cln.swf.gz is not available locally; /here")
    reason = log_missing(error)
    assert reason.startswith("log missing: SDSC-SP2-1998-4.2-cln.swf.gz is not available")
    assert "download it" in reason and "/here" not in reason  # no machine's folder

    def absent(log):
        raise error

    monkeypatch.setattr(workload, "completed_jobs", absent)
    monkeypatch.setattr(workload, "is_available", lambda name: False)
    jobs, log = huang.load_jobs()
    assert log == huang.CLEANED_LOG and jobs.empty and missing_of(jobs) == reason
    by_load = huang.policies_by_load(log, [1.0], progress=False)
    runs = huang.allocation_runs(log, [1.0], seeds=[0], progress=False)
    by_slowdown = huang.summarise_runs(runs)
    tables = {name: huang.pivot(by_slowdown, "mean_wait", huang.OUR_METHODS)
              for name in ("t5", "t6", "t7", "t8")}  # fmt: skip
    frames = [huang.cleaning_effect(jobs), by_load, runs, by_slowdown, *tables.values(),
              huang.table9_frame(by_slowdown), huang.median_readings(by_slowdown),
              huang.random_fit_seeds(runs), huang.typical_ratios(by_load, by_slowdown, 0)]  # fmt: skip
    for frame in frames:
        assert missing_of(frame) == reason
        assert shown(frame).to_dict("list") == {"not run": [reason]}
    rows = [*huang.table1(jobs, log).to_dict("records"), *huang.totals_rows(jobs, log),
            *huang.load_rows(by_load, log, 0), *huang.slowdown_rows(by_slowdown, log, 0),
            *huang.section2_claims(by_load, by_load),
            *huang.section3_claims(**tables, t9=huang.table9_frame(by_slowdown))]  # fmt: skip
    items = {row["item"] for row in rows}
    assert items == {"Table 1", "Section 2", "Table 2", "Table 3", "Table 5", "Table 6",
                     "Table 7", "Table 8", "Table 9", "Tables 2-3", "Tables 5-9"}  # fmt: skip
    assert {row["verdict"] for row in rows} == {"not run"}
    assert {row["reason"] for row in rows} == {reason}
    assert huang.slowdown_rows(by_slowdown, log, 0, items=["Table 9"])[0]["item"] == "Table 9"
    explorer = policy_explorer(jobs, huang.GRID)
    assert "not run" in explorer.children[0].value and "SDSC-SP2" in explorer.children[0].value
