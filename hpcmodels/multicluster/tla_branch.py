"""The terms of a look-ahead branch of TLA (Shih et al. 2013, Section 3.2, Fig. 3).

A branch sim-allocates the target on one candidate cluster, then simulates the next waiting
jobs first come first served, each placed by the simulation policy when some cluster has
its processors free. Here: the look-ahead's input (:class:`Snapshot`: the releases
pending, a release heap of times and keys, :mod:`.heap`, each key a release's cluster
and processors packed by :func:`release_key`, and the waiting jobs); a simulated job's
cost (:func:`branch_cost`: turnaround, Eq. 2, or bounded slowdown; the score is the
jobs' mean) and the rule by which a score beats another (:func:`beats`); the order-free
hash of a branch's pending releases (:func:`release_hash`); and random fit's stream
(:func:`uniform`). The branches are simulated, alone or every candidate in lock step,
by :mod:`.tla_scoring`; :mod:`.lookahead` places jobs with the scores.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from .metrics import BOUNDED_SLOWDOWN_TAU

ATT, BSLD = range(2)  # metric codes, in the order of lookahead.METRICS
SCORE_RTOL = 1e-9
"""A cluster's score beats the best so far only when lower by more than this, relative."""
KEY_SHIFT = 20  # a release's cluster and processors packed as ``procs << 20 | cluster``
KEY_MASK = (1 << KEY_SHIFT) - 1
MAX_TLA_PROCS = (1 << (63 - KEY_SHIFT)) - 1
"""Most processors a job may hold under TLA (2**43 - 1): its release key must fit in an
int64 (clusters take the low 20 bits, :data:`~hpcmodels.bounds.MAX_CLUSTERS` < 2**20)."""


class Snapshot(NamedTuple):
    """The look-ahead's input at time ``t`` (Fig. 3): the clusters' ``speed`` and ``free``
    processors; the ``n_rel`` pending releases of the running jobs as a release heap
    ``releases = (time, key)`` (keys by :func:`release_key`) with room for one release
    per waiting job (:func:`.heap.release_heap`); the waiting jobs' ``procs``, ``submit``
    and ``estimate`` (at speed 1) in queue order, the target first."""

    speed: np.ndarray
    free: np.ndarray
    releases: tuple[np.ndarray, np.ndarray]
    n_rel: int
    procs: np.ndarray
    submit: np.ndarray
    estimate: np.ndarray
    t: float


@numba.njit(cache=True, inline="always")
def _mix(x):
    """splitmix64's finalizer: a bijection of uint64 that scatters every input bit.
    Inlined: :func:`uniform` takes an array, and a kernel that takes arrays and calls
    another pays numba's reference counts at each call (see :mod:`.heap`)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@numba.njit(cache=True)
def uniform(rng):
    """Next uniform in [0, 1) of the splitmix64 stream whose state is ``rng[0]``: random
    fit's draws inside the simulation."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    return float(_mix(z) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True)
def release_key(c, p):
    """The release heap's key of ``p`` processors coming back to cluster ``c``:
    ``p << KEY_SHIFT | c`` (``p`` <= :data:`MAX_TLA_PROCS`); ``key & KEY_MASK`` is the
    cluster, ``key >> KEY_SHIFT`` the processors."""
    return p << KEY_SHIFT | c


@numba.njit(cache=True)
def release_hash(time_bits, key):
    """Hash of one release: its time's bits and its key. A branch's state is hashed as
    the sum of its pending releases' hashes (order-free, kept as releases come and go)."""
    return _mix(time_bits ^ _mix(np.uint64(key) + np.uint64(0x9E3779B97F4A7C15)))


@numba.njit(cache=True)
def branch_cost(metric, tt, run):
    """A simulated job's cost: its turnaround ``tt`` (ATT, Eq. 2) or its bounded slowdown
    ``max(tt / max(run, 10 s), 1)``."""
    if metric == BSLD:
        return max(tt / max(run, BOUNDED_SLOWDOWN_TAU), 1.0)
    return tt


@numba.njit(cache=True)
def beats(score, best):
    """Whether ``score`` beats the best score so far, ``best``: lower by more than
    :data:`SCORE_RTOL` relative (so exact ties go to the lowest cluster index)."""
    return score < best - SCORE_RTOL * abs(best)
