"""The engine state: one record of NumPy arrays that numba kernels read and write.

Everything a simulation knows at an instant lives in one :class:`State`, so that a policy
can read the running jobs, the queue and the estimates. The look-ahead allocations
(:mod:`.lookahead`) never copy it: TLA gathers the running jobs' predicted ends and the
waiting queue from it into plain arrays and simulates the rest of the queue on those,
one branch per candidate cluster (:func:`.tla_scoring.simulate_branch`, or every branch
in lock step; Shih 2013, Section 3.2), and AI2 replays the session on a copy of the free
processors; of the state they write only their counters, ``plan``, ``rng`` and the memo
(below). The record is a numba ``StructRef`` (mutable, passed to kernels
by reference, numba-cacheable); its scalar counters are kept in two small arrays, ``ctr``
(int64) and ``fctr`` (float64), indexed by the constants below, so that a kernel can
update them in place.

Per job (input order of the kept jobs; job ``j`` is row ``j``):

* inputs, never written: ``submit``, ``runtime`` (seconds at speed 1), ``procs``,
  ``estimate`` (seconds at speed 1);
* ``start``, ``end`` (NaN until known), ``clus`` (cluster, ``COALLOCATED`` = -1 when
  spread over sites, ``NOT_STARTED`` = -2);
* progress of a running job, kept lazily: at time ``anchor`` it had ``rem`` seconds of
  work left (``rem_est`` by its estimate) and it progresses at ``rate`` seconds of work
  per second, so ``end = anchor + rem / rate`` and the predicted end is ``pend = anchor +
  rem_est / rate``. A job's work is ``runtime`` on one site (rate = the cluster's speed)
  and ``runtime x slowdown`` when co-allocated (rate = the slowest site's speed); only a
  rate change (see :mod:`.rates`) moves the anchor, so with the default rates ``end`` is
  exactly ``start + runtime / speed``.

Structures: the running jobs form an indexed binary heap keyed by ``end`` (``heap``,
``hpos``); the waiting jobs are the present leaves of a min segment tree over their rank
in the selection's queue order, in a window of ranks that holds every waiting job
(``wtree``: procs, ``etree``: estimate, ``rtree``: conservative reservation time;
``qrank`` / ``at_rank`` map job <-> rank; :mod:`.segtree`, :mod:`.queue`); the per-site
split of co-allocated jobs is stored sparsely (``split_off`` / ``split_len`` into
``split_site`` / ``split_procs``), because only co-allocated jobs need more than one
cluster; conservative backfilling keeps one free-processor profile per cluster as linked
lists in a shared node pool (``p_time``, ``p_free``, ``p_next``, ``p_head``) and, per
cluster, the latest old predicted end of a job that ended before it since the last
session (``hole_end``, -inf when none: the profile only gained processors before it).
Jones 2005's network: ``origin`` (each job's cluster of arrival), ``net`` (BSBW, LSLT,
chunk, K, dynamic: the ``BSBW`` ... ``DYNAMIC`` slots; empty without a network),
``link_cap`` and ``link_load`` (each cluster's link capacity and the required bandwidth
of the co-allocated jobs running over it, recomputed at each of their starts and ends).
The look-ahead allocations (:mod:`.lookahead`) keep ``plan`` (per job: the cluster
one simulation planned for it at time ``fctr[PLAN_T]``, -1 when none), ``rng`` (the
state of the random generator used by random fit inside their simulations) and
``memo_f`` / ``memo_i`` (TLA's last winning simulation, a cache that the next decision
may resume from after an exact check).
"""

from __future__ import annotations

import numba
import numpy as np
from numba.core import types
from numba.experimental import structref

from .segtree import WINDOW_MIN, seg_new

__all__ = ["State", "new_state", "drop_run_arrays", "COALLOCATED", "NOT_STARTED"]

COALLOCATED = -1
NOT_STARTED = -2

# ctr (int64) slots
NXT = 0  # next job to submit, as an index into ``order``
QLEN = 1  # waiting jobs
RLEN = 2  # running jobs (heap size)
U_PTR = 3  # next uniform of random fit
N_SPLIT = 4  # used entries of split_site / split_procs
P_FREE = 5  # head of the profile pool's free list (-1: none)
DIRTY = 6  # conservative: first queue rank whose reservation must be recomputed
REBUILD = 7  # conservative: the running jobs' profile changed: FULL or HOLES (rebuild it)
SESSIONS = 8  # scheduling sessions run
EVENTS = 9  # event times processed
P_USED = 10  # profile pool nodes handed out so far (bump allocation past the free list)
TLA_ACTIVATIONS = 11  # look-ahead decisions with a real choice (see .lookahead)
TLA_CHANGES = 12  # ... of which chose another cluster than simulation depth 1 would
LINKS_DIRTY = 13  # bandwidth model: 1 when a co-allocated job started or ended (re-allot)
SLOWED = 14  # bandwidth model: 1 while some co-allocated job runs below full bandwidth
MODULE_CALLS = 15  # co-allocation decisions asked of a bandwidth-aware module
PLACED_SPLIT = 16  # sites of the split a bandwidth-aware module just placed (0: none)
TLA_TWO_FIT = 17  # TLA decisions where at least two clusters fit, whatever else waits
TLA_DISTINCT = 18  # look-ahead decisions whose scores tell two fitting clusters apart
RES_MOVED = 19  # conservative: reservations recomputed to another time or cluster
RES_SEARCHED = 20  # conservative: reservations recomputed by a search (kept ones not)
RES_SEARCHES = 21  # conservative: earliest-fit searches (one per cluster tried)
RES_STEPS = 22  # conservative: profile steps those searches (and the kept checks) scanned
N_CTR = 23

# values of ctr[REBUILD]
FULL = 1  # predicted ends moved (or no profile yet): every reservation may change
HOLES = 2  # only jobs that ended before their predicted ends (``hole_end``) changed it

# fctr (float64) slots
NOW = 0  # time of the last event
LAST_T = 1  # time up to which the queue-length area is accumulated
Q_AREA = 2  # integral of the queue length over time

# fctr slot of the debug check "FCFS starts jobs in arrival order"
LAST_FCFS_START = 3
PLAN_T = 4  # time of the look-ahead's plan (``plan``)
MAX_LEVEL = 5  # bandwidth model: highest link load / capacity right after a start
N_FCTR = 6

# net (float64) slots: the network of Jones 2005 (empty array: no network)
BSBW = 0  # every job's bisection bandwidth (Mbps)
LSLT = 1  # link saturation level threshold (fraction of capacity)
CHUNK = 2  # B3's large chunk (fraction of the job's nodes)
KFRAC = 3  # computation fraction K of every job
DYNAMIC = 4  # 1: co-allocated jobs slow down with link saturation (rate model)
N_NET = 5


# cfg (int64) slots
SEL = 0
ALLOC = 1
COAL = 2
DEBUG = 3
TLA_DEPTH = 4  # look-ahead: jobs simulated per score, the target included (0: all waiting)
TLA_ADEPTH = 5  # look-ahead: allocation depth (decisions taken from one simulation)
TLA_POLICY = 6  # look-ahead: allocation code used inside the simulation
TLA_METRIC = 7  # look-ahead: 0 average turnaround time, 1 bounded slowdown
QUEUE_KEEPS = 8  # the queue's extra trees, a bit mask (.queue; from .selection.QUEUE_KEEPS)
N_CFG = 9


# every field of a State and its dtype (``float``: a scalar), in constructor order, with the
# module that owns it (the engine core unless said otherwise)
FIELDS = (
    ("cap", np.int64),  # processors per cluster
    ("speed", np.float64),  # speed per cluster
    ("free", np.int64),  # free processors per cluster
    ("cfg", np.int64),  # SEL, ALLOC, COAL, DEBUG codes
    ("slowdown", float),  # co-allocation slowdown ratio (Huang 2006)
    ("submit", np.float64),
    ("runtime", np.float64),
    ("procs", np.int64),
    ("estimate", np.float64),
    ("order", np.int64),  # arrival order: stable sort by submit
    ("start", np.float64),
    ("end", np.float64),
    ("clus", np.int64),
    ("anchor", np.float64),
    ("rem", np.float64),
    ("rem_est", np.float64),
    ("rate", np.float64),
    ("pend", np.float64),
    ("heap", np.int64),
    ("hpos", np.int64),
    ("qrank", np.int64),  # .queue (order: .selection.queue_ranks)
    ("at_rank", np.int64),  # .queue
    ("wtree", np.float64),  # .queue: widths
    ("etree", np.float64),  # .queue: estimates (KEEP_ESTIMATES)
    ("rtree", np.float64),  # .reservations (KEEP_RESERVATIONS) ...
    ("res_time", np.float64),  # ...
    ("res_clus", np.int64),  # ...
    ("split_off", np.int64),  # .coallocation ...
    ("split_len", np.int64),
    ("split_site", np.int64),
    ("split_procs", np.int64),
    ("p_time", np.float64),  # .profile node pool (.reservations) ...
    ("p_free", np.int64),
    ("p_next", np.int64),
    ("p_head", np.int64),
    ("hole_end", np.float64),  # .reservations: per cluster, see the module docstring
    ("uniforms", np.float64),  # .placement: random fit's uniforms
    ("origin", np.int64),  # .local: cluster a job arrived at (-1: none)
    ("net", np.float64),  # network parameters (slots above; empty: no network) ...
    ("link_cap", np.float64),  # capacity of each cluster's link to the central switch
    ("link_load", np.float64),  # required bandwidth (Eq. 1) of the co-allocated jobs on it
    ("plan", np.int64),  # look-ahead: cluster planned for a job at PLAN_T (-1: none)
    ("rng", np.uint64),  # look-ahead: splitmix64 state of random fit inside simulations
    ("memo_f", np.float64),  # TLA: the last winning simulation (2-D; see .lookahead)
    ("memo_i", np.int64),
    ("ctr", np.int64),
    ("fctr", np.float64),
)
NAMES = tuple(name for name, _ in FIELDS)


@structref.register
class StateType(types.StructRef):
    """numba type of a :class:`State`."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class State(structref.StructRefProxy):
    """One simulation's state (see the module docstring for every field).

    A mutable numba ``StructRef``: kernels receive it by reference, so a call costs one
    reference count whatever the number of fields. (A ``NamedTuple`` of these 38 arrays
    cost 76 atomic reference-count operations per kernel call, measured as 56% of the
    engine's time on the SDSC log.) In Python, fields read as attributes
    (``state.start``); build one with :func:`new_state`.
    """

    __slots__ = ()


structref.define_constructor(State, StateType, NAMES)
structref.define_boxing(StateType, State)


@numba.njit(cache=True)
def _make(*args):
    return State(*args)


@numba.njit(cache=True)
def _as_tuple(s):
    return (
        s.cap,
        s.speed,
        s.free,
        s.cfg,
        s.slowdown,
        s.submit,
        s.runtime,
        s.procs,
        s.estimate,
        s.order,
        s.start,
        s.end,
        s.clus,
        s.anchor,
        s.rem,
        s.rem_est,
        s.rate,
        s.pend,
        s.heap,
        s.hpos,
        s.qrank,
        s.at_rank,
        s.wtree,
        s.etree,
        s.rtree,
        s.res_time,
        s.res_clus,
        s.split_off,
        s.split_len,
        s.split_site,
        s.split_procs,
        s.p_time,
        s.p_free,
        s.p_next,
        s.p_head,
        s.hole_end,
        s.uniforms,
        s.origin,
        s.net,
        s.link_cap,
        s.link_load,
        s.plan,
        s.rng,
        s.memo_f,
        s.memo_i,
        s.ctr,
        s.fctr,
    )


def _reader(i: int):
    return property(lambda self: _as_tuple(self)[i])


for _i, _name in enumerate(NAMES):
    setattr(State, _name, _reader(_i))


@numba.njit(cache=True)
def set_split_buffers(s, site, procs):
    """Give ``s`` new co-allocation split buffers (``split_site``, ``split_procs``)."""
    s.split_site = site
    s.split_procs = procs


@numba.njit(cache=True)
def _drop(s, f, i, f2, i2):
    s.order = i
    s.qrank = i
    s.at_rank = i
    s.anchor = f
    s.rem = f
    s.rem_est = f
    s.rate = f
    s.pend = f
    s.heap = i
    s.hpos = i
    s.wtree = f
    s.etree = f
    s.rtree = f
    s.res_time = f
    s.res_clus = i
    s.p_time = f
    s.p_free = i
    s.p_next = i
    s.uniforms = f
    s.plan = i
    s.memo_f = f2
    s.memo_i = i2


RUN_ONLY = tuple(
    "order qrank at_rank anchor rem rem_est rate pend heap hpos wtree"
    " etree rtree res_time res_clus p_time p_free p_next uniforms plan memo_f memo_i".split()
)
"""The fields :func:`drop_run_arrays` empties."""


def drop_run_arrays(s: State) -> None:
    """Replace the fields of ``s`` that only a running engine reads (:data:`RUN_ONLY`:
    the queue's order and trees, the heap, the rate model's arrays, the conservative
    pool, random fit's uniforms, the look-ahead's plan and memo) with empty arrays, so
    that their memory is free once a run has ended (issue 55's memory per job). Its
    result, counters, splits and inputs stay. ``s`` must not run again."""
    f, i = np.empty(0), np.empty(0, np.int64)
    _drop(s, f, i, np.empty((0, 0)), np.empty((0, 0), np.int64))


@numba.njit(cache=True)
def _set_split_index(s, off, length):
    s.split_off = off
    s.split_len = length


def take_split_index(s: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The co-allocated jobs (``clus == COALLOCATED``, in job order) with their split
    entries' offsets and counts, ``split_off`` and ``split_len`` of those jobs only; the
    state's two job-sized arrays are then emptied (16 bytes per job freed before the
    metrics and the allocation matrix are made: issue 55's memory per job). As after
    :func:`drop_run_arrays`, ``s`` must not run again; its split entries stay. A step of
    :func:`.engine.finish_run` on the engine's own state, not part of the package's API
    (left out of ``__all__``)."""
    co = np.flatnonzero(s.clus == COALLOCATED)
    off, length = s.split_off[co], s.split_len[co]
    empty = np.empty(0, np.int64)
    _set_split_index(s, empty, empty)
    return co, off, length


def _tree_size(n: int) -> int:
    size = 1
    while size < max(n, 1):
        size *= 2
    return size


def new_state(
    submit,
    runtime,
    procs,
    estimate,
    cap,
    speed,
    qrank,
    cfg,
    slowdown,
    uniforms,
    conservative: bool,
    rng_seed: int = 0,
    origin=None,
    net=None,
    link_cap=None,
    memo: bool = False,
    estimates: bool = True,
    coallocation: bool = True,
    rates: bool = True,
    share: bool = True,
) -> State:
    """A fresh state at time ``submit.min()``: nothing running, nobody waiting yet.

    ``qrank`` is each job's rank in the selection's queue order (a permutation of
    ``0..n-1``). The conservative profile pool (only allocated for ``conservative``)
    holds one head step per cluster plus at most two steps per running or waiting job,
    so ``m + 4 n + 8`` nodes always suffice (steps are merged as they fall behind).
    ``rng_seed`` seeds the look-ahead's random fit (:mod:`.lookahead`). ``origin`` (each
    job's cluster of arrival), ``net`` (slots ``BSBW`` ... ``DYNAMIC``) and ``link_cap``
    describe Jones 2005's network; by default there is none. ``memo`` gives TLA room to
    keep its last winning simulation (:mod:`.lookahead`; O(n + m) numbers).

    An array that no kernel of the run can read gets one entry instead of one per job
    (or per rank), so a run of simple policies allocates and fills less: ``etree``
    without ``estimates`` (the queue keeps no estimate tree, :mod:`.queue`),
    ``res_time`` and ``res_clus`` without ``conservative``, ``plan`` without ``memo``
    (only TLA plans), ``split_off`` without ``coallocation`` (read only for co-allocated
    jobs) and ``origin`` when there is none (read only by the local allocations, which
    need it).

    Shared arrays (issue 55's memory per job; each is resident once):

    * the inputs (``submit``, ``runtime``, ``procs``, ``estimate``, ``origin``) are the
      caller's arrays, not copies, when their dtype fits, read-only ones (pandas columns
      under copy on write) as writeable views (:func:`_shared_input`); an ``estimate``
      that is the ``runtime`` array stays one array. Safe because no kernel writes an
      input (every assignment in the kernels is to another field);
    * ``order``, ``qrank`` and ``at_rank`` are written here only, so those with equal
      values are one array: ``at_rank`` is ``order`` for an arrival-order queue (the
      inverse of the inverse), and when ``submit`` is already sorted (Jones's workloads
      are) all three are the identity, one ``arange``;
    * with ``rates=False`` (the caller promises that no rate model runs: no
      :func:`.rates.set_rate`), ``anchor`` is ``start``'s array: a job's anchor is then
      written once, at its start, with the value written to ``start`` (:func:`.events.
      start_job`), and only ``set_rate`` moves an anchor or reads one;
    * when every estimate equals the run time (no estimate column, or exact estimates),
      ``rem_est`` is ``rem``'s array and ``pend`` is ``end``'s: every kernel that writes
      one of a pair writes the other with the same value from the same operands
      (:func:`.events.start_job`, :func:`.rates.set_rate`, which reads both remainders
      before writing either), except a finish (:func:`.events`), which sets ``end`` to
      the finish time and ``rem`` to 0 after the last read of that job's ``pend``
      (:func:`.reservations.on_release`); nothing reads a finished job's ``pend`` or
      ``rem_est``.

    ``share=False`` gives every field its own array (the inputs copied): the tests run
    both ways and compare the schedules bit for bit.
    """
    n, m = submit.size, cap.size
    window = min(_tree_size(n), WINDOW_MIN)  # the queue widens it as needed (.queue)
    if n and np.all(submit[1:] >= submit[:-1]):  # already in arrival order (the stable sort)
        order = np.arange(n)
    else:
        order = np.argsort(submit, kind="stable")
    at_rank = np.empty(n, np.int64)
    at_rank[qrank] = np.arange(n)
    if share and np.array_equal(at_rank, order):  # arrival-order queue: equal, read-only
        at_rank = order
    qrank = order if share and np.array_equal(qrank, order) else qrank.astype(np.int64)
    pool = m + 4 * n + 8 if conservative else 1
    ctr = np.zeros(N_CTR, np.int64)
    ctr[P_FREE] = -1  # empty free list: nodes come from the bump pointer P_USED
    fctr = np.zeros(N_FCTR)
    fctr[LAST_FCFS_START] = -np.inf
    fctr[PLAN_T] = np.nan
    first = float(submit[order[0]]) if n else 0.0
    fctr[NOW] = first
    fctr[LAST_T] = first
    values = dict(
        cap=cap.astype(np.int64),
        speed=speed.astype(float),
        free=cap.astype(np.int64).copy(),
        cfg=np.asarray(cfg, np.int64),
        slowdown=float(slowdown),
        submit=submit,
        runtime=runtime,
        procs=procs,
        estimate=estimate,
        order=order,
        start=np.full(n, np.nan),
        end=np.full(n, np.nan),
        clus=np.full(n, NOT_STARTED, np.int64),
        anchor=np.zeros(n),  # or start's array (below)
        rem=np.zeros(n),
        rem_est=np.zeros(n),
        rate=np.zeros(n),
        pend=np.full(n, np.nan),
        heap=np.empty(n, np.int64),
        hpos=np.full(n, -1, np.int64),
        qrank=qrank,
        at_rank=at_rank,
        wtree=seg_new(window),
        etree=seg_new(window if estimates else 1),
        rtree=seg_new(window if conservative else 1),
        res_time=np.full(n if conservative else 1, np.inf),
        res_clus=np.full(n if conservative else 1, -1, np.int64),
        split_off=np.full(n if coallocation else 1, -1, np.int64),
        split_len=np.zeros(n, np.int64),
        split_site=np.empty(max(n, 1) + m, np.int64),
        split_procs=np.empty(max(n, 1) + m, np.int64),
        p_time=np.zeros(pool),
        p_free=np.zeros(pool, np.int64),
        p_next=np.full(pool, -1, np.int64),
        p_head=np.full(m, -1, np.int64),
        hole_end=np.full(m, -np.inf),
        uniforms=uniforms,
        origin=np.full(1, -1, np.int64) if origin is None else origin,
        net=np.empty(0) if net is None else net,
        link_cap=np.zeros(m) if link_cap is None else link_cap,
        link_load=np.zeros(m),
        plan=np.full(n if memo else 1, -1, np.int64),
        rng=np.asarray([rng_seed], np.uint64),
        memo_f=np.zeros((4, max(n, m + 3) + 1 if memo else 1)),
        memo_i=np.zeros((5, max(n, m + 3) + 1 if memo else 1), np.int64),
        ctr=ctr,
        fctr=fctr,
    )
    for name in INPUTS:
        values[name] = (
            _shared_input(values[name], dict(FIELDS)[name])
            if share
            else np.array(values[name], dict(FIELDS)[name])
        )
    if share and not rates:
        values["anchor"] = values["start"]
    if share and np.array_equal(values["estimate"], values["runtime"]):
        values["rem_est"] = values["rem"]
        values["pend"] = values["end"]
    state = _make(
        *(
            float(values[name]) if dtype is float else np.require(values[name], dtype, ["C", "W"])
            for name, dtype in FIELDS
        )
    )
    return state


INPUTS = ("submit", "runtime", "procs", "estimate", "origin")
"""The per-job inputs: no kernel writes them (the module docstring)."""


def _shared_input(values, dtype) -> np.ndarray:
    """``values`` as a C-contiguous array of ``dtype`` for an input field, shared rather
    than copied when it already is one: a read-only array (a pandas column, read-only
    under copy on write) is given as a writeable view of the same memory when its owner
    allows it, since no kernel writes an input (numba's state fields are writeable
    arrays; a read-only one would type every kernel anew). Anything else: a copy."""
    values = np.asarray(values)
    if values.dtype == dtype and values.flags.c_contiguous and not values.flags.writeable:
        view = values.view()
        try:
            view.flags.writeable = True
        except ValueError:  # memory that is read-only at its source: copied below
            pass
        else:
            return view
    return np.require(values, dtype, ["C", "W"])
