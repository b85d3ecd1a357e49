"""He et al. 2006: the allocations of Sections 3-4 (Eqs. 3, 10-12, 16-18) on the paper's
systems and the approximate allocation of Section 5.7 (Fig. 8b), solved exactly from the
M/M/m model."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.optimize import brentq

from ...errors import InvalidParameter
from ...queueing import (
    mean_miss_rate_of,
    mean_response_time_of,
    omr_allocation,
    ort_allocation,
    weighted_allocation,
)
from ...queueing.system import MultiCluster
from .published import FIG3_SLACK, STRATEGIES, TABLE2, WORKLOADS


def speed_system(fast: float, slow: float) -> MultiCluster:
    """Fig. 4 / Table 4: four clusters of four nodes, speeds ``(fast, slow, slow, slow)``."""
    return MultiCluster((4, 4, 4, 4), (fast, slow, slow, slow))


def size_system(big: int, small: int) -> MultiCluster:
    """Fig. 5: nodes ``(big, small, small, small)``, every node of speed 10."""
    return MultiCluster((big, small, small, small), (10, 10, 10, 10))


def fractions(strategy: str, system: MultiCluster, lam: float, slack=FIG3_SLACK) -> np.ndarray:
    """Workload fractions of one strategy: ``"ORT"`` (Eqs. 10-12), ``"OMR"`` (Eqs. 16-18,
    default reading) or ``"W"`` (weighted, Eq. 3)."""
    if strategy == "ORT":
        return ort_allocation(system.nodes, system.rates, lam)
    if strategy == "OMR":
        return omr_allocation(system.nodes, system.rates, lam, slack)
    if strategy == "W":
        return weighted_allocation(system.nodes, system.rates)
    raise InvalidParameter(f"unknown strategy {strategy!r}; choose one of {STRATEGIES}")


def improvement(better: float, worse: float) -> float:
    """Percent by which ``better`` improves on ``worse``, the default reading
    ``100 (worse - better) / worse``."""
    return 100.0 * (worse - better) / worse


def improvement_of_better(better: float, worse: float) -> float:
    """The other reading of "outperforms by": ``100 (worse - better) / better``."""
    return 100.0 * (worse - better) / better


def analytic_r(system, lam, alpha) -> float:
    try:
        return mean_response_time_of(system.nodes, system.rates, lam, alpha)
    except ValueError:  # the kept fractions saturate a cluster (Fig. 8)
        return np.inf


def analytic_mr(system, lam, alpha, slack) -> float:
    try:
        return mean_miss_rate_of(system.nodes, system.rates, lam, alpha, slack)
    except ValueError:
        return 1.0


def allocation_summary(system: MultiCluster, workload: float, slack=FIG3_SLACK) -> pd.DataFrame:
    """Fractions of W, ORT and OMR with their exact mean response time and miss rate
    (random splitting, Eqs. 10 and 17): the table behind the notebook's explorer."""
    lam = system.arrival_rate(workload)
    rows = {}
    for strategy in STRATEGIES:
        alpha = fractions(strategy, system, lam, slack)
        rows[strategy] = {
            **{f"cluster {i + 1}": a for i, a in enumerate(alpha)},
            "mean response (s)": analytic_r(system, lam, alpha),
            "miss rate": analytic_mr(system, lam, alpha, slack),
        }
    return pd.DataFrame(rows).T


def deterioration(
    system: MultiCluster,
    initial: float,
    workload: float,
    objective: str = "ORT",
    slack=FIG3_SLACK,
    relative_to: str = "accurate",
) -> float:
    """Percent by which keeping the fractions of ``initial`` is worse at ``workload``
    than recomputing them (exact M/M/m values, Eqs. 10 and 17). ``relative_to``
    ``"accurate"`` (default; Section 5.7: "as compared with the performance demonstrated
    by the accurate allocation") or ``"approximate"`` (the other reading). ``inf`` when
    the kept fractions saturate a cluster."""
    if relative_to not in ("accurate", "approximate"):
        raise InvalidParameter(
            f"relative_to must be 'accurate' or 'approximate', got {relative_to!r}"
        )
    lam0, lam = system.arrival_rate(initial), system.arrival_rate(workload)
    kept = fractions(objective, system, lam0, slack)
    fresh = fractions(objective, system, lam, slack)
    if objective == "ORT":
        cost = analytic_r(system, lam, kept)
        best = analytic_r(system, lam, fresh)
    else:
        cost = analytic_mr(system, lam, kept, slack)
        best = analytic_mr(system, lam, fresh, slack)
    if relative_to == "approximate":
        return 100.0 * (1.0 - best / cost) if np.isfinite(cost) else 100.0
    return 100.0 * (cost / best - 1.0)


def change_threshold(
    system: MultiCluster,
    initial: float,
    level: float,
    direction: int = 1,
    objective: str = "ORT",
    slack=FIG3_SLACK,
    relative_to: str = "accurate",
) -> float:
    """Smallest relative workload change (percent, signed by ``direction``) at which
    approximate allocation is ``level`` percent worse (Fig. 8b); NaN when no change up to
    saturation (or down to 1 % of ``initial``) costs that much."""

    def excess(change_pct: float) -> float:
        w = initial * (1 + direction * change_pct / 100)
        return deterioration(system, initial, w, objective, slack, relative_to) - level

    hi = 100.0 * ((0.999 / initial - 1) if direction > 0 else 0.99)
    grid = np.linspace(0, hi, 400)[1:]
    for a, b in zip(grid[:-1], grid[1:], strict=True):
        if excess(b) >= 0:
            if excess(a) >= 0:
                return float(a)
            return float(brentq(lambda c: min(excess(c), 1e6), a, b, xtol=1e-6))
    return float("nan")


def _thresholds(objective: str, initials: Sequence[float], level: float) -> pd.DataFrame:
    rows = []
    for w in initials:
        row = {"initial": w}
        for relative_to, suffix in (("accurate", ""), ("approximate", "_of_approximate")):
            for direction, name in ((+1, "increase"), (-1, "decrease")):
                row[f"{name}_pct{suffix}"] = change_threshold(
                    TABLE2, w, level, direction, objective, FIG3_SLACK, relative_to
                )
        rows.append(row)
    return pd.DataFrame(rows)


def fig8b(initials: Sequence[float] = WORKLOADS, level: float = 3.0) -> pd.DataFrame:
    """Fig. 8b: workload increase (and decrease) that costs ``level`` % in response time.
    ``increase_pct``/``decrease_pct`` under the default reading of the deterioration
    (relative to the accurate allocation), ``*_of_approximate`` under the other."""
    return _thresholds("ORT", initials, level)


def omr_thresholds(initials: Sequence[float] = WORKLOADS, level: float = 1.0) -> pd.DataFrame:
    """Section 5.7's OMR remark: workload change costing ``level`` % in miss rate (columns
    as :func:`fig8b`)."""
    return _thresholds("OMR", initials, level)
