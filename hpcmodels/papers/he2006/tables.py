"""He et al. 2006: Tables 3 and 4 (Sections 3.3 and 5.3): the printed fractions against every reading of OMR, one report row per fraction."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pandas as pd

from ...queueing.allocation import OMR, ORT, algorithm1
from ..report import compare_value
from .analytic import fractions, speed_system
from .eq16 import omr_printed_allocation
from .published import FIG3_SLACK, FIG4_SLACK, OMR_READINGS, TABLE2, TABLE3_PAPER, TABLE4_PAPER


def _fraction_rows(item, label, strategy, system, lam, slack, printed, cluster_names):
    """One row per printed fraction: the verdict for the default reading, the other
    readings (:data:`OMR_READINGS`) as columns and in the note."""
    ours = fractions(strategy, system, lam, slack)
    alg1 = eq16 = None
    if strategy in ("ORT", "OMR"):
        packed = slack.packed() if strategy == "OMR" else (0, np.zeros(2), np.ones(1))
        alg1 = algorithm1(OMR if strategy == "OMR" else ORT, system.nodes, system.rates, lam,
                          packed)  # fmt: skip
    if strategy == "OMR":
        eq16 = omr_printed_allocation(system, lam, slack)
    rows = []
    for k, name in enumerate(cluster_names):
        others = {}
        if alg1 is not None:
            state = "" if alg1.converged else ", did not converge"
            others[f"{OMR_READINGS['algorithm1']}{state}"] = float(alg1.fractions[k])
        if eq16 is not None:
            others[OMR_READINGS["eq16_printed"]] = float(eq16[k])
        p = float(printed[k])
        note = ("other readings: " + "; ".join(f"{r} {v:.4f}" for r, v in others.items())
                if others else "")  # fmt: skip
        cause = f"|ours - paper| = {abs(ours[k] - p):.4f}"
        if others:
            near = min(others, key=lambda r: abs(others[r] - p))
            cause += f"; nearest other reading: {near} at {abs(others[near] - p):.4f}"
        row = compare_value(item, f"{label} {strategy} {name}", printed[k], float(ours[k]),
                            kind="fraction", note=note, cause=cause)  # fmt: skip
        row["printed"] = printed[k]
        row["algorithm1"] = np.nan if alg1 is None else float(alg1.fractions[k])
        row["algorithm1_converged"] = None if alg1 is None else alg1.converged
        row["eq16_printed"] = np.nan if eq16 is None else float(eq16[k])
        rows.append(row)
    return rows


def table3() -> pd.DataFrame:
    """Table 3: fractions at workload 0.1 (Table 2 system, slack U[0, 30]); columns
    ``algorithm1`` and ``eq16_printed`` hold the other readings (:data:`OMR_READINGS`)."""
    lam = TABLE2.arrival_rate(0.1)
    names = [f"cluster {i}" for i in range(1, 5)]
    rows = []
    for strategy, printed in TABLE3_PAPER.items():
        rows += _fraction_rows("Table 3", "w=0.1", strategy, TABLE2, lam, FIG3_SLACK, printed,
                               names)  # fmt: skip
    return pd.DataFrame(rows)


def table4() -> pd.DataFrame:
    """Table 4: fractions (cluster 1, each of clusters 2-4) at workload 0.5, slack U[0,10];
    columns as :func:`table3`."""
    rows = []
    for (fast, slow), by_strategy in TABLE4_PAPER.items():
        system = speed_system(fast, slow)
        lam = system.arrival_rate(0.5)
        for strategy, printed in by_strategy.items():
            rows += _fraction_rows("Table 4", f"[{fast},{slow}]", strategy, system, lam,
                                   FIG4_SLACK, printed, ["cluster 1", "clusters 2-4"])  # fmt: skip
    return pd.DataFrame(rows)


def omr_readings(table: pd.DataFrame) -> pd.DataFrame:
    """The OMR readings of one table side by side: per reading (:data:`OMR_READINGS`, by
    frame column), the largest ``|reading - paper|`` over the printed OMR fractions, how
    many of them it reproduces to the printed precision, whether it converged (Algorithm
    1 may not), and ``best``: within half a printed unit of the smallest largest
    ``|diff|`` (the print cannot tell such readings apart)."""
    omr = table[table["quantity"].str.contains(" OMR ")]
    half = np.array([0.5 * 10.0 ** Decimal(p).as_tuple().exponent for p in omr["printed"]])
    converged = omr["algorithm1_converged"].astype(bool)
    rows = {}
    for column, what in OMR_READINGS.items():
        gap = (omr[column].astype(float) - omr["paper"].astype(float)).abs()
        rows[column] = {"reading": what, "max |diff|": float(gap.max()),
                        "reproduced": int((gap <= half * (1 + 1e-9)).sum()), "of": len(omr),
                        "converged": bool(converged.all()) if column == "algorithm1" else True}  # fmt: skip
    frame = pd.DataFrame(rows).T
    worst = frame["max |diff|"].astype(float)
    frame["best"] = worst <= worst.min() + half.min()
    frame.index.name = "column"
    return frame

