"""The inter-cluster network of Jones et al. 2005 (Section 3.1) as the engine takes it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InvalidParameter

__all__ = ["Network"]


@dataclass(frozen=True)
class Network:
    """Each cluster's dedicated link to a central ideal switch, and the jobs'
    communication (Jones 2005, Sections 3.1-3.3 and 5).

    ``bsbw``: every job's bisection bandwidth (Mbps; Eq. 8 gives its per-processor
    bandwidth); ``link_mbps``: each link's capacity (one number for all, or one per
    cluster); ``lslt``: link saturation level threshold of the A1 and B modules (a
    fraction: 1.0 is 100 %); ``chunk``: B3's large chunk (fraction of the job's nodes);
    ``compute_fraction``: K, the computation share of every job's execution time;
    ``dynamic``: co-allocated jobs slow down with link saturation (the bandwidth-centric
    model, Sections 3.5-3.7); ``False`` keeps the links' bookkeeping (the modules still
    read it) but runs every job at full speed.
    """

    bsbw: float
    link_mbps: float | tuple = 1000.0
    lslt: float = 1.0
    chunk: float = 0.8
    compute_fraction: float = 0.7
    dynamic: bool = True

    def __post_init__(self) -> None:
        for name in ("bsbw", "lslt", "chunk", "compute_fraction"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float | np.number):
                raise InvalidParameter(f"Network.{name} must be a number, got {value!r}")
            if not np.isfinite(value) or value < 0:
                raise InvalidParameter(f"Network.{name} must be finite and >= 0, got {value!r}")
        for name in ("chunk", "compute_fraction"):
            if getattr(self, name) > 1:
                raise InvalidParameter(
                    f"Network.{name} must be in [0, 1], got {getattr(self, name)!r}"
                )
        links = np.atleast_1d(np.asarray(self.link_mbps, dtype=float))
        if (
            links.ndim != 1
            or links.size == 0
            or not np.all(np.isfinite(links))
            or np.any(links <= 0)
        ):
            raise InvalidParameter(
                f"Network.link_mbps must be finite and > 0, got {self.link_mbps!r}"
            )
        if not isinstance(self.dynamic, bool):
            raise InvalidParameter(f"Network.dynamic must be True or False, got {self.dynamic!r}")

    def link_capacities(self, clusters: int) -> np.ndarray:
        """Capacity of each of ``clusters`` links (Mbps)."""
        links = np.atleast_1d(np.asarray(self.link_mbps, dtype=float))
        if links.size == 1:
            return np.full(clusters, links[0])
        if links.size != clusters:
            raise InvalidParameter(
                f"Network.link_mbps has {links.size} links for {clusters} clusters"
            )
        return links.copy()

    def parameters(self) -> np.ndarray:
        """The engine's ``net`` slots: BSBW, LSLT, CHUNK, K, DYNAMIC."""
        return np.array([self.bsbw, self.lslt, self.chunk, self.compute_fraction,
                         float(self.dynamic)])  # fmt: skip
