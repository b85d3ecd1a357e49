"""A multicluster of homogeneous clusters and the job stream fed to it (He 2006, Section 5.1).

Cluster ``i`` has ``nodes[i]`` nodes of relative speed ``speeds[i]``. A job's size is its
processing time on a node of speed 1 (mean ``mean_size`` = 84 s in the paper), so a node
of speed ``s`` serves ``u = s / mean_size`` jobs per second; the stream saturates the
system at ``lambda_s = sum_i m_i u_i`` and "workload w" means ``lambda = w lambda_s``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .allocation import validate_system

__all__ = ["MultiCluster", "Stream", "bounded_pareto_mean", "hyperexp_params"]

MEAN_JOB_SIZE = 84.0
"""Mean job size on a speed-1 node, seconds (He 2006, Section 5.1)."""

BOUNDED_PARETO = (15.0, 4241.0, 1.0)
"""Bounded Pareto job sizes ``(k, q, alpha)`` of He 2006, Section 5.6."""


@dataclass(frozen=True)
class MultiCluster:
    """Clusters by node count and node speed; ``rates`` are the ``u_i`` of the paper."""

    nodes: tuple[int, ...]
    speeds: tuple[float, ...]
    mean_size: float = MEAN_JOB_SIZE

    def __post_init__(self) -> None:
        object.__setattr__(self, "nodes", tuple(int(v) for v in np.atleast_1d(self.nodes)))
        object.__setattr__(self, "speeds", tuple(float(v) for v in np.atleast_1d(self.speeds)))
        if not np.isfinite(self.mean_size) or self.mean_size <= 0:
            raise ValueError(f"mean_size must be > 0, got {self.mean_size!r}")
        validate_system(self.nodes, self.rates)

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
        if not np.isfinite(workload) or not 0 < workload < 1:
            raise ValueError(f"workload must lie in (0, 1), got {workload!r}")
        return workload * self.saturation_rate


@dataclass(frozen=True)
class Stream:
    """How jobs arrive: rate, burstiness, size distribution and slack.

    ``arrival_cv = 1`` gives Poisson arrivals; ``> 1`` a two-stage hyperexponential with
    balanced means (He 2006, Section 5.6 does not give its parametrisation; balanced
    means is the usual choice and is documented here). ``sizes`` is ``"exponential"``
    with mean ``mean_size`` or ``"bounded_pareto"`` with ``(k, q, alpha)`` as printed
    (its mean, 84.96 s, is 1.1 % above 84 s; the paper calls it "the same").
    """

    arrival_rate: float
    arrival_cv: float = 1.0
    sizes: str = "exponential"
    mean_size: float = MEAN_JOB_SIZE
    pareto: tuple[float, float, float] = field(default=BOUNDED_PARETO)

    def __post_init__(self) -> None:
        if not np.isfinite(self.arrival_rate) or self.arrival_rate <= 0:
            raise ValueError(f"arrival_rate must be > 0, got {self.arrival_rate!r}")
        if not np.isfinite(self.arrival_cv) or self.arrival_cv < 1:
            raise ValueError(
                f"arrival_cv must be >= 1 (Poisson or burstier), got {self.arrival_cv}"
            )
        if self.sizes not in ("exponential", "bounded_pareto"):
            raise ValueError(f"sizes must be 'exponential' or 'bounded_pareto', got {self.sizes!r}")
        k, q, alpha = self.pareto
        if not (0 < k < q and alpha > 0):
            raise ValueError(f"bounded Pareto needs 0 < k < q and alpha > 0, got {self.pareto}")

    def interarrivals(self, rng: np.random.Generator, n: int) -> np.ndarray:
        mean = 1.0 / self.arrival_rate
        if self.arrival_cv == 1.0:
            return rng.exponential(mean, n)
        p1, mean1, mean2 = hyperexp_params(mean, self.arrival_cv)
        first = rng.random(n) < p1
        return rng.exponential(1.0, n) * np.where(first, mean1, mean2)

    def job_sizes(self, rng: np.random.Generator, n: int) -> np.ndarray:
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
