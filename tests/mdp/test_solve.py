"""The MDP solvers: every method gives the same certified answer, and that answer is the
optimum (checked by an exact sparse solve of the returned policy and by quantecon)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from quantecon.markov import DiscreteDP
from scipy.sparse.linalg import spsolve

from hpcmodels.mdp import METHODS, CoallocationMDP, solve
from hpcmodels.mdp.evaluation import TwoLevel
from hpcmodels.mdp.kernels import csr_arrays

TOL = 1e-6


def exact_values(mdp: CoallocationMDP, policy: np.ndarray) -> np.ndarray:
    """``J_pi`` by one sparse LU of ``(k I - P_pi) J = c`` (the brute-force oracle)."""
    p0, p1 = mdp.transition_matrices()
    rates = sp.diags(1.0 - policy) @ p0 + sp.diags(policy.astype(float)) @ p1
    k = mdp.nu + mdp.beta
    return spsolve((k * sp.identity(mdp.n_states) - rates).tocsc(), mdp.cost)


def q_gap(mdp: CoallocationMDP, values: np.ndarray) -> np.ndarray:
    """``Q(s, 1) - Q(s, 0)`` (nan where co-allocation is not allowed)."""
    p0, p1 = mdp.transition_matrices()
    gap = (p1 @ values - p0 @ values) / (mdp.nu + mdp.beta)
    return np.where(mdp.can_coallocate, gap, np.nan)


def quantecon_policy(mdp: CoallocationMDP) -> tuple[np.ndarray, np.ndarray]:
    """quantecon's policy iteration on the same MDP: (policy, J)."""
    p0, p1 = mdp.transition_matrices()
    n, k = mdp.n_states, mdp.nu + mdp.beta
    allowed = np.flatnonzero(mdp.can_coallocate)
    s = np.concatenate([np.arange(n), allowed])
    a = np.concatenate([np.zeros(n, np.int64), np.ones(len(allowed), np.int64)])
    order = np.lexsort((a, s))
    q = sp.vstack([p0, p1[allowed]], format="csr")[order] / mdp.nu
    ddp = DiscreteDP(-mdp.cost[s[order]] / k, q, mdp.nu / k, s[order], a[order])
    result = ddp.solve("policy_iteration", v_init=np.zeros(n))
    return result.sigma, -result.v


models = st.builds(
    CoallocationMDP.from_loads,
    rho1=st.floats(0.2, 0.95), rho2=st.floats(0.2, 0.95), p=st.floats(0.0, 1.0),
    mu3=st.floats(0.2, 1.5), c1=st.floats(0.5, 3.0), c2=st.floats(0.5, 3.0),
    beta=st.floats(0.01, 0.5), truncation=st.integers(2, 9),
    self_loop=st.sampled_from(["pre_action", "post_action"]),
)  # fmt: skip


@settings(max_examples=25, deadline=None)
@given(models)
def test_every_method_and_quantecon_give_the_optimal_policy(mdp):
    """Each method's values are within its bound (<= TOL / 2) of the exact values of its
    policy; all policies equal quantecon's except where the two actions' costs tie
    (|Q1 - Q0| within 1e-9 of the values' scale)."""
    peer_policy, peer_values = quantecon_policy(mdp)
    scale = 1e-9 * max(1.0, np.abs(peer_values).max())
    gap = q_gap(mdp, peer_values)
    for method in METHODS:
        sol = solve(mdp, method, tol=TOL)
        assert sol.converged and sol.bound <= TOL / 2
        exact = exact_values(mdp, sol.policy)
        assert np.abs(sol.values - exact).max() <= sol.bound + 1e-9
        assert np.abs(exact - peer_values).max() <= 1e-7 * max(1.0, np.abs(peer_values).max())
        differ = np.flatnonzero(sol.policy != peer_policy)
        assert np.all(np.abs(gap[differ]) <= scale), (method, differ)


def test_the_two_level_evaluation_converges_to_the_exact_values():
    mdp = CoallocationMDP.from_loads(0.8, 0.8, 0.6, truncation=20)
    rng = np.random.default_rng(1)
    policy = (rng.random(mdp.n_states) < 0.5).astype(np.int8) * mdp.can_coallocate
    policy = policy.astype(np.int8)
    p0, p1 = (csr_arrays(m) for m in mdp.transition_matrices())
    solver = TwoLevel(p0, p1, mdp.cost, mdp.nu + mdp.beta, mdp.queue_groups, 21**2)
    solver.set_policy(policy)
    values = np.zeros(mdp.n_states)
    residuals = [solver.cycle(values) for _ in range(40)]
    assert residuals[-1] < 1e-9 * residuals[0]
    assert np.abs(values - exact_values(mdp, policy)).max() < 1e-8


def test_a_warm_start_from_a_nearby_model_is_faster_and_certified_the_same():
    previous = solve(CoallocationMDP.from_loads(0.8, 0.8, 0.6, mu3=0.68, truncation=30))
    mdp = CoallocationMDP.from_loads(0.8, 0.8, 0.6, mu3=0.70, truncation=30)
    cold = solve(mdp)
    for method in METHODS:
        warm = solve(mdp, method, start=previous.values)
        assert warm.converged and np.array_equal(warm.policy, cold.policy)
        assert np.abs(warm.values - cold.values).max() <= warm.bound + cold.bound
        assert warm.iterations <= solve(mdp, method).iterations
    # value iteration gains log(initial error ratio) / (1 - alpha) steps: ~30 % here
    assert solve(mdp, "value_iteration", start=previous.values).iterations < (
        0.8 * solve(mdp, "value_iteration").iterations
    )


def test_the_default_is_modified_policy_iteration_with_its_bound():
    sol = solve(CoallocationMDP.from_loads(0.8, 0.8, 0.6, truncation=30))
    assert sol.method == "modified_policy_iteration" and 0 < sol.bound < TOL / 2


def test_an_iteration_cap_is_reported_not_hidden():
    sol = solve(CoallocationMDP.from_loads(0.8, 0.8, 0.6, truncation=10), "value_iteration",
                max_iter=5)  # fmt: skip
    assert not sol.converged and sol.iterations == 5 and sol.bound > TOL


SMALL = CoallocationMDP.from_loads(0.7, 0.6, 0.6, truncation=4)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tol": float("nan")}, "tol"),
        ({"tol": 0.0}, "tol"),
        ({"tol": -1e-6}, "tol"),
        ({"start": np.zeros(3)}, "start"),
        ({"start": np.full(SMALL.n_states, np.inf)}, "start"),
        ({"cycles": 0}, "cycles"),
        ({"cycles": 1.5}, "cycles"),
        ({"max_iter": 0}, "max_iter"),
        ({"max_iter": 2.5}, "max_iter"),
        ({"tol": "1e-6"}, "tol"),
    ],
)
def test_bad_solver_options_are_clear_errors(options, message):
    with pytest.raises(ValueError, match=message):
        solve(SMALL, **options)


def test_an_unknown_method_names_the_methods():
    with pytest.raises(ValueError, match="modified_policy_iteration"):
        solve(SMALL, "newton")


def test_solving_something_else_is_a_type_error():
    with pytest.raises(TypeError, match="CoallocationMDP"):
        solve({"lam1": 1.0}, "value_iteration")
