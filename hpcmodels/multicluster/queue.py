"""The waiting queue (numba kernels): who joins and who leaves it, whatever the selection.

The waiting jobs are the present leaves of min segment trees over their rank in the
selection's queue order (:mod:`.segtree`; ranks: :func:`.selection.queue_ranks`):
``wtree`` holds every waiting job's width. A selection that backfills asks for more
(``cfg[QUEUE_KEEPS]``, set from :data:`.selection.QUEUE_KEEPS`): ``KEEP_ESTIMATES`` keeps
``etree``, the waiting jobs' estimates (EASY's window test, conservative's empty
reservations); ``KEEP_RESERVATIONS`` keeps conservative backfilling's reservations
(:mod:`.reservations`). The engine's events call :func:`enqueue` and :func:`dequeue`
only; they never ask which policy runs.
"""

from __future__ import annotations

import numba
import numpy as np

from .reservations import on_dequeue, on_enqueue
from .segtree import seg_set
from .state import QLEN, QUEUE_KEEPS

__all__ = ["KEEP_ESTIMATES", "KEEP_RESERVATIONS", "enqueue", "dequeue"]

KEEP_ESTIMATES = 1
KEEP_RESERVATIONS = 2


@numba.njit(cache=True, inline="always")
def enqueue(state, j):
    """Submitted job ``j`` joins the queue at its rank."""
    r = state.qrank[j]
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
