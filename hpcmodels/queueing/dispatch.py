"""Dispatching simulator for the multicluster of He et al. 2006 (Sections 3 and 5).

A global scheduler sends each arriving job at once to one cluster; each cluster serves
its own FCFS queue on its ``m_i`` nodes, non-preemptively. Under FCFS a job starts on the
node of its cluster that frees first, at ``max(arrival, that node's free time)``, so one
pass over the jobs in arrival order simulates the system exactly (numba kernel).

Dispatchers (the paper's Table 1 and Section 5.1):

* ``"random"``: weighted random, cluster ``i`` with probability ``alpha_i``.
* ``"round_robin"``: weighted round-robin, the deterministic "smooth" sequence: every
  cluster earns ``alpha_i`` credit per job, the richest cluster (lowest index on ties)
  gets the job and pays 1. Over any ``N`` jobs cluster ``i`` receives ``N alpha_i`` jobs
  within one; a cluster with ``alpha_i = 0`` never receives any.
* ``"dll"``: dynamic least load, the ideal bound for response time. Our reading of
  "the cluster with the least workload": the least expected response time of the new
  job, ``max(0, F_i - t) + 1/u_i``, where ``F_i`` is the time a node of cluster ``i``
  becomes free for it given the work already there (the scheduler sees the current
  workload; it does not know the new job's size).
* ``"dlm"``: dynamic least miss rate, "the cluster offering the least waiting time",
  ``max(0, F_i - t)``; ties go to the faster cluster, then the lower index.

Metrics are collected over jobs ``warmup .. n_jobs - cooldown`` (the paper: 500,000 jobs,
the first and last 100,000 trimmed). Every draw comes from ``numpy.random.Generator``
seeded per replication; the same seed gives the same arrivals, sizes and slacks to every
dispatcher (common random numbers).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd

from ..bounds import MAX_JOBS, MAX_REPLICATES, MAX_SEED
from ..equality import ByValue
from ..errors import InvalidParameter, check_int, check_ints
from ..stats import t_interval
from .slack import Slack, as_slack
from .system import MultiCluster, Stream

__all__ = ["DISPATCHERS", "SimulationResult", "simulate_dispatch", "replicate", "summarize"]

DISPATCHERS = ("random", "round_robin", "dll", "dlm")
_CODES = {name: code for code, name in enumerate(DISPATCHERS)}


@dataclass(frozen=True, eq=False)
class SimulationResult(ByValue):
    """Measured means over the jobs inside the measurement window of one run."""

    mean_response: float
    mean_wait: float
    miss_rate: float
    jobs: int
    shares: np.ndarray  # fraction of measured jobs each cluster received


@numba.njit(cache=True)
def _simulate(
    arrivals,
    sizes,
    slacks,
    uniforms,
    nodes,
    speeds,
    mean_service,
    fractions,
    dispatcher,
    first,
    last,
):
    n_cl = nodes.size
    offsets = np.zeros(n_cl + 1, np.int64)
    for i in range(n_cl):
        offsets[i + 1] = offsets[i] + nodes[i]
    free = np.zeros(offsets[n_cl])
    cum = np.cumsum(fractions)
    credit = np.zeros(n_cl)
    counts = np.zeros(n_cl, np.int64)
    sum_resp = 0.0
    sum_wait = 0.0
    misses = 0
    for j in range(arrivals.size):
        t = arrivals[j]
        c = 0
        if dispatcher == 0:  # weighted random
            r = uniforms[j]
            c = n_cl - 1
            for i in range(n_cl):
                if r < cum[i] and fractions[i] > 0.0:
                    c = i
                    break
        elif dispatcher == 1:  # smooth weighted round-robin
            best = -np.inf
            for i in range(n_cl):
                credit[i] += fractions[i]
                if fractions[i] > 0.0 and credit[i] > best:
                    best = credit[i]
                    c = i
            credit[c] -= 1.0
        else:  # dll / dlm: inspect every cluster's earliest free node
            best = np.inf
            best_speed = -1.0
            for i in range(n_cl):
                f = free[offsets[i]]
                for k in range(offsets[i] + 1, offsets[i + 1]):
                    if free[k] < f:
                        f = free[k]
                score = max(0.0, f - t)
                if dispatcher == 2:
                    score += mean_service[i]
                if score < best or (dispatcher == 3 and score == best and speeds[i] > best_speed):
                    best = score
                    best_speed = speeds[i]
                    c = i
        k_best = offsets[c]
        for k in range(offsets[c] + 1, offsets[c + 1]):
            if free[k] < free[k_best]:
                k_best = k
        start = max(t, free[k_best])
        end = start + sizes[j] / speeds[c]
        free[k_best] = end
        if first <= j < last:
            counts[c] += 1
            sum_resp += end - t
            sum_wait += start - t
            if start - t > slacks[j]:
                misses += 1
    n = last - first
    return sum_resp / n, sum_wait / n, misses / n, counts


def simulate_dispatch(
    system: MultiCluster,
    fractions,
    dispatcher: str,
    stream: Stream,
    *,
    slack: Slack | tuple[float, float] | None = None,
    n_jobs: int = 500_000,
    warmup: int = 100_000,
    cooldown: int = 100_000,
    seed: int | np.random.Generator = 0,
) -> SimulationResult:
    """Simulate one job stream through a dispatcher (He 2006, Section 5.1).

    ``fractions`` are the workload fractions ``alpha_i`` used by ``random`` and
    ``round_robin`` (ignored by ``dll`` and ``dlm``). Without ``slack`` no job can miss
    (miss rate 0). Job sizes are expressed at speed 1 and divided by the node speed.

    ``n_jobs``, ``warmup`` and ``cooldown`` are job counts (whole numbers; ``2.0`` is read
    as 2): ``n_jobs`` in [1, 10**8] (:data:`hpcmodels.bounds.MAX_JOBS`), the first
    ``warmup`` and the last ``cooldown`` jobs (each in [0, 10**8]) are simulated but not
    measured, and at least one job must be measured. ``seed`` is a whole number in [0,
    2**63 - 1] or a ``numpy.random.Generator``. Bad input is an ``InvalidParameter``.
    """
    if not isinstance(system, MultiCluster):
        raise InvalidParameter(f"system must be a MultiCluster, got {system!r}")
    if not isinstance(stream, Stream):
        raise InvalidParameter(f"stream must be a Stream, got {stream!r}")
    if dispatcher not in _CODES:
        raise InvalidParameter(f"unknown dispatcher {dispatcher!r}; choose one of {DISPATCHERS}")
    try:
        alpha = np.asarray(fractions, dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameter(f"fractions must be numbers, got {fractions!r}") from None
    if alpha.shape != (len(system.nodes),):
        raise InvalidParameter(
            f"fractions has {alpha.size} entries for {len(system.nodes)} clusters"
        )
    if np.any(alpha < 0) or not np.all(np.isfinite(alpha)) or abs(alpha.sum() - 1) > 1e-6:
        raise InvalidParameter(f"fractions must be >= 0 and sum to 1, got {alpha.tolist()}")
    n_jobs = check_int("n_jobs", n_jobs, minimum=1, maximum=MAX_JOBS)
    warmup = check_int("warmup", warmup, minimum=0, maximum=MAX_JOBS)
    cooldown = check_int("cooldown", cooldown, minimum=0, maximum=MAX_JOBS)
    if warmup + cooldown >= n_jobs:
        raise InvalidParameter(
            f"need warmup + cooldown < n_jobs, got {warmup} + {cooldown} vs {n_jobs}"
        )
    if not isinstance(seed, np.random.Generator):
        seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    rng = np.random.default_rng(seed)  # returns a Generator unchanged
    arrivals = np.cumsum(stream.interarrivals(rng, n_jobs))
    sizes = stream.job_sizes(rng, n_jobs)
    slacks = np.full(n_jobs, np.inf) if slack is None else as_slack(slack).sample(rng, n_jobs)
    uniforms = rng.random(n_jobs)
    resp, wait, miss, counts = _simulate(
        arrivals,
        sizes,
        slacks,
        uniforms,
        np.asarray(system.nodes, np.int64),
        np.asarray(system.speeds, float),
        1.0 / system.rates,
        alpha / alpha.sum(),
        _CODES[dispatcher],
        warmup,
        n_jobs - cooldown,
    )
    measured = n_jobs - warmup - cooldown
    return SimulationResult(float(resp), float(wait), float(miss), measured, counts / measured)


def replicate(
    system: MultiCluster,
    fractions,
    dispatcher: str,
    stream: Stream,
    *,
    seeds: Iterable[int] = (0, 1, 2, 3, 4),
    **options,
) -> pd.DataFrame:
    """One row per seed: ``seed, mean_response, mean_wait, miss_rate``. ``seeds``: at
    most 10**6 whole numbers in [0, 2**63 - 1] (:mod:`hpcmodels.bounds`), checked before
    any run; ``options`` as :func:`simulate_dispatch` takes them."""
    seeds = check_ints("seeds", seeds, minimum=0, maximum=MAX_SEED, max_length=MAX_REPLICATES)
    rows = []
    for seed in seeds:
        r = simulate_dispatch(system, fractions, dispatcher, stream, seed=seed, **options)
        rows.append(
            dict(
                seed=seed,
                mean_response=r.mean_response,
                mean_wait=r.mean_wait,
                miss_rate=r.miss_rate,
            )
        )
    return pd.DataFrame(rows)


def summarize(values, confidence: float = 0.95) -> tuple[float, float]:
    """Mean and Student-t confidence half-width over independent replications."""
    return t_interval(values, confidence)
