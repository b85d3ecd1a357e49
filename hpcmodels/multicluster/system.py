"""Clusters of a multi-cluster system (Shih 2013, Section 2.1; Huang 2006, Table 4)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from ..bounds import MAX_PROCS
from ..errors import InvalidParameter, InvalidType, check_int, check_real
from .network import Network

__all__ = ["Cluster", "System", "as_system", "MAX_PROCS"]


@dataclass(frozen=True)
class Cluster:
    """A cluster of ``procs`` identical processors of relative ``speed`` (a job of
    runtime ``t`` runs ``t / speed`` here).

    ``name`` is a string. ``procs`` is a whole number in ``[1, 2**53]``; an integral float
    such as ``4.0`` is stored as the int ``4``. ``speed`` is a finite number > 0, stored
    as a float. Anything else (bools and numeric strings included) is an
    :class:`~hpcmodels.errors.InvalidParameter` (a non-string name an
    :class:`~hpcmodels.errors.InvalidType`).
    """

    name: str
    procs: int
    speed: float = 1.0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise InvalidType(f"cluster name must be a string, got {self.name!r}")
        where = f"cluster {self.name!r}: "
        procs = check_int(where + "procs", self.procs, minimum=1, maximum=MAX_PROCS)
        object.__setattr__(self, "procs", procs)
        object.__setattr__(self, "speed", check_real(where + "speed", self.speed, above=0))


@dataclass(frozen=True, eq=False)
class System:
    """A system of clusters as every model takes it: the clusters, checked once at the
    public entry (:func:`as_system`), with their processor counts (int64) and speeds
    (float64) as arrays in cluster order, and, when the system has Jones's network
    (:class:`.network.Network`), each cluster's link capacity in Mbps (``links``, float64;
    empty without a network). The models read these arrays, never write them. It
    iterates over its clusters, so it goes wherever a list of clusters does, and is
    handed down as it is: no function below the entry converts or checks the clusters
    or their links again."""

    clusters: tuple[Cluster, ...]
    procs: np.ndarray
    speeds: np.ndarray
    links: np.ndarray = field(default_factory=lambda: np.empty(0))

    @property
    def names(self) -> list[str]:
        """The clusters' names, in order (distinct)."""
        return [c.name for c in self.clusters]

    def __len__(self) -> int:
        return len(self.clusters)

    def __iter__(self) -> Iterator[Cluster]:
        return iter(self.clusters)

    def __getitem__(self, index: int) -> Cluster:
        return self.clusters[index]


def as_system(clusters: Iterable[Cluster] | System, network=None) -> System:
    """``clusters`` as a :class:`System`: a System as it is; else any iterable of
    :class:`Cluster` objects (read once: a generator is fine), non-empty, with distinct
    names and at most ``2**53`` processors in all. With a ``network``
    (:class:`.network.Network`), the System carries its links' capacities, one per
    cluster (:meth:`.network.Network.link_capacities`: a list of link capacities must
    have one per cluster).

    A wrong container or element is an :class:`~hpcmodels.errors.InvalidType`; no
    cluster, or two clusters of the same name, an
    :class:`~hpcmodels.errors.InvalidParameter` naming it: results keyed by name
    (:func:`.lookahead.tla_scores`) would silently keep one of them."""
    if network is not None and not isinstance(network, Network):
        raise InvalidType(f"network must be a hpcmodels.bandwidth.Network, got {network!r:.80}")
    if isinstance(clusters, System):
        if network is None:
            return clusters
        return replace(clusters, links=network.link_capacities(len(clusters)))
    if isinstance(clusters, Cluster | str | bytes | dict) or not isinstance(clusters, Iterable):
        raise InvalidType(f"clusters must be a list of Cluster objects, got {clusters!r:.80}")
    clusters = tuple(clusters)
    if not clusters:
        raise InvalidParameter("need at least one cluster")
    for c in clusters:
        if not isinstance(c, Cluster):
            raise InvalidType(f"clusters must be Cluster objects, got {c!r:.80}")
    first = {}
    for k, c in enumerate(clusters):
        if c.name in first:
            raise InvalidParameter(
                f"clusters {first[c.name]} and {k} are both named {c.name!r}: cluster names "
                "must be unique"
            )
        first[c.name] = k
    total = sum(c.procs for c in clusters)
    if total > MAX_PROCS:
        raise InvalidParameter(f"{total} processors in all clusters: at most 2**53 are supported")
    procs = np.array([c.procs for c in clusters], np.int64)
    speeds = np.array([c.speed for c in clusters], float)
    system = System(clusters, procs, speeds)
    return system if network is None else as_system(system, network)
