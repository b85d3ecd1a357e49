"""Slow, literal implementations of the papers' formulas, used as test oracles."""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize


def erlang_c_eq8(m: int, a: float) -> float:
    """He 2006 Eq. 8 literally (factorials and powers, in log space to stay finite)."""
    if a == 0:
        return 0.0
    rho = a / m
    log_terms = [k * math.log(a) - math.lgamma(k + 1) for k in range(m)]
    log_last = m * math.log(a) - math.lgamma(m + 1) - math.log(1 - rho)
    top = max(*log_terms, log_last)
    s = sum(math.exp(t - top) for t in log_terms)
    last = math.exp(log_last - top)
    return last / (s + last)


def response_time_eq9(m: int, u: float, x: float) -> float:
    """R_i of Eq. 9 via Eqs. 4-8 (x = alpha_i lambda)."""
    if x == 0:
        return 1 / u
    return erlang_c_eq8(m, x / u) / (m * u - x) + 1 / u


def miss_rate_eq16(m: int, u: float, x: float, lo: float, hi: float) -> float:
    """MR_i of Eq. 16 (uniform slack), or Eq. 19 with one spike when lo == hi."""
    if x == 0:
        return 0.0
    d = m * u - x
    c = erlang_c_eq8(m, x / u)
    if hi == lo:
        return c * math.exp(-d * lo)
    return c * (math.exp(-d * lo) - math.exp(-d * hi)) / (d * (hi - lo))


def minimise_independently(cost, m, u, lam) -> np.ndarray:
    """Constrained minimum of sum_i alpha_i cost_i(alpha_i lambda) by SLSQP, from
    several starting points; the best one is returned."""
    m = np.asarray(m)
    u = np.asarray(u, float)
    n = m.size
    upper = np.minimum(1.0, (1 - 1e-9) * m * u / lam)

    def objective(alpha):
        return sum(alpha[i] * cost(m[i], u[i], alpha[i] * lam) for i in range(n))

    starts = [m * u / np.sum(m * u), np.full(n, 1 / n)]
    best = None
    for x0 in starts:
        x0 = np.minimum(x0, upper)
        x0 = x0 / x0.sum()
        res = minimize(
            objective,
            x0,
            method="SLSQP",
            bounds=list(zip(np.zeros(n), upper, strict=True)),
            constraints=[{"type": "eq", "fun": lambda a: a.sum() - 1}],
            options={"ftol": 1e-15, "maxiter": 2000},
        )
        if best is None or res.fun < best.fun:
            best = res
    return best.x
