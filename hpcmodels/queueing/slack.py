"""Slack distributions of soft real-time jobs (He et al. 2006, Eqs. 1-2).

A job misses its real-time requirement when its waiting time exceeds its slack. In an
M/M/m queue ``P(W > s) = C exp(-delta s)`` with ``delta = m u - lambda`` (Eq. 14), so the
miss rate of a cluster is ``C * E[exp(-delta S)]``: the Erlang C probability times the
Laplace transform of the slack distribution at ``delta``. Eq. 16 (uniform slack) and
Eq. 19 (q-spike slack) are the two closed forms of that transform.

Each distribution is packed for the numba kernels as ``(kind, values, weights)``:
kind 0 is uniform on ``[values[0], values[1]]``, kind 1 is spikes ``values`` with
probabilities ``weights``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from ..bounds import check_draws
from ..errors import InvalidParameter, InvalidType, check_array, check_real

__all__ = ["UniformSlack", "SpikeSlack", "as_slack"]

UNIFORM = 0
SPIKES = 1


@dataclass(frozen=True)
class UniformSlack:
    """Slack uniform on ``[lo, hi]`` seconds (He 2006, Eq. 2; ``s_l``, ``s_u``)."""

    lo: float
    hi: float

    def __post_init__(self) -> None:
        lo = check_real("slack lower limit lo", self.lo, at_least=0)
        hi = check_real("slack upper limit hi", self.hi)
        if lo > hi:
            raise InvalidParameter(f"slack lower limit exceeds upper: lo={lo} > hi={hi}")
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)

    def packed(self) -> tuple[int, np.ndarray, np.ndarray]:
        return UNIFORM, np.array([self.lo, self.hi], float), np.ones(1)

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` slacks drawn from ``rng`` (a Generator; ``n`` a whole number in [0,
        10**8], :data:`hpcmodels.bounds.MAX_JOBS`)."""
        return rng.uniform(self.lo, self.hi, check_draws(rng, n))


@dataclass(frozen=True)
class SpikeSlack:
    """q-spike slack: value ``values[j]`` with probability ``weights[j]`` (He 2006, Eq. 1).

    ``values`` and ``weights`` are equally long non-empty sequences (list, tuple, array,
    generator) of numbers, not bools or strings: values finite and >= 0, weights >= 0
    summing to 1. Both are stored as tuples of floats."""

    values: tuple[float, ...]
    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        v = check_array("spike slack values", self.values, finite=False)
        w = check_array("spike slack weights", self.weights, finite=False)
        if v.ndim != 1 or v.size == 0 or v.shape != w.shape:
            raise InvalidParameter(
                "spike slack needs equally many values and weights (at least one)"
            )
        if np.any(v < 0) or not np.all(np.isfinite(v)):
            raise InvalidParameter(f"spike slack values must be finite and >= 0, got {self.values}")
        if not np.all(np.isfinite(w)) or np.any(w < 0) or abs(w.sum() - 1.0) > 1e-9:
            raise InvalidParameter(f"spike weights must be >= 0 and sum to 1, got {self.weights}")
        # stored as tuples of floats: the slack stays hashable (a list was not)
        object.__setattr__(self, "values", tuple(v.tolist()))
        object.__setattr__(self, "weights", tuple(w.tolist()))

    def packed(self) -> tuple[int, np.ndarray, np.ndarray]:
        return SPIKES, np.asarray(self.values, float), np.asarray(self.weights, float)

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` slacks drawn from ``rng`` (a Generator; ``n`` a whole number in [0,
        10**8], :data:`hpcmodels.bounds.MAX_JOBS`)."""
        n = check_draws(rng, n)
        return rng.choice(np.asarray(self.values, float), size=n, p=np.asarray(self.weights))


Slack = UniformSlack | SpikeSlack


def as_slack(slack: Slack | tuple[float, float]) -> Slack:
    """Accept a slack object or a ``(lo, hi)`` pair (tuple, list or array) meaning uniform
    slack. A string, dict, None or another object that is no pair is an
    :class:`~hpcmodels.errors.InvalidType` (also an ``InvalidParameter``) naming slack; a
    sequence of another length, or a pair :class:`UniformSlack` refuses, an
    :class:`~hpcmodels.errors.InvalidParameter`."""
    if isinstance(slack, UniformSlack | SpikeSlack):
        return slack
    what = f"slack must be (lo, hi), UniformSlack or SpikeSlack, got {slack!r:.80}"
    if isinstance(slack, str | bytes | dict):
        raise InvalidType(what)
    try:
        lo, hi = slack
    except TypeError:  # not iterable: no pair at all
        raise InvalidType(what) from None
    except ValueError:  # a sequence of another length
        raise InvalidParameter(what) from None
    return UniformSlack(lo, hi)


@numba.njit(cache=True)
def _one_minus_exp_over(z: float) -> tuple[float, float]:
    """``phi(z) = (1 - e^-z)/z`` and ``phi'(z)``, with series near ``z = 0``."""
    if z < 1e-5:
        return 1.0 - z / 2.0 + z * z / 6.0, -0.5 + z / 3.0
    e = np.exp(-z)
    phi = -np.expm1(-z) / z
    return phi, (z * e - (1.0 - e)) / (z * z)


@numba.njit(cache=True)
def laplace(kind: int, values: np.ndarray, weights: np.ndarray, delta: float):
    """``E[exp(-delta S)]`` and its derivative in ``delta``."""
    if kind == UNIFORM:
        lo = values[0]
        w = values[1] - lo
        head = np.exp(-delta * lo)
        phi, dphi = _one_minus_exp_over(delta * w)
        value = head * phi
        return value, -lo * value + head * w * dphi
    value = 0.0
    slope = 0.0
    for j in range(values.size):
        t = weights[j] * np.exp(-delta * values[j])
        value += t
        slope -= values[j] * t
    return value, slope
