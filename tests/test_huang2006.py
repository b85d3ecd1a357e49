"""Paper checks for Huang & Chang 2006 (quick: a subset of load factors and slowdowns)."""

import pandas as pd
import pytest

from hpcmodels.papers import huang2006 as huang

from logs import need_log


@pytest.fixture(scope="module")
def jobs_and_log():
    need_log(huang.CLEANED_LOG)
    return huang.load_jobs()


def test_table1_queues_1_2_5_exact_and_3_4_explained(jobs_and_log):
    jobs, log = jobs_and_log
    t1 = huang.table1(jobs, log).set_index("quantity")
    for q in (1, 2, 5):
        rows = t1[t1.index.str.startswith(f"queue {q} ")]
        assert (rows["verdict"] == "exact").all(), rows
    if log == huang.CLEANED_LOG:
        assert t1.loc["queue 3 jobs", "verdict"] == "differs"
        assert "cleaned log" in t1.loc["queue 3 jobs", "reason"]


def test_waiting_ratio_reading(jobs_and_log):
    """The per-job mean of wait / execution is the reading that reproduces Table 3."""
    jobs, _ = jobs_and_log
    fcfs = huang.policies_by_load(jobs, [1.0], progress=False).set_index("policy").loc["FCFS"]
    paper = float(huang.TABLE3.loc[1.0, "FCFS"])
    assert 0.5 * paper < fcfs["mean_waiting_ratio"] < 2 * paper
    assert fcfs["waiting_ratio_of_means"] < 0.1 * paper


def test_section2_non_fcfs_policies_beat_fcfs(jobs_and_log):
    jobs, _ = jobs_and_log
    df = huang.policies_by_load(jobs, [1.0, 3.0], progress=False)
    wait = huang.pivot(df, "mean_wait", list(huang.POLICIES))
    ratio = huang.pivot(df, "mean_waiting_ratio", list(huang.POLICIES))
    claims = pd.DataFrame(huang.section2_claims(wait, ratio)).set_index("quantity")
    assert claims.loc["all non-FCFS policies beat FCFS at every load factor", "verdict"] == (
        "qualitative"
    )


def test_sections3_4_slowdown_1_alike_and_integrated_wins(jobs_and_log):
    jobs, _ = jobs_and_log
    df = huang.allocation_by_slowdown(jobs, [1.0, 5.0], progress=False)
    t5 = huang.pivot(df, "mean_wait", list(huang.METHODS))
    t7 = huang.pivot(df, "mean_wait", list(huang.HEURISTICS))
    t9 = huang.table9_frame(df)
    assert t5.loc[1.0].nunique() == 1  # with slowdown 1 the grid is one big cluster
    claims = pd.DataFrame(huang.section3_claims(t5, t7, t9)).set_index("quantity")
    wins = "the integrated approach beats the single-pool queue at every slowdown"
    assert claims.loc[wins, "verdict"] == "qualitative"
    assert claims.loc["more than 20 times lower waiting ratio at slowdown 5", "verdict"] == (
        "qualitative"
    )


def test_full_log_reproduces_table2_when_present():
    need_log(huang.FULL_LOG)
    jobs, log = huang.load_jobs()
    wait = huang.pivot(huang.policies_by_load(jobs, [1.0], progress=False), "mean_wait",
                       list(huang.POLICIES))  # fmt: skip
    rows = pd.DataFrame(huang.table_rows("Table 2", huang.TABLE2.loc[[1.0]], wait, "lf", log))
    assert (rows["verdict"] != "differs").mean() >= 0.6
