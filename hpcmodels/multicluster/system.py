"""Clusters of a multi-cluster system (Shih 2013, Section 2.1; Huang 2006, Table 4)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..bounds import MAX_PROCS
from ..errors import InvalidParameter, InvalidType, check_int, check_real

__all__ = ["Cluster", "cluster_arrays", "cluster_list", "MAX_PROCS"]


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


def cluster_list(clusters: Iterable[Cluster]) -> list[Cluster]:
    """``clusters`` (any iterable, read once: a generator is fine) as a non-empty list of
    :class:`Cluster` objects with distinct names and at most ``2**53`` processors in all.

    Two clusters of the same name are an :class:`~hpcmodels.errors.InvalidParameter`
    naming it: results keyed by name (:func:`.lookahead.tla_scores`) would silently keep
    one of them."""
    if isinstance(clusters, Cluster | str | bytes | dict) or not isinstance(clusters, Iterable):
        raise InvalidType(f"clusters must be a list of Cluster objects, got {clusters!r:.80}")
    clusters = list(clusters)
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
    return clusters


def cluster_arrays(clusters: Iterable[Cluster]) -> tuple[np.ndarray, np.ndarray]:
    """Processor counts (int64) and speeds (float64) of a non-empty cluster list."""
    clusters = cluster_list(clusters)
    return (
        np.array([c.procs for c in clusters], np.int64),
        np.array([c.speed for c in clusters], float),
    )
