"""Shih 2013's TLA reproduction (hpcmodels.papers.shih2013): the snapshot rows, Table 4's
published cells, and the run/report pipeline on short traces."""

import pandas as pd
import pytest

from hpcmodels.papers import shih2013 as shih
from hpcmodels.papers.shih2013 import section4

from logs import SDSC, need_log


@pytest.fixture
def sdsc():
    """A1/A2 need the SDSC SP2 log: skipped, naming it, where it is absent."""
    need_log(SDSC)


def test_snapshot_rows_reproduce_table1_and_fig9():
    rows = pd.DataFrame(shih.snapshot_rows()).set_index("quantity")
    differs = rows[rows["verdict"] == "differs"]
    # the printed slip and the average that carries it (8 is exact in the paper, not 8.25)
    assert list(differs.index) == ["turnaround of job 4, job 1 on B", "ATT, job 1 on B"]
    assert differs["ours"].iloc[0] == 7 and "t = 4" in differs["reason"].iloc[0]
    fig9 = rows[rows["item"] == "Fig. 9"]
    assert list(fig9["verdict"]) == ["exact", "exact"]
    assert rows.loc["TLA's choice for job 1", "ours"] == "B"


def test_table4_keeps_only_the_cells_notes_places():
    assert len(shih.TABLE4) == 68
    assert shih.TABLE4[("A2", "low", 0.0)] == -2 and shih.TABLE4[("F1", "low", 0.0)] == -3
    assert shih.TABLE4[("A1", "high", 0.1)] == 35 and shih.TABLE4[("F2", "high", 0.2)] == 42
    assert ("C1", "medium", 0.0) not in shih.TABLE4  # scrambled: not placed with certainty


def test_quick_runs_give_rows_for_every_cell_and_name_missing_logs(sdsc):
    runs = shih.run_configurations(["A1", "B1"], ["medium"], [0.0], n_jobs={"A1": 2000},
                                   progress=False)  # fmt: skip
    assert runs[runs["wid"] == "B1"]["missing"].str.contains("DAS2").all()
    imp = shih.improvement(runs)
    assert set(imp.columns) >= {"BF", "FF", "AI2", "TLA", "improvement %"}
    rows = pd.DataFrame(shih.table4_rows(imp, runs))
    a1 = rows[rows["quantity"].str.startswith("A1")].iloc[0]
    assert "first 2,000 jobs" in a1["reason"]
    assert shih.SDSC_INPUT in a1["reason"] and a1["verdict"] != "exact"  # another log version
    t5 = pd.DataFrame(shih.table5_rows(pd.DataFrame({"TLA": [0.83]}, index=["high"]),
                                       "whole trace"))  # fmt: skip
    assert t5.loc[0, "verdict"] == "within tolerance" and shih.SDSC_INPUT in t5.loc[0, "reason"]
    assert set(rows[rows["quantity"].str.startswith("B1")]["verdict"]) == {"not run"}


def test_depth_one_changes_nothing_and_depth_all_is_counted(sdsc):
    depth = shih.depth_study("A1", "high", [1, None], n_jobs=1500, progress=False)
    assert depth.loc[1, "changes vs depth 1"] == 0
    assert depth.loc["all", "activations"] > 0


@pytest.mark.parametrize("bad", ["Z9"])
def test_unknown_workload_is_an_error(bad):
    with pytest.raises(ValueError, match="unknown workload"):
        shih.scaled_jobs(bad, 0.5)


def test_only_tla_reads_the_estimates(sdsc):
    """Fig. 8's premise: BF, FF and AI2 ignore estimates, so their ATT is the same for
    every inaccuracy factor; TLA's may change."""
    fig8 = shih.inaccuracy_study("A1", "high", (1, 1024), n_jobs=1500, progress=False)
    for method in ("BF", "FF", "AI2"):
        assert fig8[method].nunique() == 1
    assert fig8["TLA"].nunique() == 2


def test_knob_study_runs_every_setting(sdsc):
    table = shih.tla_knob_study("A2", "medium", depths=[1, None], allocation_depths=[1, 4],
                                n_jobs=1000, progress=False)  # fmt: skip
    assert len(table) == 4 and table["att"].gt(0).all()


@pytest.mark.parametrize("call", [
    lambda: shih.run_configurations(["A1"], ["heavy"], [0.0], progress=False),
    lambda: shih.depth_study("A1", "High", [1], progress=False),
    lambda: shih.tla_knob_study("A2", "", progress=False),
    lambda: shih.inaccuracy_study("A1", "0.75", progress=False),
])  # fmt: skip
def test_unknown_load_names_are_errors(call):
    with pytest.raises(ValueError, match="unknown load"):
        call()


def test_runs_resume_from_the_sweep_cache_without_recomputing(sdsc, tmp_path, monkeypatch):
    """run_configurations is a sweep: the same frame without and with a cache folder, and
    a second call reads every run from the cache (no simulation); a missing log stays a
    ``missing`` row and is never a point."""
    calls = []
    real = section4.simulate
    monkeypatch.setattr(section4, "simulate", lambda *a, **k: calls.append(a[3]) or real(*a, **k))
    args = (["B1", "A1"], ["high"], [0.0, 0.1])
    kw = dict(n_vectors=2, n_jobs=800, progress=False, client="serial")
    plain = shih.run_configurations(*args, **kw)
    assert len(calls) == 3 * len(shih.METHODS)  # A1: SH 0 (one vector) and SH 0.1 (two)
    first = shih.run_configurations(*args, cache=tmp_path, **kw)
    second = shih.run_configurations(*args, cache=tmp_path, **kw)
    assert len(calls) == 2 * 3 * len(shih.METHODS)  # the second call computed nothing
    pd.testing.assert_frame_equal(first, second)
    wall = ["seconds"]  # wall time of each run
    pd.testing.assert_frame_equal(plain.drop(columns=wall), first.drop(columns=wall))
    assert plain["missing"].notna().sum() == 3 and plain["method"].isna().sum() == 3


def test_a_failing_run_is_an_error_naming_its_point(sdsc, monkeypatch):
    real = section4.simulate

    def simulate(jobs, clusters, selection, allocation, **kw):
        if allocation == "ai2":
            raise RuntimeError("AI2 fails on purpose")
        return real(jobs, clusters, selection, allocation, **kw)

    monkeypatch.setattr(section4, "simulate", simulate)
    with pytest.raises(RuntimeError, match=r"1 of 4 points of configuration_point \(Section 4 "
                       r"runs\) failed; the first, \{'wid': 'A1', 'load': 'low', 'sh': 0.0, "
                       r"'vector': 0, 'method': 'AI2'.*AI2 fails on purpose"):  # fmt: skip
        shih.run_configurations(["A1"], ["low"], [0.0], n_jobs=500, progress=False,
                                client="serial")  # fmt: skip
