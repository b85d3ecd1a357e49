"""Jones et al. 2005, Section 3: the bandwidth-centric job communication model.

A co-allocated job of ``N`` nodes, ``n_i`` of them on cluster ``i``, needs on cluster
``i``'s link to the central switch (Eq. 1)::

    BW_i = n_i PPBW (N - n_i) / (N - 1)

and with every job's bisection bandwidth held at ``BSBW`` its per-processor bandwidth is
(Eq. 8, Eq. 1 solved so that a job split in halves needs exactly BSBW on each link)::

    PPBW = BSBW 4 (N - 1) / N^2,   so   BW_i = 4 BSBW n_i (N - n_i) / N^2.

A link of capacity ``BW_max`` is saturated when ``BW_max / sum of its jobs' BW_i < 1``
(Eq. 3). Whenever a co-allocated job starts or ends, :func:`allot_bandwidth` runs the
allotment algorithm (Steps 1-5 with the residual saturation of Eq. 4): the most
saturated link scales all its unconstrained jobs down by its residual saturation, on
every link they span, those jobs are then fixed and their allotment taken off the
links' available bandwidth, and so on until no link is saturated by the jobs left. A
job's allotted/required ratio is then the same on each of its links: its slowdown
factor ``sd`` (Eq. 5).

Residual times (Eqs. 6-7): over an interval ``dT`` a job spends the fraction
``dT / T_E^R`` of its residual computation and (stretched) communication time, and the
communication part is re-stretched by ``sd' / sd`` at every change. Computation and
communication therefore always remain in the ratio ``K : 1 - K`` of the job's original
profile, and the job progresses through its original execution time ``T_E`` at the rate
(:func:`progress_rate`)::

    rate = 1 / (K + (1 - K) / sd)

seconds of ``T_E`` per second, which is how the engine runs it (``rates.set_rate``); the
literal recurrence is :func:`.residual.advance_residuals`, and the tests check the two
against each other.

The numba kernels the engine runs, ``demand_kernel``, ``allot_kernel`` and
``rate_kernel``, live in the engine's layer (:mod:`hpcmodels.multicluster.linkshare`)
and are re-exported here; the functions below validate their input and call them.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InvalidParameter, check_array, check_int, check_real
from ..multicluster.linkshare import allot_kernel, rate_kernel
from ..multicluster.linkshare import demand_kernel as demand_kernel  # re-exported

MAX_NODES = 2**53
"""Most nodes of one job: counts stay exact in float64."""

__all__ = [
    "ppbw_from_bsbw",
    "link_demand",
    "saturation",
    "allot_bandwidth",
    "slowdown_factors",
    "progress_rate",
]


def _number(name: str, value, *, low: float = 0.0, strict: bool = False) -> float:
    """A finite real number >= ``low`` (> with ``strict``); bools, strings, None, NaN and
    inf are an InvalidParameter naming ``name``."""
    if strict:
        return check_real(name, value, above=low)
    return check_real(name, value, at_least=low)


def _nodes(name: str, value, low: int) -> int:
    """A whole number in [``low``, 2**53] (an integral float such as ``4.0`` too)."""
    return check_int(name, value, minimum=low, maximum=MAX_NODES)


def ppbw_from_bsbw(bsbw: float, total_nodes: int) -> float:
    """Per-processor bandwidth of a job of ``total_nodes`` whose bisection bandwidth is
    ``bsbw`` (Eq. 8): ``BSBW 4 (N - 1) / N^2``. ``bsbw`` is a finite number >= 0,
    ``total_nodes`` a whole number in [1, 2**53] (``4.0`` is read as 4); bools and
    strings are refused."""
    b = _number("bsbw", bsbw)
    n = _nodes("total_nodes", total_nodes, 1)
    return b * 4.0 * (n - 1) / (n * n)


def link_demand(local_nodes: int, total_nodes: int, ppbw: float) -> float:
    """Bandwidth a job of ``total_nodes`` nodes, ``local_nodes`` of them on a cluster,
    needs on that cluster's link (Eq. 1): ``n PPBW (N - n) / (N - 1)``; 0 when the job
    has a single node. Node counts are whole numbers in [0, 2**53] (``total_nodes`` >= 1),
    ``ppbw`` a finite number >= 0; bools and strings are refused."""
    n_total = _nodes("total_nodes", total_nodes, 1)
    n = _nodes("local_nodes", local_nodes, 0)
    if n > n_total:
        raise InvalidParameter(f"local_nodes ({n}) exceeds total_nodes ({n_total})")
    p = _number("ppbw", ppbw)
    if n_total == 1:
        return 0.0
    return n * p * (n_total - n) / (n_total - 1)


def _matrix(name: str, value, ndim: int) -> np.ndarray:
    """``value`` as a float array of ``ndim`` dimensions, finite and >= 0 (a list, tuple,
    NumPy array or DataFrame of numbers; no bools or strings)."""
    return check_array(name, value, ndim=ndim, at_least=0)


def saturation(demand, capacity) -> np.ndarray:
    """Eq. 3 per link: capacity / total demand of the jobs spanning it (inf when none);
    below 1 the link is saturated.

    ``demand`` (jobs x links) and ``capacity`` (links) are arrays, lists or tuples of
    finite numbers >= 0 (no bools or strings); else an InvalidParameter naming them."""
    d = _matrix("demand", demand, 2)
    cap = _matrix("capacity", capacity, 1)
    if d.shape[1] != cap.size:
        raise InvalidParameter(f"demand has {d.shape[1]} links, capacity {cap.size}")
    total = d.sum(axis=0)
    with np.errstate(divide="ignore"):
        return np.where(total > 0, cap / np.where(total > 0, total, 1.0), np.inf)


def allot_bandwidth(demand, capacity) -> np.ndarray:
    """Bandwidth allotted to each job on each link (Section 3.5, Steps 1-5).

    ``demand[jobs, links]`` is each job's required bandwidth per link (Eq. 1; 0 where it
    does not span the link) and ``capacity[links]`` each link's maximum: finite numbers
    >= 0 (arrays, lists or tuples; no bools or strings). The result never exceeds a link's
    capacity, equals the demand when no link is saturated, and gives a job the same
    allotted/required ratio on every link it spans.

    Demands whose sum on a link overflows (each finite, their total beyond the float
    range, about 1.8e308) are allotted as the same problem scaled down by ``2**k``
    (demand and capacity alike), then scaled back up by ``2**k``; a power of two scales
    exactly and the allotment scales with its input, so the result is that problem's
    allotment times ``2**k``. ``k`` is small (at most ``2 + log2(jobs)``), so the caveat
    concerns tiny values only: one below ``2**(k - 1022)`` (about ``jobs x 1e-307``)
    becomes subnormal when scaled down and may lose bits, one below ``2**(k - 1075)``
    underflows to 0, and comes back so. (At any scale, a link whose capacity is below
    ``2**-1022`` times its total demand has a subnormal saturation factor with fewer
    bits: the bounds above then hold only to that precision.)"""
    d = _matrix("demand", demand, 2)
    cap = _matrix("capacity", capacity, 1)
    if d.shape[1] != cap.size:
        raise InvalidParameter(f"demand has {d.shape[1]} links, capacity {cap.size}")
    shift = _overflow_shift(d)
    if shift:
        d, cap = np.ldexp(d, -shift), np.ldexp(cap, -shift)
    out = np.empty_like(d)
    allot_kernel(np.ascontiguousarray(d), cap, out)
    return np.ldexp(out, shift) if shift else out


def _overflow_shift(demand: np.ndarray) -> int:
    """0 when every link's total demand is finite; else the ``k`` such that the demands
    times ``2**-k`` sum to finite totals on every link: each is below ``2**e`` (``e``
    the largest entry's binary exponent), so ``jobs`` of them sum below
    ``2**(e + ceil(log2 jobs) - k)``, kept at most ``2**1022``."""
    with np.errstate(over="ignore"):
        if np.all(np.isfinite(demand.sum(axis=0))):
            return 0
    _, exponent = np.frexp(demand.max())
    return int(exponent) + math.ceil(math.log2(demand.shape[0])) - 1022


def slowdown_factors(demand, allotted) -> np.ndarray:
    """Each job's allotted/required bandwidth ratio (Eq. 5): the same on every link it
    spans; 1 for a job that needs no inter-cluster bandwidth.

    ``demand`` and ``allotted`` are 2-D arrays of the same shape (lists, tuples, arrays)
    of finite numbers >= 0, no entry of ``allotted`` above its ``demand``."""
    d = _matrix("demand", demand, 2)
    a = _matrix("allotted", allotted, 2)
    if a.shape != d.shape:
        raise InvalidParameter(f"allotted has shape {a.shape}, demand {d.shape}")
    over = a > d * (1 + 1e-12) + 1e-300
    if over.any():
        j, i = np.argwhere(over)[0]
        raise InvalidParameter(
            f"allotted[{j}, {i}] = {a[j, i]!r} exceeds demand[{j}, {i}] = {d[j, i]!r}: a job "
            "is never allotted more than it needs (slowdown factors lie in [0, 1])"
        )
    total = d.sum(axis=1)
    return np.where(total > 0, a.sum(axis=1) / np.where(total > 0, total, 1.0), 1.0)


def progress_rate(slowdown: float, compute_fraction: float) -> float:
    """Seconds of original execution time done per second at slowdown factor ``sd``
    (Eq. 5) for a job whose computation fraction is ``K``: ``1 / (K + (1 - K) / sd)``."""
    sd = _number("slowdown", slowdown, strict=True)
    if sd > 1:
        raise InvalidParameter(f"slowdown must be in (0, 1], got {slowdown!r}")
    k = _number("compute_fraction", compute_fraction)
    if k > 1:
        raise InvalidParameter(f"compute_fraction must be in [0, 1], got {compute_fraction!r}")
    return float(rate_kernel(sd, k))
