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
``ValueError`` for anything that is not a stable queue.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "erlang_b",
    "erlang_c",
    "mean_waiting_time",
    "mean_response_time",
    "waiting_time_cdf",
]


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
def _erlang_c_and_slope(m: int, a: float) -> tuple[float, float]:
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


def _check_queue(servers: int, offered_load: float) -> None:
    if int(servers) != servers or servers < 1:
        raise ValueError(f"servers must be a positive integer, got {servers!r}")
    if not np.isfinite(offered_load) or offered_load < 0:
        raise ValueError(f"offered_load must be finite and >= 0, got {offered_load!r}")
    if offered_load >= servers:
        raise ValueError(
            f"unstable queue: offered load a = {offered_load:g} >= servers m = {servers} "
            f"(utilisation rho = a/m = {offered_load / servers:g} >= 1)"
        )


def erlang_b(servers: int, offered_load: float) -> float:
    """Erlang B blocking probability of an M/M/m/m loss system (any load >= 0)."""
    if int(servers) != servers or servers < 1:
        raise ValueError(f"servers must be a positive integer, got {servers!r}")
    if not np.isfinite(offered_load) or offered_load < 0:
        raise ValueError(f"offered_load must be finite and >= 0, got {offered_load!r}")
    return float(_erlang_b(int(servers), float(offered_load)))


def erlang_c(servers: int, offered_load: float) -> float:
    """Probability that a job waits in an M/M/m queue (He 2006, Eq. 8: ``P_mi``).

    ``offered_load`` is ``a = lambda / u`` (arrival rate over the rate of one server);
    the queue must be stable, ``a < servers``, else ``ValueError``.
    """
    _check_queue(servers, offered_load)
    return float(_erlang_c(int(servers), float(offered_load)))


def _stable_load(servers: int, rate: float, arrival_rate: float) -> float:
    if not np.isfinite(rate) or rate <= 0:
        raise ValueError(f"service rate must be > 0, got {rate!r}")
    if not np.isfinite(arrival_rate) or arrival_rate < 0:
        raise ValueError(f"arrival_rate must be finite and >= 0, got {arrival_rate!r}")
    a = arrival_rate / rate
    _check_queue(servers, a)
    return a


def mean_waiting_time(servers: int, rate: float, arrival_rate: float) -> float:
    """Mean waiting time ``W = C / (m u - lambda)`` (He 2006, Eqs. 5-8)."""
    a = _stable_load(servers, rate, arrival_rate)
    return float(_erlang_c(int(servers), a)) / (servers * rate - arrival_rate)


def mean_response_time(servers: int, rate: float, arrival_rate: float) -> float:
    """Mean response time ``R = W + 1/u`` (He 2006, Eqs. 4 and 9)."""
    return mean_waiting_time(servers, rate, arrival_rate) + 1.0 / rate


def waiting_time_cdf(servers: int, rate: float, arrival_rate: float, x) -> np.ndarray | float:
    """``P(W <= x) = 1 - C exp(-(m u - lambda) x)`` for ``x >= 0`` (He 2006, Eq. 14)."""
    a = _stable_load(servers, rate, arrival_rate)
    c = float(_erlang_c(int(servers), a))
    x_arr = np.asarray(x, dtype=float)
    if np.any(x_arr < 0):
        raise ValueError("waiting-time thresholds x must be >= 0")
    out = 1.0 - c * np.exp(-(servers * rate - arrival_rate) * x_arr)
    return float(out) if out.ndim == 0 else out
