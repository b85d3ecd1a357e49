"""Clusters of a multi-cluster system (Shih 2013, Section 2.1; Huang 2006, Table 4)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Cluster", "cluster_arrays"]


@dataclass(frozen=True)
class Cluster:
    """A cluster of ``procs`` identical processors of relative ``speed`` (a job of
    runtime ``t`` runs ``t / speed`` here)."""

    name: str
    procs: int
    speed: float = 1.0

    def __post_init__(self) -> None:
        if int(self.procs) != self.procs or self.procs < 1:
            raise ValueError(f"cluster {self.name!r}: procs must be a positive integer, "
                             f"got {self.procs!r}")  # fmt: skip
        if not np.isfinite(self.speed) or self.speed <= 0:
            raise ValueError(f"cluster {self.name!r}: speed must be > 0, got {self.speed!r}")


def cluster_arrays(clusters) -> tuple[np.ndarray, np.ndarray]:
    """Processor counts (int64) and speeds (float64) of a non-empty cluster list."""
    clusters = list(clusters)
    if not clusters:
        raise ValueError("need at least one cluster")
    for c in clusters:
        if not isinstance(c, Cluster):
            raise ValueError(f"clusters must be Cluster objects, got {c!r}")
    return (np.array([c.procs for c in clusters], np.int64),
            np.array([c.speed for c in clusters], float))  # fmt: skip
