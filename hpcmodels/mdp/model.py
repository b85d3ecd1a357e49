"""The co-allocation Markov decision process of Filippopoulos & Karatza (Sections 2-3).

Two clusters: cluster 1 has two nodes, cluster 2 one node, each with its own unbounded
FCFS queue. Jobs arrive at cluster i as a Poisson stream of rate ``lambda_i``; a job of
cluster 1 needs one node with probability ``p``, else two; cluster 2's jobs need one.
Local service is exponential with rate ``mu_1`` (cluster 1, whatever the width) or
``mu_2``; a co-allocated job (a 2-component job of queue 1 on one node of cluster 1 and
the node of cluster 2, pre-empting cluster 2's job) is served at rate ``mu_3``.

State ``S = (q1, q2, g, x1, x2, x11)``: jobs waiting in queue 1, jobs at cluster 2
(including the one in service), the width of the job at the head of queue 1 (0 when the
queue is empty), 1- and 2-component jobs in service at cluster 1, co-allocated jobs.
Queues are truncated at ``q1, q2 <= Delta``: an arrival to a full queue is lost, which
gives ``6 (Delta + 1)(2 Delta + 1)`` states (11,346 at Delta = 30, Section 4).

Actions (Section 2): 1 = co-allocate the head job, allowed when ``g = 2``, ``x11 = 0``
and at least one node of cluster 1 is free; 0 = do not (the head job starts locally if
it fits). ``Psi_d(S)`` lists the post-action states with their probabilities; ``eta``
the event rates out of a post-action state. One reading is corrected (docs/readings.md): an
arrival of a 2-component job to an empty queue 1 leaves ``x11`` unchanged (the paper
prints ``x11 + 1``, a typo).

Uniformisation (Section 3): ``nu = lambda_1 + lambda_2 + 2 mu_1 + mu_2 + mu_3`` bounds
every state's total rate. The Bellman equation *as printed*,

    J(S) = 1/(nu + beta) min_d { c(S) + sum_{(X,q) in Psi_d(S)} q sum_Y eta(X,Y) J(Y)
                                 + (nu - r_d(S)) J(S) },

with ``c(S) = c1 (q1 + x1 + x2 + x11) + c2 q2``, returns the fictitious self-transition
to the pre-action state S (docs/readings.md). :meth:`CoallocationMDP.transition_matrices`
builds, per action, the sparse matrix ``P_d`` whose row S holds those rates (rows sum
to ``nu``); the solvers in :mod:`hpcmodels.mdp.solve` iterate on them. The other
reading, ``self_loop="post_action"`` (the self-transition returns to the post-action
state, as uniformising the controlled chain would), is available for comparison.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..errors import InvalidParameter, check_int, check_real

__all__ = ["CoallocationMDP", "SERVICE_CONFIGS"]

MAX_TRUNCATION = 1000
"""Largest Delta: about 12 million states, already minutes of solving."""

SERVICE_CONFIGS = ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1))
"""Every (x1, x2, x11) with x1 + 2 x2 + x11 <= 2 and x11 <= 1."""


def _fraction(name: str, value, *, open_interval: bool = False) -> float:
    """``value`` in [0, 1] (in (0, 1) with ``open_interval``), else InvalidParameter."""
    number = check_real(name, value, **({"above": 0.0} if open_interval else {"at_least": 0.0}))
    if number > 1 or (open_interval and number == 1):
        interval = "(0, 1)" if open_interval else "[0, 1]"
        raise InvalidParameter(f"{name} must lie in {interval}, got {value!r}")
    return number


@dataclass(frozen=True)
class CoallocationMDP:
    """The model's parameters; ``truncation`` is the paper's Delta.

    Rates ``lam1``, ``lam2``, ``mu1``, ``mu2``, ``mu3`` and ``beta`` are finite numbers
    > 0, ``p`` lies in [0, 1], costs ``c1``, ``c2`` are finite and >= 0; ``truncation`` is
    a whole number in [1, 1000] (``30.0`` is stored as 30; the state space has
    ``6 (2 Delta + 1) (Delta + 1)`` states). Bools, strings, NaN and inf are an
    :class:`~hpcmodels.errors.InvalidParameter` naming the parameter."""

    lam1: float
    lam2: float
    p: float
    mu1: float = 1.0
    mu2: float = 1.0
    mu3: float = 0.7
    c1: float = 2.0
    c2: float = 1.0
    beta: float = 0.05
    truncation: int = 30
    self_loop: str = "pre_action"

    def __post_init__(self) -> None:
        if self.self_loop not in ("pre_action", "post_action"):
            raise InvalidParameter(
                f"self_loop must be 'pre_action' (the equation as printed) or "
                f"'post_action', got {self.self_loop!r}"
            )
        for name in ("mu1", "mu2", "mu3", "lam1", "lam2", "beta"):
            check_real(name, getattr(self, name), above=0.0)
        _fraction("p", self.p)
        for name in ("c1", "c2"):
            check_real(name, getattr(self, name), at_least=0.0)
        if self.nu / (self.nu + self.beta) >= 1.0:  # alpha rounds to 1: no contraction left
            raise InvalidParameter(
                f"beta = {self.beta!r} is too small next to nu = {self.nu!r}: the discount "
                "factor nu / (nu + beta) rounds to 1 in floating point"
            )
        # a whole float such as 30.0 is stored as the int it stands for
        object.__setattr__(
            self,
            "truncation",
            check_int("truncation (Delta)", self.truncation, minimum=1, maximum=MAX_TRUNCATION),
        )

    @classmethod
    def from_loads(
        cls,
        rho1: float,
        rho2: float,
        p: float,
        mu1: float = 1.0,
        mu2: float = 1.0,
        mu3: float = 0.7,
        c1: float = 2.0,
        c2: float = 1.0,
        beta: float = 0.05,
        truncation: int = 30,
        self_loop: str = "pre_action",
    ) -> CoallocationMDP:
        """Arrival rates from the loads of Section 5: ``rho1 = lambda1 (p + 2(1-p)) / (2 mu1)``,
        ``rho2 = lambda2 / mu2``."""
        for name, rho in (("rho1", rho1), ("rho2", rho2)):  # a stable cluster
            _fraction(name, rho, open_interval=True)
        _fraction("p", p)
        for name, mu in (("mu1", mu1), ("mu2", mu2)):  # before the rates derived from them
            check_real(name, mu, above=0.0)
        mean_width = p + 2 * (1 - p)
        return cls(
            2 * mu1 * rho1 / mean_width,
            rho2 * mu2,
            p,
            mu1,
            mu2,
            mu3,
            c1,
            c2,
            beta,
            truncation,
            self_loop,
        )

    def with_(self, **changes) -> CoallocationMDP:
        """A copy with some parameters changed (names of the fields only)."""
        unknown = sorted(set(changes) - {f.name for f in fields(self)})
        if unknown:
            raise InvalidParameter(
                f"unknown parameter(s) {unknown} for with_; the fields are "
                f"{[f.name for f in fields(self)]}"
            )
        return replace(self, **changes)

    # ------------------------------------------------------------------ state space

    @property
    def nu(self) -> float:
        """Uniformisation constant ``lambda1 + lambda2 + 2 mu1 + mu2 + mu3`` (Section 3)."""
        return self.lam1 + self.lam2 + 2 * self.mu1 + self.mu2 + self.mu3

    @cached_property
    def states(self) -> np.ndarray:
        """All states as rows ``(q1, q2, g, x1, x2, x11)``, in a fixed order."""
        d = self.truncation
        # order: q1, then g (0 alone when q1 = 0, else 1, 2), then q2, then the configuration
        heads = np.array([(0, 0)] + [(q1, g) for q1 in range(1, d + 1) for g in (1, 2)])
        configs = np.array(SERVICE_CONFIGS)
        per_head = (d + 1) * len(configs)
        head = np.repeat(heads, per_head, axis=0)
        q2 = np.tile(np.repeat(np.arange(d + 1), len(configs)), len(heads))
        x = np.tile(configs, ((d + 1) * len(heads), 1))
        return np.column_stack([head[:, 0], q2, head[:, 1], x]).astype(np.int64)

    @cached_property
    def _index(self) -> dict:
        return {tuple(s): i for i, s in enumerate(self.states.tolist())}

    def _state(self, state) -> tuple:
        """``state`` as a tuple of six ints, if it is a state of the truncated space: a
        tuple, list or array of whole numbers ``(q1, q2, g, x1, x2, x11)``."""
        if (
            isinstance(state, str | bytes | dict)
            or not hasattr(state, "__len__")
            or len(state) != 6
        ):
            raise InvalidParameter(
                f"state must be six whole numbers (q1, q2, g, x1, x2, x11), got {state!r:.80}"
            )
        key = tuple(check_int(f"state[{i}]", v) for i, v in enumerate(state))
        if key not in self._index:
            raise InvalidParameter(
                f"state {key} is not in the truncated state space (Delta = {self.truncation})"
            )
        return key

    def index(self, state) -> int:
        """Row of a state in :attr:`states`. ``state`` is a tuple, list or array of six
        whole numbers; one outside the truncated space is an
        :class:`~hpcmodels.errors.InvalidParameter` (it was a ``KeyError``)."""
        return self._index[self._state(state)]

    @property
    def n_states(self) -> int:
        return len(self.states)

    @cached_property
    def queue_groups(self) -> np.ndarray:
        """Each state's group of equal queue lengths, ``q1 (Delta + 1) + q2`` (the coarse
        level of :mod:`hpcmodels.mdp.evaluation`); ``(Delta + 1)^2`` groups."""
        return self.states[:, 0] * (self.truncation + 1) + self.states[:, 1]

    @cached_property
    def cost(self) -> np.ndarray:
        """Cost rate ``c1 (q1 + x1 + x2 + x11) + c2 q2`` of every state."""
        q1, q2, _, x1, x2, x11 = self.states.T
        return self.c1 * (q1 + x1 + x2 + x11) + self.c2 * q2

    @cached_property
    def can_coallocate(self) -> np.ndarray:
        """Where action 1 is allowed: ``g = 2``, ``x11 = 0`` and a free node at cluster 1."""
        _, _, g, x1, x2, x11 = self.states.T
        return (g == 2) & (x11 == 0) & (2 - x1 - 2 * x2 - x11 >= 1)

    # ------------------------------------------------------------------ dynamics

    def post_action(self, state, d: int) -> list[tuple[tuple, float]]:
        """``Psi_d(S)``: the states just after action ``d`` with their probabilities.
        ``state`` as in :meth:`index`; ``d`` is 0 or 1."""
        if isinstance(d, bool) or d not in (0, 1):
            raise InvalidParameter(f"action d must be 0 or 1, got {d!r}")
        q1, q2, g, x1, x2, x11 = self._state(state)
        free = 2 - x1 - 2 * x2 - x11
        if d == 1:
            if not (g == 2 and x11 == 0 and free >= 1):
                raise InvalidParameter(
                    f"action 1 (co-allocate) is not allowed in state {tuple(state)}"
                )
            return self._next_head(q1, q2, x1, x2, x11 + 1)
        if g == 0 or free < g:
            return [((q1, q2, g, x1, x2, x11), 1.0)]
        if g == 1:
            return self._next_head(q1, q2, x1 + 1, x2, x11)
        return self._next_head(q1, q2, x1, x2 + 1, x11)

    def _next_head(self, q1, q2, x1, x2, x11):
        """The head job has entered service: the next job (if any) becomes the head."""
        if q1 == 1:
            return [((0, q2, 0, x1, x2, x11), 1.0)]
        out = [((q1 - 1, q2, 1, x1, x2, x11), self.p), ((q1 - 1, q2, 2, x1, x2, x11), 1 - self.p)]
        return [(s, prob) for s, prob in out if prob > 0]

    def events(self, state) -> list[tuple[tuple, float]]:
        """``eta(X, .)``: the event rates out of a post-action state (arrivals to a full
        queue are lost). ``state`` as in :meth:`index`."""
        q1, q2, g, x1, x2, x11 = self._state(state)
        d, out = self.truncation, []
        if q1 > 0 and q1 < d:
            out.append(((q1 + 1, q2, g, x1, x2, x11), self.lam1))
        elif q1 == 0:
            out += [
                ((1, q2, 1, x1, x2, x11), self.lam1 * self.p),
                ((1, q2, 2, x1, x2, x11), self.lam1 * (1 - self.p)),
            ]
        if q2 < d:
            out.append(((q1, q2 + 1, g, x1, x2, x11), self.lam2))
        if x1 > 0:
            out.append(((q1, q2, g, x1 - 1, x2, x11), self.mu1 * x1))
        if x2 > 0:
            out.append(((q1, q2, g, x1, x2 - 1, x11), self.mu1 * x2))
        if x11 > 0:
            out.append(((q1, q2, g, x1, x2, x11 - 1), self.mu3 * x11))
        if x11 == 0 and q2 > 0:
            out.append(((q1, q2 - 1, g, x1, x2, x11), self.mu2))
        return [(s, r) for s, r in out if r > 0]

    def transition_matrices(self) -> tuple[sp.csr_matrix, sp.csr_matrix]:
        """``P_0`` and ``P_1`` (rows: pre-action states; rows sum to ``nu``): the rates of
        the Bellman equation including the self-transition ``(nu - r_d(S))`` to ``S``.
        ``P_1``'s rows where co-allocation is not allowed are left empty. Built with
        NumPy over all states at once; :meth:`post_action` and :meth:`events` are the
        same rules state by state (the tests check that both agree)."""
        return self._matrix(0), self._matrix(1)

    @cached_property
    def _lookup(self) -> np.ndarray:
        d = self.truncation
        table = np.full((d + 1, 3, d + 1, 2, 2, 3), -1, np.int64)
        q1, q2, g, x1, x2, x11 = self.states.T
        table[q1, g, q2, x11, x2, x1] = np.arange(self.n_states)
        return table

    def _ids(self, q1, q2, g, x1, x2, x11) -> np.ndarray:
        return self._lookup[q1, g, q2, x11, x2, x1]

    def _post_action_arrays(self, d: int):
        """Vectorised ``Psi_d``: two branches (state arrays, probability arrays)."""
        q1, q2, g, x1, x2, x11 = (c.copy() for c in self.states.T)
        free = 2 - x1 - 2 * x2 - x11
        if d == 1:
            start = self.can_coallocate.copy()
            x11 = x11 + start
        else:
            start = (g > 0) & (free >= g)
            x1 = x1 + (start & (g == 1))
            x2 = x2 + (start & (g == 2))
        last = start & (q1 == 1)
        more = start & (q1 > 1)
        nq1 = np.where(start, q1 - 1, q1)
        g_a = np.where(last, 0, np.where(more, 1, g))
        prob_a = np.where(more, self.p, 1.0)
        prob_b = np.where(more, 1 - self.p, 0.0)
        a = (nq1, q2, g_a, x1, x2, x11)
        b = (nq1, q2, np.where(more, 2, g), x1, x2, x11)
        return (a, prob_a), (b, prob_b)

    def _event_arrays(self, x):
        """Vectorised ``eta``: (target state arrays, rate array) per event, one at a time
        (at Delta = 300 all eight at once would hold ~0.4 GB of index arrays)."""
        q1, q2, g, x1, x2, x11 = x
        d = self.truncation
        zeros = np.zeros_like(q1, dtype=float)
        one = np.ones_like(q1)
        yield (
            (np.minimum(q1 + 1, d), q2, g, x1, x2, x11),
            np.where((q1 > 0) & (q1 < d), self.lam1, zeros),
        )
        yield (one, q2, one, x1, x2, x11), np.where(q1 == 0, self.lam1 * self.p, zeros)
        yield (one, q2, 2 * one, x1, x2, x11), np.where(q1 == 0, self.lam1 * (1 - self.p), zeros)
        yield (q1, np.minimum(q2 + 1, d), g, x1, x2, x11), np.where(q2 < d, self.lam2, zeros)
        yield (q1, q2, g, np.maximum(x1 - 1, 0), x2, x11), self.mu1 * x1
        yield (q1, q2, g, x1, np.maximum(x2 - 1, 0), x11), self.mu1 * x2
        yield (q1, q2, g, x1, x2, np.maximum(x11 - 1, 0)), self.mu3 * x11
        yield (
            (q1, np.maximum(q2 - 1, 0), g, x1, x2, x11),
            np.where((x11 == 0) & (q2 > 0), self.mu2, zeros),
        )

    def _matrix(self, d: int) -> sp.csr_matrix:
        n = self.n_states
        allowed = self.can_coallocate if d == 1 else np.ones(n, bool)
        rows, cols, vals = [], [], []
        total = np.zeros(n)
        for x, prob in self._post_action_arrays(d):
            out_of_x = np.zeros(n)
            for target, rate in self._event_arrays(x):
                v = prob * rate * allowed
                keep = v > 0
                rows.append(np.flatnonzero(keep))
                cols.append(self._ids(*(t[keep] for t in target)))
                vals.append(v[keep])
                total += v
                out_of_x += rate
            if self.self_loop == "post_action":  # the alternative reading: back to X
                keep = allowed & (prob > 0)
                rows.append(np.flatnonzero(keep))
                cols.append(self._ids(*(t[keep] for t in x)))
                vals.append((prob * (self.nu - out_of_x))[keep])
        if self.self_loop == "pre_action":  # the equation as printed: back to S
            diag = np.flatnonzero(allowed)
            rows.append(diag)
            cols.append(diag)
            vals.append(self.nu - total[diag])
        matrix = sp.coo_matrix(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)
        )
        return matrix.tocsr()

    def event_matrix(self) -> sp.csr_matrix:
        """Generator part ``eta(X, Y)`` of the continuous-time chain between decisions
        (off-diagonal rates, no self-transitions)."""
        identity = tuple(self.states.T)
        n = self.n_states
        rows, cols, vals = [], [], []
        for target, rate in self._event_arrays(identity):
            keep = rate > 0
            rows.append(np.flatnonzero(keep))
            cols.append(self._ids(*(t[keep] for t in target)))
            vals.append(np.asarray(rate, float)[keep])
        return sp.csr_matrix(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)
        )

    def check_policy(self, policy) -> np.ndarray:
        """``policy`` as an int8 array of actions after checking it: one action per state,
        each 0 or 1, and 1 only where co-allocation is allowed."""
        actions = np.asarray(policy)
        if actions.shape != (self.n_states,):
            raise InvalidParameter(
                f"a policy needs one action per state ({self.n_states}), got shape {actions.shape}"
            )
        if not np.isin(actions, (0, 1)).all():
            bad = actions[~np.isin(actions, (0, 1))][0]
            raise InvalidParameter(f"policy actions must be 0 or 1, got {bad!r}")
        not_allowed = np.flatnonzero((actions == 1) & ~self.can_coallocate)
        if len(not_allowed):
            state = tuple(int(v) for v in self.states[not_allowed[0]])
            raise InvalidParameter(
                f"policy co-allocates in {len(not_allowed)} states where action "
                f"1 is not allowed, e.g. {state}"
            )
        return actions.astype(np.int8)

    def decision_matrix(self, policy: np.ndarray) -> sp.csr_matrix:
        """``Psi_pi``: row Y is the distribution of the state just after the policy acts in
        Y (the identity row where nothing starts)."""
        policy = self.check_policy(policy)
        n = self.n_states
        rows, cols, vals = [], [], []
        for d in (0, 1):
            chosen = policy == d
            for x, prob in self._post_action_arrays(d):
                keep = chosen & (prob > 0)
                rows.append(np.flatnonzero(keep))
                cols.append(self._ids(*(t[keep] for t in x)))
                vals.append(prob[keep])
        return sp.csr_matrix(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)
        )

    def average_cost(self, policy: np.ndarray) -> float:
        """Exact long-run average cost of a stationary policy on the truncated chain:
        the stationary distribution of the continuous-time chain of post-decision states,
        ``Q = E Psi_pi - diag(E 1)``, weighted by the cost rates. Decisions happen only
        at real events (arrivals, completions), as in the paper's simulation."""
        events = self.event_matrix()
        out = np.asarray(events.sum(axis=1)).ravel()
        generator = (events @ self.decision_matrix(policy) - sp.diags(out)).T.tocsr()
        # pi G^T = 0 with pi(empty system) = 1, then normalised: only sparse solves
        # (state 0, the empty system, is recurrent under every policy).
        from scipy.sparse.linalg import spsolve

        rest = spsolve(generator[1:, 1:].tocsc(), -generator[1:, 0].toarray().ravel())
        pi = np.concatenate([[1.0], rest])
        pi /= pi.sum()
        return float(pi @ self.cost)

    def describe(self) -> pd.Series:
        """Parameters, loads, ``nu`` and the number of states."""
        mean_width = self.p + 2 * (1 - self.p)
        return pd.Series(
            {
                "lambda1": self.lam1,
                "lambda2": self.lam2,
                "p": self.p,
                "mu1": self.mu1,
                "mu2": self.mu2,
                "mu3": self.mu3,
                "c1": self.c1,
                "c2": self.c2,
                "beta": self.beta,
                "Delta": self.truncation,
                "rho1": self.lam1 * mean_width / (2 * self.mu1),
                "rho2": self.lam2 / self.mu2,
                "nu": self.nu,
                "states": self.n_states,
            }
        )
