"""Notebook 06's explorer: the win map and the paired table of the runs already made,
re-sliced by the controls (no run is repeated, so every change shows at once)."""

from __future__ import annotations

import ipywidgets as w
import pandas as pd
from IPython.display import display

from .. import plots
from ..errors import InvalidParameter, check_choice, check_frame
from ..papers.across.compare import SETTING, check_runs, paired_differences, win_map
from ..papers.across.findings import CLAIMS, carried_claims
from ..papers.across.methods import METHODS, METRICS
from .core import live, row, show, status_line, table

__all__ = ["across_explorer", "axes_varied", "claims_table", "map_table", "paired_table"]

CELL = [*SETTING, "selection"]  # one cell of the map, one row per method of the table
AXES = {"load x SH": ("load", "sh"), "load x BSBW": ("load", "bsbw"), "SH x BSBW": ("sh", "bsbw")}
COLUMNS = {
    "workload": "workload",
    "load": "load",
    "sh": "SH",
    "bsbw": "BSBW (Mbps)",
    "method": "method",
    "relative": "difference (%)",
    "diff": "mean paired difference",
    "ci": "95 % half-width",
    "wins": "replicates won",
    "replicates": "replicates",
    "verdict": "verdict",
}


def paired_table(runs: pd.DataFrame, metric: str, baseline: str) -> pd.DataFrame:
    """:func:`~hpcmodels.papers.across.compare.paired_differences` for people: words and
    units in the column names, the difference in per cent with one decimal, the others
    with fixed precision; the verdict reads "better than <baseline>" or "worse".
    ``runs``, ``metric`` and ``baseline`` as
    :func:`~hpcmodels.papers.across.compare.paired_differences` takes them (no row where
    the baseline is the only method left)."""
    table = paired_differences(runs, metric, baseline)
    table = table.assign(
        relative=(100 * table["relative"]).round(1),
        diff=table["diff"].round(1),
        ci=table["ci"].round(1),
        verdict=table["verdict"]
        .map({"better": f"better than {baseline}", "worse": f"worse than {baseline}"})
        .fillna("within noise"),
    )
    unit = " (s)" if METRICS[metric].endswith("(s)") else ""
    names = dict(COLUMNS, diff=f"mean paired difference{unit}", ci=f"95 % half-width{unit}")
    return table[list(COLUMNS)].rename(columns=names)


CLAIM_COLUMNS = {
    "paper": "paper",
    "source": "printed in",
    "claim": "the paper says",
    "settings": "settings here",
    "holds": "holds",
    "within_noise": "within noise",
    "reversed": "reversed",
}
NO_CLAIM = "no paper compares two of the methods shown here under {selection} on {metric}"


def claims_table(runs: pd.DataFrame, metric: str) -> pd.DataFrame:
    """The papers' claims (:data:`~hpcmodels.papers.across.findings.CLAIMS`) on
    ``metric`` whose two methods are both in ``runs``, each with the paper's words beside
    our verdicts over the settings of ``runs``: where it holds, is within noise, or is
    reversed (empty when no claim applies). ``runs`` as
    :func:`~hpcmodels.papers.across.findings.carried_claims` takes it, ``metric`` one of
    :data:`~hpcmodels.papers.across.methods.METRICS`."""
    check_choice("metric", metric, list(METRICS))
    found = carried_claims(runs, [c for c in CLAIMS if c.metric == metric])
    if found.empty:
        return pd.DataFrame(columns=list(CLAIM_COLUMNS.values()))
    return found[list(CLAIM_COLUMNS)].rename(columns=CLAIM_COLUMNS)


def axes_varied(runs: pd.DataFrame) -> list[str]:
    """The map axes (:data:`AXES`) that fit ``runs``: those whose two settings both take
    several levels in ``runs`` (else those where one does; else all): the allocation
    group varies load and SH, the co-allocation group load and BSBW, and a setting held
    at one level gives a map of one column. ``runs`` is a DataFrame with the columns
    load, sh and bsbw, else an :class:`~hpcmodels.errors.InvalidParameter` naming it."""
    check_frame("runs", runs, ["load", "sh", "bsbw"])
    varies = {c: runs[c].nunique() > 1 for c in ("load", "sh", "bsbw")}
    both = [name for name, pair in AXES.items() if all(varies[c] for c in pair)]
    one = [name for name, pair in AXES.items() if any(varies[c] for c in pair)]
    return both or one or list(AXES)


MAP_COLUMNS = {
    "workload": "workload",
    "winner": "lowest mean",
    "runner_up": "runner-up",
    "relative": "difference (% of the runner-up's mean)",
    "margin": "mean paired difference",
    "ci": "95 % half-width",
    "clear": "verdict",
}


def map_table(wins: pd.DataFrame, rows: str, columns: str, metric: str) -> pd.DataFrame:
    """The win map's cells as a table, one row per cell (what the map shows): the
    workload, the map's two settings (``rows``, ``columns``: ``load``, ``sh`` or
    ``bsbw``), the winner, the runner-up, the difference in per cent of the runner-up's
    mean (one decimal), the mean paired difference and its 95 % half-width in
    ``metric``'s unit (one decimal) and the verdict ("clear win" or "within noise").
    ``wins`` is :func:`~hpcmodels.papers.across.compare.win_map`'s frame, ``metric`` one
    of :data:`~hpcmodels.papers.across.methods.METRICS`; else an
    :class:`~hpcmodels.errors.InvalidParameter` naming the argument."""
    check_choice("metric", metric, list(METRICS))
    settings = ("load", "sh", "bsbw")
    check_choice("rows", rows, settings)
    check_choice("columns", columns, settings)
    check_frame("wins", wins, ["workload", rows, columns, *MAP_COLUMNS])
    unit = " (s)" if METRICS[metric].endswith("(s)") else ""
    names = {"workload": "workload", rows: COLUMNS[rows], columns: COLUMNS[columns]}
    names.update(MAP_COLUMNS, margin=f"mean paired difference{unit}", ci=f"95 % half-width{unit}")
    table = wins.assign(
        relative=(100 * wins["relative"]).round(1),
        margin=wins["margin"].round(1),
        ci=wins["ci"].round(1),
        clear=wins["clear"].map({True: "clear win", False: "within noise"}),
    )
    return table[list(names)].rename(columns=names).reset_index(drop=True)


def _levels(runs: pd.DataFrame, column: str) -> list:
    return list(dict.fromkeys(runs[column]))


def _offer(dropdown: w.Dropdown, options: list) -> None:
    """New ``options``, keeping the current value where it is still offered, else the
    first (ipywidgets leaves the value unset otherwise)."""
    keep = dropdown.value
    values = [o[1] if isinstance(o, tuple) else o for o in options]
    with dropdown.hold_sync():  # options and choice in one message: the page got the choice
        # of a list it did not have yet ("Cannot set properties of undefined")
        dropdown.options = options
        dropdown.value = keep if keep in values else values[0]


def across_explorer(runs: pd.DataFrame) -> w.VBox:
    """Controls over ``runs`` (:func:`~hpcmodels.papers.across.compare.ground_runs`, both
    groups concatenated if wished): the metric, the method group, the selection policy,
    the map's axes and the level of the third setting, the methods compared and the
    baseline of the paired table.

    ``runs`` is checked as :func:`~hpcmodels.papers.across.compare.check_runs` checks it,
    with every metric of :data:`~hpcmodels.papers.across.methods.METRICS` (finite
    numbers), at least one row and at least one method of
    :data:`~hpcmodels.papers.across.methods.METHODS`; else an
    :class:`~hpcmodels.errors.InvalidParameter` naming ``runs``. One method left, one
    workload or a metric equal in every run are shown as they are (a map of ties)."""
    check_runs(runs, list(METRICS))
    if runs.empty:
        raise InvalidParameter("runs is empty: run ground_runs first")
    groups = list(dict.fromkeys(METHODS[m].group for m in runs["method"] if m in METHODS))
    if not groups:
        raise InvalidParameter(
            f"runs holds no method of METHODS (it has {list(dict.fromkeys(runs['method']))[:5]}):"
            " nothing the explorer knows how to group"
        )
    metric = w.Dropdown(
        options=[(v, k) for k, v in METRICS.items()],
        description="metric",
        tooltip="what the map and the table compare; lower is better",
        style={"description_width": "initial"},
    )
    group = w.Dropdown(
        options=groups,
        description="methods of",
        style={"description_width": "initial"},
        tooltip="which decision the methods make: allocation, queue policy or co-allocation",
    )
    selection = w.Dropdown(
        description="queue policy",
        style={"description_width": "initial"},
        tooltip="which waiting job starts next, under every method shown",
    )
    axes = w.Dropdown(
        options=list(AXES),
        description="map axes",
        style={"description_width": "initial"},
        tooltip="the two settings along the map's rows and columns",
    )
    fixed = w.Dropdown(
        description="at",
        style={"description_width": "initial"},
        tooltip="the level of the third setting, held fixed",
    )
    every = w.Checkbox(
        value=False,
        description="show every method against the baseline (the paired table)",
        style={"description_width": "initial"},
        layout=w.Layout(width="auto"),
        tooltip="under the map's cells, each method's paired difference from the baseline",
    )
    methods = w.SelectMultiple(
        description="methods",
        rows=8,
        style={"description_width": "initial"},
        tooltip="the methods compared (Ctrl or Shift + click for several)",
    )
    baseline = w.Dropdown(
        description="baseline",
        style={"description_width": "initial"},
        tooltip="the paired table gives each method minus this one",
    )
    note = w.HTML()
    out = w.Output()
    status = status_line()

    def group_runs() -> pd.DataFrame:
        names = [
            m for m in _levels(runs, "method") if METHODS.get(m) and METHODS[m].group == group.value
        ]
        return runs[runs["method"].isin(names)]

    def refresh_choices(*_):
        mine = group_runs()
        _offer(selection, _levels(mine, "selection"))
        with methods.hold_sync():
            methods.options = _levels(mine, "method")
            methods.value = tuple(methods.options)
        _offer(baseline, list(methods.options))

    def refresh_fixed(*_):
        rows, columns = AXES[axes.value]
        third = next(c for c in ("sh", "bsbw", "load") if c not in (rows, columns))
        fixed.description = {"sh": "at SH", "bsbw": "at BSBW (Mbps)", "load": "at load"}[third]
        _offer(
            fixed,
            [
                (f"{v:g}" if isinstance(v, float) else str(v), v)
                for v in _levels(group_runs(), third)
            ],
        )

    def refresh_axes(*_):
        _offer(axes, axes_varied(group_runs()))

    group.observe(refresh_choices, names="value")
    group.observe(refresh_axes, names="value")
    group.observe(refresh_fixed, names="value")
    axes.observe(refresh_fixed, names="value")
    refresh_choices()
    refresh_axes()
    refresh_fixed()

    def update():
        with out:
            out.clear_output(wait=True)
            rows, columns = AXES[axes.value]
            third = next(c for c in ("sh", "bsbw", "load") if c not in (rows, columns))
            chosen = list(methods.value)
            if len(chosen) < 2 or baseline.value not in chosen:
                note.value = "<i>choose at least two methods, the baseline among them</i>"
                return
            mine = group_runs()
            mine = mine[
                (mine["selection"] == selection.value)
                & mine["method"].isin(chosen)
                & (mine[third] == fixed.value)
            ]
            mine = mine[mine.groupby(CELL)["method"].transform("nunique") >= 2]
            if mine.empty:
                note.value = "<i>no setting at this choice has two of the chosen methods</i>"
                return
            if baseline.value not in set(mine["method"]):
                note.value = f"<i>the baseline {baseline.value} has no runs at this choice</i>"
                return
            reps = int(mine["replicate"].nunique())
            note.value = (
                f"{reps} paired replicates per cell, {int(mine['workload'].nunique())}"
                f" workload(s); lower is better for every metric"
            )
            wins = win_map(mine, metric.value)
            show(
                plots.win_map_panels(
                    wins, rows, columns, f"{METRICS[metric.value]}: lowest mean ({selection.value})"
                )
            )
            claims = claims_table(mine, metric.value)
            if claims.empty:
                print(NO_CLAIM.format(selection=selection.value, metric=METRICS[metric.value]))
            else:
                print(
                    "the papers' claims on these methods beside ours (counted over the "
                    "settings of the map)"
                )
                display(table(claims))
            print("the map's cells: the lowest mean and its difference from the runner-up")
            display(table(map_table(wins, rows, columns, metric.value)))
            paired = paired_table(mine, metric.value, baseline.value)
            if every.value:
                print(f"every method against {baseline.value} ({len(paired)} rows)")
                display(table(paired))
            else:
                shown = "shown with the box above the map"
                print(f"every method against {baseline.value}: {len(paired)} rows, {shown}")

    live(update, [metric, group, selection, axes, fixed, methods, baseline, every], status)
    return w.VBox(
        [
            row([metric, group, selection, status]),
            row([axes, fixed, baseline]),
            methods,
            every,
            note,
            out,
        ]
    )
