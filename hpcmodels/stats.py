"""Confidence intervals shared by every model and paper module.

* :func:`t_interval`: mean and Student-t half-width over independent replications;
* :func:`batch_means_ci`: half-width for the mean of one long correlated series (a
  simulation's turnaround times in submit order) by the method of batch means.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from .errors import InvalidParameter

__all__ = ["t_interval", "batch_means_ci"]


def _series(values, name: str) -> np.ndarray:
    try:
        x = np.asarray(values, float)
    except (TypeError, ValueError):
        raise InvalidParameter(f"{name} must be numbers, got {values!r:.80}") from None
    if x.ndim != 1 or not np.all(np.isfinite(x)):
        raise InvalidParameter(f"{name} must be a 1-D series of finite numbers")
    return x


def t_interval(values, confidence: float = 0.95) -> tuple[float, float]:
    """Mean and Student-t confidence half-width of independent replications (NaN
    half-width for a single value)."""
    if not 0 < confidence < 1:
        raise InvalidParameter(f"confidence must lie in (0, 1), got {confidence!r}")
    x = _series(values, "values")
    if x.size == 0:
        raise InvalidParameter("values must not be empty")
    if x.size < 2:
        return float(x.mean()), float("nan")
    half = stats.t.ppf(0.5 + confidence / 2, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size)
    return float(x.mean()), float(half)


def batch_means_ci(values, batches: int = 20) -> float:
    """Half-width of the 95 % confidence interval of the mean of a correlated series
    (turnaround times in submit order) by the method of batch means: the series cut into
    ``batches`` consecutive batches, Student's t on their means (NaN when shorter than
    two values per batch)."""
    x = _series(values, "values")
    if x.size < 2 * batches:
        return float("nan")
    means = np.array([b.mean() for b in np.array_split(x, batches)])
    return t_interval(means)[1]
