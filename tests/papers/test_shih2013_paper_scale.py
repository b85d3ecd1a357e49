"""Shih 2013 Section 5 (Figs. 8, 10-13) at paper scale: the stored studies and their
claims judged on paired replicates. A researcher reading the paper-scale rows relies on
each claim being judged replicate by replicate (a reversal reads as one), on a method
that moves with the inaccuracy factor being caught, on the mean frames having the shape
the quick studies have (so one plotting function draws both scales), and on the quick
and paper-scale rows naming the same quantity (so the report puts them side by side).
The store is built on the real Section 5 settings with ATTs from a known formula, so
every verdict is known in advance."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from hpcmodels import plots
from hpcmodels.errors import InvalidParameter
from hpcmodels.papers import shih2013 as shih
from hpcmodels.papers.shih2013.ensemble import _section5_settings
from hpcmodels.papers.shih2013.workloads import jobs_at_load
from hpcmodels.papers.store import _rows

POLICY_COST = {"fastest_first": 0.0, "best_fit": 5.0, "worst_fit": 10.0, "random_fit": 30.0}


def _rank(depth: int) -> int:
    """0 for depth 1 ... the largest for every waiting job."""
    return 99 if depth == shih.ALL_WAITING else int(np.log2(depth))


def _agreeing(study: str, setting: dict, r: int) -> dict[str, float]:
    """ATTs that agree with every Section 5 claim; replicate r shifts every setting."""
    key = lambda what: shih.section5_key(study, *shih.SECTION5_RUNS[study], setting, what)  # noqa: E731
    if study == "fig8":
        out = {key(f"{m} ATT (s)"): 1000.0 + 10 * r + i for i, m in enumerate(("BF", "FF", "AI2"))}
        return out | {key("TLA ATT (s)"): 500.0 + 50 * np.log2(setting["factor"]) + r}
    if study == "fig10":
        rank = min(_rank(setting["depth"]), 12)
        return {key("TLA ATT (s)"): 900.0 - 20 * rank + r, key("TLA activations"): 100.0,
                key("decisions changed against depth 1"): 5.0 * rank}  # fmt: skip
    if study == "fig12":
        rank = min(_rank(setting["depth"]), 12)
        return {key("TLA ATT (s)"): 900.0 - 20 * rank + POLICY_COST[setting["policy"]] + r}
    return {key("TLA ATT (s)"): 400.0 + 10 * setting["allocation_depth"] + r}


def _store(att=_agreeing) -> pd.DataFrame:
    points, results = [], []
    for study, (wid, load) in shih.SECTION5_RUNS.items():
        for r in range(shih.SECTION5_REPLICATES):
            for setting in _section5_settings(study):
                points.append(dict(study=study, wid=wid, load=load, sh=0.0, replicate=r, **setting))
                results.append(att(study, setting, r))
    return _rows(points, results)


def _claims(frame: pd.DataFrame) -> dict[str, dict]:
    return {r["quantity"]: r for r in shih.section5_ensemble_rows(frame)}


@pytest.fixture(scope="module")
def agreeing() -> pd.DataFrame:
    return _store()


def test_every_section5_claim_holds_on_runs_that_agree(agreeing):
    rows = _claims(agreeing)
    assert set(rows) == {
        "BF, FF, AI2 against the inaccuracy",
        "TLA against the inaccuracy",
        "ATT against simulation depth",
        "worst policy inside the simulation",
        "depth matters more than policy",
        "ATT against allocation depth",
    }
    assert {q: r["verdict"] for q, r in rows.items()} == dict.fromkeys(rows, "qualitative")
    tla = rows["TLA against the inaccuracy"]
    assert tla["replicates"] == shih.SECTION5_REPLICATES
    assert tla["mean"] == pytest.approx(-50 * np.log2(1024))  # factor 1 - factor 1024
    assert rows["ATT against allocation depth"]["mean"] == pytest.approx(10 * (1 - 16))


def test_a_reversal_and_a_method_moving_with_the_factor_are_caught():
    def bad(study, setting, r):
        out = _agreeing(study, setting, r)
        if study == "fig13":  # deeper allocation better: the claim reversed
            out = {k: 600.0 - 10 * setting["allocation_depth"] + r for k in out}
        if study == "fig8":  # FF reads the estimates after all
            ff = next(k for k in out if k.endswith(": FF ATT (s)"))
            out[ff] += setting["factor"]
        return out

    rows = _claims(_store(bad))
    assert rows["ATT against allocation depth"]["verdict"] == "differs"
    assert rows["ATT against allocation depth"]["reason"].startswith("reversed")
    moved = rows["BF, FF, AI2 against the inaccuracy"]
    assert moved["verdict"] == "differs" and "1.02e+03 s" in moved["ours"]
    assert rows["TLA against the inaccuracy"]["verdict"] == "qualitative"


def test_means_have_the_quick_studies_shape_and_plot(agreeing):
    means = shih.section5_means(agreeing)
    assert list(means["fig8"].columns) == list(shih.METHODS)
    assert list(means["fig8"].index) == [float(f) for f in shih.INACCURACY_FACTORS]
    assert list(means["fig10"].index) == [1, 10, 40, 160, 640, "all"]
    assert list(means["fig10"].columns) == ["att", "activations", "changes vs depth 1"]
    mean_reps = np.mean(range(shih.SECTION5_REPLICATES))
    assert means["fig10"].loc["all", "att"] == pytest.approx(900 - 240 + mean_reps)
    fig12 = means["fig12"]
    assert list(fig12.columns) == ["depth", "policy", "allocation depth", "att"]
    assert len(fig12) == len(shih.FIG12_POLICIES) * len(shih.FIG12_DEPTHS)
    assert list(fig12[fig12["policy"] == "random_fit"]["depth"]) == [1, 10, 40, 160, "all"]
    assert list(means["fig13"]["allocation depth"]) == list(shih.FIG13_ALLOCATION_DEPTHS)
    titles = dict.fromkeys(("fig8", "fig12", "fig13"), "paper scale")
    fig = plots.tla_knob_panels(means["fig8"], fig12, means["fig13"], titles)
    assert [len(ax.lines) for ax in fig.axes] == [4, 4, 1]
    depth = plots.depth_panels(means["fig10"], "paper scale")
    assert len(depth.axes[1].patches) == len(shih.FIG10_DEPTHS)
    plt.close("all")


def test_quick_and_paper_scale_rows_name_the_same_quantities(agreeing):
    means = shih.section5_means(agreeing)
    labels = dict.fromkeys(("fig8", "fig12", "fig13"), "quick")
    quick = shih.section5_claims(means["fig8"], means["fig12"], means["fig13"], labels)
    quick.append(
        shih.depth_rows(
            means["fig10"], pd.DataFrame(columns=["wid", "load", "sh", "method", "whole"]), "quick"
        )[0]
    )
    scale = shih.section5_ensemble_rows(agreeing)
    pairs = lambda rows: sorted((r["item"], r["quantity"], r["paper"]) for r in rows)  # noqa: E731
    assert pairs(quick) == pairs(scale)
    assert all(r["verdict"] == "qualitative" for r in quick)


@pytest.mark.parametrize("bad", [None, [], pd.DataFrame({"item": []}), "results/shih2013.parquet"])
def test_section5_readers_name_a_bad_store(bad):
    with pytest.raises(InvalidParameter, match="store"):
        shih.section5_runs(bad, "fig8")
    with pytest.raises(InvalidParameter, match="store"):
        shih.section5_means(bad)


def test_an_unknown_study_is_named():
    with pytest.raises(InvalidParameter, match="fig9"):
        shih.ensemble_point("fig9", "A1", "high", 0.0, 0)


@pytest.fixture
def no_logs(tmp_path, monkeypatch):
    """No workload log here and no network: every trace of Table 3 is missing."""
    monkeypatch.setenv("HPCMODELS_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("HPCMODELS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HPCMODELS_OFFLINE", "1")
    (tmp_path / "data").mkdir()
    jobs_at_load.cache_clear()
    yield
    jobs_at_load.cache_clear()


def test_studies_on_a_missing_log_say_not_run_instead_of_failing(no_logs):
    """Issue 25: notebook 01 without its logs crashed in its Fig. 7 cell (KeyError) and
    its Section 5 cells; each study now returns an empty frame that says which log is
    missing, and its claims read `not run`."""
    kw = dict(n_jobs=2_000, progress=False, cache=None, client="serial")
    depth = shih.depth_study("A1", "high", [1, None], **kw)
    fig8 = shih.inaccuracy_study("A1", "high", [1, 2], **kw)
    fig13 = shih.tla_knob_study("A2", "high", allocation_depths=[1, 2], **kw)
    spread = shih.vector_spread("A2", "medium", 0.2, n_vectors=2, **kw)
    for frame in (depth, fig8, fig13, spread):
        assert frame.empty and "SDSC-SP2-1998-4.2-cln" in frame.attrs["missing"]
    runs = pd.DataFrame(columns=["wid", "load", "sh", "method", "whole"])
    rows = shih.depth_rows(depth, runs, "A1") + shih.spread_rows(spread, "A2")
    fig12 = shih.tla_knob_study("D1", "high", depths=[1, 2], n_jobs=300, progress=False,
                                client="serial")  # fmt: skip
    assert not fig12.empty  # a model needs no log
    labels = dict.fromkeys(("fig8", "fig12", "fig13"), "quick")
    rows += shih.section5_claims(fig8, fig12, fig13, labels)
    verdicts = {(r["item"], r["quantity"]): r["verdict"] for r in rows}
    assert verdicts[("Fig. 12", "worst policy inside the simulation")] != "not run"
    missing = {key for key, v in verdicts.items() if v == "not run"}
    assert {item for item, _ in missing} == {"Fig. 7", "Fig. 8", "Fig. 10", "Fig. 13"}
    claims = [r for r in rows if r["verdict"] == "not run" and "activations" not in r["quantity"]
              and "decisions" not in r["quantity"]]  # fmt: skip
    assert claims and all("log missing: " in r["reason"] and "SDSC" in r["reason"] for r in claims)
