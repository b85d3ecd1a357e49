"""The selection policies' table: which waiting jobs a scheduling session starts.

A session at time ``t`` starts waiting jobs through :func:`..placement.place` and
:func:`..events.start_job`, calling the rate model after every start. The waiting queue
is a min segment tree over each job's rank in the policy's queue order (arrival order;
(procs, arrival) for smallest first; (-procs, arrival) for largest first), so a session
asks "the next waiting job at or after this rank that can start" in O(log w) (w: the
window of ranks that holds the waiting jobs, :mod:`..queue`) and never
walks past jobs that cannot (a job fits a single cluster iff its width is at most the
largest free count, any placement with co-allocation iff at most the total free count).

Each policy is a module with its session kernel: :mod:`.greedy` (``fcfs``,
``first_available``, ``smallest_first``, ``largest_first``, ``first_available_once``),
:mod:`.easy`, :mod:`.conservative`. This module is the table: the names (a policy's code
is its position in :data:`SELECTIONS`), the queue order and the queue's extra trees each
one needs (:data:`QUEUE_KEEPS`), and :func:`session`, which dispatches by code. Adding a
policy: write its module, then add its name, its row of :data:`QUEUE_KEEPS` and one line
to :func:`session` (``docs/architecture.md``).
"""

from __future__ import annotations

import numba
import numpy as np

from ..queue import KEEP_ESTIMATES, KEEP_RESERVATIONS
from ..state import QLEN, SEL, SESSIONS
from .conservative import conservative
from .easy import easy
from .greedy import fcfs, one_pass

__all__ = ["SELECTIONS", "QUEUE_KEEPS", "BACKFILLING", "queue_ranks", "session"]

SELECTIONS = (
    "fcfs",
    "first_available",
    "smallest_first",
    "largest_first",
    "conservative",
    "easy",
    "first_available_once",
)
FCFS, FIRST_AVAILABLE, SMALLEST, LARGEST, CONSERVATIVE, EASY, FIRST_ONCE = range(7)

QUEUE_KEEPS = (0, 0, 0, 0, KEEP_ESTIMATES | KEEP_RESERVATIONS, KEEP_ESTIMATES, 0)
"""Per policy, the queue's extra trees (:mod:`..queue`): EASY backfills by estimates,
conservative backfilling also keeps reservations."""
BACKFILLING = (CONSERVATIVE, EASY)
"""The policies that reserve processors ahead: not combined with co-allocation."""


def queue_ranks(submit: np.ndarray, procs: np.ndarray, sel: int) -> np.ndarray:
    """Each job's rank in the queue order of selection ``sel``: arrival order (stable by
    submit time), or (procs, arrival) / (-procs, arrival) for smallest / largest first."""
    arrival = np.empty(submit.size, np.int64)
    arrival[np.argsort(submit, kind="stable")] = np.arange(submit.size)
    if sel == SMALLEST:
        order = np.lexsort((arrival, procs))
    elif sel == LARGEST:
        order = np.lexsort((arrival, -procs))
    else:
        return arrival
    rank = np.empty(submit.size, np.int64)
    rank[order] = np.arange(submit.size)
    return rank


@numba.njit(cache=True)
def session(state, t, rate_code, params, everywhere, declined):
    """One scheduling session at ``t`` by the run's selection policy (the table)."""
    state.ctr[SESSIONS] += 1
    if state.ctr[QLEN] == 0:
        return
    sel = state.cfg[SEL]
    if sel == FCFS:
        fcfs(state, t, rate_code, params, everywhere)
    elif sel == EASY:
        easy(state, t, rate_code, params, everywhere)
    elif sel == CONSERVATIVE:
        conservative(state, t, rate_code, params)
    else:
        one_pass(state, t, rate_code, params, everywhere, sel == FIRST_ONCE, declined)
