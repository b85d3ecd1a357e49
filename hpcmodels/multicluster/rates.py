"""Progress rates of running jobs, predicted ends and the time-tie rule (numba kernels).

A running job progresses at ``rate`` seconds of work per second: by default its
cluster's speed (the slowest site's speed when co-allocated, its work then being
``runtime x slowdown``). A *rate model* may change the rates of running jobs whenever
the running set changes: the engine calls :func:`apply_rates` (model code, parameter
array) after every batch of finishes and after every start (Jones 2005's bandwidth model
plugs in here as the code ``"bandwidth"``, :func:`bandwidth_rates`). A model calls
:func:`set_rate` for each job whose rate changes (iterating over :func:`running_jobs`, a
copy: ``set_rate`` reorders the heap); the job's remaining work is advanced to ``t`` at
its old rate (``rem -= rate x (t - anchor)``) and its end becomes ``t + rem / rate``,
earlier or later. :func:`no_rate_change` is the default hook.

Time ties, for rounding only: two event times ``x <= y`` are one time stamp when
``y - x <= TIME_RTOL x max(|x|, 1)`` (:func:`tolerance`) with ``TIME_RTOL = 2**-48``,
16 units in the last place of a double at a power of two (about ``3.6e-15`` relative,
``2e-7`` s at ``t = 6e7`` s). That absorbs the rounding of the few operations that make
an event time, such as ``76 + 50/1.5`` against ``137/1.5 + 27/1.5`` (1 ulp apart): ends
that are equal in exact arithmetic form one event. Distinct events never do, except by
coincidence within that width (on a Jones 2005 stream of 1.6 million jobs, with about
0.05 events per second, fewer than one such pair per 20 runs). The old ``1e-9`` fused
events up to 0.06 s apart at ``t = 6e7`` s and moved a Jones ATT by 1.3 s.

Pruning bounds (one rule for every kernel): a bound that skips candidates without
asking the admission test they serve (a tree search over estimates or widths, a window,
an early exit) must be implied by that test *as the test is computed*, in floating
point, at every time stamp: it may let through a candidate the test then refuses, never
skip one the test would accept. A bound solved from the test in another arithmetic form
(``estimate <= (shadow - t) x speed`` for ``t + estimate / speed <= shadow``) is widened
by more than the rounding the two forms can disagree by: :func:`work_until` adds the
time stamp's width (:func:`tolerance`, far more than half an ulp of the shadow) before
multiplying. At ``t = 3e7`` s an ulp is 3.7e-9 s, so a relative slack alone (``1e-12``
of a 1 s estimate) does not cover it: EASY skipped jobs whose estimate ends exactly at
the shadow until 2026-11-28 (issue 50).
"""

from __future__ import annotations

import numba
import numpy as np

from .heap import heap_update
from .linkshare import allot_kernel, demand_kernel, rate_kernel
from .state import BSBW, DEBUG, FULL, KFRAC, LINKS_DIRTY, MAX_LEVEL, REBUILD, RLEN, SLOWED

__all__ = [
    "TIME_RTOL",
    "RATE_MODELS",
    "tolerance",
    "work_until",
    "predicted_end",
    "running_jobs",
    "set_rate",
    "base_rate",
    "apply_rates",
    "crowding",
    "refresh_links",
    "bandwidth_rates",
]

TIME_RTOL = 2.0**-48
"""Relative width (absolute below 1 s) within which event times are one time stamp:
rounding only (module docstring)."""


@numba.njit(cache=True)
def tolerance(t):
    """Width of the time stamp at ``t``: ``TIME_RTOL x max(|t|, 1)``."""
    return TIME_RTOL * max(abs(t), 1.0)


@numba.njit(cache=True)
def work_until(t, limit, speed):
    """An upper bound on every ``estimate`` (seconds of work at speed 1) that passes
    ``t + estimate / speed <= limit`` in floating point, for pruning (module docstring:
    pruning bounds); inf when ``limit`` is. Proof sketch: the test implies ``t + x <=
    limit + ulp(limit) / 2`` with ``x = estimate / speed`` rounded, so ``estimate <=
    speed x (limit - t + ulp(limit) / 2) x (1 + 2**-53)``; the bound adds ``tolerance(limit)``
    (at least 32 half-ulps) before multiplying by ``speed`` and ``1 + 1e-12`` (which
    absorb the four roundings of this expression) and ``1e-300`` (a zero width)."""
    if limit == np.inf:
        return np.inf
    return (limit - t + tolerance(limit)) * speed * (1 + 1e-12) + 1e-300


@numba.njit(cache=True)
def predicted_end(state, j, t):
    """Running job ``j``'s end by its estimate, as seen at ``t``: ``anchor + rem_est /
    rate``, never before ``t`` (an estimate that has run out counts until ``t`` only;
    within the time tolerance of ``t`` counts as ``t``)."""
    e = state.pend[j]
    return t if e <= t + tolerance(t) else e


@numba.njit(cache=True)
def base_rate(state, j):
    """Rate of running job ``j`` without any rate model: its cluster's speed, or the
    slowest of its sites' speeds when co-allocated."""
    c = state.clus[j]
    if c >= 0:
        return state.speed[c]
    slowest = np.inf
    off = state.split_off[j]
    for k in range(off, off + state.split_len[j]):
        slowest = min(slowest, state.speed[state.split_site[k]])
    return slowest


@numba.njit(cache=True)
def running_jobs(state):
    """The running jobs' indices (a copy, in no particular order)."""
    return state.heap[: state.ctr[RLEN]].copy()


@numba.njit(cache=True)
def set_rate(state, j, t, rate):
    """Running job ``j`` progresses at ``rate`` from ``t`` on (``rate > 0``): advance its
    remaining work to ``t`` and move its end and predicted end. Both remainders are read
    before either is written: when every estimate is the run time, ``rem_est`` is
    ``rem``'s array and ``pend`` is ``end``'s (:func:`.state.new_state`)."""
    old = state.rate[j]
    if rate == old:
        return
    if not rate > 0:
        raise ValueError("a running job's rate must be > 0")
    done = old * (t - state.anchor[j])
    rem = max(state.rem[j] - done, 0.0)
    rem_est = max(state.rem_est[j] - done, 0.0)
    state.rem[j] = rem
    state.rem_est[j] = rem_est
    state.anchor[j] = t
    state.rate[j] = rate
    state.end[j] = t + rem / rate
    state.pend[j] = t + rem_est / rate
    heap_update(state.heap, state.hpos, state.end, state.ctr[RLEN], j)
    state.ctr[REBUILD] = FULL  # backfilling profiles read predicted ends


RATE_MODELS = (None, "crowding", "bandwidth")
"""Rate models by code (``simulate(..., rate_model=(name, params))``). Models are
dispatched by code rather than passed as functions so that the engine's kernels stay in
numba's on-disk cache (a kernel taking a jitted function as an argument is recompiled in
every process)."""
NO_MODEL, CROWDING, BANDWIDTH = 0, 1, 2


@numba.njit(cache=True)
def crowding(state, t, params):
    """Interference: every running job progresses at ``params[1]`` times its base rate
    while more than ``params[0]`` jobs run, at its base rate otherwise."""
    running = running_jobs(state)
    factor = params[1] if running.size > params[0] else 1.0
    for j in running:
        set_rate(state, j, t, base_rate(state, j) * factor)


@numba.njit(cache=True)
def apply_rates(state, t, code, params):
    """Run rate model ``code`` (an index of ``RATE_MODELS``) at ``t``; 0 does nothing."""
    if code == CROWDING:
        crowding(state, t, params)
    elif code == BANDWIDTH:
        bandwidth_rates(state, t)


@numba.njit(cache=True)
def _coallocated(state):
    """The running co-allocated jobs' indices."""
    rlen = state.ctr[RLEN]
    count = 0
    for k in range(rlen):
        count += state.clus[state.heap[k]] < 0
    jobs = np.empty(count, np.int64)
    count = 0
    for k in range(rlen):
        j = state.heap[k]
        if state.clus[j] < 0:
            jobs[count] = j
            count += 1
    return jobs


@numba.njit(cache=True)
def refresh_links(state):
    """Recompute every link's load (the required bandwidth, Jones Eq. 1, of the running
    co-allocated jobs over it) after a co-allocated job started or ended, record the
    highest saturation level and ask the rate model to re-allot. Recomputed rather than
    updated so that no rounding accumulates over millions of starts."""
    if state.net.size == 0:
        return
    load = state.link_load
    load[:] = 0.0
    bsbw = state.net[BSBW]
    for k in range(state.ctr[RLEN]):
        j = state.heap[k]
        if state.clus[j] >= 0:
            continue
        off = state.split_off[j]
        for k in range(off, off + state.split_len[j]):
            load[state.split_site[k]] += demand_kernel(state.split_procs[k], state.procs[j], bsbw)
    for c in range(load.size):
        state.fctr[MAX_LEVEL] = max(state.fctr[MAX_LEVEL], load[c] / state.link_cap[c])
    state.ctr[LINKS_DIRTY] = 1


@numba.njit(cache=True)
def bandwidth_rates(state, t):
    """Jones 2005, Sections 3.5-3.7: when the links changed, allot bandwidth to the
    running co-allocated jobs (Steps 1-5), and run each at ``base rate / (K + (1 - K) /
    sd)`` with ``sd`` its allotted/required ratio (Eq. 5), the rate form of Eqs. 6-7
    (kernels: :mod:`.linkshare`; the model: :mod:`hpcmodels.bandwidth.model`). When no
    link is saturated and no job was slowed down, every job keeps its full rate: nothing
    to compute."""
    if state.ctr[LINKS_DIRTY] == 0:
        return
    state.ctr[LINKS_DIRTY] = 0
    if state.ctr[SLOWED] == 0:
        saturated = False
        for c in range(state.link_cap.size):
            saturated |= state.link_load[c] > state.link_cap[c]
        if not saturated:
            return
    jobs = _coallocated(state)
    m = state.link_cap.size
    demand = np.zeros((jobs.size, m))
    bsbw = state.net[BSBW]
    for a in range(jobs.size):
        j = jobs[a]
        off = state.split_off[j]
        for k in range(off, off + state.split_len[j]):
            demand[a, state.split_site[k]] = demand_kernel(
                state.split_procs[k], state.procs[j], bsbw
            )
    allotted = np.empty_like(demand)
    allot_kernel(demand, state.link_cap, allotted)
    if state.cfg[DEBUG]:
        for c in range(m):
            if allotted[:, c].sum() > state.link_cap[c] * (1 + 1e-9) + 1e-9:
                raise AssertionError("bandwidth allotted beyond a link's capacity")
    slowed = 0
    for a in range(jobs.size):
        required = demand[a].sum()
        sd = min(allotted[a].sum() / required, 1.0) if required > 0 else 1.0
        slowed |= sd < 1.0
        j = jobs[a]
        set_rate(state, j, t, base_rate(state, j) * rate_kernel(sd, state.net[KFRAC]))
    state.ctr[SLOWED] = slowed
