"""Solving the co-allocation MDP: value iteration, policy iteration and modified policy
iteration, all certified by the same error bound.

All three work on the uniformised discrete-time problem of Filippopoulos & Karatza,
Section 3 (Bertsekas 1987): with ``P_d`` the per-action rate matrices of
:meth:`CoallocationMDP.transition_matrices` (rows summing to ``nu``) and ``k = nu + beta``,

    T J = min_d (c + P_d J) / k,        a contraction of modulus alpha = nu / (nu + beta).

**Stopping rule and error bound (every method).** For *any* vector ``J`` the MacQueen
bounds hold: with ``dJ = T J - J`` and ``f = alpha / (1 - alpha)``,

    T J + f min(dJ) <= J* <= T J + f max(dJ).

A method stops when ``f (max dJ - min dJ) < tol`` after a step of ``T`` and returns the
midpoint ``T J + f (max dJ + min dJ) / 2``: every state's value is within ``tol / 2`` of
``J*`` (``Solution.bound`` is the half-width actually reached). The policy is greedy for
the returned values; ties go to 0 ("do not co-allocate") within ``1e-9`` relative.

* ``"value_iteration"`` (successive approximation, the paper's method): ``J <- T J``
  from ``J = 0``, one Bellman step per iteration (numba, both actions per state).
  It needs about ``log(scale / tol) / (1 - alpha)`` steps: ~2,400 at the paper's
  parameters.
* ``"policy_iteration"`` (Howard): evaluate the current policy, improve it greedily,
  until it repeats. Evaluation is the two-level iteration of
  :mod:`hpcmodels.mdp.evaluation` (Gauss-Seidel sweeps plus an exact solve on the
  queue-length groups), warm-started from the previous values, until
  ``||c - A J|| / beta < tol / (4 f)`` (the policy's values to that accuracy, so a
  policy that repeats passes the stopping rule); no sparse LU of the full system.
* ``"modified_policy_iteration"`` (Puterman & Shin 1978), the default: one Bellman step
  (greedy policy and the stopping test), then ``cycles`` two-level cycles of that
  policy's evaluation (default 4), repeated. It is the fastest of the three here
  (``benchmarks/bench_mdp.py``): about 15 improvement steps whatever Delta.

Warm starts: ``start`` (values of a nearby model on the same state space, e.g. the
previous point of a sweep) replaces ``J = 0`` as the first iterate; the bounds above do
not depend on the start, so the answer is certified the same way.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..bounds import MAX_ITERATIONS
from ..equality import ByValue
from ..errors import InvalidParameter, InvalidType, check_array, check_int, check_real
from .evaluation import TwoLevel
from .kernels import bellman_step, csr_arrays
from .model import CoallocationMDP

__all__ = [
    "Solution",
    "solve",
    "value_iteration",
    "policy_iteration",
    "modified_policy_iteration",
    "METHODS",
]

MAX_CYCLES = 10**4
"""Most evaluation cycles per step of modified policy iteration."""

METHODS = ("modified_policy_iteration", "policy_iteration", "value_iteration")


@dataclass(eq=False)
class Solution(ByValue):
    """An optimal policy (0/1 per state) and its discounted cost ``J`` per state;
    ``bound``: every value is within it of the optimal ``J*`` (MacQueen bounds)."""

    mdp: CoallocationMDP
    values: np.ndarray = field(repr=False)
    policy: np.ndarray = field(repr=False)
    iterations: int
    method: str
    seconds: float
    converged: bool = True
    bound: float = float("nan")

    @property
    def n_states(self) -> int:
        return self.mdp.n_states

    def action(self, state) -> int:
        """The optimal action in one state."""
        return int(self.policy[self.mdp.index(state)])

    def policy_table(self, x1: int = 1, q1_max: int = 15, q2_max: int = 15) -> pd.DataFrame:
        """Actions in states ``(q1, q2, 2, x1, 0, 0)``: the head job needs two nodes, no
        local 2-component or co-allocated job runs (the paper's Figs. 2-4). Rows
        ``q1 = 1 .. q1_max``, columns ``q2 = 0 .. q2_max`` (whole numbers, ``q1_max`` in
        [1, Delta] and ``q2_max`` in [0, Delta]; ``x1`` in [0, 2]; bools and strings are
        refused)."""
        d = self.mdp.truncation
        x1 = check_int("x1", x1, minimum=0, maximum=2)
        q1_max = check_int("q1_max", q1_max, minimum=1, maximum=d)
        q2_max = check_int("q2_max", q2_max, minimum=0, maximum=d)
        table = np.array(
            [
                [self.action((q1, q2, 2, x1, 0, 0)) for q2 in range(q2_max + 1)]
                for q1 in range(1, q1_max + 1)
            ]
        )
        return pd.DataFrame(
            table,
            index=pd.Index(range(1, q1_max + 1), name="q1"),
            columns=pd.Index(range(q2_max + 1), name="q2"),
        )


class _Bellman:
    """``T`` on one model: the CSR arrays, the scratch vectors and the MacQueen test."""

    def __init__(self, mdp: CoallocationMDP, tol: float, max_iter: int) -> None:
        if not isinstance(mdp, CoallocationMDP):
            raise InvalidType(f"mdp must be a CoallocationMDP, got {type(mdp).__name__}")
        self.mdp, self.tol = mdp, check_real("tol", tol, above=0.0)
        self.max_iter = check_int("max_iter", max_iter, minimum=1, maximum=MAX_ITERATIONS)
        self.p0, self.p1 = (csr_arrays(m) for m in mdp.transition_matrices())
        self.k = mdp.nu + mdp.beta
        alpha = mdp.nu / self.k
        self.factor = alpha / (1 - alpha)
        self.out = np.empty(mdp.n_states)
        self.policy = np.zeros(mdp.n_states, np.int8)

    def step(self, values: np.ndarray) -> tuple[float, float]:
        """``self.out = T values``, ``self.policy`` greedy; returns (min, max) of the change."""
        return bellman_step(
            *self.p0,
            *self.p1,
            self.mdp.can_coallocate,
            self.mdp.cost,
            self.k,
            values,
            self.out,
            self.policy,
        )

    def certified(self, lo: float, hi: float) -> bool:
        return self.factor * (hi - lo) < self.tol

    def midpoint(self, lo: float, hi: float) -> tuple[np.ndarray, float]:
        """The MacQueen midpoint of the last step and its half-width."""
        return self.out + self.factor * 0.5 * (lo + hi), self.factor * 0.5 * (hi - lo)

    def two_level(self) -> TwoLevel:
        mdp = self.mdp
        n_groups = (mdp.truncation + 1) ** 2
        return TwoLevel(self.p0, self.p1, mdp.cost, self.k, mdp.queue_groups, n_groups)

    def solution(self, values, lo, hi, iterations, method, started, converged) -> Solution:
        """The certified answer: midpoint values, their bound and the greedy policy."""
        values, bound = self.midpoint(lo, hi)
        self.step(values)  # greedy policy for the returned values
        return Solution(
            self.mdp,
            values,
            self.policy.copy(),
            iterations,
            method,
            time.perf_counter() - started,
            converged,
            bound,
        )


def _start(mdp: CoallocationMDP, start) -> np.ndarray:
    if start is None:
        return np.zeros(mdp.n_states)
    values = check_array("start", start, finite=False).copy()  # the solvers work in place
    if values.shape != (mdp.n_states,) or not np.isfinite(values).all():
        raise InvalidParameter(
            f"start must be {mdp.n_states} finite values (one per state), got shape {values.shape}"
        )
    return values


def _successive(mdp, tol, max_iter, start, method, between=None) -> Solution:
    """``J <- T J`` until the MacQueen rule certifies ``tol``; ``between(bellman, J)``
    may improve ``J`` in place after each step (modified policy iteration)."""
    started = time.perf_counter()
    bellman = _Bellman(mdp, tol, max_iter)
    values = _start(mdp, start)
    lo = hi = np.nan
    for iteration in range(1, bellman.max_iter + 1):  # noqa: B007 (the count is reported)
        lo, hi = bellman.step(values)
        if bellman.certified(lo, hi):
            break
        values, bellman.out = bellman.out, values
        if between is not None:
            between(bellman, values)
    return bellman.solution(values, lo, hi, iteration, method, started, bellman.certified(lo, hi))


def value_iteration(
    mdp: CoallocationMDP, tol: float = 1e-6, max_iter: int = 100_000, start=None
) -> Solution:
    """Successive approximation ``J <- T J`` with the MacQueen stopping rule.
    ``max_iter`` is a whole number in [1, 10**6] (:data:`hpcmodels.bounds.MAX_ITERATIONS`:
    about a minute of steps at Delta = 30); ``tol`` a finite number > 0."""
    return _successive(mdp, tol, max_iter, start, "value_iteration")


def _evaluate(
    solver: TwoLevel, beta: float, values: np.ndarray, tol: float, max_cycles: int = 500
) -> None:
    """The current policy's values, in place, to ``tol`` (``||r|| / beta < tol``)."""
    for _ in range(max_cycles):
        if solver.cycle(values) / beta < tol:
            return


def policy_iteration(
    mdp: CoallocationMDP, tol: float = 1e-6, max_iter: int = 1000, start=None
) -> Solution:
    """Howard's policy iteration from the greedy policy of ``start`` (of ``J = 0``: the
    policy that never co-allocates); each policy is evaluated to ``tol / (4 f)``, so
    that a policy that repeats also passes the stopping rule. ``max_iter`` is a whole
    number in [1, 10**6] (:data:`hpcmodels.bounds.MAX_ITERATIONS`)."""
    started = time.perf_counter()
    bellman = _Bellman(mdp, tol, max_iter)
    values = _start(mdp, start)
    lo, hi = bellman.step(values)
    policy = bellman.policy.copy()
    solver = bellman.two_level()
    converged = False
    for iteration in range(1, bellman.max_iter + 1):  # noqa: B007 (the count is reported)
        solver.set_policy(policy)
        _evaluate(solver, mdp.beta, values, tol / (4 * bellman.factor))
        lo, hi = bellman.step(values)
        if np.array_equal(bellman.policy, policy):
            converged = bellman.certified(lo, hi)
            break
        policy = bellman.policy.copy()
    return bellman.solution(values, lo, hi, iteration, "policy_iteration", started, converged)


def modified_policy_iteration(
    mdp: CoallocationMDP, tol: float = 1e-6, max_iter: int = 10_000, start=None, cycles: int = 4
) -> Solution:
    """A Bellman step (greedy policy, stopping test), then ``cycles`` two-level cycles
    of that policy's evaluation; repeated until the MacQueen rule certifies ``tol``.
    ``cycles`` is a whole number in [1, 10**4]; ``max_iter`` one in [1, 10**6]
    (:data:`hpcmodels.bounds.MAX_ITERATIONS`)."""
    cycles = check_int("cycles", cycles, minimum=1, maximum=MAX_CYCLES)
    solver = None

    def evaluate(bellman: _Bellman, values: np.ndarray) -> None:
        nonlocal solver
        solver = solver or bellman.two_level()
        solver.set_policy(bellman.policy)
        for _ in range(cycles):
            solver.cycle(values)

    return _successive(mdp, tol, max_iter, start, "modified_policy_iteration", evaluate)


_SOLVERS = {
    "modified_policy_iteration": modified_policy_iteration,
    "policy_iteration": policy_iteration,
    "value_iteration": value_iteration,
}


def solve(mdp: CoallocationMDP, method: str = "modified_policy_iteration", **options) -> Solution:
    """Solve by ``method`` (one of :data:`METHODS`; the default is the fastest here, and
    every method meets the same certified ``tol``). ``options``: ``tol``, ``max_iter``,
    ``start`` (warm start: values on the same state space) and, for modified policy
    iteration, ``cycles``. ``mdp`` must be a :class:`CoallocationMDP` (else
    :class:`~hpcmodels.errors.InvalidType`); an option the method does not take is an
    :class:`~hpcmodels.errors.InvalidParameter` naming it."""
    if not isinstance(method, str) or method not in _SOLVERS:
        raise InvalidParameter(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    allowed = ["tol", "max_iter", "start"] + (
        ["cycles"] if method == "modified_policy_iteration" else []
    )
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise InvalidParameter(f"{method} takes no option(s) {unknown}; its options: {allowed}")
    return _SOLVERS[method](mdp, **options)
