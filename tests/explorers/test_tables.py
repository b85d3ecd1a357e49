"""The explorers' tables and notebook 06's map axes, without a browser: missing values,
index columns and precision (issue 52), the axes that fit a group of methods, the map's
cells as a table."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.explorers.across import axes_varied, map_table
from hpcmodels.explorers.core import table
from hpcmodels.tables import MISSING


def test_a_table_shows_blanks_not_nan_one_precision_per_column_and_no_row_numbers():
    frame = pd.DataFrame(
        {"method": ["TLA", None], "wait (s)": [12.5, math.nan], "share": [0.25, 0.125]}
    )
    html = table(frame).data
    assert "nan" not in html.lower() and "None" not in html
    assert html.count(MISSING) == 2
    assert "12.5" in html and "0.250" in html and "0.125" in html  # 1 and 3 decimals
    assert "<tbody>\n    <tr>\n      <td>TLA</td>" in html  # a row number means nothing
    assert "overflow-x: auto" in html  # never wider than the page
    assert "<th>TLA</th>" in table(frame.set_index("method"), index=True).data


@pytest.mark.parametrize(
    "frame, index, error, message",
    [
        ("a.csv", False, InvalidType, "frame must be a pandas DataFrame"),
        (pd.DataFrame({"a": [1]}), "yes", InvalidParameter, "index"),
    ],
)
def test_a_table_refuses_bad_input_naming_the_argument(frame, index, error, message):
    with pytest.raises(error, match=message):
        table(frame, index)


def _runs(**levels) -> pd.DataFrame:
    grid = pd.MultiIndex.from_product(
        [levels.get("load", ["low"]), levels.get("sh", [0.1]), levels.get("bsbw", [500.0])],
        names=["load", "sh", "bsbw"],
    )
    return grid.to_frame(index=False)


def test_the_map_axes_are_the_settings_the_group_varies():
    assert axes_varied(_runs(load=["low", "high"], sh=[0.0, 0.2])) == ["load x SH"]
    assert axes_varied(_runs(load=["low", "high"], bsbw=[200.0, 800.0])) == ["load x BSBW"]
    every = _runs(load=["low", "high"], sh=[0.0, 0.2], bsbw=[200.0, 800.0])
    assert axes_varied(every) == ["load x SH", "load x BSBW", "SH x BSBW"]
    assert axes_varied(_runs(bsbw=[200.0, 800.0])) == ["load x BSBW", "SH x BSBW"]
    assert axes_varied(_runs()) == ["load x SH", "load x BSBW", "SH x BSBW"]
    with pytest.raises(InvalidParameter, match=r"runs lacks column\(s\) \[.bsbw.\]"):
        axes_varied(_runs().drop(columns="bsbw"))


def test_the_map_table_has_a_row_per_cell_with_units():
    wins = pd.DataFrame(
        {
            "workload": ["W"] * 2,
            "load": ["low", "high"],
            "sh": [0.1] * 2,
            "bsbw": [200.0, 800.0],
            "selection": ["FCFS"] * 2,
            "winner": ["A1", "B3"],
            "runner_up": ["B3", None],
            "margin": [-12.34, 0.0],
            "ci": [3.21, 0.0],
            "relative": [-0.2512, 0.0],
            "clear": [True, False],
        }
    )
    shown = map_table(wins, "load", "bsbw", "att")
    assert list(shown.columns) == [
        "workload",
        "load",
        "BSBW (Mbps)",
        "lowest mean",
        "runner-up",
        "difference (% of the runner-up's mean)",
        "mean paired difference (s)",
        "95 % half-width (s)",
        "verdict",
    ]
    assert shown.iloc[0].tolist()[3:] == ["A1", "B3", -25.1, -12.3, 3.2, "clear win"]
    assert shown.iloc[1]["verdict"] == "within noise"
    with pytest.raises(InvalidParameter, match="metric"):
        map_table(wins, "load", "bsbw", "makespan")
    with pytest.raises(InvalidParameter, match="columns"):
        map_table(wins, "load", "selection", "att")
