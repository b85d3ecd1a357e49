"""How every table of the notebooks and explorers reads (issue 52): "—" for a missing
value, one precision per column, no row numbers, a long table cut with a line saying so,
and a notebook showing every DataFrame that way once ``plots.use_style()`` ran."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from hpcmodels import plots
from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.tables import MISSING, decimals, to_html


def _cells(html: str) -> list[str]:
    return re.findall(r"<t[dh][^>]*>([^<]*)</t[dh]>", html)


def test_missing_values_read_as_a_dash_in_every_kind_of_column():
    frame = pd.DataFrame(
        {
            "name": ["a", None, np.nan],
            "x": [1.5, math.nan, 2.25],
            "when": pd.to_datetime(["2026-01-01", None, "2026-01-02"]),
            "flag": pd.array([True, None, False], dtype="boolean"),
        }
    )
    html = to_html(frame)
    assert not re.search(r">\s*(nan|NaN|None|NaT|<NA>|&lt;NA&gt;)\s*<", html), html
    assert _cells(html).count(MISSING) == 5


def test_one_precision_per_column_and_thousands_separators():
    frame = pd.DataFrame({"count": [54041, 54034], "share": [0.5, 0.125], "t": [1087.0, 2.5]})
    cells = _cells(to_html(frame))
    assert cells[3:] == ["54,041", "0.500", "1,087.0", "54,034", "0.125", "2.5"]
    assert decimals(pd.Series([1 / 3, 0.5])) == 4  # at most four
    assert decimals(pd.Series([math.nan, math.inf, 2.0])) == 0


def test_row_numbers_are_not_shown_but_a_meaningful_index_is_with_missing_labels_dashed():
    frame = pd.DataFrame({"x": [1.0, 2.0]})
    assert "<th>0</th>" not in to_html(frame)
    named = frame.set_axis(pd.Index(["A1", None], name="method"))
    html = to_html(named)
    assert "<th>A1</th>" in html and f"<th>{MISSING}</th>" in html
    assert "<th>0</th>" in to_html(frame, index=True)
    two = frame.set_axis(pd.MultiIndex.from_tuples([("a", None), ("b", 1)]))
    assert f"<th>{MISSING}</th>" in to_html(two)


def test_a_long_table_shows_the_display_limit_and_says_so():
    frame = pd.DataFrame({"x": range(100)})
    with pd.option_context("display.max_rows", 10):
        html = to_html(frame)
    assert _cells(html)[1:] == [str(k) for k in range(10)]
    assert "the first 10 of 100 rows" in html


@pytest.mark.parametrize(
    "frame, index, error, words",
    [
        ("a.csv", None, InvalidType, "frame must be a pandas DataFrame"),
        (pd.Series([1.0]), None, InvalidType, "frame must be a pandas DataFrame"),
        (pd.DataFrame({"a": [1]}), "yes", InvalidParameter, "index"),
    ],
)
def test_bad_input_is_named(frame, index, error, words):
    with pytest.raises(error, match=words):
        to_html(frame, index)


def test_a_notebook_shows_every_dataframe_this_way_after_use_style():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    frame = pd.DataFrame({"x": [1.5, math.nan]})
    formatter = shell.display_formatter.formatters["text/html"]
    try:
        plots.use_style()
        assert formatter(frame) == to_html(frame)
    finally:
        formatter.pop(pd.DataFrame, None)
        InteractiveShell.clear_instance()
