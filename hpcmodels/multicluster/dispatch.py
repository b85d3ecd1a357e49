"""Static dispatch in front of the engine: He et al. 2006's global scheduler (Section 3,
Table 1) on rigid parallel jobs. Each job is sent on arrival to one cluster, by fixed
fractions, and runs there only (``simulate(..., allocation="local_only")`` on the
``origin`` column this module writes).

He's fractions come from an M/M/m model in which a cluster is ``m_i`` identical nodes
serving one sequential job each at rate ``u_i``. Parallel jobs do not fit that model;
:func:`queueing_fractions` reads it as follows (our reading, stated wherever it is used):
a cluster of ``P_i`` processors at speed ``s_i`` is ``m_i = P_i`` servers, and a job
brings ``procs x runtime`` processor-seconds of work, so each server completes jobs at
``u_i = s_i / mean(procs x runtime)``. The model's utilisation ``lambda / sum m_i u_i``
is then exactly the system loading of Shih 2013 (Eqs. 5-6) at speed 1 (and stays so
under Eq. 4's speed vectors): the model is stable exactly when the processors can keep
up, though it ignores that a wide job needs many free processors at once.

Where a job cannot run on a cluster (``procs > P_i``) it is never sent there: the
fractions of the clusters it fits are renormalised for it. Orders:

* ``"random"``: cluster ``i`` with probability ``alpha_i`` (renormalised), one uniform
  draw per job from a seeded ``numpy.random.Generator``;
* ``"round_robin"``: He's weighted round robin, the smooth sequence of
  :mod:`hpcmodels.queueing.dispatch`: every cluster the job fits earns its renormalised
  fraction as credit, the richest of them gets the job (lowest index on ties) and pays
  1. Jobs that fit everywhere get exactly He's sequence; among the jobs of one set of
  fitting clusters each cluster's share is its renormalised fraction within about one
  job (the credits of a job sum to what it pays).

Once dispatched, the clusters share nothing: :func:`simulate_dispatched` runs each
cluster's own queue (FCFS, EASY or conservative backfilling, as He's clusters serve
their own FCFS queues) as a one-cluster engine run and joins the schedules. The engine's
``local_only`` allocation on one global queue would not do: its FCFS head of the global
queue would block the other clusters.

A job that fits only clusters of fraction 0 goes to the largest cluster it fits (ORT
gives slow clusters nothing at low load; a wide job still has to run somewhere).
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..bounds import MAX_SEED
from ..errors import InvalidParameter, check_array, check_choice, check_frame, check_int
from ..queueing import ort_allocation, weighted_allocation
from .engine import Result, simulate
from .metrics import compute_metrics
from .system import as_system

DISPATCH_ORDERS = ("random", "round_robin")
FRACTION_RULES = ("ort", "weighted", "equal")


def queueing_fractions(jobs: pd.DataFrame, clusters, rule: str) -> np.ndarray:
    """The dispatch fractions of ``rule`` for ``jobs`` on ``clusters`` under the module's
    M/M/m reading (servers ``m_i = P_i``, rates ``u_i = s_i / mean(procs x runtime)``,
    ``lambda`` = jobs / submit span):

    * ``"ort"``: He 2006's ORT, the fractions that minimise the model's mean response
      time (Eqs. 10-12, :func:`hpcmodels.queueing.ort_allocation`). At or beyond the
      model's capacity (a system loading >= 1) ORT has no solution; its fractions tend
      to the capacity-proportional ones as ``lambda`` nears capacity, so those are
      returned there (a documented limit, not ORT);
    * ``"weighted"``: proportional to capacity, ``m_i u_i / sum m_j u_j`` (Eq. 3);
    * ``"equal"``: ``1 / m`` each (plain round robin or uniform random)."""
    rule = check_choice("rule", rule, FRACTION_RULES)
    check_frame("jobs", jobs, ["submit", "runtime", "procs"])
    system = as_system(clusters)
    cap, speed = system.procs, system.speeds
    if rule == "equal":
        return np.full(cap.size, 1.0 / cap.size)
    work = jobs["procs"].to_numpy(float) * jobs["runtime"].to_numpy(float)
    span = float(jobs["submit"].max() - jobs["submit"].min())
    if len(jobs) < 2 or not span > 0 or not work.mean() > 0:
        raise InvalidParameter(
            "jobs must span a positive time and carry work (procs x runtime > 0) to give "
            f"an arrival and a service rate; got {len(jobs)} job(s) over {span!r} s"
        )
    rates = speed / work.mean()
    weighted = weighted_allocation(cap, rates)
    lam = len(jobs) / span
    if rule == "weighted" or lam >= float(np.sum(cap * rates)) * (1 - 1e-9):
        return weighted
    return np.asarray(ort_allocation(cap, rates, lam), float)


@numba.njit(cache=True)
def _dispatch(procs, sizes, fractions, order, uniforms):
    m = sizes.size
    out = np.empty(procs.size, np.int64)
    credit = np.zeros(m)
    for j in range(procs.size):
        total = 0.0
        widest = -1
        fits = 0
        for i in range(m):
            if procs[j] <= sizes[i]:
                fits += 1
                total += fractions[i]
                if widest < 0 or sizes[i] > sizes[widest]:
                    widest = i
        if total <= 0.0:
            out[j] = widest
            continue
        if order == 0:  # weighted random among the clusters the job fits
            target = uniforms[j] * total
            chosen = -1
            acc = 0.0
            for i in range(m):
                if procs[j] <= sizes[i] and fractions[i] > 0.0:
                    chosen = i
                    acc += fractions[i]
                    if target < acc:
                        break
            out[j] = chosen
        else:  # smooth weighted round robin over the clusters the job fits
            scale = 1.0 if fits == m else 1.0 / total
            best = -np.inf
            chosen = -1
            for i in range(m):
                if procs[j] > sizes[i] or fractions[i] <= 0.0:
                    continue
                credit[i] += fractions[i] * scale
                if credit[i] > best:
                    best = credit[i]
                    chosen = i
            credit[chosen] -= 1.0
            out[j] = chosen
    return out


def dispatch(
    jobs: pd.DataFrame, clusters, fractions, order: str = "round_robin", seed: int = 0
) -> pd.DataFrame:
    """``jobs`` with an ``origin`` column: the cluster each job is sent to, in order of
    submit time (ties in row order), by ``fractions`` (one per cluster, >= 0, summing to
    1) in ``order`` (:data:`DISPATCH_ORDERS`); ``seed`` seeds the random order. Run the
    result with ``simulate(..., allocation="local_only")``. A job wider than every
    cluster is an :class:`InvalidParameter` naming it. ``seed`` is a whole number in [0,
    2**63 - 1]."""
    check_frame("jobs", jobs, ["submit", "procs"])
    order = check_choice("order", order, DISPATCH_ORDERS)
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    cap = as_system(clusters).procs
    alpha = check_array("fractions", fractions, ndim=1, at_least=0)
    if alpha.shape != cap.shape:
        raise InvalidParameter(
            f"fractions must be {cap.size} numbers (one per cluster), got {fractions!r}"
        )
    if not abs(alpha.sum() - 1.0) <= 1e-9:
        raise InvalidParameter(f"fractions must be >= 0 and sum to 1, got {alpha.tolist()}")
    procs = jobs["procs"].to_numpy()
    if len(jobs) and procs.max() > cap.max():
        i = int(np.argmax(procs))
        raise InvalidParameter(
            f"job {jobs.index[i]!r} needs {procs[i]} processors: wider than every cluster "
            f"({cap.max()})"
        )
    rank = np.argsort(jobs["submit"].to_numpy(), kind="stable")
    uniforms = np.random.default_rng(seed).random(len(jobs))
    chosen = _dispatch(
        procs[rank].astype(np.int64), cap, alpha, DISPATCH_ORDERS.index(order), uniforms
    )
    origin = np.empty(len(jobs), np.int64)
    origin[rank] = chosen
    out = jobs.copy()
    out["origin"] = origin
    return out


def simulate_dispatched(jobs: pd.DataFrame, clusters, selection: str = "fcfs") -> Result:
    """Run dispatched ``jobs`` (an ``origin`` column, e.g. from :func:`dispatch`): each
    cluster serves the jobs sent to it with ``selection`` on its own processors
    (:func:`hpcmodels.multicluster.simulate`, one cluster), and the per-job schedules are
    joined in input order. The metrics are the engine's (:mod:`.metrics`) over all jobs
    and all clusters (the queue length summed over the clusters' queues)."""
    check_frame("jobs", jobs, ["submit", "runtime", "procs", "origin"])
    system = as_system(clusters)
    cap = system.procs
    origin = jobs["origin"].to_numpy()
    if len(jobs) == 0:
        raise InvalidParameter("empty workload: jobs has no rows")
    if not np.issubdtype(origin.dtype, np.integer) or origin.min() < 0 or origin.max() >= cap.size:
        raise InvalidParameter(
            f"jobs column 'origin' must hold cluster indices 0..{cap.size - 1}, got "
            f"{sorted(set(origin.tolist()))[:5]}"
        )
    out = jobs.copy()
    out["start"] = np.nan
    out["end"] = np.nan
    out["cluster"] = origin.astype(np.int64)
    queue_area = 0.0
    counters = {"events": 0, "sessions": 0}
    rows = np.arange(len(jobs))
    for c, cluster in enumerate(system):
        mine = rows[origin == c]
        if mine.size == 0:
            continue
        part = jobs.iloc[mine].drop(columns="origin")
        res = simulate(part, [cluster], selection, "first_fit")
        out.iloc[mine, out.columns.get_loc("start")] = res.jobs["start"].to_numpy()
        out.iloc[mine, out.columns.get_loc("end")] = res.jobs["end"].to_numpy()
        queue_area += res.metrics["mean_queue_length"] * res.metrics["makespan"]
        for key in counters:
            counters[key] += int(res.counters[key])
    data = {k: out[k].to_numpy(float) for k in ("submit", "procs")}
    start, end = out["start"].to_numpy(), out["end"].to_numpy()
    metrics = compute_metrics(data, start, end, cap, queue_area)
    metrics["dropped"] = 0
    allocation = sp.csr_array(
        (jobs["procs"].to_numpy(np.int64), (rows, origin.astype(np.int64))),
        shape=(len(jobs), cap.size),
    )
    return Result(out, metrics, list(system), allocation, counters)
