"""Look-ahead allocation (Shih et al. 2013): TLA's scoring simulation and AI2 (numba).

TLA (Section 3, Figs. 2-3). To place the target job ``j`` at time ``t``, TLA scores
every cluster ``c`` where ``j`` fits now, ``f(j, c)``:

I.  sim-allocate ``j`` on ``c`` (it runs ``estimate / speed``);
II. take the next waiting jobs in queue order (the *simulation depth* counts the jobs
    simulated, ``j`` included; by default every waiting job), each in turn: (b) find
    the earliest time, not before the previous simulated job's start (first come,
    first served inside the simulation: no job overtakes the one ahead of it; the papers' NOTES.md),
    at which some cluster has its processors free, (c) among the clusters that have
    them then, choose by the *simulation policy* (fastest first by default; best,
    worst or random fit), (d) sim-allocate it there for ``estimate / speed``;
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

Cost of one decision (``q`` jobs simulated, ``r`` running, ``m`` clusters, ``b <= m``
candidate clusters). One *step* (a simulated job: releases taken back from a heap, a
choice over the ``m`` clusters, its release pushed) costs O(log(q + r) + m); scoring the
``b`` branches from scratch takes ``b q`` steps: O(b (q + r) log(q + r) + b q m). (The
paper's bound is O(q m log m + r m), with its linked-list event queue of O(r)
insertion.) Two exact shortcuts skip most steps, each justified where it is coded
(:func:`_score_lockstep`): the branches run in lock step and a branch whose state (time,
free processors, multiset of pending releases) equals another's stops and takes that
branch's remaining jobs; and the engine keeps the winning simulation (the *memo*), which
the next decision's branches take over wherever their state equals the memo's after the
same job (the real schedule mostly follows it), simulating only past the memo's last
job. States are compared by an order-free hash kept as releases come and go, then
exactly, so a shortcut is taken only when the rest of the simulation provably repeats
the other one; every total is still summed job by job in queue order, so scores are
bit for bit those of simulating each branch alone (tested). A decision then costs the
steps simulated until the branches merge, plus O(b q + r) plain array passes (copying
and summing costs, gathering the queue, keeping the memo). Measured on A1 at high load
(whole trace, default options: 25,723 decisions, ``q`` = 1,774 on average and up to
4,773, ``b`` = 3.1 on average, ``r`` = 43): 27.7 M steps simulated instead of 143 M
(0.61 per waiting job instead of 3.1), about 70 ns each, and about 0.1 ms per decision
in all; the run takes about 3 s instead of 16 s. Random fit inside the simulation draws
from one stream branch after branch, so its branches are simulated one by one, as
before.

AI2 (Section 2.3). Two branches: the target by best fit, or by fastest first; the other
jobs of the same session (the following head jobs while one fits now, first come first
served) by fastest first. The branch whose session consumes more computing power
(processors x speed, summed) wins; a tie goes to fastest first. O(s m) for ``s`` jobs in
the session.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np

from ..equality import ByValue
from ..errors import InvalidParameter, InvalidType, check_int, check_real
from .allocation import ALLOCATIONS, BEST_FIT, FASTEST_FIRST, RANDOM_FIT, WORST_FIT, pick
from .metrics import BOUNDED_SLOWDOWN_TAU
from .rates import TIME_RTOL, predicted_end, tolerance
from .segtree import seg_first_le
from .state import (
    PLAN_T,
    QLEN,
    RLEN,
    TLA_ACTIVATIONS,
    TLA_ADEPTH,
    TLA_CHANGES,
    TLA_DEPTH,
    TLA_METRIC,
    TLA_POLICY,
)
from .system import MAX_PROCS, cluster_arrays, cluster_list

__all__ = [
    "TLAOptions",
    "METRICS",
    "SIM_POLICIES",
    "RunningJob",
    "WaitingJob",
    "Score",
    "tla_scores",
    "simulate_branch",
    "score_clusters",
    "score_with_memo",
    "tla_place",
    "ai2_place",
]

METRICS = ("att", "bounded_slowdown")
ATT, BSLD = range(2)
SIM_POLICIES = ("fastest_first", "best_fit", "worst_fit", "random_fit")
ANY = 1e300  # a width bound every waiting job meets
MAX_DEPTH = 2**62
"""Largest simulation or allocation depth: the engine keeps the knobs in int64."""
SCORE_RTOL = 1e-9
"""A cluster's score beats the best so far only when lower by more than this, relative."""


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
def _uniform(rng):
    """Next uniform in [0, 1) of the splitmix64 stream whose state is ``rng[0]``."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True)
def _cost(metric, tt, run):
    if metric == BSLD:
        return max(tt / max(run, BOUNDED_SLOWDOWN_TAU), 1.0)
    return tt


@numba.njit(cache=True)
def _sift_down(ht, hc, hp, i, size):
    t, c, p = ht[i], hc[i], hp[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and ht[child + 1] < ht[child]:
            child += 1
        if ht[child] >= t:
            break
        ht[i], hc[i], hp[i] = ht[child], hc[child], hp[child]
        i = child
    ht[i], hc[i], hp[i] = t, c, p


@numba.njit(cache=True)
def _push(ht, hc, hp, size, t, c, p):
    """Add a release of ``p`` processors on ``c`` at ``t`` to the min-heap ``ht[:size]``
    (``hc``, ``hp`` move along); return the new size."""
    i = size
    while i > 0:
        parent = (i - 1) // 2
        if ht[parent] <= t:
            break
        ht[i], hc[i], hp[i] = ht[parent], hc[parent], hp[parent]
        i = parent
    ht[i], hc[i], hp[i] = t, c, p
    return size + 1


@numba.njit(cache=True)
def release_heap(rel_time, rel_clus, rel_procs, room):
    """The releases as a min-heap by time (arrays of ``room`` >= their number)."""
    n = rel_time.size
    ht, hc, hp = np.empty(room), np.empty(room, np.int64), np.empty(room, np.int64)
    ht[:n], hc[:n], hp[:n] = rel_time, rel_clus, rel_procs
    for i in range(n // 2 - 1, -1, -1):
        _sift_down(ht, hc, hp, i, n)
    return ht, hc, hp


@numba.njit(cache=True)
def simulate_branch(
    c0,
    speed,
    free0,
    heap0,
    n_rel,
    wprocs,
    wsubmit,
    west,
    n_wait,
    t,
    policy,
    metric,
    rng,
    scratch,
    out_clus,
    out_start,
    out_cost,
):
    """Fig. 3 for target ``0`` on cluster ``c0``: the mean cost of the ``n_wait`` waiting
    jobs (``wprocs``, ``wsubmit``, ``west`` in queue order, the target first) replayed
    first come first served from ``t``, processors coming back at the ``n_rel``
    releases of ``heap0`` (:func:`release_heap`). ``scratch`` = (heap arrays of room
    ``n_rel + n_wait``, free processors), overwritten. Writes each simulated job's
    cluster, start and cost into ``out_*``; returns inf if some job fits no cluster."""
    ht, hc, hp, free, allowed = scratch
    free[:] = free0
    ht[:n_rel], hc[:n_rel], hp[:n_rel] = heap0[0][:n_rel], heap0[1][:n_rel], heap0[2][:n_rel]
    size = n_rel
    now = t
    total = 0.0
    for k in range(n_wait):
        p = wprocs[k]
        if k == 0:
            c = c0
        else:
            while True:
                limit = now + TIME_RTOL * max(abs(now), 1.0)  # rates.tolerance, inlined
                while size > 0 and ht[0] <= limit:
                    free[hc[0]] += hp[0]
                    size -= 1
                    if size > 0:
                        ht[0], hc[0], hp[0] = ht[size], hc[size], hp[size]
                        _sift_down(ht, hc, hp, 0, size)
                widest = free[0]  # a plain loop: free.max() costs twice the whole step
                for i in range(1, free.size):
                    widest = max(widest, free[i])
                if widest >= p:
                    break
                if size == 0:
                    return np.inf
                now = ht[0]
            if policy == RANDOM_FIT:
                c = pick(policy, free, speed, p, allowed, _uniform(rng))
            else:
                c = pick(policy, free, speed, p, allowed, 0.0)
        run = west[k] / speed[c]
        free[c] -= p
        size = _push(ht, hc, hp, size, now + run, c, p)
        out_clus[k] = c
        out_start[k] = now
        cost = _cost(metric, now + run - wsubmit[k], run)
        out_cost[k] = cost
        total += cost
    return total / n_wait


@numba.njit(cache=True)
def branch_scratch(m, room):
    """Scratch arrays of :func:`simulate_branch`."""
    return (
        np.empty(room),
        np.empty(room, np.int64),
        np.empty(room, np.int64),
        np.empty(m, np.int64),
        np.ones(m, np.bool_),
    )


KEY_SHIFT = 20  # a release's cluster and processors packed as ``procs << 20 | cluster``
KEY_MASK = (1 << KEY_SHIFT) - 1


@numba.njit(cache=True)
def _mix(x):
    """splitmix64's finalizer: a bijection of uint64 that scatters every input bit."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@numba.njit(cache=True)
def _release_hash(time_bits, key):
    """Hash of one release (its time's bits and its packed cluster and processors)."""
    return _mix(time_bits ^ _mix(np.uint64(key) + np.uint64(0x9E3779B97F4A7C15)))


@numba.njit(cache=True)
def _push_flat(ht, hk, base, size, t, key):
    """Add release ``(t, key)`` to the min-heap ``ht[base:base + size]``; return where
    it went (relative to ``base``)."""
    i = size
    while i > 0:
        parent = (i - 1) // 2
        if ht[base + parent] <= t:
            break
        ht[base + i], hk[base + i] = ht[base + parent], hk[base + parent]
        i = parent
    ht[base + i], hk[base + i] = t, key
    return i


@numba.njit(cache=True)
def _pick_flat(policy, free, off, m, speed, p):
    """:func:`.allocation.pick` for fastest first, best fit and worst fit (every cluster
    allowed) on ``free[off:off + m]``: the same candidate, -1 if none fits."""
    best = -1
    for c in range(m):
        f = free[off + c]
        if f < p:
            continue
        if best < 0:
            best = c
        elif policy == BEST_FIT and f < free[off + best]:
            best = c
        elif policy == WORST_FIT and f > free[off + best]:
            best = c
        elif policy == FASTEST_FIRST and speed[c] > speed[best]:
            best = c
    return best


@numba.njit(cache=True)
def _same_releases(ta, ka, tb, kb):
    """Do ``(ta, ka)`` and ``(tb, kb)`` (equal lengths) hold the same multiset of
    releases? Sorted by time, keys sorted within equal times, compared one by one."""
    size = ta.size
    ia, ib = np.argsort(ta, kind="mergesort"), np.argsort(tb, kind="mergesort")
    ta, tb, ka, kb = ta[ia], tb[ib], ka[ia], kb[ib]
    i = 0
    while i < size:
        if ta[i] != tb[i]:
            return False
        j = i + 1
        while j < size and ta[j] == ta[i]:
            j += 1
        if j - i == 1:
            if ka[i] != kb[i]:
                return False
        elif not np.array_equal(np.sort(ka[i:j]), np.sort(kb[i:j])):
            return False
        i = j
    return True


@numba.njit(cache=True)
def _same_state(ht, hk, free, a, b, size, room, m):
    """Do branches ``a`` and ``b`` hold the same free processors and the same multiset of
    releases (``size`` each)?"""
    for c in range(m):
        if free[a * m + c] != free[b * m + c]:
            return False
    return _same_releases(
        ht[a * room : a * room + size],
        hk[a * room : a * room + size],
        ht[b * room : b * room + size],
        hk[b * room : b * room + size],
    )


# The memo (``state.memo_f`` / ``memo_i``): TLA's last winning simulation, job by job,
# and the state it started from. Rows of memo_f: each simulated job's start, cost, end;
# the origin's release times. Rows of memo_i: job, packed release key, state hash after
# the job (uint64 bits); the origin's release keys; META = (number of jobs, number of
# origin releases, then each cluster's free + held processors at the origin).
M_START, M_COST, M_END, M_OTIME = range(4)
M_JOB, M_KEY, M_HASH, M_OKEY, M_META = range(5)


@numba.njit(cache=True)
def _memo_releases(memo_f, memo_i, k, out_t, out_k):
    """The releases pending in the memo's simulation after its job ``k`` (written to
    ``out_*``; returns their number): the origin's and the earlier jobs' releases later
    than the tolerance after job ``k``'s start (all others were taken back by then), and
    job ``k``'s own."""
    n_rel = memo_i[M_META, 1]
    now = memo_f[M_START, k]
    limit = now + TIME_RTOL * max(abs(now), 1.0)
    size = 0
    for i in range(n_rel):
        if k == 0 or memo_f[M_OTIME, i] > limit:
            out_t[size], out_k[size] = memo_f[M_OTIME, i], memo_i[M_OKEY, i]
            size += 1
    for i in range(k):
        if memo_f[M_END, i] > limit:
            out_t[size], out_k[size] = memo_f[M_END, i], memo_i[M_KEY, i]
            size += 1
    out_t[size], out_k[size] = memo_f[M_END, k], memo_i[M_KEY, k]
    return size + 1


@numba.njit(cache=True)
def _memo_free(memo_i, rel_k, size, m, out):
    """Free processors with releases ``rel_k[:size]`` pending: each cluster's free + held
    processors at the memo's origin, less what the pending releases hold."""
    out[:] = memo_i[M_META, 2 : 2 + m]
    for i in range(size):
        out[rel_k[i] & KEY_MASK] -= rel_k[i] >> KEY_SHIFT


@numba.njit(cache=True)
def _equals_memo(memo_f, memo_i, k, ht, hk, free, b, size, room, m):
    """Is branch ``b``'s state (``size`` releases) the memo's after its job ``k``?"""
    tt, kk = (
        np.empty(size + memo_i[M_META, 1] + k + 1),
        np.empty(size + memo_i[M_META, 1] + k + 1, np.int64),
    )
    if _memo_releases(memo_f, memo_i, k, tt, kk) != size:
        return False
    f = np.empty(m, np.int64)
    _memo_free(memo_i, kk, size, m, f)
    for c in range(m):
        if f[c] != free[b * m + c]:
            return False
    return _same_releases(
        tt[:size], kk[:size], ht[b * room : b * room + size], hk[b * room : b * room + size]
    )


@numba.njit(cache=True)
def _sift_flat(ht, hk, base, i, size):
    """Sift entry ``i`` of the min-heap ``ht[base:base + size]`` down."""
    t, key = ht[base + i], hk[base + i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and ht[base + child + 1] < ht[base + child]:
            child += 1
        if ht[base + child] >= t:
            break
        ht[base + i], hk[base + i] = ht[base + child], hk[base + child]
        i = child
    ht[base + i], hk[base + i] = t, key


@numba.njit(cache=True)
def _score_lockstep(
    cands,
    speed,
    free0,
    heap0,
    n_rel,
    wprocs,
    wsubmit,
    west,
    n_wait,
    t,
    policy,
    metric,
    out_clus,
    out_start,
    out_cost,
    out_hash,
    totals,
    wait,
    memo_f,
    memo_i,
):
    """:func:`simulate_branch` for every candidate cluster ``cands[b]`` at once, step by
    step, for the deterministic simulation policies (fastest first, best and worst fit).

    After each simulated job the branches' states are compared: a branch's future
    depends only on the time reached, its free processors and the multiset of its
    pending releases (the pops at a step take every release up to the tolerance, in
    whatever order; the choice reads the free processors only). Two branches with equal
    states simulate the rest identically, so the later one stops and copies the other's
    clusters, starts and costs for the remaining jobs. States are compared by an
    order-free hash (a sum of per-release hashes, kept as releases come and go) and,
    when the hashes agree, exactly (:func:`_same_state`), so a collision costs a check,
    never a wrong merge.

    The memo (``memo_f``, ``memo_i``: the previous decision's winning simulation; none
    when ``memo_i`` has one column) is such a branch too: while the waiting jobs
    ``wait`` follow the memo's jobs in the same order (from the memo's position of
    ``wait[0]``), a branch whose state equals the memo's after the same job (hash, then
    exactly: :func:`_equals_memo`, the memo's pending releases being those of its origin
    and jobs not yet taken back) takes the memo's clusters, starts and costs; where the
    memo's jobs end (the jobs that arrived since), the memo's state is rebuilt and
    simulated on.

    Each branch's total is summed job by job in queue order, as :func:`simulate_branch`
    sums it: the same floating-point result. ``out_*[b, k]`` receive branch ``b``'s job
    ``k`` (``out_hash``: the state's hash after it); ``totals[b]`` its summed cost (inf
    if some job fits no cluster). Returns the number of branches that merged (into
    another branch or the memo)."""
    nb, m = cands.size, free0.size
    room = n_rel + n_wait
    ht = np.empty(nb * room)
    hk = np.empty(nb * room, np.int64)
    hbits = ht.view(np.uint64)
    free = np.empty(nb * m, np.int64)
    size = np.empty(nb, np.int64)
    now = np.full(nb, t)
    hsh = np.zeros(nb, np.uint64)
    rep = np.full(nb, -1, np.int64)  # the branch this one merged into (-1: none)
    merged_at = np.full(nb, -1, np.int64)  # jobs after this step are the rep's
    on_memo = np.full(nb, -1, np.int64)  # the step after which it follows the memo
    failed = np.zeros(nb, np.bool_)
    h0 = np.uint64(0)
    for i in range(n_rel):
        key = heap0[2][i] << KEY_SHIFT | heap0[1][i]
        ht[i], hk[i] = heap0[0][i], key
        h0 += _release_hash(hbits[i], key)
    keys0 = hk[:n_rel].copy()
    p0 = wprocs[0]
    for b in range(nb):
        base, c = b * room, cands[b]
        if b > 0:
            ht[base : base + n_rel] = heap0[0][:n_rel]
            hk[base : base + n_rel] = keys0
        free[b * m : b * m + m] = free0
        run = west[0] / speed[c]
        free[b * m + c] -= p0
        key = p0 << KEY_SHIFT | c
        i = _push_flat(ht, hk, base, n_rel, t + run, key)
        size[b] = n_rel + 1
        hsh[b] = h0 + _release_hash(hbits[base + i], key)
        out_clus[b, 0], out_start[b, 0], out_hash[b, 0] = c, t, hsh[b]
        out_cost[b, 0] = _cost(metric, t + run - wsubmit[0], run)
    # the memo's position of the target, and how many jobs follow it in the same order
    k1, span = -1, 0
    if memo_i.shape[1] > 1 and wait.size == n_wait:
        length = memo_i[M_META, 0]
        for i in range(length):
            if memo_i[M_JOB, i] == wait[0]:
                k1 = i
                break
        if k1 >= 0:
            while span < n_wait and k1 + span < length and memo_i[M_JOB, k1 + span] == wait[span]:
                span += 1
    mhash = memo_i[M_HASH].view(np.uint64)
    pending = 0  # branches following the memo
    live = nb
    k = 0
    while k < n_wait:
        if k > 0:
            if k == span and pending > 0:  # the memo ends here: rebuild its state, go on
                kk = k1 + span - 1
                n_memo = memo_i[M_META, 1] + kk + 1
                tt, tk = np.empty(n_memo), np.empty(n_memo, np.int64)
                sz = _memo_releases(memo_f, memo_i, kk, tt, tk)
                first = -1
                for b in range(nb):
                    if on_memo[b] < 0:
                        continue
                    for i in range(on_memo[b] + 1, span):
                        out_clus[b, i] = memo_i[M_KEY, k1 + i] & KEY_MASK
                        out_start[b, i] = memo_f[M_START, k1 + i]
                        out_cost[b, i] = memo_f[M_COST, k1 + i]
                        out_hash[b, i] = mhash[k1 + i]
                    on_memo[b] = -1
                    if first < 0:
                        first = b
                    else:
                        rep[b], merged_at[b] = first, span - 1
                base = first * room
                ht[base : base + sz], hk[base : base + sz] = tt[:sz], tk[:sz]
                for i in range(sz // 2 - 1, -1, -1):
                    _sift_flat(ht, hk, base, i, sz)
                f = np.empty(m, np.int64)
                _memo_free(memo_i, tk, sz, m, f)
                free[first * m : first * m + m] = f
                size[first], now[first], hsh[first] = sz, memo_f[M_START, kk], mhash[kk]
                pending = 0
                live += 1
            if live == 0:
                if pending > 0 and k < span:
                    k = span  # nothing to simulate until the memo ends
                    continue
                break
            p = wprocs[k]
            for b in range(nb):
                if rep[b] >= 0 or failed[b] or on_memo[b] >= 0:
                    continue
                base, off = b * room, b * m
                sz, nw, hs = size[b], now[b], hsh[b]
                while True:
                    limit = nw + TIME_RTOL * max(abs(nw), 1.0)  # rates.tolerance, inlined
                    while sz > 0 and ht[base] <= limit:
                        key = hk[base]
                        free[off + (key & KEY_MASK)] += key >> KEY_SHIFT
                        hs -= _release_hash(hbits[base], key)
                        sz -= 1
                        if sz > 0:
                            ht[base], hk[base] = ht[base + sz], hk[base + sz]
                            _sift_flat(ht, hk, base, 0, sz)
                    c = _pick_flat(policy, free, off, m, speed, p)
                    if c >= 0 or sz == 0:
                        break
                    nw = ht[base]
                if c < 0:
                    failed[b] = True
                    live -= 1
                    continue
                run = west[k] / speed[c]
                free[off + c] -= p
                key = p << KEY_SHIFT | c
                end = nw + run
                i = _push_flat(ht, hk, base, sz, end, key)
                sz += 1
                hs += _release_hash(hbits[base + i], key)
                size[b], now[b], hsh[b] = sz, nw, hs
                out_clus[b, k], out_start[b, k], out_hash[b, k] = c, nw, hs
                out_cost[b, k] = _cost(metric, end - wsubmit[k], run)
        if k < span:  # a branch in the memo's state follows the memo
            for b in range(nb):
                if rep[b] >= 0 or failed[b] or on_memo[b] >= 0:
                    continue
                if (
                    hsh[b] == mhash[k1 + k]
                    and now[b] == memo_f[M_START, k1 + k]
                    and _equals_memo(memo_f, memo_i, k1 + k, ht, hk, free, b, size[b], room, m)
                ):
                    on_memo[b] = k
                    pending += 1
                    live -= 1
        for b in range(1, nb):  # a branch equal to an earlier live one follows it
            if rep[b] >= 0 or failed[b] or on_memo[b] >= 0:
                continue
            for a in range(b):
                if rep[a] >= 0 or failed[a] or on_memo[a] >= 0:
                    continue
                if (
                    hsh[a] == hsh[b]
                    and now[a] == now[b]
                    and size[a] == size[b]
                    and _same_state(ht, hk, free, a, b, size[b], room, m)
                ):
                    rep[b], merged_at[b] = a, k
                    live -= 1
                    break
        k += 1
    merges = 0
    for b in range(nb):  # the memo to the end (it held every remaining job)
        if on_memo[b] < 0:
            continue
        merges += 1
        for i in range(on_memo[b] + 1, n_wait):
            out_clus[b, i] = memo_i[M_KEY, k1 + i] & KEY_MASK
            out_start[b, i] = memo_f[M_START, k1 + i]
            out_cost[b, i] = memo_f[M_COST, k1 + i]
            out_hash[b, i] = mhash[k1 + i]
    # fill the merged branches from their representatives, latest merge first (a
    # representative may itself have merged later)
    order = np.argsort(-merged_at, kind="mergesort")
    for b in order:
        a = rep[b]
        if a < 0:
            continue
        merges += 1
        i = merged_at[b] + 1
        failed[b] = failed[a]
        out_clus[b, i:n_wait] = out_clus[a, i:n_wait]
        out_start[b, i:n_wait] = out_start[a, i:n_wait]
        out_cost[b, i:n_wait] = out_cost[a, i:n_wait]
        out_hash[b, i:n_wait] = out_hash[a, i:n_wait]
    for b in range(nb):
        if failed[b]:
            totals[b] = np.inf
            continue
        total = 0.0
        for i in range(n_wait):
            total += out_cost[b, i]
        totals[b] = total
    return merges


@numba.njit(cache=True)
def score_clusters(
    speed,
    free,
    heap0,
    n_rel,
    wprocs,
    wsubmit,
    west,
    n_wait,
    t,
    allowed,
    policy,
    metric,
    rng,
    scores,
    plan_clus,
    plan_start,
):
    """TLA's winner among the allowed clusters where the target fits now (-1 if none):
    ``scores[c]`` is ``f(0, c)`` there, inf where the target does not fit; ``plan_*``
    receive the winner's simulated clusters and starts of the ``n_wait`` jobs.

    With fastest first, best or worst fit inside, the branches run together
    (:func:`_score_lockstep`); random fit draws from ``rng`` branch after branch, so
    its branches run one by one (:func:`simulate_branch`)."""
    return score_with_memo(
        speed,
        free,
        heap0,
        n_rel,
        wprocs,
        wsubmit,
        west,
        n_wait,
        t,
        allowed,
        policy,
        metric,
        rng,
        scores,
        plan_clus,
        plan_start,
        np.empty(0, np.int64),
        np.empty((4, 1)),
        np.zeros((5, 1), np.int64),
    )


@numba.njit(cache=True)
def score_with_memo(
    speed,
    free,
    heap0,
    n_rel,
    wprocs,
    wsubmit,
    west,
    n_wait,
    t,
    allowed,
    policy,
    metric,
    rng,
    scores,
    plan_clus,
    plan_start,
    wait,
    memo_f,
    memo_i,
):
    """:func:`score_clusters` that may resume from the memo (``memo_f``, ``memo_i``; see
    :func:`_score_lockstep`) for the waiting jobs ``wait``, and leaves the winner's
    simulation there (when the memo has room)."""
    m = free.size
    best = -1
    if policy == FASTEST_FIRST or policy == BEST_FIT or policy == WORST_FIT:
        nb = 0
        for c in range(m):
            if allowed[c] and free[c] >= wprocs[0]:
                nb += 1
        cands = np.empty(nb, np.int64)
        nb = 0
        for c in range(m):
            scores[c] = np.inf
            if allowed[c] and free[c] >= wprocs[0]:
                cands[nb] = c
                nb += 1
        if nb == 0:
            return -1
        out_clus = np.empty((nb, n_wait), np.int64)
        out_start = np.empty((nb, n_wait))
        out_cost = np.empty((nb, n_wait))
        out_hash = np.empty((nb, n_wait), np.uint64)
        totals = np.empty(nb)
        _score_lockstep(
            cands,
            speed,
            free,
            heap0,
            n_rel,
            wprocs,
            wsubmit,
            west,
            n_wait,
            t,
            policy,
            metric,
            out_clus,
            out_start,
            out_cost,
            out_hash,
            totals,
            wait,
            memo_f,
            memo_i,
        )
        win = -1
        for b in range(nb):
            c = cands[b]
            scores[c] = totals[b] / n_wait
            if best < 0 or scores[c] < scores[best] - SCORE_RTOL * abs(scores[best]):
                best, win = c, b
        plan_clus[:n_wait] = out_clus[win]
        plan_start[:n_wait] = out_start[win]
        if memo_i.shape[1] > 1 and wait.size == n_wait:
            _keep_memo(
                memo_f,
                memo_i,
                wait,
                out_clus[win],
                out_start[win],
                out_cost[win],
                out_hash[win],
                totals[win],
                wprocs,
                west,
                speed,
                free,
                heap0,
                n_rel,
            )
        return best
    clus = np.empty(n_wait, np.int64)
    start = np.empty(n_wait)
    cost = np.empty(n_wait)
    scratch = branch_scratch(m, n_rel + n_wait)
    for c in range(m):
        scores[c] = np.inf
        if not allowed[c] or free[c] < wprocs[0]:
            continue
        scores[c] = simulate_branch(
            c,
            speed,
            free,
            heap0,
            n_rel,
            wprocs,
            wsubmit,
            west,
            n_wait,
            t,
            policy,
            metric,
            rng,
            scratch,
            clus,
            start,
            cost,
        )
        if best < 0 or scores[c] < scores[best] - SCORE_RTOL * abs(scores[best]):
            best = c
            plan_clus[:n_wait] = clus
            plan_start[:n_wait] = start
    return best


@numba.njit(cache=True)
def _keep_memo(
    memo_f, memo_i, wait, clus, start, cost, hsh, total, wprocs, west, speed, free, heap0, n_rel
):
    """Store a winning simulation as the memo (none if it failed)."""
    n, m = wait.size, free.size
    if not total < np.inf or memo_i.shape[1] < max(n, n_rel, m + 2):
        memo_i[M_META, 0] = 0
        return
    mhash = memo_i[M_HASH].view(np.uint64)
    for k in range(n):
        c = clus[k]
        memo_i[M_JOB, k] = wait[k]
        memo_i[M_KEY, k] = wprocs[k] << KEY_SHIFT | c
        memo_f[M_START, k] = start[k]
        memo_f[M_COST, k] = cost[k]
        memo_f[M_END, k] = start[k] + west[k] / speed[c]  # as the simulation computed it
        mhash[k] = hsh[k]
    memo_i[M_META, 2 : 2 + m] = free
    for i in range(n_rel):
        memo_f[M_OTIME, i] = heap0[0][i]
        memo_i[M_OKEY, i] = heap0[2][i] << KEY_SHIFT | heap0[1][i]
        memo_i[M_META, 2 + heap0[1][i]] += heap0[2][i]
    memo_i[M_META, 0], memo_i[M_META, 1] = n, n_rel


@numba.njit(cache=True)
def _gather(state, j, t, depth):
    """The look-ahead's inputs at ``t``: the running jobs' releases (predicted end,
    cluster, procs) as a heap with room for the simulated jobs, and the waiting jobs in
    queue order with ``j`` first (at most ``depth``; 0: all)."""
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
    heap0 = release_heap(rel_time, state.clus[running], state.procs[running], n_rel + q)
    wait = wait[:q]
    return heap0, n_rel, state.procs[wait], state.submit[wait], state.estimate[wait], wait


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
        score = _cost(metric, t + run - submit, run) / 1
        if best < 0 or score < best_score - SCORE_RTOL * abs(best_score):
            best, best_score = c, score
    return best


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
    if fits < 2 or state.ctr[QLEN] < 2:  # no choice, or nothing else waits: fastest first
        return _fastest(state, p, allowed)
    heap0, n_rel, wprocs, wsubmit, west, wait = _gather(state, j, t, state.cfg[TLA_DEPTH])
    n_wait = wait.size
    scores = np.empty(m)
    plan_clus = np.empty(n_wait, np.int64)
    plan_start = np.empty(n_wait)
    policy, metric = state.cfg[TLA_POLICY], state.cfg[TLA_METRIC]
    best = score_with_memo(
        state.speed,
        state.free,
        heap0,
        n_rel,
        wprocs,
        wsubmit,
        west,
        n_wait,
        t,
        allowed,
        policy,
        metric,
        state.rng,
        scores,
        plan_clus,
        plan_start,
        wait,
        state.memo_f,
        state.memo_i,
    )
    shallow = _shallow(state.speed, state.free, wprocs[0], wsubmit[0], west[0], t, allowed, metric)
    state.ctr[TLA_ACTIVATIONS] += 1
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


@numba.njit(cache=True)
def _session_power(state, j, first):
    """Computing power (processors x speed) the session at the current instant uses when
    ``j`` goes to ``first`` and the following head jobs (queue order) go by fastest first
    while one fits."""
    free = state.free.copy()
    allowed = np.ones(free.size, np.bool_)
    free[first] -= state.procs[j]
    power = state.procs[j] * state.speed[first]
    r = seg_first_le(state.wtree, 0, ANY)
    while r >= 0:
        i = state.at_rank[r]
        if i != j:
            c = pick(FASTEST_FIRST, free, state.speed, state.procs[i], allowed, 0.0)
            if c < 0:
                break
            free[c] -= state.procs[i]
            power += state.procs[i] * state.speed[c]
        r = seg_first_le(state.wtree, r + 1, ANY)
    return power


@numba.njit(cache=True)
def ai2_place(state, j, t, allowed):
    """AI2's cluster for waiting job ``j`` among the allowed clusters (-1: none fits)."""
    p = state.procs[j]
    ff = _fastest(state, p, allowed)
    bf = pick(BEST_FIT, state.free, state.speed, p, allowed, 0.0)
    if ff < 0 or bf == ff:
        return ff
    if _session_power(state, j, bf) > _session_power(state, j, ff):
        return bf
    return ff


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
    """A finite number >= ``low`` (a whole one in [``low``, 2**53] with ``whole``); bools,
    strings, None, NaN and inf are an InvalidParameter naming ``what``."""
    if whole:
        return float(check_int(what, value, minimum=int(low), maximum=MAX_PROCS))
    return check_real(what, value, at_least=None if low == -np.inf else low)


def _snapshot(jobs, what: str, kind) -> list:
    """``jobs`` (any iterable, read once) as a list of ``kind`` named tuples: each entry a
    ``kind`` or a plain tuple or list of its fields, else an InvalidType naming it."""
    if isinstance(jobs, str | bytes | dict | kind) or not isinstance(jobs, Iterable):
        raise InvalidType(
            f"{what} must be a list of {kind.__name__} (or tuples {kind._fields}), got {jobs!r:.80}"
        )
    out = []
    for k, job in enumerate(jobs):
        if not isinstance(job, kind):
            if not isinstance(job, tuple | list) or len(job) != len(kind._fields):
                raise InvalidType(
                    f"{what}[{k}] must be a {kind.__name__} or a tuple "
                    f"{kind._fields}, got {job!r:.80}"
                )
            job = kind(*job)
        out.append(job)
    return out


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

    ``clusters``: :class:`.Cluster` list; ``running``: :class:`RunningJob` (free
    processors are the capacity minus what they hold); ``waiting``: :class:`WaitingJob`
    in queue order (the first is the job to place); ``depth`` and ``policy`` as in
    :class:`TLAOptions`.

    Accepted: any iterable of clusters (a generator is read once); ``running`` and
    ``waiting`` as any iterables of the named tuples or of plain tuples/lists of their
    fields (``(cluster, procs, end)``, ``(procs, submit, estimate)``). Processor counts
    are whole numbers in [1, 2**53], times finite numbers (``now``, ``submit``, ``end``
    any sign; ``estimate`` >= 0); bools and strings are refused. Cluster names must be
    distinct (the result is keyed by name). A waiting job's ``submit`` must not be after
    ``now`` (the snapshot is taken at ``now``; its turnaround would come out negative); a
    running job's ``end`` before ``now`` counts as ``now``. Only the first ``depth``
    waiting jobs are read. Anything else is an :class:`~hpcmodels.errors.InvalidParameter`
    (:class:`~hpcmodels.errors.InvalidType` for a wrong container) naming the argument.
    """
    options = TLAOptions(depth=depth, policy=policy)
    clusters = cluster_list(clusters)
    cap, speed = cluster_arrays(clusters)
    names = [c.name for c in clusters]
    now = _number(now, "now", low=-np.inf)
    free = cap.astype(np.int64).copy()
    running = _snapshot(running, "running", RunningJob)
    waiting = _snapshot(waiting, "waiting", WaitingJob)
    if not waiting:
        raise InvalidParameter("waiting is empty: there is no job to place")
    n_rel, n_wait = (
        len(running),
        len(waiting) if options.depth is None else min(options.depth, len(waiting)),
    )
    rel_time = np.empty(n_rel)
    rel_procs = np.empty(n_rel, np.int64)
    rel_clus = np.empty(n_rel, np.int64)
    for k, job in enumerate(running):
        c = job.cluster
        if isinstance(c, str):
            if c not in names:
                raise InvalidParameter(f"running[{k}].cluster {c!r} is not one of {names}")
            c = names.index(c)
        elif isinstance(c, bool) or not isinstance(c, int | np.integer) or not 0 <= c < cap.size:
            raise InvalidParameter(
                f"running[{k}].cluster {c!r}: give a name or index 0..{cap.size - 1}"
            )
        p = int(_number(job.procs, f"running[{k}].procs", whole=True, low=1))
        end = _number(job.end, f"running[{k}].end", low=-np.inf)
        free[c] -= p
        if free[c] < 0:
            raise InvalidParameter(
                f"running jobs hold more than cluster {names[c]!r}'s {cap[c]} processors"
            )
        rel_time[k], rel_procs[k], rel_clus[k] = max(end, now), p, c
    wprocs = np.empty(n_wait, np.int64)
    wsubmit, west = np.empty(n_wait), np.empty(n_wait)
    for k, job in enumerate(waiting[:n_wait]):
        wprocs[k] = int(_number(job.procs, f"waiting[{k}].procs", whole=True, low=1))
        wsubmit[k] = _number(job.submit, f"waiting[{k}].submit", low=-np.inf)
        if wsubmit[k] > now:  # a snapshot at now holds no job submitted later
            raise InvalidParameter(
                f"waiting[{k}].submit = {job.submit!r} is after now = {now!r}: a job waiting "
                "at now was submitted at or before now"
            )
        west[k] = _number(job.estimate, f"waiting[{k}].estimate")
        if wprocs[k] > cap.max():
            raise InvalidParameter(
                f"waiting[{k}] needs {wprocs[k]} processors, more than any cluster"
            )
    _, _, policy_code, metric_code = options.codes()
    rng = np.zeros(1, np.uint64)
    heap0 = release_heap(rel_time, rel_clus, rel_procs, n_rel + n_wait)
    scratch = branch_scratch(cap.size, n_rel + n_wait)
    out = {}
    for c in range(cap.size):
        if free[c] < wprocs[0]:
            continue
        clus, start, cost = np.empty(n_wait, np.int64), np.empty(n_wait), np.empty(n_wait)
        att = simulate_branch(
            c,
            speed,
            free,
            heap0,
            n_rel,
            wprocs,
            wsubmit,
            west,
            n_wait,
            now,
            policy_code,
            metric_code,
            rng,
            scratch,
            clus,
            start,
            cost,
        )
        out[names[c]] = Score(float(att), cost.tolist(), [names[i] for i in clus], start.tolist())
    return out
