"""Rigid parallel jobs on (heterogeneous) clusters: the multi-cluster scheduling engine.

Semantics (the contract that the engine, its pure-Python oracle and the tests share)
-------------------------------------------------------------------------------------
Jobs have ``submit`` >= 0, ``runtime`` >= 0 (seconds at speed 1), ``procs`` >= 1 and an
``estimate`` (default: the runtime). A cluster has ``procs`` processors and a ``speed``;
a job of runtime ``t`` on a cluster of speed ``s`` runs ``t / s``.

Event loop. Jobs are taken in order of submit time, ties in input order. At each event
time ``t`` (the earliest pending submission or finish), first every job ending at ``t``
frees its processors, then every job submitted at ``t`` joins the queue (in input
order), then one scheduling session runs at ``t`` (Shih 2013, Section 2.2). A job that
starts and ends at the same instant (runtime 0) triggers another session at ``t``.

Time ties, for rounding only. Event times that differ only by floating-point rounding
are one time stamp: the events of one time stamp are every finish and submission at most
``TIME_RTOL x max(|t0|, 1)`` (``TIME_RTOL = 2**-48``, 16 ulps: about ``3.6e-15``
relative) after the earliest pending event time
``t0``; the stamp is the latest of their times, and a job finishing in it is recorded as
ending at the stamp (so that, e.g., ``76 + 50/1.5`` and ``137/1.5 + 27/1.5`` end together
and trigger one session), while distinct events (even 10^-6 s apart at t = 6e7 s) stay
distinct events. A predicted end within the same tolerance after a session's
time counts as that time.

Pruning bounds. A bound that skips candidates without asking the admission test they
serve (a tree search over widths or estimates, a window, an early exit) is implied by
that test as it is computed, in floating point, at every time stamp: it may let through
a candidate the test then refuses, never skip one the test would accept
(:mod:`.rates`; e.g. EASY's ``t + estimate / speed <= shadow`` is pruned by
:func:`.rates.work_until`, not by ``estimate <= (shadow - t) x speed``, which loses an
estimate ending at the shadow to rounding at ``t = 3e7`` s).

Rates. A running job does ``runtime`` seconds of work (``runtime x slowdown`` when
co-allocated) at a rate of its cluster's speed (the slowest site's speed when
co-allocated), so by default it runs ``runtime / speed``. A rate model
(``simulate(..., rate_model=(name, params))``, see :mod:`.rates`) may change running
jobs' rates after every batch of finishes and every start; a job's end then moves to
``t + remaining work / rate``, earlier or later, and backfilling reads the predicted
ends (by the estimates) the same way.

Queue order. ``fcfs``, ``first_available``, ``conservative`` and ``easy`` keep arrival
order; ``smallest_first`` orders by (procs, arrival), ``largest_first`` by
(-procs, arrival) (Huang & Chang 2006, Section 2).

Sessions.
* ``fcfs``: start the head job while some placement exists; stop at the first head
  that has none (no backfilling).
* ``first_available``, ``smallest_first``, ``largest_first``: one pass over the queue
  in its order, starting every job that has a placement (free processors only fall
  during a session, so one pass is enough). ``first_available_once``: the same pass,
  stopped at the first job started (one start per session; Jones 2005's other reading
  of FPFS).
* ``conservative``: every waiting job, in arrival order, gets a reservation at the
  earliest time at which it fits for ``estimate / speed`` seconds in the profile made by
  the running jobs (until ``max(start + estimate / speed, t)``) and the reservations
  before it, on the cluster where that time is earliest (ties: lowest index). Jobs whose
  reservation is at ``t`` and that fit now start (allocation policy over the clusters
  that tie); the rest keep their reservations. Reservations are recomputed at every
  event ("conservative" backfilling): with positive estimates that hold, on one cluster
  or with first fit, no job starts later than the reservation it got on arrival
  (tested). Two exceptions follow from these rules and are pinned by tests: a zero
  estimate reserves nothing, and on several clusters a policy other than first fit may
  start a job on another tied cluster than the one it was reserved on.
* ``easy``: start jobs from the head while they fit; the first job that does not fit
  gets a reservation (its earliest start over the clusters, ties: lowest index; the
  "shadow" time) and the number of processors left over there at that time; any later
  job may start now if it fits and, on the head's cluster, either ends by the shadow
  time (by its estimate) or uses no more than the left-over processors (which it then
  consumes).

Placement (single site first). Candidate clusters are those with enough free
processors. ``first_fit``: lowest index; ``best_fit``: fewest free (ties: lowest index);
``worst_fit``: most free; ``median_fit``: the lower median of the candidates sorted by
(free, index), element ``(k - 1) // 2`` of ``k``; ``median_fit_upper``: the upper median,
element ``k // 2`` (the two differ when ``k`` is even; Huang & Chang 2006 do not say
which); ``random_fit``: candidate ``floor(u k)`` of the ``k`` candidates in index
order, ``u`` the next of the uniforms ``default_rng(seed).random(n_jobs)``, one per job
started with random fit; ``fastest_first``: highest speed (ties: lowest index).
``ai2`` and ``tla`` look ahead (Shih 2013; rules in :mod:`.ai2` and :mod:`.lookahead`):
AI2 takes best fit or fastest first, whichever lets the rest of the session use more
processors x speed (ties: fastest first); TLA simulates the waiting queue (first come
first served, by estimates, fastest first inside by default) after placing the job on
each candidate cluster and takes the cluster with the lowest average turnaround time
(knobs: ``simulate(..., tla=TLAOptions(...))``; :func:`tla_scores` exposes one scoring
step).
Neither is combined with co-allocation. Jones 2005: ``local_first`` starts a job on
its cluster of arrival (the jobs' ``origin`` column) when it fits there, else by best
fit (LA then MIG); ``local_only`` on its own cluster or not at all.

Co-allocation (optional, Huang & Chang 2006, Section 3). When no single cluster fits
and the free processors of all clusters suffice, sites are taken in the heuristic's order
— ``fixed_order`` (index), ``larger_first`` (most free first) or ``smaller_first``
(fewest free first; ties by index; sites with no free processor skipped) — until they
suffice; every site gives all its free processors except the last, which gives the
rest. The job then runs ``runtime x slowdown / (slowest speed among its sites)``.
Co-allocation is not combined with backfilling. Jones 2005's bandwidth-aware modules
(``a1``, ``b1`` ... ``b4``, with ``network=Network(...)``) choose the split themselves
from the free nodes and the links' loads and may decline a job that all free nodes
would hold (rules: :mod:`.coallocation_modules`); a job wider than every cluster
that its module declines even on idle clusters could never start, and is treated as too
wide (an error, or left out with ``drop_too_wide=True``); with a dynamic network, every
start or end of a co-allocated job re-allots the links' bandwidth and moves the
co-allocated jobs' ends (:func:`.rates.bandwidth_rates`).

Metrics: ``mean_wait`` (start - submit), ``att`` (end - submit), ``mean_waiting_ratio``
(mean of wait / execution time over jobs with execution time > 0; Huang 2006),
``waiting_ratio_of_means`` (mean wait / mean execution time), ``mean_bounded_slowdown``
(mean of max(turnaround / max(execution, 10 s), 1)), ``utilization`` (processor-seconds
used / (all processors x (last end - first submit))) and ``mean_queue_length`` (time
average of the number of waiting jobs over the same span).
"""

from .engine import ALLOCATIONS, COALLOCATIONS, SELECTIONS, Result, build_state, run, simulate
from .lookahead import RunningJob, Score, TLAOptions, WaitingJob, tla_scores
from .rates import RATE_MODELS, TIME_RTOL, base_rate, predicted_end, running_jobs, set_rate
from .state import State
from .system import Cluster, System, as_system

__all__ = [
    "ALLOCATIONS",
    "COALLOCATIONS",
    "Cluster",
    "RATE_MODELS",
    "Result",
    "RunningJob",
    "Score",
    "System",
    "TLAOptions",
    "as_system",
    "WaitingJob",
    "SELECTIONS",
    "State",
    "TIME_RTOL",
    "base_rate",
    "build_state",
    "predicted_end",
    "run",
    "running_jobs",
    "set_rate",
    "simulate",
    "tla_scores",
]
