"""He et al. 2006: the paper-scale rule applied: printed percentages per replicate, claims
judged cell by cell on the paired runs."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..verdicts import compare_claim
from .causes import model_order
from .ensemble import PAPER_RUNS
from .published import TEXT_NUMBERS
from .select import axis_labels, label_key, seed_values


def _pct(worse: np.ndarray, better: np.ndarray, base: np.ndarray) -> np.ndarray:
    return 100.0 * (worse - better) / base


def gain_series(
    better: np.ndarray, worse: np.ndarray, b: str, w: str
) -> list[tuple[str, np.ndarray]]:
    """ "``b`` outperforms ``w`` by x %" per replicate, both readings (the default first,
    as :func:`gain_readings`)."""
    return [
        (f"({w} - {b})/{w}", _pct(worse, better, worse)),
        (f"({w} - {b})/{b}", _pct(worse, better, better)),
    ]


def scale_percent(
    item: str,
    quantity: str,
    key: str,
    readings: list[tuple[str, np.ndarray]],
    *,
    note: str = "",
    cause: str = "",
) -> dict:
    """A printed percentage (``TEXT_NUMBERS[key]``, the mean of five runs) against our
    mean of five runs (:func:`hpcmodels.papers.ensemble.ensemble_value`, kind percent), the
    percentage computed per replicate from that replicate's paired runs. Judged under
    the reading whose mean is nearer the print (ties: the default), as
    :func:`percent_row`; the others are in the note."""
    from ..ensemble import ensemble_value, summarize

    printed = TEXT_NUMBERS[key]
    p = float(printed)
    means = [float(np.mean(x)) for _, x in readings]
    best = int(np.argmin([abs(m - p) for m in means]))
    name, runs = readings[best]
    which = (
        f"reading {name} (the default)"
        if best == 0
        else f"reading {name} (nearer the print; default {readings[0][0]})"
    )
    others = "; ".join(
        f"{d}: {summarize(x).mean:.1f} ± {summarize(x).ci:.1f} %"
        for i, (d, x) in enumerate(readings)
        if i != best
    )
    context = "; ".join(filter(None, (which, f"other reading {others}" if others else "", note)))
    row = ensemble_value(
        item, quantity, printed, runs, kind="percent", k=PAPER_RUNS, note=context, cause=cause
    )
    row.update(key=key, reading=name)
    return row


@dataclass
class _Cells:
    """Paired judgements of "A beats B" over several cells (:func:`judge`): the labels
    where A is better (95 % CI on the claimed side), reversed, unresolved (the CI holds
    0) and identical in every run, each with its paired mean difference."""

    better: list[str]
    reversed: list[tuple]
    unresolved: list[tuple]
    ties: list[str]
    replicates: int

    @property
    def cells(self) -> int:
        return len(self.better) + len(self.reversed) + len(self.unresolved) + len(self.ties)

    def holds(self, ties_hold: bool = False) -> bool:
        return not self.reversed and not self.unresolved and (ties_hold or not self.ties)

    def text(self, better: str) -> str:
        parts = [
            f"paired over {self.replicates} seeds: {better} in {len(self.better)} of {self.cells}"
        ]
        if self.reversed:
            parts.append("reversed at " + ", ".join(t for _, t in self.reversed))
        if self.unresolved:
            parts.append("paired 95 % CI holds 0 at " + ", ".join(t for _, t in self.unresolved))
        if self.ties:
            parts.append("identical in every run at " + ", ".join(self.ties))
        return "; ".join(parts)


def judge(cells: Iterable[tuple], *, higher_is_better: bool = False) -> _Cells:
    """Each cell ``(label, a, b[, key])``: "a beats b" on the paired runs
    (:func:`hpcmodels.papers.ensemble.paired_claim`); ``key`` (default the label) is what
    :attr:`_Cells.reversed` and ``unresolved`` keep for the causes."""
    from ..ensemble import paired_claim

    out = _Cells([], [], [], [], 0)
    for cell in cells:
        label, a, b = cell[:3]
        key = cell[3] if len(cell) > 3 else label
        out.replicates = len(a)
        if np.array_equal(a, b):
            out.ties.append(f"{label} (both {np.mean(a):.4g})")
            continue
        r = paired_claim("", "", a, b, higher_is_better=higher_is_better)
        text = f"{label} ({r['mean']:+.3g} ± {r['ci']:.2g})"
        if r["verdict"] == "qualitative":
            out.better.append(text)
        elif "contains 0" in r["reason"]:
            out.unresolved.append((key, text))
        else:
            out.reversed.append((key, text))
    return out


def cells_claim(
    item: str,
    quantity: str,
    claim_text: str,
    cells: _Cells,
    better: str,
    *,
    ties_hold: bool = False,
    explain: str = "",
    ours: str = "",
) -> dict:
    """A claim row from paired cells: it holds when every cell's paired 95 % CI lies on
    the claimed side (and, unless ``ties_hold``, no cell is identical in every run)."""
    parts = []
    if cells.reversed:
        parts.append(
            f"reversed on the paired runs at {', '.join(str(label_key(k)) for k, _ in cells.reversed)}"
            f": {explain or 'cause not identified'}"
        )
    if cells.unresolved:
        parts.append(
            "the paired 95 % CI contains 0 at "
            + ", ".join(str(label_key(k)) for k, _ in cells.unresolved)
            + f": {cells.replicates} runs cannot tell them apart"
        )
    if cells.ties and not ties_hold:
        parts.append("identical in every run at " + ", ".join(cells.ties))
    row = compare_claim(
        item,
        quantity,
        claim_text,
        cells.holds(ties_hold),
        "; ".join(filter(None, (ours, cells.text(better)))),
        cause="; ".join(parts),
    )
    row["replicates"] = cells.replicates
    return row


def paired_everywhere(
    df: pd.DataFrame,
    x: str,
    column: str,
    winner: str,
    losers: list[str],
    what: str,
    cause: Callable | None = None,
) -> dict:
    """Paper scale of :func:`_everywhere`: ``winner`` below each loser at every ``x``,
    cell by cell on the paired runs. As there, a loser equal to the winner is no
    reversal: where both give identical runs (the same fractions: the homogeneous step,
    a miss rate of 0 in every run) the cell holds, and the row lists it. A reversal's
    cause: ``cause(reversed points)``, or for a round-robin winner the order of the same
    fractions in the M/M/m model."""
    cells = judge(
        (
            f"{label_key(k)} vs {lo}",
            seed_values(df, winner, column, **{x: k}),
            seed_values(df, lo, column, **{x: k}),
            (k, lo),
        )
        for k in axis_labels(df, x, winner)
        for lo in losers
    )
    real = [key for key, _ in cells.reversed]
    explain = ""
    if real:
        explain = (
            cause(real)
            if cause
            else (model_order(df, x, column, winner, real) if winner.endswith("-RR") else "")
        )
    item, text = "Fig. " + what.split(":", 1)[0], what.split(":", 1)[1].strip()
    for bucket in (cells.reversed, cells.unresolved):
        bucket[:] = [(f"{label_key(k)} (vs {lo})", t) for (k, lo), t in bucket]
    return cells_claim(item, text, text, cells, f"{winner} lower", ties_hold=True, explain=explain)


def steps(df: pd.DataFrame, x: str, algorithm: str, column: str = "mean_response") -> list[tuple]:
    """Consecutive ``(label, later runs, earlier runs)`` along ``x``."""
    ks = axis_labels(df, x, algorithm)
    runs = [seed_values(df, algorithm, column, **{x: k}) for k in ks]
    return [
        (f"{algorithm} {label_key(k0)} -> {label_key(k1)}", r1, r0)
        for k0, k1, r0, r1 in zip(ks, ks[1:], runs, runs[1:], strict=False)
    ]


def gap_runs(df: pd.DataFrame, main: str, bound: str, column: str, w: float) -> np.ndarray:
    """``(main - bound)/main`` per replicate, percent (0 where ``main`` is 0)."""
    m, b = seed_values(df, main, column, workload=w), seed_values(df, bound, column, workload=w)
    return np.where(m != 0, 100 * (m - b) / np.where(m != 0, m, 1), 0.0)


def gain_cells(df: pd.DataFrame, better: str = "ORT-RR", worse: str = "W-RR") -> list[tuple]:
    """:func:`_shrinks` on the paired runs: the default gain at the first workload against
    the middle one, the middle against the last."""
    ws = axis_labels(df, "workload", better)
    pick = [ws[0], ws[len(ws) // 2], ws[-1]]
    g = [
        gain_series(
            seed_values(df, better, workload=w), seed_values(df, worse, workload=w), better, worse
        )[0][1]
        for w in pick
    ]
    return [
        (f"{pick[0]:g} vs {pick[1]:g}", g[0], g[1]),
        (f"{pick[1]:g} vs {pick[2]:g}", g[1], g[2]),
    ]
