"""Confidence intervals shared by every model and paper module.

* :func:`t_interval`: mean and Student-t half-width over independent replications;
* :func:`batch_means_ci`: half-width for the mean of one long correlated series (a
  simulation's turnaround times in submit order) by the method of batch means.
"""

from __future__ import annotations

import numpy as np

from .errors import InvalidParameter, check_array, check_int, check_real

__all__ = ["t_interval", "batch_means_ci"]


def _series(values, name: str) -> np.ndarray:
    """``values`` as a 1-D float array of finite numbers: a list, tuple, NumPy array,
    pandas Series or generator of ints or floats (no bools or strings)."""
    x = check_array(name, values)
    if x.ndim != 1:
        raise InvalidParameter(
            f"{name} must be a 1-D series of finite numbers, got shape {x.shape}"
        )
    with np.errstate(over="ignore", invalid="ignore"):
        if x.size and not (np.isfinite(x.mean()) and np.isfinite(x.std())):
            raise InvalidParameter(f"{name} are too large: their mean or spread overflows")
    return x


def t_interval(values, confidence: float = 0.95) -> tuple[float, float]:
    """Mean and Student-t confidence half-width of independent replications (NaN
    half-width for a single value). ``values``: a 1-D series (list, tuple, array,
    Series, generator) of finite numbers, not bools; ``confidence`` a number in (0, 1)."""
    confidence = check_real("confidence", confidence)
    if not 0 < confidence < 1:
        raise InvalidParameter(f"confidence must lie in (0, 1), got {confidence!r}")
    x = _series(values, "values")
    if x.size == 0:
        raise InvalidParameter("values must not be empty")
    if x.size < 2:
        return float(x.mean()), float("nan")
    from scipy import stats  # scipy.stats on first use: importing the package stays light

    half = stats.t.ppf(0.5 + confidence / 2, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size)
    return float(x.mean()), float(half)


def batch_means_ci(values, batches: int = 20) -> float:
    """Half-width of the 95 % confidence interval of the mean of a correlated series
    (turnaround times in submit order) by the method of batch means: the series cut into
    ``batches`` consecutive batches, Student's t on their means (NaN when shorter than
    two values per batch). ``values`` as in :func:`t_interval`; ``batches`` a whole number
    >= 2 (``20.0`` is read as 20)."""
    batches = check_int("batches", batches, minimum=2)
    x = _series(values, "values")
    if x.size < 2 * batches:
        return float("nan")
    means = np.array([b.mean() for b in np.array_split(x, batches)])
    return t_interval(means)[1]
