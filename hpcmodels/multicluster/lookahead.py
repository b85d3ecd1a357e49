"""Temporal look-ahead allocation, TLA (Shih et al. 2013): placing a job by its scores (numba).

TLA (Section 3, Figs. 2-3). To place the target job ``j`` at time ``t``, TLA scores
every cluster ``c`` where ``j`` fits now, ``f(j, c)``:

I.  sim-allocate ``j`` on ``c`` (it runs ``estimate / speed``);
II. take the next waiting jobs in queue order (the *simulation depth* counts the jobs
    simulated, ``j`` included; by default every waiting job), each in turn: (b) find the
    earliest time, not before the previous simulated job's start (first come, first
    served inside the simulation: no job overtakes the one ahead of it;
    docs/readings.md), at which some cluster has its processors free, (c) among the
    clusters that have them then, choose by the *simulation policy* (fastest first by
    default; best, worst or random fit), (d) sim-allocate it there for ``estimate /
    speed``;
III. return the mean turnaround time (end - submit) of the simulated jobs (ATT, Eq. 2),
    or their mean bounded slowdown ``max(tt / max(run, 10 s), 1)``.

Processors come back at the running jobs' predicted ends (by their estimates,
:func:`.rates.predicted_end`) and at the simulated jobs' ends; release times within the
engine's time tolerance are one instant. The lowest score wins; a score counts as lower
only by more than ``1e-9`` relative, so exact ties go to the lowest cluster index.

TLA is *activated* when the target fits on at least two allowed clusters and another
job waits; otherwise it places as fastest first does (Section 3: "we use FF ... when
facing this situation"). With an *allocation depth* ``A > 1`` the winning simulation
also places the next ``A - 1`` jobs, as long as it started them at ``t`` (Section 5.4).
With selections other than ``fcfs`` the simulation still runs the waiting jobs first
come first served in the selection's queue order (the target first): it assumes no
backfilling ahead.

A branch's terms (its input, cost and state hash) are in :mod:`.tla_branch`; the branches
are simulated (one alone, or every candidate in lock step with the exact shortcuts and
their cost) and scored in :mod:`.tla_scoring`, on the release heap of :mod:`.heap`; AI2
lives in :mod:`.ai2`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np

from ..equality import ByValue
from ..errors import InvalidParameter, check_int, check_real
from .allocation import ALLOCATIONS, FASTEST_FIRST, pick
from .heap import release_heap
from .rates import predicted_end, tolerance
from .segtree import ANY, seg_first_le
from .state import (
    PLAN_T,
    QLEN,
    RLEN,
    TLA_ACTIVATIONS,
    TLA_ADEPTH,
    TLA_CHANGES,
    TLA_DEPTH,
    TLA_DISTINCT,
    TLA_METRIC,
    TLA_POLICY,
    TLA_TWO_FIT,
)
from .system import as_system
from .tla_branch import (
    ATT,
    MAX_TLA_PROCS,
    SCORE_RTOL,
    Snapshot,
    beats,
    branch_cost,
    release_key,
)
from .tla_input import job_columns, running_arrays, waiting_arrays
from .tla_scoring import score_clusters, score_with_memo, simulate_branch

__all__ = [
    "TLAOptions",
    "METRICS",
    "ATT",
    "SIM_POLICIES",
    "RunningJob",
    "WaitingJob",
    "Score",
    "Snapshot",
    "tla_scores",
    "simulate_branch",
    "release_heap",
    "release_key",
    "score_clusters",
    "score_with_memo",
    "tla_place",
]

METRICS = ("att", "bounded_slowdown")
SIM_POLICIES = ("fastest_first", "best_fit", "worst_fit", "random_fit")
MAX_DEPTH = 2**62
"""Largest simulation or allocation depth: the engine keeps the knobs in int64."""


@dataclass(frozen=True)
class TLAOptions:
    """TLA's knobs (Shih 2013, Section 5): ``depth`` jobs simulated per score, the target
    included (``None``: every waiting job; 1 decides as fastest first does);
    ``allocation_depth`` decisions taken from one simulation; ``policy`` used inside the
    simulation (one of :data:`SIM_POLICIES`); ``metric`` scored (:data:`METRICS`).

    ``depth`` and ``allocation_depth`` are whole numbers in ``[1, 2**62]`` (an integral
    float such as ``4.0`` is stored as the int 4); bools, strings, NaN, inf and larger
    numbers are an :class:`~hpcmodels.errors.InvalidParameter` naming the knob."""

    depth: int | None = None
    allocation_depth: int = 1
    policy: str = "fastest_first"
    metric: str = "att"

    def __post_init__(self):
        for name in ("depth", "allocation_depth"):
            value = getattr(self, name)
            if value is None and name == "depth":
                continue
            value = check_int(f"TLA {name}", value, minimum=1, maximum=MAX_DEPTH)
            object.__setattr__(self, name, value)
        if not isinstance(self.policy, str) or self.policy not in SIM_POLICIES:
            raise InvalidParameter(
                f"TLA policy {self.policy!r}: choose one of {list(SIM_POLICIES)}"
            )
        if not isinstance(self.metric, str) or self.metric not in METRICS:
            raise InvalidParameter(f"TLA metric {self.metric!r}: choose one of {list(METRICS)}")

    def codes(self) -> tuple[int, int, int, int]:
        """(depth, 0 for all; allocation depth; policy's allocation code; metric code)."""
        return (
            self.depth or 0,
            self.allocation_depth,
            ALLOCATIONS.index(self.policy),
            METRICS.index(self.metric),
        )


@numba.njit(cache=True)
def _gather(state, j, t, depth):
    """The look-ahead's input at ``t`` (a :class:`.tla_branch.Snapshot`): the running
    jobs' releases (predicted end, cluster, procs) as a heap with room for the simulated
    jobs, and the waiting jobs in queue order with ``j`` first (at most ``depth``; 0:
    all); and those jobs' indices."""
    n_rel = state.ctr[RLEN]
    limit = min(depth, state.ctr[QLEN]) if depth > 0 else state.ctr[QLEN]
    wait = np.empty(limit, np.int64)
    wait[0] = j
    q = 1
    r = seg_first_le(state.wtree, 0, ANY)
    while r >= 0 and q < limit:
        i = state.at_rank[r]
        if i != j:
            wait[q] = i
            q += 1
        r = seg_first_le(state.wtree, r + 1, ANY)
    rel_time = np.empty(n_rel)
    running = state.heap[:n_rel]
    for k in range(n_rel):
        rel_time[k] = predicted_end(state, running[k], t)
    wait = wait[:q]
    rel_key = release_key(state.clus[running], state.procs[running])
    releases = release_heap(rel_time, rel_key, n_rel + q)
    procs, submit, estimate = state.procs[wait], state.submit[wait], state.estimate[wait]
    return Snapshot(state.speed, state.free, releases, n_rel, procs, submit, estimate, t), wait


@numba.njit(cache=True)
def _fastest(state, p, allowed):
    return pick(FASTEST_FIRST, state.free, state.speed, p, allowed, 0.0)


@numba.njit(cache=True)
def _shallow(speed, free, p, submit, estimate, t, allowed, metric):
    """The decision of simulation depth 1 (:func:`score_clusters` with the target alone):
    each cluster's score is the target's own cost there, compared by the same rule."""
    best, best_score = -1, np.inf
    for c in range(free.size):
        if not allowed[c] or free[c] < p:
            continue
        run = estimate / speed[c]
        score = branch_cost(metric, t + run - submit, run) / 1
        if best < 0 or beats(score, best_score):
            best, best_score = c, score
    return best


@numba.njit(cache=True)
def _tells_apart(scores, best):
    """Whether some fitting cluster (a finite score) scores worse than the winner
    ``best`` beyond the comparison's tolerance: the look-ahead told clusters apart."""
    limit = scores[best] + SCORE_RTOL * abs(scores[best])
    for c in range(scores.size):
        if np.isfinite(scores[c]) and scores[c] > limit:
            return True
    return False


@numba.njit(cache=True)
def tla_place(state, j, t, allowed):
    """TLA's cluster for waiting job ``j`` at ``t`` among the allowed clusters (-1 when it
    fits none). A plan left by an earlier decision at ``t`` (allocation depth > 1) is
    followed; plan entries are ``activation x m + cluster``, valid only for the latest
    activation at the same instant."""
    m = state.free.size
    p = state.procs[j]
    plan = state.plan[j]
    if plan >= 0 and state.fctr[PLAN_T] == t and plan // m == state.ctr[TLA_ACTIVATIONS]:
        c = plan % m
        if allowed[c] and state.free[c] >= p:
            return c
    fits = 0
    for c in range(m):
        if allowed[c] and state.free[c] >= p:
            fits += 1
    if fits >= 2:
        state.ctr[TLA_TWO_FIT] += 1
    if fits < 2 or state.ctr[QLEN] < 2:  # no choice, or nothing else waits: fastest first
        return _fastest(state, p, allowed)
    snap, wait = _gather(state, j, t, state.cfg[TLA_DEPTH])
    n_wait = wait.size
    scores = np.empty(m)
    plan_clus = np.empty(n_wait, np.int64)
    plan_start = np.empty(n_wait)
    policy, metric = state.cfg[TLA_POLICY], state.cfg[TLA_METRIC]
    best = score_with_memo(
        snap,
        allowed,
        policy,
        metric,
        state.rng,
        scores,
        (plan_clus, plan_start),
        wait,
        state.memo_f,
        state.memo_i,
    )
    shallow = _shallow(
        state.speed, state.free, p, snap.submit[0], snap.estimate[0], t, allowed, metric
    )
    state.ctr[TLA_ACTIVATIONS] += 1
    if _tells_apart(scores, best):
        state.ctr[TLA_DISTINCT] += 1
    if best != shallow:  # another decision than simulation depth 1 (Figs. 10-11)
        state.ctr[TLA_CHANGES] += 1
    adepth = state.cfg[TLA_ADEPTH]
    if adepth > 1:
        state.fctr[PLAN_T] = t
        limit = t + tolerance(t)
        for k in range(1, min(adepth, n_wait)):
            if plan_start[k] > limit:
                break
            state.plan[wait[k]] = state.ctr[TLA_ACTIVATIONS] * m + plan_clus[k]
    return best


# ------------------------------------------------------------------ one scoring step
class RunningJob(NamedTuple):
    """A running job in a snapshot: its cluster (name or index), processors and
    (estimated) end time."""

    cluster: str | int
    procs: int
    end: float


class WaitingJob(NamedTuple):
    """A waiting job in a snapshot: processors, submit time, estimate at speed 1."""

    procs: int
    submit: float
    estimate: float


@dataclass(frozen=True, eq=False)
class Score(ByValue):
    """TLA's score of one cluster: ``att`` (the mean) and each waiting job's
    simulated ``turnaround`` (queue order), ``clusters`` and ``starts``."""

    att: float
    turnaround: list[float]
    clusters: list[str]
    starts: list[float]


def _number(value, what: str, *, whole: bool = False, low: float = 0.0) -> float:
    """A finite number >= ``low`` (with ``whole``, a whole one in [``low``, 2**43 - 1]:
    a processor count, :data:`.tla_branch.MAX_TLA_PROCS`); bools, strings, None, NaN and
    inf are an InvalidParameter naming ``what``."""
    if whole:
        return float(check_int(what, value, minimum=int(low), maximum=MAX_TLA_PROCS))
    return check_real(what, value, at_least=None if low == -np.inf else low)


def tla_scores(
    clusters,
    running,
    waiting,
    now: float = 0.0,
    *,
    depth: int | None = None,
    policy: str = "fastest_first",
) -> dict[str, Score]:
    """TLA's scoring step (Shih 2013, Fig. 3) on a snapshot at ``now``: for every
    cluster where ``waiting[0]`` fits now, the :class:`Score` of allocating it there
    (the same kernel as ``simulate(..., allocation="tla")``; ATT metric).

    ``clusters``: :class:`.Cluster` list (any iterable; a generator is read once);
    ``running``: the running jobs, each ``cluster, procs, end`` (:class:`RunningJob`; free
    processors are the capacity minus what they hold); ``waiting``: the waiting jobs in
    queue order, each ``procs, submit, estimate`` (:class:`WaitingJob`; the first is the
    job to place); ``depth`` and ``policy`` as in :class:`TLAOptions`.

    ``running`` and ``waiting`` are each accepted as any one of:

    * records: any iterable (a list, a tuple, a generator, read once; a 1-D object array)
      of the named tuples or of plain tuples/lists of their fields in order;
    * a pandas DataFrame whose columns are exactly the fields (any order; its index is
      ignored);
    * a dict of columns whose keys are exactly the fields, each column a list, tuple,
      1-D array or Series (all of one length);
    * a structured NumPy array whose fields are exactly the fields;
    * a 2-D NumPy array of one row per job and one column per field, in order (a float
      array holds a cluster index as a whole float such as ``2.0``; an object array may
      hold names).

    Rows are counted from 0 in order (a frame's position, not its index label). Each
    value is checked as a number of its own would be: processor counts are whole
    numbers in [1, 2**43 - 1] (the look-ahead packs a release's processors and cluster
    in 64 bits: :data:`.tla_branch.MAX_TLA_PROCS`), times finite numbers (``now``,
    ``submit``, ``end`` any sign; ``estimate`` >= 0); bools, strings (numeric ones too),
    None, NaN and inf are refused, whether in records or in a column (a bool or string
    column, an object column holding one). A running job's ``cluster`` is a cluster's
    name or its index, a whole number 0..m - 1 (not a bool). Cluster names must be
    distinct (the result is keyed by name). A waiting job's ``submit`` must not be after
    ``now`` (the snapshot is taken at ``now``; its turnaround would come out negative); a
    running job's ``end`` before ``now`` counts as ``now``; the running jobs on a cluster
    may not hold more than its processors; a waiting job wider than every cluster is
    refused. Only the first ``depth`` waiting jobs are read (and checked).

    Anything else is an :class:`~hpcmodels.errors.InvalidParameter` naming the argument,
    and for a value its row and field (``waiting[17].estimate must be a finite number >=
    0.0, got nan``; the first refused one: the lowest row, then the first rule above it
    breaks); an :class:`~hpcmodels.errors.InvalidType` for a wrong container, a row that
    is no record, or a value that is no number (a bool, a string, None). A frame, dict or
    structured array with a column missing, an extra or a repeated one, or columns of
    different lengths, and a 2-D array of another number of columns, is an
    :class:`~hpcmodels.errors.InvalidParameter` naming the columns.
    """
    options = TLAOptions(depth=depth, policy=policy)
    system = as_system(clusters)
    cap, speed, names = system.procs, system.speeds, system.names
    now = _number(now, "now", low=-np.inf)
    running, n_rel = job_columns(running, "running", RunningJob)
    waiting, n_wait = job_columns(waiting, "waiting", WaitingJob, options.depth)
    if not n_wait:
        raise InvalidParameter("waiting is empty: there is no job to place")
    rel_time, rel_key, free = running_arrays(running, n_rel, names, cap, now)
    wprocs, wsubmit, west = waiting_arrays(waiting, n_wait, int(cap.max()), now)
    _, _, policy_code, metric_code = options.codes()
    rng = np.zeros(1, np.uint64)
    releases = release_heap(rel_time, rel_key, n_rel + n_wait)
    snap = Snapshot(speed, free, releases, n_rel, wprocs, wsubmit, west, now)
    label = np.array(names, dtype=object)
    out = {}
    for c in range(cap.size):
        if free[c] < wprocs[0]:
            continue
        clus, start, cost = np.empty(n_wait, np.int64), np.empty(n_wait), np.empty(n_wait)
        att = simulate_branch(c, snap, policy_code, metric_code, rng, (clus, start, cost))
        out[names[c]] = Score(float(att), cost.tolist(), label[clus].tolist(), start.tolist())
    return out
