"""Filippopoulos & Karatza's readings (issue 53): the unstated choices tried on the
cells that stay ``differs`` at paper scale. Exact values on small truncations (fast);
the committed store's rows are checked without recomputing them."""

import numpy as np
import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter
from hpcmodels.mdp import solve
from hpcmodels.papers import filippopoulos as fk
from hpcmodels.papers import store as store_module
from hpcmodels.papers.filippopoulos import ensemble as fk_ensemble
from hpcmodels.papers.filippopoulos import readings as fk_readings
from hpcmodels.papers.filippopoulos.model import HeuristicRule

from .test_filippopoulos import PAPER_LIKE, _extent, _synthetic_store

SMALL = 6  # Delta: 546 states, a solve in milliseconds


def test_the_default_reading_is_the_existing_exact_values():
    """The default reading changes nothing: the solver's optimum, the printed heuristic
    and the local policy on the same chain, exactly (no noise: zero-width intervals)."""
    cells = [fk.Cell("fig5 close", 0.8), fk.Cell("fig7 close", 0.83)]
    frame = fk.reading_costs(cells, ["default", "post_action", "rule_without_p"], truncation=SMALL)
    for cell in cells:
        m = fk.model(SMALL, **cell.params)
        exact = {
            "optimal": m.average_cost(solve(m).policy),
            "heuristic": m.average_cost(fk.heuristic_actions(m)),
            "local": m.average_cost(np.zeros(m.n_states, np.int8)),
        }
        row = frame[(frame["figure"] == cell.figure) & (frame["value"] == cell.value)]
        row = row.set_index("reading")
        for policy, value in exact.items():
            assert row.at["default", policy] == value
        assert row.at["default", "change"] == 0.0
        assert row.at["default", "gap_pct"] == 100 * (exact["heuristic"] / exact["optimal"] - 1)
        # the self-transition moves only the optimum: the other two are the same chain
        assert row.at["post_action", "heuristic"] == exact["heuristic"]
        # a rule reading moves only the heuristic, to the cost of its own rule
        without_p = fk.heuristic_actions(m, HeuristicRule(with_p=False))
        assert row.at["rule_without_p", "heuristic"] == m.average_cost(without_p)
        assert row.at["rule_without_p", "heuristic"] != exact["heuristic"]
        assert row.at["rule_without_p", "optimal"] == exact["optimal"]
    assert (frame["ci"] == 0).all()


@pytest.mark.parametrize(
    "p, state, rule, printed, read",
    [
        (0.6, (2, 3, 2, 1, 0, 0), HeuristicRule(with_p=False), 0, 1),  # 2.4 > 3 no; 4 > 3
        (0.5, (3, 3, 2, 1, 0, 0), HeuristicRule(strict=False), 0, 1),  # 3 > 3 no; 3 >= 3
        (0.5, (3, 2, 2, 1, 0, 0), HeuristicRule(head_in_q1=False), 1, 0),  # 3 > 2; 2 > 2 no
        (0.5, (2, 2, 2, 1, 0, 0), HeuristicRule(service_in_q2=False), 0, 1),  # 2 > 2 no; 2 > 1
    ],
)
def test_each_rule_reading_changes_the_rule_as_described(p, state, rule, printed, read):
    m = fk.model(SMALL, rho=0.8, p=p)
    i = m.index(state)
    assert fk.heuristic_actions(m)[i] == printed
    assert fk.heuristic_actions(m, fk.PRINTED_RULE)[i] == printed
    assert fk.heuristic_actions(m, rule)[i] == read
    # the reading changes that state and leaves the x1 = 0 states alone (best pack)
    x1_zero = m.states[:, 3] == 0
    assert not fk.heuristic_actions(m, rule)[x1_zero].any()


def test_the_readings_list_their_passage_and_stance():
    assert fk.READINGS[0].name == "default" and fk.READINGS[0].rule == fk.PRINTED_RULE
    assert len(set(fk.READING_NAMES)) == len(fk.READINGS)
    for reading in fk.READINGS:
        assert reading.passage and reading.label
        assert reading.text_argues in ("for", "against", "neither")
    without_p = dict(zip(fk.READING_NAMES, fk.READINGS, strict=True))["rule_without_p"]
    assert "outperforms" in without_p.passage and without_p.text_argues == "against"


def _store_with_readings(heuristic_by_reading: dict) -> pd.DataFrame:
    """The synthetic store of test_filippopoulos plus reading rows: optimal 20, local 25
    and the heuristic's exact cost per reading (22, 10 % above, unless given)."""
    points = fk_readings.reading_points()
    results = []
    for point in points:
        x = fk.SIM_FIGURES[point["figure"]][0]
        h = heuristic_by_reading.get(point["reading"], 22.0)
        costs = {"optimal": 20.0, "heuristic": h, "local": 25.0}
        results.append(
            {
                fk_readings.reading_key(point["figure"], point["reading"], k, x, point[x]): v
                for k, v in costs.items()
            }
        )
    return pd.concat([_synthetic_store(), store_module._rows(points, results)], ignore_index=True)


@pytest.fixture
def no_solves(monkeypatch):
    monkeypatch.setattr(fk_ensemble, "coallocation_threshold", lambda *a, **k: 0.48)
    monkeypatch.setattr(
        fk_ensemble,
        "coallocation_extent",
        lambda points, truncation: (
            _extent("mu3", fk.MU3S, [0, 8, 23, 65, 166])
            if "mu3" in points[0]
            else _extent("rho", fk.LOADS, [75, 70, 68, 65, 62, 60])
        ),
    )


def test_the_report_row_lists_the_readings_and_keeps_differs(no_solves):
    """A "close" row failing at a residual cell lists every reading's gap there (read
    from the store), names the one that fits as fitting, and stays ``differs``."""
    worse = dict(PAPER_LIKE)
    worse["Fig. 9", "heuristic"] = [1.2 * c for c in PAPER_LIKE["Fig. 9", "optimal"]]
    stored = _store_with_readings({"rule_without_p": 20.5})
    sims = _synthetic_store(worse)
    stored = pd.concat([sims, stored[stored["item"].str.contains("reading")]], ignore_index=True)
    rows = {(r["item"], r["quantity"]): r for r in fk.ensemble_rows(stored)}
    row = rows[fk.SIM_CLAIMS["fig9 close"]]
    assert row["verdict"] == "differs"
    reason = row["reason"]
    assert "cause not identified" not in reason and "readings tried" in reason
    for reading in fk.READINGS:
        assert f"{reading.label} " in reason
    assert "at 0.4: as printed 10.0 %" in reason
    assert "rule c1 q1 > c2 q2 (without p) brings the gap within 5 % (a reading chosen" in reason
    assert "at 0.2: no readings stored" in reason
    assert "the store's simulated means minus the exact default" in reason


def test_without_reading_rows_the_cause_stays_unidentified(no_solves):
    worse = dict(PAPER_LIKE)
    worse["Fig. 9", "heuristic"] = [1.2 * c for c in PAPER_LIKE["Fig. 9", "optimal"]]
    rows = {(r["item"], r["quantity"]): r for r in fk.ensemble_rows(_synthetic_store(worse))}
    assert "cause not identified" in rows[fk.SIM_CLAIMS["fig9 close"]]["reason"]


def test_the_stored_readings_are_the_recomputed_ones():
    """stored_readings reads what ensemble_point computes (the store's path)."""
    point = dict(fk_readings.reading_points(truncation=SMALL)[1])  # Fig. 5, 0.8, post_action
    got = fk.ensemble_point(**point)
    store = store_module._rows([point], [got])
    frame = fk.stored_readings(store, [fk.Cell("fig5 close", 0.8)])
    direct = fk.reading_costs([fk.Cell("fig5 close", 0.8)], ["post_action"], truncation=SMALL)
    for policy in ("optimal", "heuristic", "local"):
        assert frame[policy].iloc[0] == direct[policy].iloc[0]


def test_the_committed_store_holds_every_reading_at_every_residual_cell(no_solves):
    """The residual cells are the store's failing cells, every reading is stored at
    each, and their rows quote the readings instead of 'cause not identified'."""
    stored = store_module.read_store("filippopoulos")
    frame = fk.stored_readings(stored)
    assert len(frame) == len(fk.RESIDUAL_CELLS) * len(fk.READINGS)
    rows = {(r["item"], r["quantity"]): r for r in fk.ensemble_rows(stored)}
    for key in {c.statement for c in fk.RESIDUAL_CELLS}:
        row = rows[fk.SIM_CLAIMS[key]]
        assert row["verdict"] == "differs"
        assert "readings tried" in row["reason"]
        assert "cause not identified" not in row["reason"]
        for cell in (c for c in fk.RESIDUAL_CELLS if c.statement == key):
            assert f"at {cell.value:g}: as printed" in row["reason"]


def test_tornadoes_draw_each_residual_point_against_what_it_needs():
    import matplotlib.pyplot as plt

    cells = [fk.Cell("fig5 close", 0.8), fk.Cell("fig5 beats local", 0.9)]
    frame = fk.reading_costs(cells, ["default", "rule_without_p"], truncation=SMALL)
    fig = fk.tornadoes(frame)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == 2
    default = frame[frame["reading"] == "default"].set_index("statement")["quantity"]
    needed = {
        visible[0]: 5 - default["fig5 close"],
        visible[1]: -default["fig5 beats local"],
    }
    for ax, value in needed.items():
        dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
        assert dashed and dashed[0].get_xdata()[0] == pytest.approx(value)
    plt.close(fig)


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: fk.reading_costs(readings=["nope"], truncation=SMALL), "reading"),
        (lambda: fk.reading_costs(readings="default", truncation=SMALL), "readings"),
        (lambda: fk.reading_costs(readings=[3], truncation=SMALL), "reading"),
        (lambda: fk.reading_costs(truncation=float("nan")), "truncation"),
        (lambda: fk.reading_costs(truncation="30"), "truncation"),
        (lambda: fk.reading_costs(cells="Fig. 5"), "cells"),
        (lambda: fk.reading_costs(cells=[("fig5 close", 0.8)]), "cells"),
        (lambda: fk_readings.reading_point("default", {"rho": float("nan")}, SMALL), "rho1"),
        (lambda: fk_readings.reading_point("default", [0.8], SMALL), "params"),
        (lambda: fk.readings_cause(pd.DataFrame(), "fig10", [0.8]), "statement"),
        (lambda: HeuristicRule(with_p=1), "with_p"),
        (lambda: HeuristicRule(strict="no"), "strict"),
        (lambda: fk.heuristic_actions(fk.model(SMALL), rule="without p"), "rule"),
        (lambda: fk.tornadoes(pd.DataFrame({"x": [1]})), "frame"),
    ],
)
def test_bad_input_to_the_readings_names_the_field(call, field):
    with pytest.raises(InvalidParameter, match=field):
        call()


@pytest.mark.parametrize(
    "changes, field",
    [
        (dict(study="readings", reading="nope"), "reading"),
        (dict(study="readings", reading=None), "reading"),
        (dict(study="simulations", reading="default"), "study"),
        (dict(study="readings", reading="default", rho=float("nan")), "rho1"),
        (dict(study=None, reading="default", completions=100), "reading"),
    ],
)
def test_bad_reading_points_name_the_field(changes, field):
    point = dict(fk_readings.reading_points(truncation=SMALL)[0])
    point.update(changes)
    if point.get("study") is None:
        point.pop("study")
    with pytest.raises(InvalidParameter, match=field):
        fk.ensemble_point(**point)
