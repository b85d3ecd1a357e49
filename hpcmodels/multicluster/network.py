"""The inter-cluster network of Jones et al. 2005 (Section 3.1) as the engine takes it
(``simulate(..., network=Network(...))``); users import it as
:class:`hpcmodels.bandwidth.Network`, which re-exports it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import (
    InvalidParameter,
    check_array,
    check_bool,
    check_int,
    check_real,
    reworded,
)

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

    Accepted: ``bsbw`` and ``lslt`` finite numbers >= 0, ``chunk`` and
    ``compute_fraction`` in [0, 1] (stored as floats); ``link_mbps`` one finite number
    > 0 or a non-empty list, tuple or array of them (stored as a tuple of floats, so the
    network stays hashable); ``dynamic`` a bool. NaN, inf and numbers out of range are
    an :class:`~hpcmodels.errors.InvalidParameter` naming the field; bools as numbers,
    strings, None and other non-numbers an :class:`~hpcmodels.errors.InvalidType` (also
    an ``InvalidParameter`` and a ``TypeError``).
    """

    bsbw: float
    link_mbps: float | tuple = 1000.0
    lslt: float = 1.0
    chunk: float = 0.8
    compute_fraction: float = 0.7
    dynamic: bool = True

    def __post_init__(self) -> None:
        for name in ("bsbw", "lslt", "chunk", "compute_fraction"):
            at_most = 1 if name in ("chunk", "compute_fraction") else None
            value = check_real(f"Network.{name}", getattr(self, name), at_least=0, at_most=at_most)
            object.__setattr__(self, name, value)
        links = self.link_mbps
        if isinstance(links, bool) or not isinstance(links, int | float | np.number):
            array = check_array("Network.link_mbps", links, ndim=1)
            if array.size == 0 or np.any(array <= 0):
                raise InvalidParameter(
                    f"Network.link_mbps must be finite and > 0, got {self.link_mbps!r}"
                )
            links = tuple(array.tolist())  # a list becomes a tuple: the network stays hashable
        else:
            try:
                links = check_real("Network.link_mbps", links, above=0)
            except InvalidParameter as err:
                raise reworded(
                    err, f"Network.link_mbps must be finite and > 0, got {self.link_mbps!r}"
                ) from None
        object.__setattr__(self, "link_mbps", links)
        object.__setattr__(self, "dynamic", check_bool("Network.dynamic", self.dynamic))

    def link_capacities(self, clusters: int) -> np.ndarray:
        """Capacity of each of ``clusters`` links (Mbps); ``clusters`` is a whole number
        in [1, 10**6] (:data:`hpcmodels.bounds.MAX_CLUSTERS`)."""
        from ..bounds import MAX_CLUSTERS

        clusters = check_int("clusters", clusters, minimum=1, maximum=MAX_CLUSTERS)
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
        return np.array(
            [self.bsbw, self.lslt, self.chunk, self.compute_fraction, float(self.dynamic)]
        )
