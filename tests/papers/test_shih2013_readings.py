"""Shih 2013's readings study (issue 53): each alternative reading of an unstated choice
run on the residual cells, paired with the default on the same replicates. A researcher
relies on a reading changing only its own choice (the same jobs, speeds and clusters
otherwise), on the paired change and its interval being the difference of the cell's
own statistic, on the report quoting every reading tried, and on no paper-scale row
ending in "cause not identified" without them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter
from hpcmodels.papers.shih2013 import consistent_set
from hpcmodels.papers.shih2013 import reading_conclusions as shih_conclusions
from hpcmodels.papers.shih2013 import readings as R
from hpcmodels.papers.shih2013.ensemble import ensemble_key, replicate_jobs, tla_improvement
from hpcmodels.papers.shih2013.published import METHODS, TABLE4
from hpcmodels.papers.shih2013.reading_effects import (
    EFFECT_COLUMNS,
    effects_of,
    reading_cause,
    reading_effects,
    tornado_charts,
)
from hpcmodels.workloads.transforms import speed_vectors

from logs import SDSC, need_log

CELL = ("A1", "high", 0.0)
ATT = {"BF": 1000.0, "FF": 1100.0, "AI2": 1050.0, "TLA": 700.0}


def _store(tla_factor: float = 0.9, replicates: int = 10) -> pd.DataFrame:
    """A store holding Table 4's runs of CELL and the 'ties_last' reading's TLA runs:
    replicate r adds r to every ATT; the reading multiplies TLA's by ``tla_factor``."""
    wid, load, sh = CELL
    rows = []
    for r in range(replicates):
        for m, att in ATT.items():
            key = ensemble_key("Table 4", wid, load, sh, f"{m} ATT (s)")
            rows.append(dict(item=key, replicate=r, value=att + r))
        key = R.reading_key(wid, load, sh, "ties_last", "TLA ATT (s)")
        rows.append(dict(item=key, replicate=r, value=(ATT["TLA"] + r) * tla_factor))
    return pd.DataFrame(rows)


def test_a_readings_change_is_the_paired_difference_of_the_cells_improvement():
    effects = reading_effects(_store())
    assert list(effects.columns) == EFFECT_COLUMNS
    row = effects.iloc[0]
    assert (row["item"], row["reading"], row["replicates"]) == ("Table 4", "ties_last", 10)
    means = np.array([[ATT[m] + 4.5 for m in METHODS]])
    default = tla_improvement(means)[0]
    under = tla_improvement(np.array([[1004.5, 1104.5, 1054.5, 704.5 * 0.9]]))[0]
    assert row["default"] == pytest.approx(default, rel=1e-12)
    assert row["value"] == pytest.approx(under, rel=1e-12)
    assert row["change"] == pytest.approx(under - default, rel=1e-12)
    assert row["low"] <= row["change"] <= row["high"]
    assert row["paper"] == float(TABLE4[CELL])
    assert row["within"] == (abs(under - float(TABLE4[CELL])) <= 2.0)


def test_a_reading_that_changes_nothing_moves_the_cell_by_exactly_zero():
    row = reading_effects(_store(tla_factor=1.0)).iloc[0]
    assert (row["change"], row["low"], row["high"]) == (0.0, 0.0, 0.0)


def test_the_report_reason_quotes_each_reading_its_change_and_the_closest():
    effects = reading_effects(_store())
    quantity = effects.iloc[0]["quantity"]
    text = reading_cause(effects, "Table 4", quantity)
    label = R.READINGS["ties_last"].label
    change = effects.iloc[0]["change"]
    assert f"{label}: {change:+.3g}" in text
    assert "10 paired replicates" in text
    assert f"the closest, {label}" in text or "within tolerance under" in text
    assert reading_cause(effects, "Table 4", "no such quantity") is None


def test_a_reading_that_brings_the_cell_within_tolerance_is_reported_never_made_default():
    paper = float(TABLE4[CELL])
    # pick the factor that puts TLA's improvement exactly on the paper's value
    best = ATT["BF"] + 4.5
    factor = best * (1 - paper / 100) / (ATT["TLA"] + 4.5)
    effects = reading_effects(_store(tla_factor=factor))
    row = effects.iloc[0]
    assert row["within"] and row["value"] == pytest.approx(paper, abs=1e-9)
    assert "within tolerance under" in reading_cause(effects, "Table 4", row["quantity"])


def test_tornado_charts_draw_one_panel_per_residual_row():
    import matplotlib.pyplot as plt

    effects = reading_effects(_store())
    fig = tornado_charts(effects)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == 1
    assert "Table 4" in visible[0].get_title()
    plt.close(fig)
    with pytest.raises(InvalidParameter, match="no reading"):
        effects_of(effects, "Table 5", "A2 utilization, high load, TLA")
    with pytest.raises(InvalidParameter, match="empty"):
        tornado_charts(effects.head(0))


def test_equal_submit_times_are_reversed_and_nothing_else_moves():
    jobs = pd.DataFrame({"submit": [0.0, 1, 1, 1, 2, 3, 3], "runtime": np.arange(7.0)})
    out = R._equal_submits_reversed(jobs)
    assert out["runtime"].tolist() == [0, 3, 2, 1, 4, 6, 5]
    assert out["submit"].tolist() == jobs["submit"].tolist()


@pytest.mark.parametrize("nodes", [(128, 128, 128, 50, 8), (128,) * 10])
def test_the_first_root_keeps_eqs_3_and_4(nodes):
    sh = 0.2
    for v in speed_vectors(nodes, sh, 10, seed=0):
        w = R.first_root(v, nodes, sh)
        n = np.asarray(nodes, float)
        assert np.sum((w - 1) ** 2) / n.size == pytest.approx(sh, rel=1e-9)  # Eq. 3
        assert np.dot(w, n) == pytest.approx(n.sum(), rel=1e-12)  # Eq. 4
        assert np.array_equal(w[:-2], v[:-2]) and np.all(w > 0)


def test_the_first_root_changes_about_half_the_vectors():
    nodes = (128,) * 10
    vs = speed_vectors(nodes, 0.1, 40, seed=0)
    changed = sum(not np.allclose(R.first_root(v, nodes, 0.1), v) for v in vs)
    assert 8 <= changed <= 32


def test_the_requested_times_reading_changes_only_the_estimates():
    need_log(SDSC)
    jobs = R._sdsc_jobs("A2", "low", 3, zero_runtimes=False)
    base = replicate_jobs("A2", "low", 3)
    pd.testing.assert_frame_equal(
        jobs.drop(columns="estimate"), base.reset_index(drop=True), check_dtype=False
    )
    assert (jobs["estimate"] != jobs["runtime"]).mean() > 0.9
    kept = R._sdsc_jobs("A2", "low", 3, zero_runtimes=True)
    assert len(kept) == 54_044 and (kept["runtime"] == 0).sum() == 10


def test_ties_last_reverses_the_clusters_for_tla_alone_and_nothing_else():
    need_log(SDSC)
    ties = R._reading_run("A2", "high", 0.1, 2, "ties_last")
    root = R._reading_run("A2", "high", 0.1, 2, "first_root")
    base = speed_vectors((128, 128, 128, 50, 8), 0.1, 20, seed=0)[2]
    assert ties.tla_reversed and not root.tla_reversed
    assert [c.speed for c in ties.clusters] == list(base)
    assert [c.procs for c in ties.clusters] == [128, 128, 128, 50, 8]
    nodes = [c.procs for c in ties.clusters]
    assert [c.speed for c in root.clusters] == list(R.first_root(base, nodes, 0.1))
    both = R._reading_run("A2", "high", 0.1, 2, "open_readings")
    assert both.tla_reversed and [c.speed for c in both.clusters] == list(
        R.first_root(base, nodes, 0.1)
    )
    assert len(both.jobs) == 54_044 and "estimate" not in both.jobs


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(reading="no such"), "reading"),
        (dict(reading=None), "reading"),
        (dict(wid="B1"), "residual cell"),
        (dict(sh=float("nan")), "residual cell"),
        (dict(replicate=10), "replicate"),
        (dict(replicate=-1), "replicate"),
        (dict(replicate=True), "replicate"),
        (dict(reading="first_root"), "does not apply"),
        (dict(reading="requested_times", wid="D1", sh=0.1), "does not apply"),
    ],
)
def test_a_reading_point_refuses_bad_input_naming_it(kwargs, message):
    point = dict(wid="A1", load="high", sh=0.0, replicate=0, reading="ties_last") | kwargs
    with pytest.raises(InvalidParameter, match=message):
        R.reading_point(**point)


def test_every_reading_point_names_a_residual_cell_and_a_reading_that_applies():
    points = R.reading_points()
    assert len(points) == len({tuple(p.values()) for p in points})
    for p in points:
        reading = R.READINGS[p["reading"]]
        assert reading.applies(p["wid"], p["sh"])
        cell = (p["wid"], p["load"], p["sh"])
        assert cell in (R.consistent_cells() if reading.parts else R.READING_CELLS)
    per = pd.DataFrame(points).groupby(["wid", "load", "sh", "reading"]).size()
    assert (per == R.READING_REPLICATES).all() and R.READING_REPLICATES >= 10
    # the consistent set runs every Table 4 cell of its workloads, matching or not
    assert len(R.cells_of("open_readings")) == 4 * 3 * 3 + 1


def test_every_paper_scale_row_without_a_cause_is_a_residual_cell():
    """The readings cover every paper-scale row of Shih whose reason would otherwise end
    in 'cause not identified' (the committed store's rows)."""
    from hpcmodels.papers.store import paper_scale

    rows = paper_scale("shih2013")
    if rows is None:
        pytest.skip("no committed Shih store")
    for row in rows.itertuples():
        reason = str(row.reason)
        if "cause not identified" in reason:
            assert "readings tried" in reason, (row.item, row.quantity)


@pytest.mark.parametrize("bad", [None, "store", pd.DataFrame({"item": ["x"]})])
def test_the_effects_refuse_a_store_that_is_not_one(bad):
    with pytest.raises((InvalidParameter, TypeError)):
        reading_effects(bad)


def test_the_conclusions_name_the_closest_reading_and_say_whether_it_explains_the_row():
    effects = reading_effects(_store())
    line = shih_conclusions(effects).iloc[0]
    assert line["closest"] == R.READINGS["ties_last"].label
    assert line["readings"] == 1
    assert line["conclusion"].startswith(
        "explained by" if effects["within"].iloc[0] else "not explained"
    )
    with pytest.raises(InvalidParameter):
        shih_conclusions(effects.drop(columns="within"))


def test_section5_settings_stay_whole_numbers_beside_the_readings_runs():
    """The readings points carry no depth: the store then holds the knobs as floats
    (NaN there), and Fig. 13's axis read 1.0, 2.0, ... until section5_runs cast them."""
    from hpcmodels.papers.shih2013 import section5_runs

    store = pd.DataFrame(
        {
            "item": ["Fig. 13 | A2 high load, allocation depth 2: TLA ATT (s)", "Readings | x"],
            "value": [1.0, 2.0],
            "replicate": [0, 0],
            "study": ["fig13", "readings"],
            "factor": [np.nan, np.nan],
            "depth": [0.0, np.nan],
            "policy": ["fastest_first", None],
            "allocation_depth": [2.0, np.nan],
        }
    )
    runs = section5_runs(store, "fig13")
    assert runs["allocation_depth"].tolist() == [2] and runs["allocation_depth"].dtype == np.int64
    assert str(runs["depth"].iloc[0]) == "0"


def test_a_reading_within_tolerance_only_by_noise_is_not_an_explanation():
    base = dict(
        item="Table 4",
        quantity="q",
        settled=False,
        paper=31.0,
        tolerance=2.0,
        default=33.3,
        replicates=10,
        residual=True,
    )
    effects = pd.DataFrame(
        [
            base
            | dict(
                reading="a", label="noisy", value=32.8, change=-0.5, low=-2.5, high=1.5, within=True
            ),
            base
            | dict(
                reading="b", label="far", value=36.0, change=2.7, low=2.0, high=3.4, within=False
            ),
        ]
    )[EFFECT_COLUMNS]
    line = shih_conclusions(effects).iloc[0]
    assert line["conclusion"].startswith("not explained: noisy ends within tolerance")
    text = reading_cause(effects, "Table 4", "q")
    assert "noisy ends within it by a change whose 95 % interval holds 0" in text
    assert "within tolerance under" not in text
    effects.loc[0, ["low", "high"]] = [-0.9, -0.1]
    assert shih_conclusions(effects).iloc[0]["conclusion"] == "explained by noisy"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1.0, np.nan, 1.0], (8, 8, 8), 0.1), "vector"),
        (([1.0, 1.0, 1.0], (8, 8), 0.1), "nodes"),
        (([1.0, 1.0, 1.0], (8, 0, 8), 0.1), "nodes"),
        (([1.0, 1.0, 1.0], (8, 8, 8), float("inf")), "sh"),
        (([1.0, 1.0, 1.0], (8, 8, 8), -0.1), "sh"),
        (("fast", (8, 8, 8), 0.1), "sequences of numbers"),
        (([], (), 0.1), "vector"),
    ],
)
def test_the_first_root_refuses_bad_input_naming_it(args, message):
    with pytest.raises(InvalidParameter, match=message):
        R.first_root(*args)


@pytest.mark.parametrize("bad", ["no such", None, 3])
def test_cells_of_refuses_an_unknown_reading(bad):
    with pytest.raises(InvalidParameter, match="reading"):
        R.cells_of(bad)


def test_the_consistent_set_refuses_effects_without_its_runs():
    effects = reading_effects(_store())
    with pytest.raises(InvalidParameter, match="open_readings"):
        consistent_set(effects)
    with pytest.raises(InvalidParameter):
        consistent_set(effects.drop(columns="paper"))
