"""The waiting queue (numba kernels): who joins and who leaves it, whatever the selection.

The waiting jobs are the present leaves of min segment trees over their rank in the
selection's queue order (:mod:`.segtree`; ranks: :func:`.selection.queue_ranks`):
``wtree`` holds every waiting job's width. A selection that backfills asks for more
(``cfg[QUEUE_KEEPS]``, set from :data:`.selection.QUEUE_KEEPS`): ``KEEP_ESTIMATES`` keeps
``etree``, the waiting jobs' estimates (EASY's window test, conservative's empty
reservations); ``KEEP_RESERVATIONS`` keeps conservative backfilling's reservations
(:mod:`.reservations`). The engine's events call :func:`enqueue` and :func:`dequeue`
only; they never ask which policy runs.

The trees span a window of ranks that holds every waiting job, not every job of the run
(:mod:`.segtree`). When a job joins outside it, :func:`_refit` moves every kept tree to a
window from the first to the last waiting rank, at least twice that span wide (and at
least ``WINDOW_MIN``), in O(window). The window then has room for at least half its
width of new ranks, so in arrival order (ranks rise with submission) a refit comes at
most once per ``window / 2`` submissions: O(1) amortised per job. When the window
would be as wide as the run, it spans every rank and never moves again (orders by
size, whose ranks do not rise with submission, get there within a few refits).
"""

from __future__ import annotations

import numba
import numpy as np

from .reservations import on_dequeue, on_enqueue
from .segtree import ANY, WINDOW_MIN, seg_base, seg_first_le, seg_set, seg_window
from .state import QLEN, QUEUE_KEEPS

__all__ = ["KEEP_ESTIMATES", "KEEP_RESERVATIONS", "enqueue", "dequeue"]

KEEP_ESTIMATES = 1
KEEP_RESERVATIONS = 2


@numba.njit(cache=True)
def _refit(state, r):
    """Move the kept trees' window to hold rank ``r`` and every waiting rank (above)."""
    tree = state.wtree
    size = tree.size // 2
    lo = hi = r
    if state.ctr[QLEN] > 0:
        lo = min(lo, seg_first_le(tree, 0, ANY))
        k = 2 * size - 1
        while tree[k] == np.inf:  # the last waiting rank (QLEN > 0: a leaf is finite)
            k -= 1
        hi = max(hi, k - size + seg_base(tree))
    every = 1
    while every < state.at_rank.size:
        every *= 2
    width = WINDOW_MIN
    while width < 2 * (hi - lo + 1):
        width *= 2
    if width >= every:  # the whole run: this window never moves again
        width, lo = every, 0
    state.wtree = seg_window(tree, lo, width)
    keeps = state.cfg[QUEUE_KEEPS]
    if keeps & KEEP_ESTIMATES:
        state.etree = seg_window(state.etree, lo, width)
    if keeps & KEEP_RESERVATIONS:
        state.rtree = seg_window(state.rtree, lo, width)


@numba.njit(cache=True, inline="always")
def enqueue(state, j):
    """Submitted job ``j`` joins the queue at its rank."""
    r = state.qrank[j]
    base = seg_base(state.wtree)
    if r < base or r >= base + state.wtree.size // 2:
        _refit(state, r)
    seg_set(state.wtree, r, state.procs[j])
    keeps = state.cfg[QUEUE_KEEPS]
    if keeps & KEEP_ESTIMATES:
        seg_set(state.etree, r, state.estimate[j])
    if keeps & KEEP_RESERVATIONS:
        on_enqueue(state, r)
    state.ctr[QLEN] += 1


@numba.njit(cache=True, inline="always")
def dequeue(state, j):
    """Waiting job ``j`` leaves the queue (it starts)."""
    r = state.qrank[j]
    seg_set(state.wtree, r, np.inf)
    keeps = state.cfg[QUEUE_KEEPS]
    if keeps & KEEP_ESTIMATES:
        seg_set(state.etree, r, np.inf)
    if keeps & KEEP_RESERVATIONS:
        on_dequeue(state, j, r)
    state.ctr[QLEN] -= 1
