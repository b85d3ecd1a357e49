"""TLA's scores for every candidate cluster (Shih et al. 2013, Section 3.2), with exact
shortcuts.

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
"""

from __future__ import annotations

import numba
import numpy as np

from .allocation import BEST_FIT, FASTEST_FIRST, WORST_FIT
from .rates import TIME_RTOL
from .tla_branch import (
    SCORE_RTOL,
    branch_cost,
    branch_scratch,
    simulate_branch,
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
        out_cost[b, 0] = branch_cost(metric, t + run - wsubmit[0], run)
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
                out_cost[b, k] = branch_cost(metric, end - wsubmit[k], run)
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
