"""TLA's look-ahead branches, simulated and scored for every candidate cluster (Shih et
al. 2013, Section 3.2, Fig. 3), with exact shortcuts.

One simulation step is written once, in :func:`_score_lockstep`, which runs every
candidate's branch in lock step; :func:`simulate_branch` runs one branch alone with it.

Cost of one decision (``q`` jobs simulated, ``r`` running, ``m`` clusters, ``b <= m``
candidate clusters). One *step* (a simulated job: releases taken back from the branch's
release heap, :mod:`.heap`, a choice over the ``m`` clusters, its release pushed) costs
O(log(q + r) + m); scoring the ``b`` branches from scratch takes ``b q`` steps:
O(b (q + r) log(q + r) + b q m). (The
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
from one stream branch after branch, so its branches are simulated one by one
(:func:`simulate_branch`: the same step, one candidate at a time).
"""

from __future__ import annotations

import numba
import numpy as np

from .allocation import BEST_FIT, FASTEST_FIRST, FIRST_FIT, RANDOM_FIT, WORST_FIT, pick_at
from .heap import release_heapify, release_pop, release_push
from .rates import TIME_RTOL
from .tla_branch import KEY_MASK, KEY_SHIFT, beats, branch_cost, release_hash, release_key, uniform

__all__ = ["simulate_branch", "score_clusters", "score_with_memo"]


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
    lo, hi = a * room, b * room
    return _same_releases(
        ht[lo : lo + size], hk[lo : lo + size], ht[hi : hi + size], hk[hi : hi + size]
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
    lo = b * room
    return _same_releases(tt[:size], kk[:size], ht[lo : lo + size], hk[lo : lo + size])


@numba.njit(cache=True)
def _from_memo(out, b, memo_f, memo_i, k1, lo, hi):
    """Branch ``b``'s jobs ``lo .. hi - 1`` taken from the memo's jobs ``k1 + lo ..``."""
    out_clus, out_start, out_cost, out_hash = out
    mhash = memo_i[M_HASH].view(np.uint64)
    for i in range(lo, hi):
        out_clus[b, i] = memo_i[M_KEY, k1 + i] & KEY_MASK
        out_start[b, i] = memo_f[M_START, k1 + i]
        out_cost[b, i] = memo_f[M_COST, k1 + i]
        out_hash[b, i] = mhash[k1 + i]


@numba.njit(cache=True)
def _score_lockstep(cands, snap, policy, metric, rng, out, totals, wait, memo_f, memo_i):
    """Fig. 3's branch for every candidate cluster ``cands[b]`` of the snapshot ``snap``
    at once, step by step: the only place where TLA's simulation takes processors back,
    places a job and moves to the next release (:func:`simulate_branch` is this with
    one candidate). The branches' release heaps lie side by side in one pair of arrays
    (branch ``b``'s from ``b * (n_rel + n_wait)``, :mod:`.heap`; keys by
    :func:`.tla_branch.release_key`), their free processors likewise (from ``b * m``).
    The step is written out here, not called, so that numba counts no references at
    each step (see :mod:`.heap`). Random fit draws from
    ``rng`` at each placement, so its branches are simulated one at a time (one
    candidate per call), in the order the draws were always taken.

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

    Each branch's total is summed job by job in queue order, as a branch simulated alone
    sums it: the same floating-point result.
    ``out = (clus, start, cost, hash)``: ``out[.][b, k]`` receive branch ``b``'s job
    ``k`` (``hash``: the state's hash after it); ``totals[b]`` its summed cost (inf if
    some job fits no cluster). Returns the number of branches that merged (into another
    branch or the memo)."""
    out_clus, out_start, out_cost, out_hash = out
    speed, procs, submit, estimate = snap.speed, snap.procs, snap.submit, snap.estimate
    nb, m, n_rel, n_wait = cands.size, speed.size, snap.n_rel, procs.size
    room = n_rel + n_wait
    ht = np.empty(nb * room)
    hk = np.empty(nb * room, np.int64)
    bits = ht.view(np.uint64)
    allowed = np.ones(m, np.bool_)  # inside the simulation every cluster is allowed
    free = np.empty(nb * m, np.int64)
    for b in range(nb):
        base = b * room
        ht[base : base + n_rel] = snap.releases[0][:n_rel]
        hk[base : base + n_rel] = snap.releases[1][:n_rel]
        free[b * m : b * m + m] = snap.free
    hashed = nb > 1 or memo_i.shape[1] > 1  # only merges and the memo read the hashes
    fits = FIRST_FIT if policy == RANDOM_FIT else policy  # whether the job fits, or where
    h0 = np.uint64(0)
    for i in range(n_rel if hashed else 0):
        h0 += release_hash(bits[i], hk[i])
    size = np.full(nb, n_rel, np.int64)
    now = np.full(nb, snap.t)
    hsh = np.empty(nb, np.uint64)
    hsh[:] = h0
    rep = np.full(nb, -1, np.int64)  # the branch this one merged into (-1: none)
    merged_at = np.full(nb, -1, np.int64)  # jobs after this step are the rep's
    on_memo = np.full(nb, -1, np.int64)  # the step after which it follows the memo
    failed = np.zeros(nb, np.bool_)
    simulated = np.ones(nb, np.bool_)  # neither merged, failed nor on the memo
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
    live = nb  # branches simulated
    k = 0
    while k < n_wait:
        if k == span and pending > 0:  # the memo ends here: rebuild its state, go on
            kk = k1 + span - 1
            n_memo = memo_i[M_META, 1] + kk + 1
            tt, tk = np.empty(n_memo), np.empty(n_memo, np.int64)
            sz = _memo_releases(memo_f, memo_i, kk, tt, tk)
            first = -1
            for b in range(nb):
                if on_memo[b] < 0:
                    continue
                _from_memo(out, b, memo_f, memo_i, k1, on_memo[b] + 1, span)
                on_memo[b] = -1
                if first < 0:
                    first = b
                    simulated[b] = True
                else:
                    rep[b], merged_at[b] = first, span - 1
            base = first * room
            ht[base : base + sz], hk[base : base + sz] = tt[:sz], tk[:sz]
            release_heapify(ht, hk, base, sz)
            _memo_free(memo_i, tk, sz, m, free[first * m : first * m + m])
            size[first], now[first], hsh[first] = sz, memo_f[M_START, kk], mhash[kk]
            pending = 0
            live += 1
        if live == 0:
            if pending > 0 and k < span:
                k = span  # nothing to simulate until the memo ends
                continue
            break
        p = procs[k]
        for b in range(nb):  # the step: Fig. 3 (b)-(d) for job k in branch b
            if not simulated[b]:
                continue
            base, off = b * room, b * m
            sz, nw, hs = size[b], now[b], hsh[b]
            c = cands[b]  # step I: the target goes to the candidate at t
            if k > 0:
                while True:  # take back the releases due; none fits: the next release
                    limit = nw + TIME_RTOL * max(abs(nw), 1.0)  # rates.tolerance, inlined
                    while sz > 0 and ht[base] <= limit:
                        key = hk[base]
                        free[off + (key & KEY_MASK)] += key >> KEY_SHIFT
                        if hashed:
                            hs -= release_hash(bits[base], key)
                        sz = release_pop(ht, hk, base, sz)
                    c = pick_at(fits, free, off, speed, p, allowed, 0.0)
                    if c >= 0 or sz == 0:
                        break
                    nw = ht[base]
                if c < 0:  # it fits no cluster even with every processor back
                    failed[b], simulated[b] = True, False
                    live -= 1
                    continue
                if policy == RANDOM_FIT:  # a draw only once the job fits somewhere
                    c = pick_at(policy, free, off, speed, p, allowed, uniform(rng))
            run = estimate[k] / speed[c]
            free[off + c] -= p
            key = release_key(c, p)
            slot = release_push(ht, hk, base, sz, nw + run, key)
            if hashed:
                hs += release_hash(bits[base + slot], key)
            size[b], now[b], hsh[b] = sz + 1, nw, hs
            out_clus[b, k], out_start[b, k], out_hash[b, k] = c, nw, hs
            out_cost[b, k] = branch_cost(metric, nw + run - submit[k], run)
        if k < span:  # a branch in the memo's state follows the memo
            for b in range(nb):
                if not simulated[b]:
                    continue
                if (
                    hsh[b] == mhash[k1 + k]
                    and now[b] == memo_f[M_START, k1 + k]
                    and _equals_memo(memo_f, memo_i, k1 + k, ht, hk, free, b, size[b], room, m)
                ):
                    on_memo[b], simulated[b] = k, False
                    pending += 1
                    live -= 1
        for b in range(1, nb):  # a branch equal to an earlier live one follows it
            if not simulated[b]:
                continue
            for a in range(b):
                if not simulated[a]:
                    continue
                if (
                    hsh[a] == hsh[b]
                    and now[a] == now[b]
                    and size[a] == size[b]
                    and _same_state(ht, hk, free, a, b, size[b], room, m)
                ):
                    rep[b], merged_at[b], simulated[b] = a, k, False
                    live -= 1
                    break
        k += 1
    merges = 0
    for b in range(nb):  # the memo to the end (it held every remaining job)
        if on_memo[b] < 0:
            continue
        merges += 1
        _from_memo(out, b, memo_f, memo_i, k1, on_memo[b] + 1, n_wait)
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
def simulate_branch(c0, snap, policy, metric, rng, out):
    """Fig. 3 for the target (waiting job 0 of ``snap``) on cluster ``c0`` alone: the
    mean cost of the waiting jobs replayed first come first served from ``snap.t``,
    processors coming back at the releases (:func:`_score_lockstep` with one
    candidate). ``out = (clus, start, cost)`` receive each simulated job's cluster,
    start and cost. Returns inf if some job fits no cluster."""
    n_wait = snap.procs.size
    clus, start, cost = out
    one = (
        clus.reshape(1, n_wait),
        start.reshape(1, n_wait),
        cost.reshape(1, n_wait),
        np.empty((1, n_wait), np.uint64),
    )
    total = np.empty(1)
    wait, memo_f, memo_i = _no_memo()
    cands = np.full(1, c0, np.int64)
    _score_lockstep(cands, snap, policy, metric, rng, one, total, wait, memo_f, memo_i)
    return total[0] / n_wait


@numba.njit(cache=True)
def _no_memo():
    """Empty waiting-job indices and a memo of one column: no memo."""
    return np.empty(0, np.int64), np.empty((4, 1)), np.zeros((5, 1), np.int64)


@numba.njit(cache=True)
def score_clusters(snap, allowed, policy, metric, rng, scores, plan):
    """TLA's winner among the allowed clusters where the target (waiting job 0 of the
    :class:`.tla_branch.Snapshot` ``snap``) fits now (-1 if none): ``scores[c]`` is
    ``f(0, c)`` there, inf where the target does not fit; ``plan = (clus, start)``
    receive the winner's simulated clusters and starts of the waiting jobs.

    With fastest first, best or worst fit inside, the branches run together
    (:func:`_score_lockstep`); random fit draws from ``rng`` branch after branch, so
    its branches run one by one (:func:`simulate_branch`)."""
    wait, memo_f, memo_i = _no_memo()
    return score_with_memo(snap, allowed, policy, metric, rng, scores, plan, wait, memo_f, memo_i)


@numba.njit(cache=True)
def _candidates(snap, allowed, scores):
    """The allowed clusters where the target fits now, in index order; every
    ``scores[c]`` set to inf."""
    m, p = snap.free.size, snap.procs[0]
    nb = 0
    for c in range(m):
        if allowed[c] and snap.free[c] >= p:
            nb += 1
    cands = np.empty(nb, np.int64)
    nb = 0
    for c in range(m):
        scores[c] = np.inf
        if allowed[c] and snap.free[c] >= p:
            cands[nb] = c
            nb += 1
    return cands


@numba.njit(cache=True)
def score_with_memo(snap, allowed, policy, metric, rng, scores, plan, wait, memo_f, memo_i):
    """:func:`score_clusters` that may resume from the memo (``memo_f``, ``memo_i``; see
    :func:`_score_lockstep`) for the waiting jobs ``wait``, and leaves the winner's
    simulation there (when the memo has room)."""
    n_wait = snap.procs.size
    plan_clus, plan_start = plan
    cands = _candidates(snap, allowed, scores)
    best = -1
    if policy == FASTEST_FIRST or policy == BEST_FIT or policy == WORST_FIT:
        nb = cands.size
        if nb == 0:
            return -1
        out = (
            np.empty((nb, n_wait), np.int64),
            np.empty((nb, n_wait)),
            np.empty((nb, n_wait)),
            np.empty((nb, n_wait), np.uint64),
        )
        totals = np.empty(nb)
        _score_lockstep(cands, snap, policy, metric, rng, out, totals, wait, memo_f, memo_i)
        win = -1
        for b in range(nb):
            c = cands[b]
            scores[c] = totals[b] / n_wait
            if best < 0 or beats(scores[c], scores[best]):
                best, win = c, b
        plan_clus[:n_wait] = out[0][win]
        plan_start[:n_wait] = out[1][win]
        if memo_i.shape[1] > 1 and wait.size == n_wait:
            _keep_memo(memo_f, memo_i, wait, out, win, totals[win], snap)
        return best
    out = (np.empty(n_wait, np.int64), np.empty(n_wait), np.empty(n_wait))
    for c in cands:
        scores[c] = simulate_branch(c, snap, policy, metric, rng, out)
        if best < 0 or beats(scores[c], scores[best]):
            best = c
            plan_clus[:n_wait] = out[0]
            plan_start[:n_wait] = out[1]
    return best


@numba.njit(cache=True)
def _keep_memo(memo_f, memo_i, wait, out, win, total, snap):
    """Store branch ``win`` of ``out`` (:func:`_score_lockstep`'s), a winning
    simulation of ``snap``, as the memo (none if it failed)."""
    n, m, n_rel = wait.size, snap.free.size, snap.n_rel
    if not total < np.inf or memo_i.shape[1] < max(n, n_rel, m + 2):
        memo_i[M_META, 0] = 0
        return
    clus, start, cost, hsh = out[0][win], out[1][win], out[2][win], out[3][win]
    mhash = memo_i[M_HASH].view(np.uint64)
    for k in range(n):
        c = clus[k]
        memo_i[M_JOB, k] = wait[k]
        memo_i[M_KEY, k] = release_key(c, snap.procs[k])
        memo_f[M_START, k] = start[k]
        memo_f[M_COST, k] = cost[k]
        memo_f[M_END, k] = start[k] + snap.estimate[k] / snap.speed[c]  # as simulated
        mhash[k] = hsh[k]
    memo_i[M_META, 2 : 2 + m] = snap.free
    time, key = snap.releases
    for i in range(n_rel):
        memo_f[M_OTIME, i] = time[i]
        memo_i[M_OKEY, i] = key[i]
        memo_i[M_META, 2 + (key[i] & KEY_MASK)] += key[i] >> KEY_SHIFT
    memo_i[M_META, 0], memo_i[M_META, 1] = n, n_rel
