"""The M/M/m queue of one cluster (He et al. 2006, Section 3 and Eqs. 4-9, 14).

A cluster of ``m`` identical nodes, each serving at rate ``u`` jobs per second, fed by a
Poisson stream of ``x`` jobs per second, is an M/M/m queue with offered load ``a = x/u``
and utilisation ``rho = a/m``. Everything here follows from the Erlang C probability
``C(m, a)`` that an arriving job must wait (He's ``P_mi``, Eq. 8).

Erlang C is computed from the Erlang B recursion ``B_k = a B_{k-1} / (k + a B_{k-1})``
(``B_0 = 1``), then ``C = B / (1 - rho (1 - B))``. The recursion involves no factorials or
powers, so it is stable for hundreds or thousands of servers, unlike Eq. 8 as printed.

The scalar kernels (``_erlang_b`` ...) are numba-compiled and used by the allocation
solvers and the dispatch simulator; the public functions validate their input and raise
:class:`~hpcmodels.errors.InvalidParameter` (a ``ValueError``) for anything that is not
a stable queue. ``servers`` is a whole number from 1 to ``MAX_SERVERS`` (an integral
float such as ``4.0`` is read as 4): the recursion costs one step per server.
"""

from __future__ import annotations

import numba
import numpy as np

from ..errors import InvalidParameter, check_array, check_int, check_real

__all__ = [
    "MAX_SERVERS",
    "erlang_b",
    "erlang_c",
    "mean_waiting_time",
    "mean_response_time",
    "waiting_time_cdf",
]

MAX_SERVERS = 10**9
"""Most servers the public functions accept: the Erlang B recursion takes one step per
server (10**9 steps take several seconds), and more would not fit numba's int64."""


@numba.njit(cache=True)
def _erlang_b(m: int, a: float) -> float:
    """Erlang B blocking probability by the stable recursion."""
    b = 1.0
    for k in range(1, m + 1):
        b = a * b / (k + a * b)
    return b


@numba.njit(cache=True)
def _erlang_c(m: int, a: float) -> float:
    """Erlang C, P(wait) in M/M/m with offered load a < m (He 2006, Eq. 8)."""
    if a <= 0.0:
        return 0.0
    b = _erlang_b(m, a)
    rho = a / m
    return b / (1.0 - rho * (1.0 - b))


@numba.njit(cache=True)
def erlang_c_and_slope(m: int, a: float) -> tuple[float, float]:
    """Erlang C and its derivative dC/da.

    With ``B`` the Erlang B value, ``dB/da = B (m/a - 1 + B)`` and
    ``C = B / D`` with ``D = 1 - rho + rho B``; the quotient rule gives ``dC/da``.
    At ``a = 0`` the limit is used (``dC/da = 1`` for one server, 0 otherwise).
    """
    if a <= 0.0:
        return 0.0, 1.0 if m == 1 else 0.0
    b = _erlang_b(m, a)
    rho = a / m
    db = b * (m / a - 1.0 + b)
    d = 1.0 - rho + rho * b
    dd = (b - 1.0) / m + rho * db
    return b / d, (db * d - b * dd) / (d * d)


def _check_load(servers: int, offered_load: float) -> tuple[int, float]:
    """Validated ``(servers, offered_load)`` as ``(int, float)``; any load >= 0."""
    m = check_int("servers", servers, minimum=1, maximum=MAX_SERVERS)
    return m, check_real("offered_load", offered_load, at_least=0)


def _check_queue(servers: int, offered_load: float) -> tuple[int, float]:
    """Validated ``(servers, offered_load)`` of a stable queue (load < servers)."""
    m, a = _check_load(servers, offered_load)
    if a >= m:
        raise InvalidParameter(
            f"unstable queue: offered load a = {a:g} >= servers m = {m} "
            f"(utilisation rho = a/m = {a / m:g} >= 1)"
        )
    return m, a


def erlang_b(servers: int, offered_load: float) -> float:
    """Erlang B blocking probability of an M/M/m/m loss system (any load >= 0)."""
    return float(_erlang_b(*_check_load(servers, offered_load)))


def erlang_c(servers: int, offered_load: float) -> float:
    """Probability that a job waits in an M/M/m queue (He 2006, Eq. 8: ``P_mi``).

    ``offered_load`` is ``a = lambda / u`` (arrival rate over the rate of one server);
    the queue must be stable, ``a < servers``, else ``InvalidParameter``.
    """
    return float(_erlang_c(*_check_queue(servers, offered_load)))


def _stable_queue(servers: int, rate: float, arrival_rate: float) -> tuple[int, float, float]:
    """Validated ``(m, u, lambda)`` of a stable M/M/m queue."""
    u = check_real("service rate", rate, above=0)
    lam = check_real("arrival_rate", arrival_rate, at_least=0)
    m, _ = _check_queue(servers, lam / u)
    return m, u, lam


def mean_waiting_time(servers: int, rate: float, arrival_rate: float) -> float:
    """Mean waiting time ``W = C / (m u - lambda)`` (He 2006, Eqs. 5-8)."""
    m, u, lam = _stable_queue(servers, rate, arrival_rate)
    return float(_erlang_c(m, lam / u)) / (m * u - lam)


def mean_response_time(servers: int, rate: float, arrival_rate: float) -> float:
    """Mean response time ``R = W + 1/u`` (He 2006, Eqs. 4 and 9)."""
    return mean_waiting_time(servers, rate, arrival_rate) + 1.0 / rate


def waiting_time_cdf(servers: int, rate: float, arrival_rate: float, x) -> np.ndarray | float:
    """``P(W <= x) = 1 - C exp(-(m u - lambda) x)`` for ``x >= 0`` (He 2006, Eq. 14).
    ``x`` is a number or a sequence (list, tuple, array, generator) of numbers >= 0 (inf
    gives 1; NaN, bools and strings are refused)."""
    m, u, lam = _stable_queue(servers, rate, arrival_rate)
    c = float(_erlang_c(m, lam / u))
    x_arr = check_array("waiting-time thresholds x", x, finite=False)
    if np.any(np.isnan(x_arr)) or np.any(x_arr < 0):
        raise InvalidParameter(f"waiting-time thresholds x must be >= 0 (not NaN), got {x!r:.80}")
    out = 1.0 - c * np.exp(-(m * u - lam) * x_arr)
    return float(out) if out.ndim == 0 else out
