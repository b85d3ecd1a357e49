"""The discrete-event engine: a short loop of numba kernels over one :class:`State`.

``run`` repeats ``process_events`` (the next time stamp's finishes, the rate model,
then its submissions) and ``session`` (the selection policy's scheduling session) until
no event is left, or until a given time (PAUSED: a later call goes on from there, to
the same schedule). ``simulate`` validates the input, builds the state, runs it and
computes the metrics (semantics: package docstring). The look-ahead allocations do not
run the engine ahead: they simulate on arrays gathered from the state
(:mod:`.lookahead`).

The engine knows no policy by name. A policy plugs into one of four hooks, each one
table that dispatches on the policy's code: the selection (:func:`.selection.session`),
the allocation (:func:`.placement.place`), the co-allocation
(:mod:`.coallocation`) and the rate model (:func:`.rates.apply_rates`);
``docs/architecture.md`` lists them and what adding a policy costs.

Cost per event: the next event comes from the running jobs' heap (O(log r)) or the
next submission (O(1)); finishes and submissions cost O(log w) each, w the window of
queue ranks from the first to the last waiting job (:mod:`.queue`; the window's moves
are O(1) amortised per submission in arrival order); sessions as stated in
:mod:`.selection`. Memory is O(n + m) (the per-site split is stored only for
co-allocated jobs), so 10^5 jobs on 300 clusters need a few MB, not a jobs x clusters
matrix.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import MappingProxyType

import numba
import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..bounds import MAX_SEED
from ..equality import ByValue
from ..errors import (
    InvalidParameter,
    InvalidType,
    check_array,
    check_bool,
    check_int,
    check_real,
    reworded,
)
from .allocation import AI2, ALLOCATIONS, COALLOCATIONS, LOCAL_FIRST, LOCAL_ONLY, RANDOM_FIT, TLA
from .coallocation_modules import A1, MODULES, module_split
from .events import next_time, process_events
from .lookahead import TLAOptions
from .metrics import compute_metrics
from .network import Network
from .profile import init_pool
from .queue import KEEP_ESTIMATES, KEEP_RESERVATIONS
from .rates import BANDWIDTH, CROWDING, NO_MODEL, RATE_MODELS
from .segtree import seg_base
from .selection import BACKFILLING, QUEUE_KEEPS, SELECTIONS, queue_ranks, session
from .state import (
    ALLOC,
    COAL,
    DEBUG,
    EVENTS,
    FULL,
    MAX_LEVEL,
    MODULE_CALLS,
    N_CFG,
    N_SPLIT,
    NOT_STARTED,
    Q_AREA,
    QLEN,
    REBUILD,
    RES_MOVED,
    RES_SEARCHED,
    RES_SEARCHES,
    RES_STEPS,
    RLEN,
    SESSIONS,
    TLA_ACTIVATIONS,
    TLA_CHANGES,
    TLA_DEPTH,
    TLA_DISTINCT,
    TLA_METRIC,
    TLA_TWO_FIT,
    State,
    drop_run_arrays,
    new_state,
    set_split_buffers,
    take_split_index,
)
from .state import (
    QUEUE_KEEPS as KEEPS_SLOT,
)
from .system import MAX_PROCS, Cluster, System, as_system
from .tla_branch import MAX_TLA_PROCS

__all__ = ["SELECTIONS", "ALLOCATIONS", "COALLOCATIONS", "Result", "simulate", "run"]

DONE, PAUSED, NEED_ROOM = 0, 1, 2

SPLIT_ROOM = 2
"""Co-allocation split entries the first split buffers hold per job (``split_site``,
``split_procs``; :func:`build_state` adds a full system's worth): every job co-allocated
on two sites, or half of them on four, before :func:`grow_split` must copy them into
buffers twice as long. The buffers are ``np.empty``: their room is address space,
resident only where splits are written, so a run that co-allocates little pays for the
entries it writes, while a copy to grow holds the old and the new buffers at once (the
peak of a co-allocating run that grew: issue 55's memory per job)."""

ROWS_PER_PASS = 1 << 16
"""Rows of the allocation matrix filled per pass (:func:`_sparse_allocation`): the
temporaries of a pass stay a few megabytes, whatever the number of jobs."""


@dataclass(eq=False)
class Result(ByValue):
    """Per-job schedule (input order) and the run's metrics.

    ``allocation`` is a sparse (jobs x clusters) matrix of processors per site
    (``scipy.sparse.csr_array``; ``.toarray()`` for a dense copy): one entry per job on
    a single site, one per site for a co-allocated job."""

    jobs: pd.DataFrame
    metrics: dict
    clusters: list
    allocation: sp.csr_array = field(repr=False)
    counters: dict = field(default_factory=dict)


@numba.njit(cache=True)
def _check(state):
    """Debug invariants after a session: free processors within [0, capacity] and equal
    to capacity minus what the running jobs hold; the queue tree's window holds exactly
    the waiting jobs, each leaf its job's width (:mod:`.queue`)."""
    tree = state.wtree
    size = tree.size // 2
    base = seg_base(tree)
    waiting = 0
    for i in range(size, 2 * size):
        if tree[i] < np.inf:
            waiting += 1
            j = state.at_rank[i - size + base]
            if state.clus[j] != NOT_STARTED or tree[i] != state.procs[j]:
                raise AssertionError("queue tree leaf is not a waiting job's width")
    if waiting != state.ctr[QLEN]:
        raise AssertionError("queue tree window does not hold every waiting job")
    m = state.cap.size
    held = np.zeros(m, np.int64)
    for k in range(state.ctr[RLEN]):
        j = state.heap[k]
        c = state.clus[j]
        if c >= 0:
            held[c] += state.procs[j]
        else:
            off = state.split_off[j]
            for i in range(off, off + state.split_len[j]):
                held[state.split_site[i]] += state.split_procs[i]
    for c in range(m):
        if state.free[c] < 0 or state.free[c] > state.cap[c]:
            raise AssertionError("free processors out of [0, capacity]")
        if state.free[c] + held[c] != state.cap[c]:
            raise AssertionError("free + held processors != capacity")


@numba.njit(cache=True)
def run(state, rate_code, params, until):
    """Process events and sessions until none is left (DONE), the next event is after
    ``until`` (PAUSED) or the co-allocation split buffer may overflow (NEED_ROOM: grow
    it with :func:`grow_split` and call again; the state is between two events).
    ``declined`` marks the widths a co-allocation module declined since the last start
    or finish (:func:`.selection.greedy.one_pass`)."""
    room = state.cap.sum()
    everywhere = np.ones(state.cap.size, np.bool_)
    declined = np.zeros(room + 1, np.bool_)
    modules = state.cfg[COAL] >= A1
    while True:
        if state.cfg[COAL] > 0 and state.split_site.size - state.ctr[N_SPLIT] < room:
            return NEED_ROOM
        t = next_time(state)
        if t == np.inf:
            return DONE
        if t > until:
            return PAUSED
        stamp, finished = process_events(state, rate_code, params)
        if modules and finished > 0:  # free nodes and link loads moved: declined may fit
            declined[:] = False
        session(state, stamp, rate_code, params, everywhere, declined)
        if state.cfg[DEBUG]:
            _check(state)


def grow_split(state: State) -> State:
    """Give ``state`` twice the room for co-allocation splits; return it. Only the used
    entries are copied: the new tail is ``np.empty`` and stays out of resident memory
    until splits are written there (``np.resize`` repeated the old entries over it:
    issue 55's memory per job). No kernel reads an entry it has not written."""
    used = int(state.ctr[N_SPLIT])
    buffers = []
    for old in (state.split_site, state.split_procs):
        new = np.empty(2 * old.size, old.dtype)
        new[:used] = old[:used]
        buffers.append(new)
    set_split_buffers(state, *buffers)
    return state


def run_to_end(state: State, rate_code: int = 0, params=None) -> State:
    """Run ``state`` until no event is left (growing the split buffer when needed);
    return the (possibly re-allocated) state."""
    params = np.empty(0) if params is None else np.asarray(params, float)
    while run(state, rate_code, params, np.inf) == NEED_ROOM:
        state = grow_split(state)
    return state


TIME_COLUMNS = ("submit", "runtime", "estimate")
"""The jobs' columns in seconds: a ``timedelta64`` column among them is converted to seconds."""


def _column(jobs: pd.DataFrame, name: str, source: str) -> np.ndarray:
    """Column ``source`` of ``jobs`` as float64; a column of bools, strings or other
    objects is an InvalidParameter naming the column (``name``). Units: a time column
    (:data:`TIME_COLUMNS`) of ``timedelta64`` is read in seconds, whatever its
    resolution (a duration, or a submit time since the workload's start); a
    ``datetime64`` column, or a timedelta or datetime in a column of objects or in a
    count column (``procs``, ``origin``), is refused, since a calendar date or a raw
    count of nanoseconds is no number of seconds."""
    column = jobs[source]
    kind = column.dtype.kind
    if kind == "m" and name in TIME_COLUMNS:
        if column.isna().any():
            i = int(np.argmax(column.isna().to_numpy()))
            raise InvalidParameter(
                f"jobs column {name!r}: job {jobs.index[i]!r} has {name} = NaT (must be finite)"
            )
        return column.dt.total_seconds().to_numpy(dtype=float)
    if kind in "mM":
        what = "a date (datetime64)" if kind == "M" else "a duration (timedelta64)"
        hint = (
            "seconds since the workload's start, e.g. (t - t.min()).dt.total_seconds()"
            if name in TIME_COLUMNS
            else "a whole number"
        )
        raise InvalidParameter(f"jobs column {name!r} holds {what}: it must hold {hint}")
    if kind == "b":
        raise InvalidParameter(f"jobs column {name!r} must hold numbers, not bools")
    if kind not in "iuf":  # an object column: numbers only, one by one
        for i, v in enumerate(column.to_numpy()):
            if isinstance(
                v, bool | np.bool_ | str | bytes | np.timedelta64 | np.datetime64
            ) or not isinstance(v, numbers.Real):
                raise InvalidParameter(
                    f"jobs column {name!r} is not numeric: job {jobs.index[i]!r} has {name} = {v!r}"
                    + (
                        " (give a whole column of timedelta64, read in seconds)"
                        if isinstance(v, np.timedelta64)
                        else ""
                    )
                )
    try:
        return column.to_numpy(dtype=float)
    except (TypeError, ValueError, OverflowError) as err:
        raise InvalidParameter(f"jobs column {name!r} is not numeric: {err}") from None


def _as_jobs(jobs: pd.DataFrame) -> dict[str, np.ndarray]:
    """Validated job arrays: submit, runtime, estimate finite and >= 0; procs and origin
    whole numbers (an integral float such as 4.0 is read as 4), procs in [1, 2**53];
    every column numeric (no bools, strings or objects)."""
    if not isinstance(jobs, pd.DataFrame):
        raise InvalidType(
            "jobs must be a pandas DataFrame with columns submit, runtime, procs, got "
            f"{type(jobs).__name__}"
        )
    if len(jobs) == 0:
        raise InvalidParameter("empty workload: jobs has no rows")
    missing = [c for c in ("submit", "runtime", "procs") if c not in jobs]
    if missing:
        raise InvalidParameter(f"jobs lacks column(s) {missing} (needs submit, runtime, procs)")
    out = {}
    origin = _whole(jobs, "origin", 0)
    if origin is not None:
        out["origin"] = origin
    elif "origin" in jobs:
        origin = _column(jobs, "origin", "origin")
        bad = ~np.isfinite(origin) | (origin < 0) | (origin != np.round(origin))
        if bad.any():
            i = int(np.argmax(bad))
            raise InvalidParameter(
                f"job {jobs.index[i]!r}: origin = {origin[i]!r} (jobs column "
                "'origin' must hold cluster indices, whole numbers >= 0)"
            )
        out["origin"] = np.minimum(origin, 2.0**62).astype(np.int64)
    procs = _whole(jobs, "procs", 1)
    for name in ("submit", "runtime", "procs", "estimate"):
        if name == "procs" and procs is not None:
            continue
        values = _column(jobs, name, "runtime" if name == "estimate" and name not in jobs else name)
        bad = ~np.isfinite(values) | (values < (1 if name == "procs" else 0))
        if name == "procs":
            bad |= values > MAX_PROCS
        if bad.any():
            i = int(np.argmax(bad))
            rule = ">= 1 and <= 2**53" if name == "procs" else ">= 0"
            raise InvalidParameter(
                f"jobs column {name!r}: job {jobs.index[i]!r} has {name} = {values[i]!r} "
                f"(must be finite, {rule})"
            )
        out[name] = values
    if procs is not None:
        out["procs"] = procs
        return out
    if np.any(out["procs"] != np.round(out["procs"])):
        i = int(np.argmax(out["procs"] != np.round(out["procs"])))
        raise InvalidParameter(
            f"job {jobs.index[i]!r}: procs = {out['procs'][i]!r} (must be a whole number)"
        )
    out["procs"] = out["procs"].astype(np.int64)
    return out


def _whole(jobs: pd.DataFrame, name: str, least: int) -> np.ndarray | None:
    """Column ``name`` itself (no copy: issue 55's memory per job) when it is int64 with
    every value in ``[least, 2**53]``, where the float64 reading of :func:`_as_jobs` is
    exact and accepts every value, so the arrays are equal; None otherwise (absent, another
    dtype, or a value out of range: :func:`_as_jobs` reads it through float64 and names
    the culprit)."""
    if name not in jobs or jobs[name].dtype != np.int64:
        return None
    values = jobs[name].to_numpy()
    if values.size and (values.min() < least or values.max() > MAX_PROCS):
        return None
    return values


def _rate_model(rate_model) -> tuple[int, np.ndarray]:
    """``(code, params)`` of a validated ``rate_model``: None, or a ``(name, params)``
    pair (tuple or list) with ``name`` ``"crowding"`` and ``params`` a sequence of two
    numbers: a whole number of jobs >= 0 and a rate factor in (0, 1]."""
    if rate_model is None:
        return 0, np.empty(0)
    if not isinstance(rate_model, tuple | list) or len(rate_model) != 2:
        raise InvalidParameter(f"rate_model must be a (name, params) pair, got {rate_model!r}")
    name, params = rate_model
    if name == "bandwidth" or not isinstance(name, str):
        raise InvalidParameter(
            f"unknown rate model {name!r} in rate_model; choose 'crowding' (the bandwidth "
            "model comes with network=Network(...))"
        )
    code = _code(name, RATE_MODELS, "rate model")
    try:
        values = check_array("rate_model parameters", params, ndim=1)
    except InvalidParameter as err:
        raise reworded(
            err, f"rate model parameters must be finite numbers (rate_model), got {params!r:.80}"
        ) from None
    if values.size != 2:
        raise InvalidParameter(
            f"rate_model 'crowding' takes 2 parameters (jobs, rate factor), got {params!r}"
        )
    check_int("rate_model 'crowding' threshold (jobs)", values[0], minimum=0)
    check_real("rate_model 'crowding' rate factor", values[1], above=0, at_most=1)
    return code, values


def idle_unplaceable(code: int, system: System, network: Network, procs: np.ndarray) -> np.ndarray:
    """Which of the widths ``procs`` bandwidth-aware co-allocation module ``code`` (``A1``
    ... ``B4``) cannot place even on the idle system: every node free, every link
    unloaded. One module call per distinct width.

    The idle system is the best state a module ever sees, so a job it cannot place there
    (and that fits no single cluster, so local allocation and migration never place it)
    would wait forever. The modules only lose options as free nodes fall and link loads
    rise (:mod:`.coallocation_modules`):

    * B1-B4 use the clusters whose link load is below LSLT x capacity (at load 0 all of
      them when LSLT > 0; under any load a subset) and place a job exactly when those
      clusters' free nodes add up to ``p``: B1 and B2 take them in their orders until
      ``p`` are covered, B4 deals them one at a time. B3 also needs the eligible cluster
      with the most free nodes to hold ``ceil(chunk x p)``: the most free nodes an
      eligible cluster can have is its capacity, which it has at idle.
    * A1 may put ``x`` nodes on cluster ``i`` when ``x <= free_i`` and ``x = 0`` or the
      demand of ``x`` nodes (Eq. 1, fixed by ``x`` and ``p``) fits within LSLT x
      capacity - load (Eqs. 9-10, as :func:`~hpcmodels.bandwidth.modules.a1_brute_force`
      states them): each cluster's set of counts shrinks as its free nodes fall and its
      load rises, so any split Eq. 11 accepts later it accepts at idle.
    """
    cap, link_cap = system.procs, system.links
    m = cap.size
    idle_load = np.zeros(m)
    sites, widths = np.empty(m, np.int64), np.empty(m, np.int64)
    out = np.zeros(procs.size, bool)
    for p in np.unique(procs):
        used = module_split(
            code,
            cap.copy(),
            idle_load,
            link_cap,
            int(p),
            network.bsbw,
            network.lslt,
            network.chunk,
            sites,
            widths,
            0,
        )
        out[procs == p] = used == 0
    return out


def _code(name, options, what) -> int:
    if (name is not None and not isinstance(name, str)) or name not in options:
        raise InvalidParameter(f"unknown {what} {name!r}; choose one of {list(options)}")
    return options.index(name)


def build_state(
    data: dict,
    cap: np.ndarray,
    speed: np.ndarray,
    sel: int,
    alloc: int,
    coal: int,
    slowdown: float,
    seed: int,
    debug: bool,
    tla: TLAOptions | None = None,
    network: Network | None = None,
    links: np.ndarray | None = None,
    rates: bool = True,
) -> State:
    """A fresh engine state for validated job arrays (``data``: submit, runtime, procs,
    estimate). ``links``: the links' capacities (:attr:`.System.links`), given with
    ``network``. One ``default_rng(seed)`` draws random fit's uniforms, then the seed of
    the look-ahead's random stream. ``rates=False`` promises that the state is run with
    no rate model (rate code 0), so that ``anchor`` shares ``start``'s array
    (:func:`.state.new_state`)."""
    n = data["submit"].size
    cfg = np.zeros(N_CFG, np.int64)
    cfg[:4] = (sel, alloc, coal, int(debug))
    cfg[TLA_DEPTH : TLA_METRIC + 1] = (tla or TLAOptions()).codes()
    cfg[KEEPS_SLOT] = QUEUE_KEEPS[sel]
    reservations = bool(QUEUE_KEEPS[sel] & KEEP_RESERVATIONS)
    rng = np.random.default_rng(seed)
    uniforms = rng.random(n) if alloc == RANDOM_FIT else np.empty(0)
    state = new_state(
        data["submit"],
        data["runtime"],
        data["procs"],
        data["estimate"],
        cap,
        speed,
        queue_ranks(data["submit"], data["procs"], sel),
        cfg,
        slowdown,
        uniforms,
        conservative=reservations,
        rng_seed=int(rng.integers(2**63)),
        origin=data.get("origin"),
        net=None if network is None else network.parameters(),
        link_cap=None if network is None else links,
        memo=alloc == TLA,
        estimates=bool(QUEUE_KEEPS[sel] & KEEP_ESTIMATES),
        coallocation=coal > 0,
        rates=rates,
    )
    if reservations:
        init_pool(state)
        state.ctr[REBUILD] = FULL
    if coal:
        room = SPLIT_ROOM * n + int(cap.sum()) + cap.size
        set_split_buffers(state, np.empty(room, np.int64), np.empty(room, np.int64))
    return state


def _sparse_allocation(
    state: State, keep: np.ndarray, m: int, split_index: tuple[np.ndarray, ...]
) -> sp.csr_array:
    """Processors per (input job, cluster) as a CSR matrix: a single-site job's row holds
    its cluster, a co-allocated job's row its sites in increasing order, a dropped job's
    row nothing. ``split_index``: :func:`.state.take_split_index`'s co-allocated jobs,
    their split entries' offsets and counts. Built as CSR directly (no coordinate
    triples, no sort: issue 55's memory per job), with int64 indices as the triples
    gave, and filled :data:`ROWS_PER_PASS` rows at a time, so that its temporaries do
    not grow with the run (rows are independent: the same matrix as one pass)."""
    clus, procs = state.clus, state.procs
    split_site, split_procs = state.split_site, state.split_procs
    co, co_off, co_len = split_index
    single = clus >= 0
    n = clus.size
    indptr = np.zeros(keep.size + 1, np.int64)
    counts = indptr[1:] if keep.all() else np.zeros(n, np.int64)
    counts[:] = single
    counts[co] = co_len
    if not keep.all():
        indptr[1:][keep] = counts
        del counts
    np.cumsum(indptr[1:], out=indptr[1:])
    nnz = int(indptr[-1])
    first = indptr[:-1] if keep.all() else indptr[:-1][keep]  # each kept job's first entry
    indices, data = np.empty(nnz, np.int64), np.empty(nnz, np.int64)
    if co.size == 0 and nnz == keep.size:  # every job on one site: one entry per row, in order
        indices[:] = clus
        data[:] = procs
        return sp.csr_array((data, indices, indptr), shape=(keep.size, m))
    for lo in range(0, n, ROWS_PER_PASS):
        rows = slice(lo, lo + ROWS_PER_PASS)
        one = single[rows]
        at = first[rows][one]
        indices[at] = clus[rows][one]
        data[at] = procs[rows][one]
    for lo in range(0, co.size, ROWS_PER_PASS):
        part = slice(lo, lo + ROWS_PER_PASS)
        lens = co_len[part]
        # the split entries of job j are split_off[j] .. split_off[j] + split_len[j] - 1;
        # a row lists its sites in increasing order, as scipy's conversion sorted them
        within = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
        source = np.repeat(co_off[part], lens) + within
        sites = split_site[source]
        by_site = np.lexsort((sites, np.repeat(np.arange(lens.size), lens)))
        at = np.repeat(first[co[part]], lens) + within
        indices[at] = sites[by_site]
        data[at] = split_procs[source][by_site]
    return sp.csr_array((data, indices, indptr), shape=(keep.size, m))


def simulate(
    jobs: pd.DataFrame,
    clusters: Iterable[Cluster] | System,
    selection: str = "fcfs",
    allocation: str = "first_fit",
    *,
    coallocation: str | None = None,
    slowdown: float = 1.0,
    seed: int = 0,
    drop_too_wide: bool = False,
    rate_model=None,
    tla: TLAOptions | None = None,
    network: Network | None = None,
    debug: bool = False,
) -> Result:
    """Simulate rigid jobs on clusters (semantics in the package docstring).

    ``jobs`` needs ``submit``, ``runtime`` (seconds at speed 1) and ``procs``; an
    ``estimate`` column (default: the runtime) feeds the backfilling policies.
    ``coallocation`` (``"fixed_order"``, ``"larger_first"``, ``"smaller_first"``) lets a
    job that fits no single cluster run across sites, ``slowdown`` times slower (Huang
    2006; also with Jones's modules below; a ``slowdown`` other than 1 without
    co-allocation is refused, since nothing would read it). A job wider than every cluster (than all of them
    together, with co-allocation) is an error, or with ``drop_too_wide=True`` is left
    out and counted in ``metrics["dropped"]``; when every job is left out the result is
    empty (no rows scheduled, metrics NaN). With a bandwidth-aware module (``coallocation="a1"`` ...
    ``"b4"``, Jones 2005) so is a job wider than every cluster that the module cannot
    split even on the idle system (every node free, no link load: its best state, see
    :func:`idle_unplaceable`), since it could never start; so every job kept starts.
    ``tla`` sets TLA's knobs (:class:`.lookahead.TLA`; default: every waiting job
    simulated, allocation depth 1, fastest first inside, ATT) and is refused with any
    allocation but ``"tla"``; with ``allocation="tla"`` the counters report its
    activations and decision changes against simulation depth 1; with
    ``selection="conservative"`` they count the reservations recomputed to another time
    or cluster (``reservations_moved``), those recomputed by a search
    (``reservations_searched``), the earliest-fit searches (``searches``, one per
    cluster tried) and the profile steps they scanned (``search_steps``). ``network`` (Jones
    2005's links) applies to a bandwidth-aware module, or, when dynamic, to a Huang
    heuristic's co-allocated jobs; elsewhere (no co-allocation, or a static network with
    a Huang heuristic) it is refused. ``rate_model=(rate_code, params)`` plugs in a model of running
    jobs' progress rates (see :mod:`hpcmodels.multicluster.rates`). ``debug=True``
    asserts the engine's invariants as it runs.

    ``clusters`` may be a :class:`.System` or any iterable of :class:`.Cluster` (read once; ``Result.clusters``
    lists them); ``seed`` is a whole number in [0, 2**63 - 1] (``2.0`` is read as 2). ``jobs`` must be
    a DataFrame (a list or dict is refused, not converted) whose columns are numbers,
    not bools or strings: ``submit``, ``runtime`` and ``estimate`` finite and >= 0,
    ``procs`` whole numbers in [1, 2**53] (``4.0`` is read as 4; at most 2**43 - 1 with
    ``allocation="tla"``, whose look-ahead packs a job's processors and cluster in 64
    bits), ``origin`` whole numbers >= 0; every job's end must stay finite. ``slowdown`` is a finite number >= 1;
    ``drop_too_wide`` and ``debug`` are bools; ``rate_model`` is None or a ``(name,
    params)`` tuple or list, ``("crowding", [jobs, factor])`` with a whole number of jobs
    >= 0 and a factor in (0, 1]; ``tla`` a :class:`.TLAOptions`, ``network`` a
    :class:`~hpcmodels.bandwidth.Network` (else :class:`~hpcmodels.errors.InvalidType`).
    Bad input is an :class:`~hpcmodels.errors.InvalidParameter` naming the parameter and
    the value.
    """
    prepared = prepare_run(
        jobs,
        clusters,
        selection,
        allocation,
        coallocation=coallocation,
        slowdown=slowdown,
        seed=seed,
        drop_too_wide=drop_too_wide,
        rate_model=rate_model,
        tla=tla,
        network=network,
        debug=debug,
    )
    if isinstance(prepared, Result):  # every job left out
        return prepared
    prepared.state = run_to_end(prepared.state, prepared.rate_code, prepared.params)
    return finish_run(prepared)


@dataclass(eq=False)
class _Run:
    """A validated run: its engine state and what :func:`finish_run` needs to report it."""

    state: State
    rate_code: int
    params: np.ndarray
    out: pd.DataFrame  # the input jobs, to receive start, end and cluster
    keep: np.ndarray  # which input jobs run (the others are too wide and dropped)
    kept: dict  # the kept jobs' validated arrays
    cap: np.ndarray
    dropped: int
    clusters: list


SIMULATE_DEFAULTS = MappingProxyType(
    {
        name: parameter.default
        for name, parameter in inspect.signature(simulate).parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY
    }
)
""":func:`simulate`'s keyword-only parameters and their defaults (read from its
signature), which :func:`prepare_run` takes explicitly: callers that build a run in
steps (:mod:`.bound`, the benchmarks, the tests) start from these."""


def prepare_run(
    jobs,
    clusters,
    selection,
    allocation,
    *,
    coallocation,
    slowdown,
    seed,
    drop_too_wide,
    rate_model,
    tla,
    network,
    debug,
) -> _Run | Result:
    """:func:`simulate`'s checks and its fresh state (a :class:`Result` when every job
    is left out)."""
    system = as_system(clusters)
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    drop_too_wide, debug = check_bool("drop_too_wide", drop_too_wide), check_bool("debug", debug)
    sel = _code(selection, SELECTIONS, "selection")
    alloc = _code(allocation, ALLOCATIONS, "allocation")
    coal = _code(coallocation, COALLOCATIONS, "coallocation")
    if coal and sel in BACKFILLING:
        raise InvalidParameter(f"co-allocation is not combined with backfilling ({selection!r})")
    if coal and alloc in (AI2, TLA):
        raise InvalidParameter(f"co-allocation is not combined with look-ahead ({allocation!r})")
    if coal >= A1 and network is None:
        raise InvalidParameter(f"co-allocation module {coallocation!r} needs network=Network(...)")
    if network is not None and not isinstance(network, Network):
        raise InvalidType(f"network must be a hpcmodels.bandwidth.Network, got {network!r}")
    if alloc == LOCAL_ONLY and coal:
        raise InvalidParameter("allocation 'local_only' runs jobs locally: no co-allocation")
    if alloc in (LOCAL_FIRST, LOCAL_ONLY) and (
        not isinstance(jobs, pd.DataFrame) or "origin" not in jobs
    ):
        raise InvalidParameter(
            f"allocation {allocation!r} needs a jobs column 'origin' (cluster index)"
        )
    if tla is not None and not isinstance(tla, TLAOptions):
        raise InvalidType(
            f"tla must be a hpcmodels.multicluster.TLAOptions, got {type(tla).__name__}"
        )
    slowdown = check_real("slowdown ratio", slowdown, at_least=1)
    rate_code, params = _rate_model(rate_model)
    if network is not None and network.dynamic:
        if rate_model is not None:
            raise InvalidParameter("a dynamic network is a rate model: do not pass rate_model too")
        rate_code = BANDWIDTH
    _check_applies(coallocation, coal, allocation, alloc, slowdown, tla, network)
    system = as_system(system, network)  # the links, once
    cap, speed = system.procs, system.speeds
    data = _as_jobs(jobs)
    _check_time_axis(jobs, data, slowdown, speed, rate_code, params)
    if "origin" in data and np.any(data["origin"] >= cap.size):
        i = int(np.argmax(data["origin"] >= cap.size))
        raise InvalidParameter(
            f"job {jobs.index[i]!r}: origin = {data['origin'][i]} (there are {cap.size} clusters)"
        )
    limit = cap.sum() if coal else cap.max()
    if alloc == LOCAL_ONLY:  # a job runs on its own cluster or never
        limit = cap[data["origin"]]
    too_wide = data["procs"] > limit
    unplaceable = np.zeros(too_wide.size, bool)
    if coal >= A1:  # fits no cluster and the module cannot split it, even at idle
        unplaceable = (data["procs"] > cap.max()) & ~too_wide
        if unplaceable.any():
            unplaceable[unplaceable] = idle_unplaceable(
                coal, system, network, data["procs"][unplaceable]
            )
        too_wide |= unplaceable
    if unplaceable.any() and not drop_too_wide:
        i = int(np.argmax(unplaceable))
        wider = int(too_wide.sum() - unplaceable.sum())
        also = f" (and {wider} wider than all clusters together)" if wider else ""
        raise InvalidParameter(
            f"{int(unplaceable.sum())} job(s) can never start{also}, e.g. job "
            f"{jobs.index[i]!r} with {data['procs'][i]} processors: wider than every cluster "
            f"({cap.max()} processors), and co-allocation module {MODULES[coal - A1]!r} "
            "cannot place it even on idle clusters (every node free, no link load); pass "
            "drop_too_wide=True to leave them out"
        )
    if too_wide.any() and not drop_too_wide:
        i = int(np.argmax(too_wide))
        where = "all clusters together" if coal else "every cluster"
        if alloc == LOCAL_ONLY:
            where, limit = "its own cluster", limit[i]
        raise InvalidParameter(
            f"{int(too_wide.sum())} job(s) wider than {where} ({limit} processors), "
            f"e.g. job {jobs.index[i]!r} with {data['procs'][i]} processors; "
            "pass drop_too_wide=True to leave them out"
        )
    if alloc == TLA:  # the look-ahead packs a release's processors and cluster in 64 bits
        _refuse_first(
            (data["procs"] > MAX_TLA_PROCS) & ~too_wide,
            lambda i: (
                f"job {jobs.index[i]!r} has {data['procs'][i]} processors: allocation "
                f"'tla' takes at most 2**43 - 1 per job"
            ),
        )
    keep = ~too_wide
    kept = data if keep.all() else {k: v[keep] for k, v in data.items()}
    out = jobs.copy(deep=False)  # copy on write: the input's columns are shared, not copied
    if not keep.any():
        out["start"] = np.nan
        out["end"] = np.nan
        out["cluster"] = np.full(len(jobs), NOT_STARTED, np.int64)
        metrics = {key: float("nan") for key in _metric_names()}
        metrics.update(jobs=0, dropped=int(too_wide.sum()))
        empty = sp.csr_array((len(jobs), cap.size), dtype=np.int64)
        return Result(out, metrics, list(system), empty)
    state = build_state(
        kept,
        cap,
        speed,
        sel,
        alloc,
        coal,
        slowdown,
        seed,
        debug,
        tla,
        network,
        system.links,
        rates=rate_code != NO_MODEL,
    )
    return _Run(state, rate_code, params, out, keep, kept, cap, int(too_wide.sum()), list(system))


def _refuse_first(bad: np.ndarray, message: Callable[[int], str]) -> None:
    """An :class:`InvalidParameter` with ``message(i)`` of the first job ``i`` flagged in
    ``bad``; nothing when none is."""
    if bad.any():
        raise InvalidParameter(message(int(np.argmax(bad))))


def _check_time_axis(
    jobs: pd.DataFrame,
    data: dict[str, np.ndarray],
    slowdown: float,
    speed: np.ndarray,
    rate_code: int,
    params: np.ndarray,
) -> None:
    """What the whole schedule needs of the time axis, checked before it runs (an
    :class:`InvalidParameter` naming the job otherwise):

    * every job's end stays finite even when it runs last: ``submit + runtime x
      slowdown / (slowest speed x crowding factor)`` one by one, and ``max(submit) +``
      the sum of them over all jobs (the latest end of any schedule that keeps a
      processor busy whenever a job waits, on the slowest cluster), since runtimes
      finite one by one can add up past the largest float;
    * no duration is lost to rounding: a job's shortest duration (runtime or estimate
      over the fastest speed) must be at least one unit in the last place of its submit
      time, else ``submit + duration == submit`` (at epoch nanoseconds, ~1.7e18, one
      ulp is 256 s and a 100 s job would end when it starts). Durations of 0 are
      exact. A job that starts later than its submit meets a coarser grid: the engine
      checks at the end that every job with work ends after it starts (:func:`finish_run`).
    """
    slowest = speed.min() * (params[1] if rate_code == CROWDING else 1.0)
    with np.errstate(over="ignore"):
        longest = np.maximum(data["runtime"], data["estimate"]) * slowdown / slowest
        _refuse_first(
            ~np.isfinite(data["submit"] + longest),
            lambda i: (
                f"job {jobs.index[i]!r}: submit = {data['submit'][i]!r} and runtime = "
                f"{data['runtime'][i]!r} overflow the time axis (end time not finite on the "
                "slowest cluster)"
            ),
        )
        work = longest.sum()
    if not np.isfinite(data["submit"].max() + work):
        raise InvalidParameter(
            f"the jobs' runtimes add up past the largest float ({float(work):.6g} s of work "
            "on the slowest cluster after the last submit): a schedule that runs them one "
            "after another would end at infinity; shorten the runtimes or split the workload"
        )
    for name in ("runtime", "estimate"):
        shortest = data[name] / speed.max()
        _refuse_first(
            (shortest > 0) & (shortest < np.spacing(data["submit"])),
            lambda i, name=name: (
                f"job {jobs.index[i]!r}: {name} = {float(data[name][i])!r} s is below the "
                f"time resolution at its submit = {float(data['submit'][i])!r} s (one float "
                f"step is {float(np.spacing(data['submit'][i]))!r} s there), so it would be lost to "
                "rounding; give submit times in seconds from the workload's start "
                "(e.g. submit - submit.min())"
            ),
        )


def _check_applies(
    coallocation: str | None,
    coal: int,
    allocation: str,
    alloc: int,
    slowdown: float,
    tla: TLAOptions | None,
    network: Network | None,
) -> None:
    """A knob given where nothing reads it is an :class:`InvalidParameter` naming it and
    saying when it applies (the defaults ``slowdown=1.0``, ``tla=None`` and
    ``network=None`` always pass): ``slowdown`` with co-allocation only (a co-allocated
    job's work is ``runtime x slowdown``, whichever heuristic or module placed it), ``tla`` with
    ``allocation="tla"`` only, ``network`` with a bandwidth-aware module or, dynamic,
    with a Huang heuristic."""
    huang = 0 < coal < A1
    if slowdown != 1.0 and not coal:
        raise InvalidParameter(
            f"slowdown = {slowdown!r} applies only to co-allocated jobs (a Huang heuristic "
            f"'fixed_order', 'larger_first', 'smaller_first' or a bandwidth-aware module "
            f"'a1' ... 'b4'), got coallocation={coallocation!r}: nothing is co-allocated"
        )
    if tla is not None and alloc != TLA:
        raise InvalidParameter(
            f"tla (TLA's knobs) applies only with allocation='tla', got allocation={allocation!r}"
        )
    if network is not None and not (coal >= A1 or (huang and network.dynamic)):
        needs = (
            "a dynamic network (Network(dynamic=True)) to slow its co-allocated jobs down"
            if huang
            else "co-allocation"
        )
        raise InvalidParameter(
            f"network applies only with a bandwidth-aware module (coallocation='a1' ... 'b4') "
            f"or a Huang heuristic on a dynamic network; coallocation={coallocation!r} needs "
            f"{needs}: pass network=None"
        )


def finish_run(run: _Run) -> Result:
    """The :class:`Result` of a run that has ended, once the schedule is checked: every
    job kept started and ended at a finite time, and every job with work ended after it
    started (an :class:`InvalidParameter` naming the first job otherwise). It ends the
    state's use: the arrays that only a running engine reads are dropped
    (:func:`.state.drop_run_arrays`) before the metrics and the allocation matrix are
    made, and so are the split entries' job-sized offsets and counts
    (:func:`.state.take_split_index`)."""
    state, out, keep, kept, cap = run.state, run.out, run.keep, run.kept, run.cap
    drop_run_arrays(state)  # first: the check, metrics and matrix reuse their memory
    split_index = take_split_index(state)  # ... and that of the split offsets and counts
    _check_schedule(run)
    network = state.net.size > 0
    alloc = int(state.cfg[ALLOC])
    metrics = compute_metrics(kept, state.start, state.end, cap, state.fctr[Q_AREA])
    schedule = {
        "start": _spread(state.start, keep, np.nan),
        "end": _spread(state.end, keep, np.nan),
        "cluster": _spread(state.clus, keep, NOT_STARTED),
    }
    if any(name in out for name in schedule):  # columns of an earlier result: replaced in place
        for name, values in schedule.items():
            out[name] = values
    else:  # appended without a copy (a column set with out[name] = ... is copied)
        out = pd.concat([out, pd.DataFrame(schedule, index=out.index, copy=False)], axis=1)
    metrics["dropped"] = run.dropped
    counters = {"events": int(state.ctr[EVENTS]), "sessions": int(state.ctr[SESSIONS])}
    if network:
        counters["max_link_level"] = float(state.fctr[MAX_LEVEL])
        counters["module_calls"] = int(state.ctr[MODULE_CALLS])
    if int(state.cfg[KEEPS_SLOT]) & KEEP_RESERVATIONS:  # conservative backfilling
        counters.update(
            reservations_moved=int(state.ctr[RES_MOVED]),
            reservations_searched=int(state.ctr[RES_SEARCHED]),
            searches=int(state.ctr[RES_SEARCHES]),
            search_steps=int(state.ctr[RES_STEPS]),
        )
    if alloc == TLA:
        counters.update(
            tla_activations=int(state.ctr[TLA_ACTIVATIONS]),
            tla_changes=int(state.ctr[TLA_CHANGES]),
            tla_two_fit=int(state.ctr[TLA_TWO_FIT]),
            tla_distinct=int(state.ctr[TLA_DISTINCT]),
        )
    return Result(
        out, metrics, run.clusters, _sparse_allocation(state, keep, cap.size, split_index), counters
    )


def _spread(values: np.ndarray, keep: np.ndarray, missing) -> np.ndarray:
    """``values`` of the kept jobs as a column of every input job, ``missing`` for the
    others; ``values`` itself when every job was kept (the state's array becomes the
    result's column, never copied: issue 55's memory per job)."""
    if keep.all():
        return values
    column = np.full(keep.size, missing, values.dtype)
    column[keep] = values
    return column


def _check_schedule(run: _Run) -> None:
    """The schedule's promises, checked after the run: every job kept starts (finite
    start and end; a rate model can slow a job past what :func:`_check_time_axis`
    bounds before the run) and no job with work ends when it starts (a duration lost to
    rounding at a late start time)."""
    state, index = run.state, run.out.index[run.keep]
    _refuse_first(
        ~(np.isfinite(state.start) & np.isfinite(state.end)),
        lambda i: (
            f"job {index[i]!r} never ended (start = {float(state.start[i])!r}, end = "
            f"{float(state.end[i])!r}): the schedule ran past the largest float; shorten the "
            "runtimes or split the workload"
        ),
    )
    _refuse_first(
        (state.end <= state.start) & (state.runtime > 0),
        lambda i: (
            f"job {index[i]!r}: runtime = {float(state.runtime[i])!r} s was lost to rounding at "
            f"its start = {float(state.start[i])!r} s (one float step is "
            f"{float(np.spacing(state.start[i]))!r} s there); give time stamps in seconds from the workload's start"
        ),
    )


def _metric_names() -> list[str]:
    probe = {"submit": np.zeros(1), "procs": np.ones(1)}
    return list(compute_metrics(probe, np.zeros(1), np.ones(1), np.ones(1), 0.0))
