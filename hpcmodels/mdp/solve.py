"""Solving the co-allocation MDP: value iteration and policy iteration.

Both work on the uniformised discrete-time problem of Filippopoulos & Karatza, Section 3
(Bertsekas 1987): with ``P_d`` the per-action rate matrices of
:meth:`CoallocationMDP.transition_matrices` (rows summing to ``nu``) and ``k = nu + beta``,

    T J = min_d (c + P_d J) / k,        a contraction of modulus alpha = nu / (nu + beta).

* Value iteration ("successive approximation", Section 3) starts from J = 0 and applies
  T until the span of the last change, times alpha / (1 - alpha), is below ``tol``. By
  the MacQueen bounds, J* then lies between J + alpha/(1-alpha) min(dJ) and
  J + alpha/(1-alpha) max(dJ); the returned values are the midpoint, within ``tol / 2``
  of J* in every state. Each step is two sparse matrix-vector products.
* Policy iteration solves ``(k I - P_pi) J = c`` exactly (sparse LU) for the current
  policy and improves it until it repeats.

Ties between the two actions go to 0 ("do not co-allocate"), within ``1e-9`` relative.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve

from .model import CoallocationMDP

__all__ = ["Solution", "solve", "value_iteration", "policy_iteration"]

TIE = 1e-9


@dataclass
class Solution:
    """An optimal policy (0/1 per state) and its discounted cost ``J`` per state."""

    mdp: CoallocationMDP
    values: np.ndarray = field(repr=False)
    policy: np.ndarray = field(repr=False)
    iterations: int
    method: str
    seconds: float
    converged: bool = True

    @property
    def n_states(self) -> int:
        return self.mdp.n_states

    def action(self, state) -> int:
        """The optimal action in one state."""
        return int(self.policy[self.mdp.index(state)])

    def policy_table(self, x1: int = 1, q1_max: int = 15, q2_max: int = 15) -> pd.DataFrame:
        """Actions in states ``(q1, q2, 2, x1, 0, 0)``: the head job needs two nodes, no
        local 2-component or co-allocated job runs (the paper's Figs. 2-4). Rows
        ``q1 = 1 .. q1_max``, columns ``q2 = 0 .. q2_max``."""
        d = self.mdp.truncation
        if x1 not in (0, 1, 2):
            raise ValueError(f"x1 must be 0, 1 or 2, got {x1!r}")
        if not (1 <= q1_max <= d and 0 <= q2_max <= d):
            raise ValueError(f"q1_max must lie in [1, {d}] and q2_max in [0, {d}] (Delta = {d})")
        table = np.array([[self.action((q1, q2, 2, x1, 0, 0)) for q2 in range(q2_max + 1)]
                          for q1 in range(1, q1_max + 1)])  # fmt: skip
        return pd.DataFrame(table, index=pd.Index(range(1, q1_max + 1), name="q1"),
                            columns=pd.Index(range(q2_max + 1), name="q2"))  # fmt: skip


def _q_values(mdp, p0, p1, values):
    k = mdp.nu + mdp.beta
    v0 = (mdp.cost + p0 @ values) / k
    v1 = np.where(mdp.can_coallocate, (mdp.cost + p1 @ values) / k, np.inf)
    return v0, v1


def _greedy(v0, v1):
    return (v1 < v0 - TIE * np.abs(v0)).astype(np.int8)


def value_iteration(mdp: CoallocationMDP, tol: float = 1e-6, max_iter: int = 100_000) -> Solution:
    """Successive approximation with the span stopping rule (module docstring)."""
    started = time.perf_counter()
    p0, p1 = mdp.transition_matrices()
    alpha = mdp.nu / (mdp.nu + mdp.beta)
    factor = alpha / (1 - alpha)
    values = np.zeros(mdp.n_states)
    converged = False
    iteration = 0
    while iteration < max_iter:
        iteration += 1
        new = np.minimum(*_q_values(mdp, p0, p1, values))
        delta = new - values
        values = new
        if factor * (delta.max() - delta.min()) < tol:
            values = values + factor * 0.5 * (delta.max() + delta.min())
            converged = True
            break
    policy = _greedy(*_q_values(mdp, p0, p1, values))
    return Solution(mdp, values, policy, iteration, "value_iteration",
                    time.perf_counter() - started, converged)  # fmt: skip


def policy_iteration(mdp: CoallocationMDP, max_iter: int = 1000) -> Solution:
    """Howard's policy iteration, starting from the policy that never co-allocates."""
    started = time.perf_counter()
    p0, p1 = mdp.transition_matrices()
    k = mdp.nu + mdp.beta
    n = mdp.n_states
    policy = np.zeros(n, np.int8)
    identity = sp.identity(n, format="csr")
    converged = False
    iteration = 0
    while iteration < max_iter:
        iteration += 1
        choose = sp.diags(policy.astype(float))
        rates = sp.diags(1.0 - policy) @ p0 + choose @ p1
        values = spsolve((k * identity - rates).tocsc(), mdp.cost)
        new = _greedy(*_q_values(mdp, p0, p1, values))
        if np.array_equal(new, policy):
            converged = True
            break
        policy = new
    return Solution(mdp, values, policy, iteration, "policy_iteration",
                    time.perf_counter() - started, converged)  # fmt: skip


def solve(mdp: CoallocationMDP, method: str = "value_iteration", **options) -> Solution:
    """Solve by ``"value_iteration"`` (default, the paper's method) or ``"policy_iteration"``."""
    if method == "value_iteration":
        return value_iteration(mdp, **options)
    if method == "policy_iteration":
        return policy_iteration(mdp, **options)
    raise ValueError(f"unknown method {method!r}; use 'value_iteration' or 'policy_iteration'")
