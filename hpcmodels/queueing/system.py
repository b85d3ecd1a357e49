"""A multicluster of homogeneous clusters and the job stream fed to it (He 2006, Section 5.1).

Cluster ``i`` has ``nodes[i]`` nodes of relative speed ``speeds[i]``. A job's size is its
processing time on a node of speed 1 (mean ``mean_size`` = 84 s in the paper), so a node
of speed ``s`` serves ``u = s / mean_size`` jobs per second; the stream saturates the
system at ``lambda_s = sum_i m_i u_i`` and "workload w" means ``lambda = w lambda_s``.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..bounds import check_draws
from ..errors import InvalidParameter, check_int, check_real
from .allocation import validate_system
from .mmm import MAX_SERVERS

__all__ = ["MultiCluster", "Stream", "bounded_pareto_mean", "hyperexp_params"]

MEAN_JOB_SIZE = 84.0
"""Mean job size on a speed-1 node, seconds (He 2006, Section 5.1)."""

BOUNDED_PARETO = (15.0, 4241.0, 1.0)
"""Bounded Pareto job sizes ``(k, q, alpha)`` of He 2006, Section 5.6."""


def _as_tuple(name: str, values: object) -> tuple:
    """A number, or an iterable of them (list, tuple, array), as a tuple."""
    if isinstance(values, np.ndarray):
        values = np.atleast_1d(values).tolist()
    if isinstance(values, numbers.Number):
        return (values,)
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InvalidParameter(f"{name} must be a sequence of numbers, got {values!r}")
    return tuple(values)


@dataclass(frozen=True)
class MultiCluster:
    """Clusters by node count and node speed; ``rates`` are the ``u_i`` of the paper.

    ``nodes`` are whole numbers from 1 to ``MAX_SERVERS`` (``4.0`` is read as 4; 2.5 is
    an error, not 2), ``speeds`` and ``mean_size`` finite numbers > 0; both sequences
    (or single numbers, for one cluster) have one entry per cluster. They are stored as
    tuples of ints and floats; anything else is an ``InvalidParameter``.
    """

    nodes: tuple[int, ...]
    speeds: tuple[float, ...]
    mean_size: float = MEAN_JOB_SIZE

    def __post_init__(self) -> None:
        nodes = _as_tuple("nodes", self.nodes)
        speeds = _as_tuple("speeds", self.speeds)
        if not nodes:
            raise InvalidParameter("nodes must list at least one cluster, got ()")
        if len(speeds) != len(nodes):
            raise InvalidParameter(f"nodes has {len(nodes)} clusters but speeds has {len(speeds)}")
        nodes = tuple(
            check_int(f"nodes[{i}]", v, minimum=1, maximum=MAX_SERVERS) for i, v in enumerate(nodes)
        )
        speeds = tuple(
            check_real(f"speeds[{i}] (node rates = speeds / mean_size)", v, above=0)
            for i, v in enumerate(speeds)
        )
        object.__setattr__(self, "nodes", nodes)
        object.__setattr__(self, "speeds", speeds)
        object.__setattr__(self, "mean_size", check_real("mean_size", self.mean_size, above=0))
        validate_system(self.nodes, self.rates)  # rates may still under- or overflow

    @property
    def rates(self) -> np.ndarray:
        """Per-node service rates ``u_i = speed_i / mean_size`` (jobs/s)."""
        return np.asarray(self.speeds, float) / self.mean_size

    @property
    def saturation_rate(self) -> float:
        """``lambda_s = sum_i m_i u_i`` (He 2006, Section 5.1)."""
        return float(np.dot(self.nodes, self.rates))

    def arrival_rate(self, workload: float) -> float:
        """Arrival rate at a workload level (a fraction of ``lambda_s``), checked < 1."""
        workload = check_real("workload", workload, above=0)
        if workload >= 1:
            raise InvalidParameter(f"workload must lie in (0, 1), got {workload!r}")
        return workload * self.saturation_rate


@dataclass(frozen=True)
class Stream:
    """How jobs arrive: rate, burstiness, size distribution and slack.

    ``arrival_cv = 1`` gives Poisson arrivals; ``> 1`` a two-stage hyperexponential with
    balanced means (He 2006, Section 5.6 does not give its parametrisation; balanced
    means is the usual choice and is documented here). ``sizes`` is ``"exponential"``
    with mean ``mean_size`` or ``"bounded_pareto"`` with ``(k, q, alpha)`` as printed
    (its mean, 84.96 s, is 1.1 % above 84 s; the paper calls it "the same").

    ``arrival_rate`` and ``mean_size`` are finite numbers > 0, ``arrival_cv`` one >= 1
    whose square is finite, ``pareto`` three finite numbers with ``0 < k < q`` and
    ``alpha > 0``; anything else is an ``InvalidParameter``.
    """

    arrival_rate: float
    arrival_cv: float = 1.0
    sizes: str = "exponential"
    mean_size: float = MEAN_JOB_SIZE
    pareto: tuple[float, float, float] = field(default=BOUNDED_PARETO)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "arrival_rate", check_real("arrival_rate", self.arrival_rate, above=0)
        )
        cv = check_real("arrival_cv", self.arrival_cv, at_least=1)
        if not np.isfinite(cv * cv):  # the hyperexponential's parameters would be NaN
            raise InvalidParameter(f"arrival_cv is too large (its square overflows), got {cv!r}")
        object.__setattr__(self, "arrival_cv", cv)
        if self.sizes not in ("exponential", "bounded_pareto"):
            raise InvalidParameter(
                f"sizes must be 'exponential' or 'bounded_pareto', got {self.sizes!r}"
            )
        object.__setattr__(self, "mean_size", check_real("mean_size", self.mean_size, above=0))
        pareto = self.pareto
        if not isinstance(pareto, str) and isinstance(pareto, Iterable):
            pareto = tuple(pareto)
        if not isinstance(pareto, tuple) or len(pareto) != 3:
            raise InvalidParameter(f"pareto must be three numbers (k, q, alpha), got {pareto!r}")
        k, q, alpha = (
            check_real(f"pareto {name}", value)
            for name, value in zip(("k", "q", "alpha"), pareto, strict=True)
        )
        if not (0 < k < q and alpha > 0):
            raise InvalidParameter(f"bounded Pareto needs 0 < k < q and alpha > 0, got {pareto}")
        object.__setattr__(self, "pareto", (k, q, alpha))

    def interarrivals(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` inter-arrival times drawn from ``rng`` (a Generator; ``n`` a whole number
        in [0, 10**8], :data:`hpcmodels.bounds.MAX_JOBS`)."""
        n = check_draws(rng, n)
        mean = 1.0 / self.arrival_rate
        if self.arrival_cv == 1.0:
            return rng.exponential(mean, n)
        p1, mean1, mean2 = hyperexp_params(mean, self.arrival_cv)
        first = rng.random(n) < p1
        return rng.exponential(1.0, n) * np.where(first, mean1, mean2)

    def job_sizes(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` job sizes drawn from ``rng`` (a Generator; ``n`` a whole number in [0,
        10**8], :data:`hpcmodels.bounds.MAX_JOBS`)."""
        n = check_draws(rng, n)
        if self.sizes == "exponential":
            return rng.exponential(self.mean_size, n)
        k, q, alpha = self.pareto
        return k * (1.0 - rng.random(n) * (1.0 - (k / q) ** alpha)) ** (-1.0 / alpha)


def hyperexp_params(mean: float, cv: float) -> tuple[float, float, float]:
    """Balanced-means two-stage hyperexponential with the given mean and CV.

    Returns ``(p1, mean1, mean2)``: with probability ``p1`` an exponential of mean
    ``mean1``, else of mean ``mean2``; ``p_i mean_i = mean / 2`` for both branches.
    """
    c2 = cv * cv
    p1 = 0.5 * (1.0 + np.sqrt((c2 - 1.0) / (c2 + 1.0)))
    p2 = 1.0 - p1
    return float(p1), mean / (2.0 * p1), mean / (2.0 * p2)


def bounded_pareto_mean(k: float, q: float, alpha: float) -> float:
    """Mean of the Bounded Pareto density of He 2006, Section 5.6."""
    if alpha == 1.0:
        return k * np.log(q / k) / (1.0 - k / q)
    c = alpha * k**alpha / (1.0 - (k / q) ** alpha)
    return c * (k ** (1 - alpha) - q ** (1 - alpha)) / (alpha - 1)
