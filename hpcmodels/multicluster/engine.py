"""The discrete-event engine: one numba kernel over NumPy arrays (semantics: package docs).

``simulate`` validates the input, runs ``_run`` and computes the metrics. The kernel
keeps the waiting queue and the running set as index arrays; sessions dispatch on the
selection code; placement on the allocation code (see ``selection.py`` and
``allocation.py`` for the policies' own kernels).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np
import pandas as pd

from .allocation import ALLOCATIONS, COALLOCATIONS, coallocate, pick
from .metrics import compute_metrics
from .profile import build_profile, earliest_start, reserve
from .system import Cluster, cluster_arrays

__all__ = ["SELECTIONS", "ALLOCATIONS", "COALLOCATIONS", "Result", "simulate"]

SELECTIONS = ("fcfs", "first_available", "smallest_first", "largest_first", "conservative", "easy")
FCFS, FIRST_AVAILABLE, SMALLEST, LARGEST, CONSERVATIVE, EASY = range(6)
NO_PLACE = -2
COALLOCATED = -1


@dataclass
class Result:
    """Per-job schedule (input order) and the run's metrics."""

    jobs: pd.DataFrame
    metrics: dict
    clusters: list[Cluster]
    allocation: np.ndarray = field(repr=False)  # processors per (job, cluster)


@numba.njit(cache=True)
def _enqueue(q, qlen, j, procs, sel):
    """Insert job ``j`` keeping the queue order of selection ``sel``."""
    pos = qlen
    if sel == SMALLEST or sel == LARGEST:
        pos = 0
        while pos < qlen:
            other = procs[q[pos]]
            before = other <= procs[j] if sel == SMALLEST else other >= procs[j]
            if not before:
                break
            pos += 1
        for k in range(qlen, pos, -1):
            q[k] = q[k - 1]
    q[pos] = j
    return qlen + 1


@numba.njit(cache=True)
def _start(j, c, t, runtime, procs, speed, free, start, end, clus, run, rlen, alloc_row):
    """Start job ``j`` on cluster ``c`` at ``t`` (``c = -1``: sites in ``alloc_row``)."""
    start[j] = t
    clus[j] = c
    if c >= 0:
        free[c] -= procs[j]
        alloc_row[c] = procs[j]
        end[j] = t + runtime[j] / speed[c]
    run[rlen] = j
    return rlen + 1


@numba.njit(cache=True)
def _try_place(j, t, alloc, coal, slowdown, arrays, rlen, u_ptr, allowed):
    """Place job ``j`` now if it fits: single site by the policy, else co-allocated.
    ``arrays`` = (runtime, procs, speed, free, start, end, clus, run, allocation,
    uniforms). Returns (placed, rlen, u_ptr)."""
    runtime, procs, speed, free, start, end, clus, run, allocation, uniforms = arrays
    p = procs[j]
    u = uniforms[u_ptr] if u_ptr < uniforms.size else 0.0
    c = pick(alloc, free, speed, p, allowed, u)
    if c >= 0:
        if alloc == 4:  # random fit consumed a uniform
            u_ptr += 1
        rlen = _start(j, c, t, runtime, procs, speed, free, start, end, clus, run, rlen,
                      allocation[j])  # fmt: skip
        return True, rlen, u_ptr
    if coal > 0 and free.sum() >= p:
        slowest = coallocate(coal, free, speed, p, allocation[j])
        rlen = _start(j, COALLOCATED, t, runtime, procs, speed, free, start, end, clus, run,
                      rlen, allocation[j])  # fmt: skip
        end[j] = t + runtime[j] * slowdown / slowest
        return True, rlen, u_ptr
    return False, rlen, u_ptr


@numba.njit(cache=True)
def _running_profiles(t, cap, speed, run, rlen, start, estimate, procs, clus, width):
    """Free-processor profiles per cluster from the running jobs' predicted ends."""
    n_cl = cap.size
    times = np.empty((n_cl, width))
    frees = np.empty((n_cl, width), np.int64)
    sizes = np.zeros(n_cl, np.int64)
    for c in range(n_cl):
        sizes[c] = build_profile(
            c, t, cap[c], speed[c], run, rlen, start, estimate, procs, clus, times[c], frees[c]
        )
    return times, frees, sizes


@numba.njit(cache=True)
def _earliest_over_clusters(j, t, cap, speed, procs, estimate, times, frees, sizes, starts):
    best = np.inf
    for c in range(cap.size):
        starts[c] = np.inf
        if cap[c] >= procs[j]:
            starts[c] = earliest_start(
                times[c], frees[c], sizes[c], procs[j], estimate[j] / speed[c]
            )
            best = min(best, starts[c])
    return best


@numba.njit(cache=True)
def _run(
    submit, runtime, procs, estimate, order, cap, speed, sel, alloc, coal, slowdown, uniforms, debug
):
    n = submit.size
    n_cl = cap.size
    start = np.full(n, np.nan)
    end = np.full(n, np.nan)
    clus = np.full(n, NO_PLACE, np.int64)
    allocation = np.zeros((n, n_cl), np.int64)
    free = cap.copy()
    q = np.empty(n, np.int64)
    qlen = 0
    run = np.empty(n, np.int64)
    rlen = 0
    nxt = 0
    u_ptr = 0
    q_area = 0.0
    last_t = submit[order[0]]
    everywhere = np.ones(n_cl, np.bool_)
    allowed = np.ones(n_cl, np.bool_)
    starts = np.empty(n_cl)
    last_fcfs_start = -np.inf
    arrays = (runtime, procs, speed, free, start, end, clus, run, allocation, uniforms)
    while nxt < n or rlen > 0:
        t = submit[order[nxt]] if nxt < n else np.inf
        for k in range(rlen):
            t = min(t, end[run[k]])
        q_area += qlen * (t - last_t)
        last_t = t
        k = 0
        while k < rlen:  # finishes first
            j = run[k]
            if end[j] <= t:
                for c in range(n_cl):
                    free[c] += allocation[j, c]
                rlen -= 1
                run[k] = run[rlen]
            else:
                k += 1
        while nxt < n and submit[order[nxt]] == t:  # then submissions, in input order
            qlen = _enqueue(q, qlen, order[nxt], procs, sel)
            nxt += 1
        if qlen == 0:
            continue
        started = np.zeros(qlen, np.bool_)
        if sel == CONSERVATIVE:
            width = 2 * (rlen + qlen) + 2
            times, frees, sizes = _running_profiles(
                t, cap, speed, run, rlen, start, estimate, procs, clus, width
            )
            for i in range(qlen):
                j = q[i]
                best = _earliest_over_clusters(
                    j, t, cap, speed, procs, estimate, times, frees, sizes, starts
                )
                placed = False
                if best == t:
                    for c in range(n_cl):
                        allowed[c] = starts[c] == t
                    placed, rlen, u_ptr = _try_place(
                        j, t, alloc, 0, slowdown, arrays, rlen, u_ptr, allowed
                    )
                c = clus[j] if placed else np.argmin(starts)
                sizes[c] = reserve(
                    times[c], frees[c], sizes[c], best, estimate[j] / speed[c], procs[j]
                )
                started[i] = placed
        else:
            i = 0
            while i < qlen:
                if free.max() == 0:
                    break
                j = q[i]
                placed, rlen, u_ptr = _try_place(
                    j, t, alloc, coal, slowdown, arrays, rlen, u_ptr, everywhere
                )
                started[i] = placed
                if not placed and (sel == FCFS or sel == EASY):
                    break
                i += 1
            if sel == EASY and i < qlen:
                width = 2 * rlen + 2
                times, frees, sizes = _running_profiles(
                    t, cap, speed, run, rlen, start, estimate, procs, clus, width
                )
                h = q[i]
                shadow = _earliest_over_clusters(
                    h, t, cap, speed, procs, estimate, times, frees, sizes, starts
                )
                ch = np.argmin(starts)
                extra = -procs[h]
                for m in range(sizes[ch]):
                    if times[ch, m] <= shadow:
                        extra = frees[ch, m] - procs[h]
                for k in range(i + 1, qlen):
                    j = q[k]
                    ends_early = t + estimate[j] / speed[ch] <= shadow
                    for c in range(n_cl):
                        allowed[c] = c != ch or ends_early or procs[j] <= extra
                    placed, rlen, u_ptr = _try_place(
                        j, t, alloc, 0, slowdown, arrays, rlen, u_ptr, allowed
                    )
                    started[k] = placed
                    if placed and clus[j] == ch and not ends_early:
                        extra -= procs[j]
        kept = 0
        for i in range(qlen):
            if started[i]:
                j = q[i]
                if debug:
                    if start[j] < submit[j]:
                        raise AssertionError("a job started before its submit time")
                    if sel == FCFS:
                        if start[j] < last_fcfs_start:
                            raise AssertionError("FCFS order violated")
                        last_fcfs_start = start[j]
            else:
                q[kept] = q[i]
                kept += 1
        qlen = kept
        if debug:
            for c in range(n_cl):
                if free[c] < 0 or free[c] > cap[c]:
                    raise AssertionError("free processors out of [0, capacity]")
    return start, end, clus, allocation, q_area


def _as_jobs(jobs: pd.DataFrame) -> dict[str, np.ndarray]:
    if not isinstance(jobs, pd.DataFrame):
        raise ValueError(f"jobs must be a pandas DataFrame, got {type(jobs).__name__}")
    if len(jobs) == 0:
        raise ValueError("empty workload: jobs has no rows")
    missing = [c for c in ("submit", "runtime", "procs") if c not in jobs]
    if missing:
        raise ValueError(f"jobs lacks column(s) {missing} (needs submit, runtime, procs)")
    out = {}
    for name in ("submit", "runtime", "procs", "estimate"):
        column = jobs["runtime"] if name == "estimate" and name not in jobs else jobs[name]
        values = column.to_numpy(dtype=float)
        bad = ~np.isfinite(values) | (values < (1 if name == "procs" else 0))
        if bad.any():
            i = int(np.argmax(bad))
            rule = ">= 1" if name == "procs" else ">= 0"
            raise ValueError(
                f"job {jobs.index[i]!r}: {name} = {values[i]!r} (must be finite, {rule})"
            )
        out[name] = values
    if np.any(out["procs"] != np.round(out["procs"])):
        raise ValueError("procs must be whole numbers")
    out["procs"] = out["procs"].astype(np.int64)
    return out


def _code(name, options, what) -> int:
    if name not in options:
        raise ValueError(f"unknown {what} {name!r}; choose one of {list(options)}")
    return options.index(name)


def simulate(
    jobs: pd.DataFrame,
    clusters: list[Cluster],
    selection: str = "fcfs",
    allocation: str = "first_fit",
    *,
    coallocation: str | None = None,
    slowdown: float = 1.0,
    seed: int = 0,
    drop_too_wide: bool = False,
    debug: bool = False,
) -> Result:
    """Simulate rigid jobs on clusters (semantics in the package docstring).

    ``jobs`` needs ``submit``, ``runtime`` (seconds at speed 1) and ``procs``; an
    ``estimate`` column (default: the runtime) feeds the backfilling policies.
    ``coallocation`` (``"fixed_order"``, ``"larger_first"``, ``"smaller_first"``) lets a
    job that fits no single cluster run across sites, ``slowdown`` times slower (Huang
    2006). A job wider than every cluster (than all of them together, with co-allocation)
    is an error, or with ``drop_too_wide=True`` is left out and counted in
    ``metrics["dropped"]``. ``debug=True`` asserts the engine's invariants as it runs.
    """
    sel = _code(selection, SELECTIONS, "selection")
    alloc = _code(allocation, ALLOCATIONS, "allocation")
    coal = _code(coallocation, COALLOCATIONS, "coallocation")
    if coal and sel in (CONSERVATIVE, EASY):
        raise ValueError(f"co-allocation is not combined with backfilling ({selection!r})")
    if not np.isfinite(slowdown) or slowdown < 1:
        raise ValueError(f"slowdown ratio must be >= 1, got {slowdown!r}")
    cap, speed = cluster_arrays(clusters)
    data = _as_jobs(jobs)
    limit = cap.sum() if coal else cap.max()
    too_wide = data["procs"] > limit
    if too_wide.any() and not drop_too_wide:
        i = int(np.argmax(too_wide))
        where = "all clusters together" if coal else "every cluster"
        raise ValueError(f"{int(too_wide.sum())} job(s) wider than {where} ({limit} processors), "
                         f"e.g. job {jobs.index[i]!r} with {data['procs'][i]} processors; "
                         "pass drop_too_wide=True to leave them out")  # fmt: skip
    keep = ~too_wide
    kept = {k: v[keep] for k, v in data.items()}
    order = np.argsort(kept["submit"], kind="stable")
    uniforms = np.random.default_rng(seed).random(int(keep.sum())) if alloc == 4 else np.empty(0)
    start, end, clus, alloc_matrix, q_area = _run(
        kept["submit"],
        kept["runtime"],
        kept["procs"],
        kept["estimate"],
        order,
        cap,
        speed,
        sel,
        alloc,
        coal,
        float(slowdown),
        uniforms,
        debug,
    )
    out = jobs.copy()
    for name, values, fill in (("start", start, np.nan), ("end", end, np.nan),
                               ("cluster", clus, NO_PLACE)):  # fmt: skip
        column = np.full(len(jobs), fill, dtype=values.dtype)
        column[keep] = values
        out[name] = column
    full_alloc = np.zeros((len(jobs), cap.size), np.int64)
    full_alloc[keep] = alloc_matrix
    metrics = compute_metrics(kept, start, end, cap, q_area)
    metrics["dropped"] = int(too_wide.sum())
    return Result(out, metrics, list(clusters), full_alloc)
