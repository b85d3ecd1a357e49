"""The ranges of the package's counts, sizes and seeds (issue 51), each with its reason.

Every public function checks a count, a size or a seed with
:func:`hpcmodels.errors.check_int` against one of these bounds (or a bound of its own
module: :data:`hpcmodels.multicluster.system.MAX_PROCS`,
:data:`hpcmodels.queueing.mmm.MAX_SERVERS`, :data:`hpcmodels.mdp.model.MAX_TRUNCATION`,
...) before the value reaches NumPy or numba, and says the range in its docstring. A
huge, negative, fractional, bool or string value is an
:class:`~hpcmodels.errors.InvalidParameter` (or :class:`~hpcmodels.errors.InvalidType`)
naming the parameter, at once: never a numba typing error, an ``OverflowError`` from
NumPy, nor a loop that does not end.

The measurements quoted were taken on the project's 2-core, 23 GB machine (under load).
"""

from __future__ import annotations

__all__ = [
    "MAX_CLUSTERS",
    "MAX_COMPLETIONS",
    "MAX_ITERATIONS",
    "MAX_JOBS",
    "MAX_PROCS",
    "MAX_REPLICATES",
    "MAX_SEED",
    "MAX_TOTAL_COMPLETIONS",
    "check_draws",
]

MAX_SEED = 2**63 - 1
"""Largest seed: seeds are whole numbers in ``[0, 2**63 - 1]``. NumPy's ``default_rng``
takes any whole number >= 0, but seeds also travel as int64 (numba's integer, the seed
columns of sweep frames and the results store), and 2**63 - 1 is the largest int64.
Where an API takes a ``numpy.random.Generator`` instead, a Generator is accepted as it
is."""

MAX_PROCS = 2**53
"""Most processors a cluster, or all clusters together, may have (and the widest job):
counts stay exact in the engine's int64 sums and float64 metrics (every whole number up
to 2**53 is a float64)."""

MAX_JOBS = 10**8
"""Most jobs in one run or one generated workload (a job count, a stream length, jobs per
cluster times clusters). Memory, measured: a simulation by the engine peaks at about
480 bytes per job, the workload models at 340-410 bytes per job, so 10**8 jobs would
need 34-48 GB, beyond a workstation (23 GB here). The papers' largest run is Jones
2005's Section 4 at 8 clusters x 4,000,000 jobs = 3.2 x 10**7."""

MAX_CLUSTERS = 10**6
"""Most clusters given as a count (a set-up's clusters, a snapshot's): every job's
placement scans every cluster (about 2.5 ns per cluster and job, measured) and a set-up
builds one :class:`~hpcmodels.multicluster.Cluster` per cluster (about 13 us and 260
bytes each), so 10**6 clusters already cost ~2.5 ms per job and ~13 s to build. The
papers use at most 8."""

MAX_REPLICATES = 10**6
"""Most replicates (replications, seeds, speed vectors) of one experiment; a replicate
*index* lies in ``[0, MAX_REPLICATES - 1]``. A sweep lists every point up front, one
replicate's speed vector is drawn after every earlier one's (replicate ``r`` draws
``r + 1`` vectors), and even the cheapest replicate (one MDP run of one completion)
costs ~35 us of set-up, so 10**6 replicates are already minutes of overhead and hours to
weeks of simulation; the papers use 5 to 60."""

MAX_COMPLETIONS = 10**10
"""Most job completions in one run of the MDP's simulator
(:func:`hpcmodels.mdp.simulate.simulate_policy`). A run is one numba call, which
Ctrl-C cannot interrupt; at the measured ~1.7-2 x 10**7 completions per second 10**10
take about 10 minutes. The paper runs 2,000,000."""

MAX_TOTAL_COMPLETIONS = 10**12
"""Most completions in one call of the MDP's simulator, all replications together
(``completions x replications``): about 14 hours at the measured rate (Ctrl-C stops the
call between two runs). The paper: 60 x 2,000,000 = 1.2 x 10**8."""

MAX_ITERATIONS = 10**6
"""Most iterations of an MDP solver (``max_iter``): one value-iteration step takes about
2 us at Delta = 1 and 65 us at Delta = 30, a modified-policy-iteration step 1.4-4.5 ms
(measured), so 10**6 steps are seconds to about an hour; value iteration converges in
about 2,400 steps at the paper's parameters, modified policy iteration in about 15."""


def check_draws(rng: object, n: object, name: str = "n") -> int:
    """``n`` as the number of random draws from ``rng`` (a method that samples one
    value per job): ``rng`` must be a ``numpy.random.Generator`` (else
    :class:`~hpcmodels.errors.InvalidType`), ``n`` a whole number in [0, 10**8]
    (:data:`MAX_JOBS`), else an :class:`~hpcmodels.errors.InvalidParameter` naming
    ``name``."""
    import numpy as np

    from .errors import InvalidType, check_int

    if not isinstance(rng, np.random.Generator):
        raise InvalidType(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return check_int(name, n, minimum=0, maximum=MAX_JOBS)


def check_completions(completions: object, replications: object, *, least: int = 1) -> tuple:
    """``(completions, replications)`` of an MDP simulation as whole numbers:
    ``completions`` in [1, :data:`MAX_COMPLETIONS`], ``replications`` in [``least``,
    :data:`MAX_REPLICATES`] and their product at most :data:`MAX_TOTAL_COMPLETIONS`,
    else an :class:`~hpcmodels.errors.InvalidParameter` naming them."""
    from .errors import InvalidParameter, check_int

    completions = check_int("completions", completions, minimum=1, maximum=MAX_COMPLETIONS)
    replications = check_int("replications", replications, minimum=least, maximum=MAX_REPLICATES)
    if completions * replications > MAX_TOTAL_COMPLETIONS:
        raise InvalidParameter(
            f"completions x replications must be <= {MAX_TOTAL_COMPLETIONS} (about 14 hours "
            f"of simulation), got {completions} x {replications}"
        )
    return completions, replications
