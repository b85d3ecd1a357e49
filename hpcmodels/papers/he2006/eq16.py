"""He et al. 2006: Eq. 16 as printed (Section 4): the printed miss rate and its exact OMR
optimum, the alternative reading of the OMR fractions."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from scipy.optimize import brentq

from ...errors import InvalidParameter
from ...queueing import (
    UniformSlack,
)
from ...queueing.system import MultiCluster


def printed_wait_probability(m: int, a, shift: int = 1):
    """``P_mi`` as it stands in Eq. 16, ``a^m / ((1 - rho) [m! sum_{k<m} a^k/k! +
    a^(m - shift) / (1 - rho)])`` with ``a = alpha_i lambda / u_i`` and ``rho = a / m``:
    ``shift = 0`` is Eq. 8 (Erlang C); ``shift = 1`` reads the printed exponent ``k``,
    which stands outside the sum, as the sum's last index ``m - 1``.

    Computed from the Erlang B recursion (no factorials): with ``B`` Erlang B,
    ``P = B / ((1 - rho)(1 - B) + B a^-shift)``. ``a`` may be complex (the marginal is
    taken by complex step); ``a = 0`` gives 0.
    """
    if a == 0:
        return 0.0 * a
    b = 1.0 + 0.0 * a
    for k in range(1, m + 1):
        b = a * b / (k + a * b)
    return b / ((1.0 - a / m) * (1.0 - b) + b * a ** (-shift))


def printed_miss_rate(m: int, u: float, x, slack: UniformSlack, shift: int = 1):
    """``MR_i`` of Eq. 16 at arrival rate ``x = alpha_i lambda``: the printed
    ``P_mi`` (:func:`printed_wait_probability`) times
    ``[e^-(m u - x) s_l - e^-(m u - x) s_u] / ((m u - x)(s_u - s_l))``."""
    if not isinstance(slack, UniformSlack) or slack.hi <= slack.lo:
        raise InvalidParameter(f"Eq. 16 needs uniform slack with s_u > s_l, got {slack!r}")
    delta = m * u - x
    z = delta * (slack.hi - slack.lo)  # the bracket is e^-(delta s_l) (1 - e^-z) / z
    phi = 1 - z / 2 + z * z / 6 - z**3 / 24 if abs(z) < 1e-4 else -np.expm1(-z) / z
    return printed_wait_probability(m, x / u, shift) * np.exp(-delta * slack.lo) * phi


def _kkt_fractions(marginals: Sequence[Callable[[float], float]], tops, lam: float) -> np.ndarray:
    """Fractions with a common marginal cost (Eq. 18b) summing to one (Eq. 18a): an outer
    root search on ``v``, an inner one on each cluster's rate ``x_i`` in ``[0, top_i]``.
    Assumes increasing marginals (Theorem 3; the tests check it for Eq. 16 as printed)."""

    def rate(i: int, v: float) -> float:
        g = marginals[i]
        if g(0.0) >= v:
            return 0.0
        if g(tops[i]) <= v:
            return float(tops[i])
        return brentq(lambda x: g(x) - v, 0.0, tops[i], xtol=1e-15, rtol=1e-14)

    def excess(v: float) -> float:
        return sum(rate(i, v) for i in range(len(marginals))) - lam

    v_lo = min(g(0.0) for g in marginals)
    v_hi = max(g(t) for g, t in zip(marginals, tops, strict=True))
    v = brentq(excess, v_lo, v_hi, xtol=1e-300, rtol=1e-14, maxiter=500)
    x = np.array([rate(i, v) for i in range(len(marginals))])
    return x / x.sum()


def omr_printed_allocation(
    system: MultiCluster, lam: float, slack: UniformSlack, shift: int = 1
) -> np.ndarray:
    """OMR fractions under Eq. 16 as printed (:func:`printed_miss_rate`): the exact
    minimum of ``MR = sum alpha_i MR_i`` (Eq. 17) through the Lagrange conditions of
    Eq. 18. ``shift = 0`` gives the default reading (the tests check it against
    :func:`hpcmodels.queueing.omr_allocation`)."""
    m = [int(k) for k in system.nodes]
    u = [float(r) for r in system.rates]
    h = 1e-30  # complex step: d/dx [x MR(x)] = Im f(x + ih) / h, exact to rounding

    def marginal(i: int) -> Callable[[float], float]:
        def g(x: float) -> float:
            z = complex(x, h)
            return float((z * printed_miss_rate(m[i], u[i], z, slack, shift)).imag / h)

        return g

    tops = [min(lam, (1 - 1e-9) * m[i] * u[i]) for i in range(len(m))]
    return _kkt_fractions([marginal(i) for i in range(len(m))], tops, lam)
