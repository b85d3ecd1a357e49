"""He et al. 2006: the measured causes a report row gives where ours departs from the paper
(the M/M/m model beside the simulation)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...queueing import (
    weighted_allocation,
)
from ...queueing.system import MultiCluster
from ...stats import t_interval
from .analytic import analytic_r, deterioration, fractions, improvement, improvement_of_better
from .published import ALGORITHMS, TABLE2
from .select import label_key, seed_values, series, value


def _distinct(a: float, b: float, digits: int = 4) -> tuple[str, str]:
    """``a`` and ``b`` to ``digits`` significant digits, more (up to 9) until they differ."""
    while digits < 9 and f"{a:.{digits}g}" == f"{b:.{digits}g}":
        digits += 1
    return f"{a:.{digits}g}", f"{b:.{digits}g}"


def model_order(df: pd.DataFrame, x: str, column: str, winner: str, real: list) -> str:
    """For a round-robin winner reversed outside the CI: the order of the same fractions
    under random splitting, the M/M/m model that ORT and OMR optimise."""
    model = {"mean_response": "analytic_response", "miss_rate": "analytic_miss"}[column]
    alloc = winner.split("-")[0]
    parts, keeps = [], []
    for k, loser in real:
        if ALGORITHMS[loser][1] in ("dll", "dlm") or loser.split("-")[0] == alloc:
            continue
        aw = value(df, winner, model, **{x: k})
        al = value(df, loser, model, **{x: k})
        tw, tl = _distinct(aw, al)
        parts.append(f"{label_key(k)}: {alloc} {tw} vs {loser.split('-')[0]} {tl}")
        keeps.append(aw <= al)
    if not parts:
        return ""
    head = (
        "the same fractions under random splitting (the M/M/m model ORT and OMR optimise) "
        "keep the paper's order"
        if all(keeps)
        else "the same fractions under random splitting (M/M/m) do not all keep the order"
    )
    return f"{head} ({', '.join(parts)})"


def fig3_bound() -> str:
    """Section 5.2 at workload 0.1: the largest gain any allocation could have."""
    weighted = weighted_allocation(TABLE2.nodes, TABLE2.rates)
    r_w = analytic_r(TABLE2, TABLE2.arrival_rate(0.1), weighted)
    fastest = 1 / TABLE2.rates.max()
    return (
        f"with no waiting and every job on the speed-20 nodes the gain is at most "
        f"{improvement(fastest, r_w):.1f} % by (W - ORT)/W, "
        f"{improvement_of_better(fastest, r_w):.1f} % by (W - ORT)/ORT"
    )


def model_gain(df: pd.DataFrame, w: float, **where) -> str:
    """ORT's gain over W in the M/M/m model (random splitting) at workload ``w``."""
    o = value(df, "ORT-RR", "analytic_response", workload=w, **where)
    x = value(df, "W-RR", "analytic_response", workload=w, **where)
    return (
        f"M/M/m model (random splitting): ORT gains {improvement(o, x):.1f} % "
        f"(W - ORT)/W, {improvement_of_better(o, x):.1f} % (W - ORT)/ORT"
    )


def fig3_gap(df: pd.DataFrame, w: float = 0.9) -> str:
    """Why ORT gains little at high load: its fractions are near the weighted ones."""
    weighted = weighted_allocation(TABLE2.nodes, TABLE2.rates)
    gap = np.abs(fractions("ORT", TABLE2, TABLE2.arrival_rate(w)) - weighted).max()
    return (
        f"at workload {w:g} ORT's fractions are within {gap:.4f} of the weighted ones; "
        f"{model_gain(df, w)}"
    )


def rr_versus_rand_cause(df: pd.DataFrame, real) -> str:
    """Where W-RR beats ORT-Rand: the allocation's gain (model) against round-robin's."""
    parts = []
    for k, _ in real:
        o = value(df, "ORT-Rand", "analytic_response", workload=k)
        x = value(df, "W-Rand", "analytic_response", workload=k)
        rr = improvement(value(df, "W-RR", workload=k), value(df, "W-Rand", workload=k))
        parts.append(
            f"at {k:g} ORT's allocation gains {improvement(o, x):.1f} % in the "
            f"M/M/m model, round-robin gains {rr:.1f} % over random under W"
        )
    return "; ".join(parts)


def dll_cause(df: pd.DataFrame, real) -> str:
    """Where ORT-RR beats DLL: by how much, and which DLL reading is computed."""

    def above(k: float) -> float:
        return improvement_of_better(value(df, "ORT-RR", workload=k), value(df, "DLL", workload=k))

    parts = [f"DLL {above(k):.1f} % above ORT-RR at {k:g}" for k, _ in real]
    return (
        ", ".join(parts) + "; our DLL reading (least expected response time: backlog "
        "until a node frees + mean service time) is the only one computed"
    )


def fig5_bound(df: pd.DataFrame) -> str:
    """Fig. 5a: with every node at speed 10, the most a size difference can gain."""
    ort = series(df, "ORT-RR", "nodes")
    floor = MultiCluster((6, 6, 6, 6), (10, 10, 10, 10)).mean_size / 10
    return (
        f"every node has speed 10, so no job responds faster than its mean service "
        f"time {floor:.1f} s, while [6,6] already gives {ort['[6,6]']:.2f} s: at most "
        f"{improvement(floor, ort['[6,6]']):.1f} % (R0 - R1)/R0, "
        f"{improvement_of_better(floor, ort['[6,6]']):.1f} % (R0 - R1)/R1 can be gained"
    )


def sim_deterioration(df_a: pd.DataFrame, initial: float) -> pd.DataFrame:
    """Fig. 8a simulated: ORT-RR's deterioration under the kept fractions, per change,
    mean and 95 % half-width over the seeds (common random numbers), beside the model."""
    rows = []
    for c in sorted(df_a["change"].unique()):
        kept = seed_values(df_a, "ORT-RR", allocation="approximate", change=c)
        fresh = seed_values(df_a, "ORT-RR", allocation="accurate", change=c)
        mean, ci = t_interval(100 * (kept / fresh - 1))
        model = deterioration(TABLE2, initial, initial * (1 + c))
        rows.append({"change": c, "simulated": mean, "ci": ci, "model": model})
    return pd.DataFrame(rows).set_index("change")
