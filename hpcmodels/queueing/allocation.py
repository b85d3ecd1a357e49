"""Workload allocation over clusters: weighted, ORT and OMR (He et al. 2006, Section 4).

A Poisson stream of ``lambda`` jobs/s is split so that cluster ``i`` (``m_i`` nodes of
rate ``u_i``) receives the fraction ``alpha_i``, i.e. ``x_i = alpha_i lambda`` jobs/s.

* Weighted allocation: ``alpha_i = m_i u_i / sum_j m_j u_j`` (Eq. 3).
* ORT minimises the mean response time ``R = sum_i alpha_i R_i`` (Eqs. 9-10).
* OMR minimises the mean miss rate ``MR = sum_i alpha_i MR_i`` (Eqs. 16-17, 19).

Both objectives are separable, ``sum_i f_i(x_i) / lambda`` with ``f_i(x) = x R_i(x)`` (the
mean number of jobs in cluster i, by Little's law) or ``f_i(x) = x MR_i(x)``. The
Lagrange conditions (Eqs. 12, 18) say every cluster that receives work has the same
marginal cost ``g_i(x_i) = f_i'(x_i) = v`` and every cluster left idle has
``g_i(0) >= v``. Theorems 1 and 3 state that ``g_i`` increases, so ``x_i(v)`` is a
monotone function and ``sum_i x_i(v) = lambda`` has one root in ``v``.

Solvers:

* ``method="exact"`` (default): nested bisection in numba, the outer one on ``v``
  and the inner ones on each ``x_i`` inside brackets that shrink with the outer
  bracket, run to floating-point resolution. Marginals are analytic (derivatives of
  Erlang C and of the slack transform), not finite differences.
* ``method="algorithm1"``: Algorithm 1 exactly as published, with its tolerances
  ``v_valve = 1e-3`` and ``alpha_valve = 1e-4`` (the paper's phi and gamma). Two
  readings were needed and are documented on :func:`algorithm1`.

Every cluster is kept strictly stable: ``x_i <= (1 - 1e-12) m_i u_i``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from ..bounds import MAX_ITERATIONS
from ..equality import ByValue
from ..errors import InvalidParameter, check_array, check_int, check_real, reworded
from .mmm import MAX_SERVERS, erlang_c_and_slope
from .slack import Slack, as_slack, laplace

__all__ = [
    "weighted_allocation",
    "ort_allocation",
    "omr_allocation",
    "algorithm1",
    "Algorithm1Result",
    "cluster_response_times",
    "cluster_miss_rates",
    "mean_response_time_of",
    "mean_miss_rate_of",
    "saturation_rate",
    "validate_system",
]

ORT = 0
OMR = 1
_STABILITY_MARGIN = 1e-12
_NO_SLACK = (0, np.zeros(2), np.ones(1))


# ---------------------------------------------------------------- validation


def validate_system(nodes, rates, arrival_rate: float | None = None):
    """Check cluster sizes, node rates and (optionally) the arrival rate.

    Returns ``(m, u)`` as an int64 and a float64 array. Raises ``ValueError`` naming the
    offending field and value, including for an unstable system
    (``arrival_rate >= sum m_i u_i``).

    ``nodes`` and ``rates`` are numbers or 1-D sequences of them (list, tuple, array,
    Series, generator); ``nodes`` whole numbers in [1, 10**9] (``4.0`` is read as 4),
    ``rates`` finite and > 0; ``arrival_rate`` a finite number > 0. Bools, strings,
    None, dicts, NaN and inf are an :class:`~hpcmodels.errors.InvalidParameter`.
    """
    m_raw = np.atleast_1d(check_array("nodes", nodes, finite=False))
    u = np.atleast_1d(check_array("rates", rates, finite=False))
    if m_raw.ndim != 1 or m_raw.size == 0:
        raise InvalidParameter("nodes must be a non-empty 1-D sequence of cluster sizes")
    if u.shape != m_raw.shape:
        raise InvalidParameter(f"nodes has {m_raw.size} clusters but rates has {u.size}")
    if not np.all(np.isfinite(m_raw)) or np.any(m_raw != np.round(m_raw)):
        raise InvalidParameter(f"nodes must be whole numbers, got {m_raw.tolist()}")
    if np.any(m_raw > MAX_SERVERS):
        i = int(np.argmax(m_raw))
        raise InvalidParameter(
            f"nodes must be <= {MAX_SERVERS}, cluster {i} has nodes={m_raw[i]:g}"
        )
    m = m_raw.astype(np.int64)
    if np.any(m < 1):
        i = int(np.argmin(m))
        raise InvalidParameter(f"nodes must be >= 1, cluster {i} has nodes={m[i]}")
    if not np.all(np.isfinite(u)) or np.any(u <= 0):
        i = int(np.argmin(np.where(np.isfinite(u), u, -np.inf)))
        raise InvalidParameter(f"rates must be finite and > 0, cluster {i} has rate={u[i]}")
    if arrival_rate is not None:
        lam = check_real("arrival_rate", arrival_rate, above=0)
        capacity = float(np.sum(m * u))
        if lam >= capacity:
            raise InvalidParameter(
                f"unstable system: arrival_rate {lam:g} >= saturation rate "
                f"sum(m_i u_i) = {capacity:g} (workload {lam / capacity:g} >= 1)"
            )
    return m, u


def _system(nodes, rates, arrival_rate):
    """``(m, u, lambda)`` of a stable system; ``arrival_rate`` is required (not None)."""
    lam = check_real("arrival_rate", arrival_rate, above=0)
    m, u = validate_system(nodes, rates, lam)
    return m, u, lam


def saturation_rate(nodes, rates) -> float:
    """``lambda_s = sum_i m_i u_i`` (He 2006, Section 5.1)."""
    m, u = validate_system(nodes, rates)
    return float(np.sum(m * u))


def _validate_fractions(fractions, m, u, lam) -> np.ndarray:
    a = check_array("fractions", fractions, finite=False)
    if a.shape != m.shape:
        raise InvalidParameter(f"fractions has {a.size} entries for {m.size} clusters")
    if not np.all(np.isfinite(a)) or np.any(a < 0):
        raise InvalidParameter(f"fractions must be finite and >= 0, got {a.tolist()}")
    if abs(a.sum() - 1.0) > 1e-6:
        raise InvalidParameter(f"fractions must sum to 1, they sum to {a.sum():.9g}")
    over = a * lam >= m * u
    if np.any(over):
        i = int(np.argmax(over))
        raise InvalidParameter(
            f"fraction {a[i]:g} saturates cluster {i}: {a[i] * lam:g} jobs/s >= "
            f"capacity m u = {m[i] * u[i]:g}"
        )
    return a


# ---------------------------------------------------------------- kernels


@numba.njit(cache=True)
def _cost_and_marginal(objective, m, u, x, sk, sv, sw):
    """Per-cluster mean cost (``R_i`` or ``MR_i``) at arrival rate ``x`` and the
    marginal ``g(x) = d/dx [x cost(x)]`` (He 2006, Eqs. 12b and 18b)."""
    a = x / u
    c, dc_da = erlang_c_and_slope(m, a)
    dc = dc_da / u
    delta = m * u - x
    if objective == ORT:
        # R = C/delta + 1/u (Eq. 9); d/dx (C/delta) = dc/delta + C/delta^2.
        wait = c / delta
        dwait = dc / delta + c / (delta * delta)
        cost = wait + 1.0 / u
        return cost, cost + x * dwait
    # MR = C * E[exp(-delta S)] (Eqs. 16, 19); d delta/dx = -1.
    lap, dlap = laplace(sk, sv, sw, delta)
    cost = c * lap
    return cost, cost + x * (dc * lap - c * dlap)


@numba.njit(cache=True)
def _marginal(objective, m, u, x, sk, sv, sw):
    return _cost_and_marginal(objective, m, u, x, sk, sv, sw)[1]


@numba.njit(cache=True)
def _next_guess(lo, hi, flo, fhi, step, width_ref):
    """Illinois regula falsi inside ``[lo, hi]``; every third step bisects instead when
    the bracket has not halved since the last check, so it always converges."""
    if step % 3 == 2 and hi - lo > 0.5 * width_ref:
        return 0.5 * (lo + hi)
    x = lo - flo * (hi - lo) / (fhi - flo)
    if not (lo < x < hi):
        x = 0.5 * (lo + hi)
    return x


@numba.njit(cache=True)
def _shrink(x, fx, below, lo, hi, flo, fhi, side):
    """Replace one end of the bracket by ``x`` (the lower end when ``below``); halve the
    stale end's value (Illinois)."""
    if below:
        if side == -1:
            fhi *= 0.5
        return x, hi, fx, fhi, -1
    if side == 1:
        flo *= 0.5
    return lo, x, flo, fx, 1


@numba.njit(cache=True)
def _x_of_v(objective, m, u, v, lo, hi, upper, sk, sv, sw):
    """Rate ``x`` in ``[lo, hi]`` with ``g(x) = v``; ``g`` increases (Theorems 1, 3).

    In floating point ``g`` can be flat (a many-node cluster at light load has marginal
    ``1/u`` to the last bit), so ``g(x) = v`` may hold on an interval: ``upper`` returns
    its right end, ``sup{x: g(x) <= v}``, otherwise its left end ``inf{x: g(x) >= v}``.
    """
    flo = _marginal(objective, m, u, lo, sk, sv, sw) - v
    if flo > 0.0 or (flo == 0.0 and not upper):
        return lo
    fhi = _marginal(objective, m, u, hi, sk, sv, sw) - v
    if fhi < 0.0 or (fhi == 0.0 and upper):
        return hi
    side = 0
    width_ref = hi - lo
    for step in range(200):
        x = _next_guess(lo, hi, flo, fhi, step, width_ref)
        if step % 3 == 2:
            width_ref = hi - lo
        fx = _marginal(objective, m, u, x, sk, sv, sw) - v
        below = fx < 0.0 or (fx == 0.0 and upper)
        lo, hi, flo, fhi, side = _shrink(x, fx, below, lo, hi, flo, fhi, side)
        if hi - lo <= 4e-16 * hi:
            break
    return lo - flo * (hi - lo) / (fhi - flo)


@numba.njit(cache=True)
def _rates_at(objective, m, u, v, xl, xh, upper, sk, sv, sw):
    x = np.empty(m.size)
    for i in range(m.size):
        x[i] = _x_of_v(objective, m[i], u[i], v, xl[i], xh[i], upper, sk, sv, sw)
    return x


@numba.njit(cache=True)
def _solve_rates(objective, m, u, lam, sk, sv, sw):
    """Exact KKT solution ``x`` (jobs/s per cluster) with ``sum x = lam``.

    The common marginal ``v*`` lies between the smallest and the largest marginal at
    the weighted allocation (were it outside, every ``x_i`` would be below, or above,
    its weighted share, and the shares sum to ``lam``). The outer root finder on ``v``
    keeps, per cluster, the rates at both ends of its bracket as the inner brackets.
    """
    n = m.size
    cap = m * u
    xw = lam * cap / cap.sum()
    gw = np.empty(n)
    xmax = np.empty(n)
    for i in range(n):
        gw[i] = _marginal(objective, m[i], u[i], xw[i], sk, sv, sw)
        xmax[i] = min(lam, cap[i] * (1.0 - _STABILITY_MARGIN))
    vlo = gw.min()
    vhi = gw.max()
    if vhi - vlo <= 1e-15 * abs(vhi):
        return xw
    # Left ends at vlo and right ends at vhi: sum(xl) <= lam <= sum(xh).
    xl = _rates_at(objective, m, u, vlo, np.zeros(n), xmax, False, sk, sv, sw)
    xh = _rates_at(objective, m, u, vhi, xl, xmax, True, sk, sv, sw)
    flo = xl.sum() - lam
    fhi = xh.sum() - lam
    side = 0
    width_ref = vhi - vlo
    x = xl
    for step in range(200):
        if flo >= 0.0:
            x = xl
            break
        if fhi <= 0.0:
            x = xh
            break
        v = _next_guess(vlo, vhi, flo, fhi, step, width_ref)
        if step % 3 == 2:
            width_ref = vhi - vlo
        x = _rates_at(objective, m, u, v, xl, xh, True, sk, sv, sw)
        fx = x.sum() - lam
        if abs(fx) <= 1e-14 * lam:
            break
        if fx < 0.0:
            xl = x
        else:
            xh = x
        vlo, vhi, flo, fhi, side = _shrink(v, fx, fx < 0.0, vlo, vhi, flo, fhi, side)
        if vhi - vlo <= 4e-16 * abs(vhi):
            # The bracket on v has collapsed, yet the rates still jump across it: a
            # cluster whose marginal is almost flat (many nodes, light load) enters
            # here. Both ends share the marginal v to the last bit; blend them.
            t = (lam - xl.sum()) / (xh.sum() - xl.sum())
            x = xl + t * (xh - xl)
            break
    return x * (lam / x.sum())


# ---------------------------------------------------------------- allocations


def weighted_allocation(nodes, rates) -> np.ndarray:
    """Fractions proportional to capacity, ``alpha_i = m_i u_i / sum m_j u_j`` (Eq. 3)."""
    m, u = validate_system(nodes, rates)
    cap = m * u
    return cap / cap.sum()


def ort_allocation(nodes, rates, arrival_rate, *, method: str = "exact") -> np.ndarray:
    """ORT: fractions minimising the mean response time (He 2006, Eqs. 10-12).

    ``nodes`` are the cluster sizes ``m_i``, ``rates`` the per-node service rates
    ``u_i`` (jobs/s), ``arrival_rate`` the total ``lambda``. ``method`` is ``"exact"``
    or ``"algorithm1"`` (the published bisection with its tolerances).
    """
    m, u, lam = _system(nodes, rates, arrival_rate)
    return _allocate(ORT, m, u, lam, _NO_SLACK, method)


def omr_allocation(
    nodes,
    rates,
    arrival_rate,
    slack: Slack | tuple[float, float] = (0.0, 30.0),
    *,
    method: str = "exact",
) -> np.ndarray:
    """OMR: fractions minimising the mean miss rate (He 2006, Eqs. 16-19).

    ``slack`` is a ``(lo, hi)`` pair for uniform slack (Eq. 2), a ``UniformSlack`` or a
    ``SpikeSlack`` (q-spike, Eq. 1).

    Unlike the response time, the miss rate stays finite (it tends to 1) as a cluster
    approaches saturation, so at high load the optimum can sit on the stability limit
    ``alpha_i lambda < m_i u_i`` of the paper's constraint set; we then return the
    fraction at ``(1 - 1e-12) m_i u_i``, a cluster that is stable only on paper.
    """
    m, u, lam = _system(nodes, rates, arrival_rate)
    packed = as_slack(slack).packed()
    return _allocate(OMR, m, u, lam, packed, method)


def _allocate(objective, m, u, lam, packed, method) -> np.ndarray:
    if method == "exact":
        x = _solve_rates(objective, m, u, lam, *packed)
        return x / lam
    if method == "algorithm1":
        return algorithm1(objective, m, u, lam, packed).fractions
    raise InvalidParameter(f"unknown method {method!r}; use 'exact' or 'algorithm1'")


def _packed(packed):
    """A slack's packed form from a packed triple, a slack object or a ``(lo, hi)`` pair."""
    if (
        isinstance(packed, tuple)
        and len(packed) == 3
        and packed[0] in (0, 1)
        and isinstance(packed[1], np.ndarray)
    ):
        return packed
    try:
        return as_slack(packed).packed()
    except InvalidParameter as err:  # InvalidType for no pair at all, as as_slack says
        raise reworded(
            err,
            "packed must be a slack's packed form (kind, values, weights), a UniformSlack or "
            f"SpikeSlack, or a (lo, hi) pair, got {packed!r:.80} ({err})",
        ) from None


@dataclass(frozen=True, eq=False)
class Algorithm1Result(ByValue):
    """Outcome of the published Algorithm 1."""

    fractions: np.ndarray
    outer_iterations: int
    converged: bool
    fraction_sum: float


def algorithm1(
    objective: int,
    m,
    u,
    lam: float,
    packed=_NO_SLACK,
    *,
    v_valve: float = 1e-3,
    alpha_valve: float = 1e-4,
    xi: float = 1e-3,
    max_outer: int = 10_000,
) -> Algorithm1Result:
    """Algorithm 1 of He 2006 (Section 4.1), line by line.

    Bisection on the common marginal ``v`` between ``v_lower = min_i g_i(0)`` and
    ``v_upper = max_i g_i(1 - xi)``; for each ``v_mid`` an inner bisection on ``alpha_i``
    stops when ``|g_i(alpha_mid) - v_mid| <= v_valve``; the outer loop stops when
    ``|sum alpha - 1| <= alpha_valve``. The fractions are returned as found (their sum
    is within ``alpha_valve`` of 1), not renormalised.

    Readings (the published text is ambiguous here):

    * line 6 compares ``v_mid`` with ``m_i u_i / lambda``, a bound on ``alpha_i``, not
      on ``v``. We read it as "``v_mid`` exceeds the marginal at the largest admissible
      fraction ``min(1, (1 - 1e-12) m_i u_i / lambda)``", and the inner search space is
      ``[0, that fraction]`` instead of ``[0, 1]``; ``v_upper`` is evaluated at
      ``min(1 - xi, that fraction)``.
    * both bisections also stop when their interval can no longer be halved in
      floating point; the printed loops would never end when a tolerance is out of
      reach. The outer one then returns ``converged=False`` with the last fractions.

    Input: ``objective`` 0 (ORT) or 1 (OMR); ``m``, ``u`` and ``lam`` as ``nodes``,
    ``rates`` and ``arrival_rate`` of :func:`validate_system` (a stable system);
    ``packed`` a slack's packed form ``(kind, values, weights)``, a ``UniformSlack`` or
    ``SpikeSlack``, or a ``(lo, hi)`` pair; ``v_valve`` and ``alpha_valve`` finite
    numbers > 0, ``xi`` in (0, 1), ``max_outer`` a whole number in [1, 10**6]
    (:data:`hpcmodels.bounds.MAX_ITERATIONS`; the outer bisection stops within about
    1,100 halvings anyway).
    """
    if isinstance(objective, bool) or objective not in (ORT, OMR):
        raise InvalidParameter(f"objective must be 0 (ORT) or 1 (OMR), got {objective!r}")
    try:
        m, u, lam = _system(m, u, lam)
    except InvalidParameter as err:
        raise reworded(err, f"algorithm1 needs a stable system (m, u, lam): {err}") from None
    packed = _packed(packed)
    v_valve = check_real("v_valve", v_valve, above=0)
    alpha_valve = check_real("alpha_valve", alpha_valve, above=0)
    xi = check_real("xi", xi, above=0)
    if xi >= 1:
        raise InvalidParameter(f"xi must lie in (0, 1), got {xi!r}")
    max_outer = check_int("max_outer", max_outer, minimum=1, maximum=MAX_ITERATIONS)
    amax = np.minimum(1.0, (1.0 - _STABILITY_MARGIN) * m * u / lam)

    def g(i: int, alpha: float) -> float:
        return float(_marginal(objective, m[i], u[i], alpha * lam, *packed))

    n = m.size
    v_lower = min(g(i, 0.0) for i in range(n))
    v_upper = max(g(i, min(1.0 - xi, amax[i])) for i in range(n))
    alpha = np.zeros(n)
    outer = 0
    while v_lower <= v_upper and outer < max_outer:
        outer += 1
        v_mid = 0.5 * (v_lower + v_upper)
        if v_mid in (v_lower, v_upper):
            break  # the bracket on v has collapsed in floating point: not converged
        restart = False
        for i in range(n):
            if v_mid < g(i, 0.0):
                alpha[i] = 0.0
            elif v_mid > g(i, amax[i]):
                v_upper = v_mid
                restart = True
                break
            else:
                a_lo, a_hi = 0.0, float(amax[i])
                while a_lo <= a_hi:
                    a_mid = 0.5 * (a_lo + a_hi)
                    v_cur = g(i, a_mid)
                    if abs(v_cur - v_mid) <= v_valve or a_mid in (a_lo, a_hi):
                        alpha[i] = a_mid
                        break
                    if v_cur < v_mid:
                        a_lo = a_mid
                    else:
                        a_hi = a_mid
        if restart:
            continue
        total = float(alpha.sum())
        if abs(total - 1.0) <= alpha_valve:
            return Algorithm1Result(alpha.copy(), outer, True, total)
        if total < 1.0:
            v_lower = v_mid
        else:
            v_upper = v_mid
    return Algorithm1Result(alpha.copy(), outer, False, float(alpha.sum()))


# ---------------------------------------------------------------- evaluation


def _cluster_costs(objective, m, u, rates_x, packed) -> np.ndarray:
    return np.array(
        [_cost_and_marginal(objective, m[i], u[i], rates_x[i], *packed)[0] for i in range(m.size)]
    )


def cluster_response_times(nodes, rates, arrival_rate, fractions) -> np.ndarray:
    """``R_i`` of every cluster under the given fractions (Eq. 9)."""
    m, u, lam = _system(nodes, rates, arrival_rate)
    a = _validate_fractions(fractions, m, u, lam)
    return _cluster_costs(ORT, m, u, a * lam, _NO_SLACK)


def cluster_miss_rates(nodes, rates, arrival_rate, fractions, slack=(0.0, 30.0)) -> np.ndarray:
    """``MR_i`` of every cluster under the given fractions (Eqs. 16, 19)."""
    m, u, lam = _system(nodes, rates, arrival_rate)
    a = _validate_fractions(fractions, m, u, lam)
    return _cluster_costs(OMR, m, u, a * lam, as_slack(slack).packed())


def mean_response_time_of(nodes, rates, arrival_rate, fractions) -> float:
    """Mean response time of the whole stream, ``R = sum alpha_i R_i`` (Eq. 10)."""
    fractions = check_array("fractions", fractions, finite=False)  # a generator is read once
    r = cluster_response_times(nodes, rates, arrival_rate, fractions)
    return float(np.dot(fractions, r))


def mean_miss_rate_of(nodes, rates, arrival_rate, fractions, slack=(0.0, 30.0)) -> float:
    """Mean miss rate of the whole stream, ``MR = sum alpha_i MR_i`` (Eq. 17)."""
    fractions = check_array("fractions", fractions, finite=False)  # a generator is read once
    mr = cluster_miss_rates(nodes, rates, arrival_rate, fractions, slack)
    return float(np.dot(fractions, mr))
