"""He et al. 2006: the one checker of the text claims that share a form (Section 5):
the orderings (:data:`~.published.ORDERS`, "A is below B at every point") and the
"approximately the same" claims (:data:`~.published.ALIKES`), each judged on the quick
frames (against the simulation's 95 % CIs) or, ``paired=True``, on the paper-scale
store's paired runs (:mod:`hpcmodels.papers.ensemble`)."""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from ...errors import check_bool
from ..verdicts import alike, compare_claim, fmt_series
from .causes import dll_cause, model_order, rr_versus_rand_cause
from .paired import paired_everywhere
from .published import ALIKES, ORDERS, Alike, Order
from .select import CI_COLUMN, axis_labels, label_key, seed_values, series

ORDER_CAUSES: dict[str, Callable[[pd.DataFrame, list], str]] = {
    "rr_versus_rand": rr_versus_rand_cause,
    "dll": dll_cause,
}
"""The measured explanations an :class:`~.published.Order` may name for a reversal
outside the 95 % CI: ``cause(frame, reversed points)``."""


def order_row(df: pd.DataFrame, order: Order, *, paired: bool = False) -> dict:
    """One ordering claim on a figure's frame: :func:`_everywhere` (the quick run) or,
    ``paired`` (a bool), :func:`~.paired.paired_everywhere` (paper scale)."""
    paired = check_bool("paired", paired)
    what = f"{order.figure}: {order.text}"
    explain = ORDER_CAUSES.get(order.cause)
    if paired:
        cause = (lambda real: explain(df, real)) if explain else None
        return paired_everywhere(
            df, order.x, order.column, order.winner, list(order.losers), what, cause=cause
        )
    cause = (lambda real: explain(df, real)) if explain else ""
    return _everywhere(
        df, order.x, order.column, order.winner, list(order.losers), what, cause=cause
    )


def order_rows(df: pd.DataFrame, block: str, *, paired: bool = False) -> list[dict]:
    """Every ordering of one block of :data:`~.published.ORDERS`, in order (``paired``
    as :func:`order_row`)."""
    paired = check_bool("paired", paired)
    return [order_row(df, order, paired=paired) for order in ORDERS[block]]


def alike_row(df: pd.DataFrame, key: str, *, paired: bool = False) -> dict:
    """The "approximately the same" claim ``ALIKES[key]`` on a figure's frame; ``paired``
    (a bool) adds the number of replicates (paper scale)."""
    paired = check_bool("paired", paired)
    a: Alike = ALIKES[key]
    if paired:
        return _scale_alike(df, a.item, a.quantity, a.text, a.algorithm, a.x, a.column)
    return alike_claim(
        a.item,
        a.quantity,
        a.text,
        series(df, a.algorithm, a.x, a.column),
        series(df, a.algorithm, a.x, CI_COLUMN[a.column]),
    )


def reversals(df, x, column, winner, losers) -> tuple[list, list, list]:
    """Points where a loser beats the winner: inside both 95 % CIs (noise) or outside
    (real), and their texts with the values."""
    ci = CI_COLUMN[column]
    w, w_ci = series(df, winner, x, column), series(df, winner, x, ci)
    noise, real, texts = [], [], []
    for k in w.index:
        for lo in losers:
            other = series(df, lo, x, column)[k]
            if other < w[k]:
                inside = w[k] - other <= w_ci[k] + series(df, lo, x, ci)[k]
                (noise if inside else real).append((k, lo))
                texts.append(f"{label_key(k)} ({lo} {other:.4g} < {w[k]:.4g})")
    return noise, real, texts


def _everywhere(df, x, column, winner, losers, what, cause: str | Callable = "") -> dict:
    """Claim: ``winner`` has the smallest ``column`` at every ``x`` among ``losers``.

    Where it fails, the reason says whether the reversal is inside the simulation's
    95 % confidence intervals (noise) or outside them; for a reversal outside, ``cause``
    (a string, or a function of the reversed points) or, for a round-robin winner, the
    order of the same fractions in the M/M/m model.
    """
    noise, real, texts = reversals(df, x, column, winner, losers)
    item = "Fig. " + what.split(":", 1)[0]
    text = what.split(":", 1)[1].strip()
    ours = "holds at every point" if not texts else f"fails at {x} = {', '.join(texts)}"
    reason = ""
    if real:
        explain = cause(real) if callable(cause) else cause
        if not explain and winner.endswith("-RR"):
            explain = model_order(df, x, column, winner, real)
        where = ", ".join(f"{label_key(k)} (vs {lo})" for k, lo in real)
        reason = f"outside the 95 % CI at {where}: {explain or 'cause not identified'}"
    elif noise:
        reason = "every reversal is inside the 95 % CI of the simulation (noise)"
    return compare_claim(item, text, text, not texts, ours, cause=reason)


def alike_claim(item: str, quantity: str, text: str, values: pd.Series, cis: pd.Series) -> dict:
    """Claim of the paper that values are "approximately the same": :func:`verdicts.alike`
    on our values and their 95 % half-widths."""
    v = values.astype(float)
    spread = (
        0.0 if v.max() == v.min() else (v.max() - v.min()) / abs(v.min()) if v.min() else math.inf
    )
    ours = (
        f"spread {100 * spread:.1f} % of the smallest ({fmt_series(v.map(lambda a: f'{a:.4g}'))})"
    )
    return compare_claim(
        item,
        quantity,
        text,
        alike(v.values, cis.values),
        ours,
        cause="more than the 5 % spread of 'approximately the same', and the "
        "95 % CIs do not all overlap",
    )


def _scale_alike(
    df: pd.DataFrame,
    item: str,
    quantity: str,
    text: str,
    algorithm: str,
    x: str,
    column: str = "mean_response",
) -> dict:
    """ "Approximately the same" at paper scale: the report's one definition
    (:func:`verdicts.alike`) on our means of the replicates and their 95 % half-widths."""
    row = alike_claim(
        item,
        quantity,
        text,
        series(df, algorithm, x, column),
        series(df, algorithm, x, CI_COLUMN[column]),
    )
    row["replicates"] = len(
        seed_values(df, algorithm, column, **{x: axis_labels(df, x, algorithm)[0]})
    )
    return row
