"""He et al. 2006: printed percentages against every reading of their definition (Section 5,
PERCENT_READINGS)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import check_bool
from ...stats import t_interval
from ..verdicts import compare_value
from .published import PERCENT_READINGS, TEXT_NUMBERS
from .select import label_key


@dataclass(frozen=True)
class Reading:
    """One reading of a printed percentage: its definition, our value and, for a
    simulated estimate, our 95 % half-width."""

    definition: str
    value: float
    ci: float | None = None

    def text(self) -> str:
        if not math.isfinite(self.value):
            return "never reached"
        ci = f" ± {self.ci:.1f}" if self.ci is not None and math.isfinite(self.ci) else ""
        return f"{self.value:.1f}{ci} %"


def percent_row(
    item: str,
    quantity: str,
    key: str,
    readings: Sequence[Reading],
    *,
    note: str = "",
    cause: str = "",
    misplaced: str = "",
) -> dict:
    """A printed percentage (``TEXT_NUMBERS[key]``) against every reading of its
    definition (:data:`PERCENT_READINGS`; the first reading is the default).

    The verdict is for the reading nearest the printed value (ties: the default); the
    row names it, says whether it is the default, and shows the others. ``misplaced``,
    when given, is a measured statement that ours is not the same point of the curve as
    the paper's (a minimum at the grid's edge against an interior one): the row then
    differs whatever the value. The row also carries ``reading`` (the one judged) and
    ``readings`` (definition -> ours) and ``key`` for the tests."""
    printed = TEXT_NUMBERS[key]
    p = float(printed)
    gaps = [abs(r.value - p) if math.isfinite(r.value) else math.inf for r in readings]
    best, default = readings[int(np.argmin(gaps))], readings[0]
    which = (
        f"reading {best.definition} (the default)"
        if best is default
        else f"reading {best.definition} (nearer the print; default {default.definition})"
    )
    others = "; ".join(f"{r.definition}: {r.text()}" for r in readings if r is not best)
    context = "; ".join(filter(None, (which, f"other reading {others}" if others else "", note)))
    row = compare_value(
        item, quantity, printed, best.value, kind="percent", ci=best.ci, note=context, cause=cause
    )
    if misplaced:
        row.update(verdict="differs", reason="; ".join(filter(None, (misplaced, cause, context))))
    row["key"] = key
    row["reading"] = best.definition
    row["readings"] = {r.definition: r.value for r in readings}
    return row


def gain_readings(better: np.ndarray, worse: np.ndarray, b: str, w: str) -> list[Reading]:
    """Readings of "``b`` outperforms ``w`` by x %" from per-seed values: ``(w - b)/w``
    (default) and ``(w - b)/b``, each the mean over the seeds with its 95 % half-width."""
    better, worse = np.atleast_1d(better), np.atleast_1d(worse)
    return [
        Reading(f"({w} - {b})/{w}", *t_interval(100 * (worse - better) / worse)),
        Reading(f"({w} - {b})/{b}", *t_interval(100 * (worse - better) / better)),
    ]


def decrease_readings(before: np.ndarray, after: np.ndarray, r0: str, r1: str) -> list[Reading]:
    """A decrease from ``r0`` to ``r1``: ``(r0 - r1)/r0`` (default) and ``(r0 - r1)/r1``."""
    return gain_readings(after, before, r1, r0)


def threshold_readings(frame: pd.DataFrame, column: str, at: float) -> list[Reading]:
    """A threshold of Fig. 8b at initial workload ``at`` under both readings of the
    deterioration."""
    d_acc, d_app = PERCENT_READINGS["deterioration"]
    values = []
    for suffix in ("", "_of_approximate"):
        series = frame.set_index("initial")[f"{column}{suffix}"]
        values.append(float(series[at]))
    return [
        Reading(f"deterioration {d_acc}", values[0]),
        Reading(f"deterioration {d_app}", values[1]),
    ]


def _nearest(readings: Sequence[Reading], printed: float) -> int:
    gaps = [abs(r.value - printed) if math.isfinite(r.value) else math.inf for r in readings]
    return int(np.argmin(gaps))


def minimum_row(
    item: str,
    quantity: str,
    key: str,
    curves: dict[str, pd.Series],
    *,
    paper_interior: bool,
    note: str = "",
) -> dict:
    """The smallest value of a curve, under each reading (``curves``: definition ->
    curve, the default first), against the printed minimum ``TEXT_NUMBERS[key]``.

    ``paper_interior`` says the paper's minimum lies inside the grid (its curve first
    falls, then rises). Ours is then the same quantity only if its minimum lies inside
    too: smallest at the grid's first or last point, the row differs whatever its value
    (:func:`percent_row`'s ``misplaced``), and the reason gives ours inside the grid.
    ``paper_interior`` is a bool."""
    paper_interior = check_bool("paper_interior", paper_interior)
    readings = [Reading(d, float(np.nanmin(c.values))) for d, c in curves.items()]
    curve = list(curves.values())[_nearest(readings, float(TEXT_NUMBERS[key]))]
    where = curve.idxmin()
    misplaced = ""
    if paper_interior and where in (curve.index[0], curve.index[-1]):
        inner = curve.iloc[1:-1]
        misplaced = (
            f"ours is smallest at the grid's edge ({label_key(where)}: {curve[where]:.1f} %), "
            f"the paper's inside it, so they are not the same point; inside the grid "
            f"ours is smallest at {label_key(inner.idxmin())} ({inner.min():.1f} %)"
        )
    cause = "" if misplaced else f"cause not identified; ours is smallest at {label_key(where)}"
    return percent_row(item, quantity, key, readings, note=note, misplaced=misplaced, cause=cause)
