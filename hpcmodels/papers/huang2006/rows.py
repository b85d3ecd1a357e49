"""Huang & Chang 2006: Tables 2-3 and 5-9 cell by cell against the printed values, as
report rows, each with its ours/paper ratio against the table's typical ratio
(:func:`ratio_check`): on the cleaned log no cell can be exact, and a cell that breaks
the table's typical ratio says so with the numbers."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..verdicts import TOLERANCES, compare_value, missing_frame, missing_of
from .published import (
    FULL_LOG,
    HEURISTICS,
    OUR_METHODS,
    POLICIES,
    PRINTED_TABLES,
    READING_NOTES,
    READINGS,
    TABLE9,
    TOTAL_JOBS,
)
from .simulation import pivot, table9_frame
from .workload import not_run_rows, other_input_of


def _jobs_count(n_jobs: object) -> int | None:
    """``n_jobs`` (the jobs simulated) as None or a whole number in [0, 10**8]
    (:data:`hpcmodels.bounds.MAX_JOBS`; 0, an empty log, gives no ratio, as None)."""
    from ...bounds import MAX_JOBS
    from ...errors import check_int

    return None if n_jobs is None else check_int("n_jobs", n_jobs, minimum=0, maximum=MAX_JOBS)


def _half_unit(printed: str) -> float:
    text = printed.strip().lstrip("+-")
    return 0.5 * 10.0 ** -(len(text.split(".", 1)[1]) if "." in text else 0)


def ratio_check(
    paper: pd.DataFrame,
    ours: pd.DataFrame,
    *,
    ci: pd.DataFrame | None = None,
    readings: Mapping[str, str] | None = None,
    kind: str = "time",
) -> pd.DataFrame:
    """Each cell's ours/paper ratio against the table's *typical ratio*: the median of
    the ratios over the paper's cells (ours' columns named as the paper's). A cell
    *breaks* the typical ratio when ours lies farther from ``typical x paper`` than the
    report's tolerance for ``kind`` (or ours' 95 % half-width from ``ci``, when larger)
    plus the typical ratio times half the paper's last printed unit. ``readings`` maps
    ours' extra columns to the paper column each one reads (checked against the same
    typical ratio, not part of it). One row per (row, column) of ours."""
    pairs = [(c, c) for c in paper.columns] + list((readings or {}).items())
    records = []
    for r in paper.index:
        for col, pcol in pairs:
            printed = str(paper.loc[r, pcol])
            p, o = float(printed), float(ours.loc[r, col])
            h = float(ci.loc[r, col]) if ci is not None and col in ci.columns else math.nan
            records.append(
                dict(
                    row=r,
                    column=col,
                    paper_column=pcol,
                    printed=printed,
                    paper=p,
                    ours=o,
                    ci=h if math.isfinite(h) else 0.0,
                    ratio=o / p if p else math.nan,
                    primary=col == pcol,
                )
            )
    frame = pd.DataFrame(records)
    typical = float(np.nanmedian(frame.loc[frame["primary"], "ratio"].to_numpy(float)))
    tolerance = TOLERANCES[kind]
    frame["typical"] = typical
    frame["expected"] = typical * frame["paper"]
    frame["allowed"] = [
        max(tolerance.of(e), h) + typical * _half_unit(s)
        for e, h, s in zip(frame["expected"], frame["ci"], frame["printed"], strict=True)
    ]
    frame["breaks"] = (frame["ours"] - frame["expected"]).abs() > frame["allowed"]
    return frame.set_index(["row", "column"])


def num(x: float, digits: int = 4) -> str:
    """A number for a reason: thousands with separators, smaller ones to ``digits``."""
    return f"{x:,.0f}" if abs(x) >= 10**digits else f"{x:.{digits}g}"


def ratio_note(c: pd.Series) -> str:
    text = f"ours/paper {c['ratio']:.3g}, table's typical ratio {c['typical']:.3g}"
    if c["breaks"]:
        text += (
            f"; BREAKS the typical ratio: {c['typical']:.3g} x paper = "
            f"{num(c['expected'])} ± {num(c['allowed'], 2)}"
        )
    return text


def cell_cause(check: pd.DataFrame, r, col: str, log: str, n_jobs: int | None) -> str:
    """The measured statement a differing cell carries: another reading's value when the
    cell breaks the table's typical ratio, else what sets that ratio."""
    c = check.loc[(r, col)]
    if c["breaks"]:
        text = "the table's typical ratio does not account for this cell"
        same = check.xs(r, level="row")
        others = same[(same["paper_column"] == c["paper_column"]) & (same.index != col)]
        for name, o in others.iterrows():
            fit = "also breaks it" if o["breaks"] else "in line with it"
            text += f"; {name} gives {num(o['ours'])} (ours/paper {o['ratio']:.3g}, {fit})"
        return text if len(others) else text + "; no measurement here explains it"
    if log == FULL_LOG:
        return f"the whole table lies at {c['typical']:.3g} x the paper's values; no measured cause"
    text = "in line with the table's typical ratio: the cleaned log's offset"
    if n_jobs:
        text += (
            f" (it lacks {TOTAL_JOBS - n_jobs:,} of the paper's jobs, short ones: Table 1 "
            f"rows; {TOTAL_JOBS:,} / {n_jobs:,} = {TOTAL_JOBS / n_jobs:.3f} if they had "
            "waited nothing and delayed no one)"
        )
    return text


def table_rows(
    item: str,
    paper: pd.DataFrame,
    ours: pd.DataFrame,
    label: str,
    log: str,
    *,
    ci: pd.DataFrame | None = None,
    readings: Mapping[str, str] | None = None,
    notes: Mapping[str, str] | None = None,
    n_jobs: int | None = None,
) -> list[dict]:
    """Cell-by-cell comparison of one table of simulated means (``ours`` laid out like
    ``paper``; kind "time"). ``ci``: ours' 95 % half-widths where ours is a mean over
    seeds; ``readings``: ours' extra columns and the paper column each reads (compared
    with it too); ``notes``: per column, shown on its rows; ``n_jobs``: the jobs
    simulated (for the cause on another log). Every row shows its ours/paper ratio and
    the table's typical ratio (:func:`ratio_check`); a cell that breaks it says so.
    ``n_jobs`` is None or a whole number in [0, 10**8]."""
    n_jobs = _jobs_count(n_jobs)
    check = ratio_check(paper, ours, ci=ci, readings=readings)
    other = other_input_of(log)
    rows = []
    for (r, col), c in check.iterrows():
        note = "; ".join(x for x in ((notes or {}).get(col, ""), ratio_note(c)) if x)
        rows.append(
            compare_value(
                item,
                f"{label} {r:g}, {col}",
                c["printed"],
                c["ours"],
                kind="time",
                ci=c["ci"] or None,
                other_input=other,
                note=note,
                cause=cell_cause(check, r, col, log, n_jobs),
            )
        )
    return rows


def _load_tables(by_load: pd.DataFrame):
    """Tables 2-3 as :func:`table_rows` takes them."""
    for item in ("Table 2", "Table 3"):
        metric, paper, label = PRINTED_TABLES[item]
        ours = pivot(by_load, metric, list(POLICIES))
        yield dict(item=item, paper=paper.loc[ours.index], ours=ours, label=label)


def _slowdown_tables(by_slowdown: pd.DataFrame):
    """Tables 5-9 as :func:`table_rows` takes them: Tables 5-6 with both median-fit
    readings and random fit's 95 % half-widths."""
    runs = by_slowdown.loc[by_slowdown["method"] == "Random Fit", "runs"]
    notes = {
        **READING_NOTES,
        "Random Fit": f"mean of {int(runs.min()) if len(runs) else 0} "
        "seeds, 95 % CI from their spread",
    }
    for item in ("Table 5", "Table 6"):
        metric, paper, label = PRINTED_TABLES[item]
        ours = pivot(by_slowdown, metric, OUR_METHODS)
        ci = pivot(by_slowdown, f"{metric}_ci", OUR_METHODS)
        yield dict(
            item=item,
            paper=paper.loc[ours.index],
            ours=ours,
            label=label,
            ci=ci,
            readings=READINGS,
            notes=notes,
        )
    for item in ("Table 7", "Table 8"):
        metric, paper, label = PRINTED_TABLES[item]
        ours = pivot(by_slowdown, metric, list(HEURISTICS))
        yield dict(item=item, paper=paper.loc[ours.index], ours=ours, label=label)
    t9 = table9_frame(by_slowdown)
    yield dict(item="Table 9", paper=TABLE9.loc[t9.index], ours=t9, label="slowdown")


def load_rows(by_load: pd.DataFrame, log: str, n_jobs: int | None = None) -> list[dict]:
    """Tables 2-3 cell by cell (:func:`table_rows`); ``not run`` rows naming the
    missing log when the runs could not be made. ``n_jobs`` as :func:`table_rows`."""
    n_jobs = _jobs_count(n_jobs)
    if reason := missing_of(by_load):
        return not_run_rows(["Table 2", "Table 3"], reason)
    return [
        row for spec in _load_tables(by_load) for row in table_rows(**spec, log=log, n_jobs=n_jobs)
    ]


def slowdown_rows(
    by_slowdown: pd.DataFrame,
    log: str,
    n_jobs: int | None = None,
    items: Sequence[str] | None = None,
) -> list[dict]:
    """Tables 5-9 cell by cell (:func:`table_rows`): Tables 5-6 with both median-fit
    readings and random fit's 95 % interval; ``items`` picks tables ("Table 9"); ``not
    run`` rows naming the missing log when the runs could not be made. ``n_jobs`` as
    :func:`table_rows`."""
    n_jobs = _jobs_count(n_jobs)
    if reason := missing_of(by_slowdown):
        tables = ["Table 5", "Table 6", "Table 7", "Table 8", "Table 9"]
        return not_run_rows([t for t in tables if items is None or t in items], reason)
    return [
        row
        for spec in _slowdown_tables(by_slowdown)
        if items is None or spec["item"] in items
        for row in table_rows(**spec, log=log, n_jobs=n_jobs)
    ]


def typical_ratios(
    by_load: pd.DataFrame | None = None,
    by_slowdown: pd.DataFrame | None = None,
    n_jobs: int | None = None,
) -> pd.DataFrame:
    """Per table: its typical ours/paper ratio (:func:`ratio_check`), the lowest and
    highest ratio of its cells, how many cells lie in line with it, and the cells that
    break it (with their ratios). With ``n_jobs`` (the jobs simulated), ``typical /
    count ratio``: the typical ratio over paper jobs / ours, i.e. our jobs' total waiting
    time (or waiting ratio) over the paper's total. ``n_jobs`` is None or a whole number
    in [0, 10**8]."""
    n_jobs = _jobs_count(n_jobs)
    if reason := missing_of(by_load, by_slowdown):
        return missing_frame(reason)
    specs = [
        *(_load_tables(by_load) if by_load is not None else []),
        *(_slowdown_tables(by_slowdown) if by_slowdown is not None else []),
    ]
    out = []
    for spec in specs:
        check = ratio_check(
            spec["paper"], spec["ours"], ci=spec.get("ci"), readings=spec.get("readings")
        )
        broken = check[check["breaks"]]
        row = dict(
            item=spec["item"],
            typical=check["typical"].iloc[0],
            cells=len(check),
            lowest=check["ratio"].min(),
            highest=check["ratio"].max(),
            in_line=int((~check["breaks"]).sum()),
        )
        if n_jobs:
            row["typical / count ratio"] = row["typical"] / (TOTAL_JOBS / n_jobs)
        row["breaking"] = ", ".join(f"{r:g} {c} ({v:.3g})" for (r, c), v in broken["ratio"].items())
        out.append(row)
    return pd.DataFrame(out).set_index("item")
