"""How the suite's tables read, in notebooks and explorers alike (issue 52): a missing
value is "—" (never NaN or None), each column has one precision (a float column at the
fewest decimals, at most four, that show every one of its values as it is; integers and
floats with thousands separators), a default row number (0, 1, 2, ...) is not shown,
and a table never grows wider than the page (long text wraps; a wide table scrolls in
its own box).

:func:`use_tables` makes this how a notebook shows every DataFrame (``plots.use_style``
calls it); :func:`to_html` is the same table as HTML text (the explorers' tables).
"""

from __future__ import annotations

import math

import pandas as pd

from .errors import check_bool, check_frame

__all__ = ["MISSING", "decimals", "to_html", "use_tables"]

MISSING = "—"
"""What a table shows for a missing value."""
MOST_DECIMALS = 4
WRAP = (
    '<div class="hpcmodels-table" style="max-width: 100%; overflow-x: auto;">'
    "<style>.hpcmodels-table td, .hpcmodels-table th {{ white-space: normal; }}</style>"
    "{table}{more}</div>"
)


def decimals(column: pd.Series) -> int:
    """The fewest decimals (0 to :data:`MOST_DECIMALS`) that show every finite value of
    a float ``column`` as it is (a column rounded to one decimal shows one)."""
    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
    values = values[[math.isfinite(v) for v in values]]
    for d in range(MOST_DECIMALS + 1):
        if (abs(values.round(d) - values) < 1e-9 * (1 + abs(values))).all():
            return d
    return MOST_DECIMALS


def _missing(value) -> bool:
    return (
        value is None
        or value is pd.NA
        or value is pd.NaT
        or (isinstance(value, float) and math.isnan(value))
    )


def _formatter(column: pd.Series):
    """The text of each value of ``column``: numbers at the column's one precision."""
    kind = column.dtype.kind
    if kind == "f":
        d = decimals(column)
        return lambda v: MISSING if _missing(v) else f"{v:,.{d}f}"
    if kind in "iu":
        return lambda v: f"{v:,}"
    return lambda v: MISSING if _missing(v) else str(v)


def _default_index(frame: pd.DataFrame) -> bool:
    """Whether ``frame``'s index is only row numbers 0, 1, 2, ... (it says nothing)."""
    index = frame.index
    return isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1


def _labels(index: pd.Index) -> pd.Index:
    """``index`` with "—" for a missing label (at any level)."""
    if isinstance(index, pd.MultiIndex):
        rows = [tuple(MISSING if _missing(v) else v for v in row) for row in index]
        return pd.MultiIndex.from_tuples(rows, names=index.names)
    return pd.Index([MISSING if _missing(v) else v for v in index], name=index.name)


def to_html(frame: pd.DataFrame, index: bool | None = None) -> str:
    """``frame`` as the suite shows a table (the module's rules), as HTML. ``index``:
    show the index (``None``: unless it is only row numbers). At most
    ``pandas.get_option("display.max_rows")`` rows are shown, with a line saying how
    many there are. ``frame`` is a pandas DataFrame, ``index`` None or a bool, else an
    :class:`~hpcmodels.errors.InvalidParameter` naming the argument."""
    check_frame("frame", frame, [])
    index = not _default_index(frame) if index is None else check_bool("index", index)
    limit = pd.get_option("display.max_rows") or len(frame)
    shown = frame.head(limit)
    if index:
        shown = shown.set_axis(_labels(shown.index), axis=0)
    text = pd.DataFrame(
        {
            k: [_formatter(shown.iloc[:, k])(v) for v in shown.iloc[:, k]]
            for k in range(shown.shape[1])
        },
        index=shown.index,
    ).set_axis(shown.columns, axis=1)  # every value as its text: pandas' own NA text never shows
    table = text.to_html(index=index, border=0, escape=True)
    more = "" if len(frame) <= limit else f"<p>the first {limit:,} of {len(frame):,} rows</p>"
    return WRAP.format(table=table, more=more)


def use_tables() -> None:
    """Show every DataFrame of this IPython session by :func:`to_html` (nothing outside
    IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency
        return
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["text/html"].for_type(pd.DataFrame, to_html)
