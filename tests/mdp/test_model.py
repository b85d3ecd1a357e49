"""The co-allocation MDP (Filippopoulos & Karatza): model, solvers, simulation."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hpcmodels.errors import HpcmodelsError
from hpcmodels.mdp import CoallocationMDP, policy_iteration, solve, value_iteration
from hpcmodels.mdp.simulate import simulate_policy, summarize_runs
from hpcmodels.papers import filippopoulos as fk

SMALL = CoallocationMDP.from_loads(0.7, 0.6, 0.6, mu3=0.7, truncation=8)


def test_state_count_of_section_4():
    m = CoallocationMDP.from_loads(rho1=0.8, rho2=0.8, p=0.6, mu1=1, mu2=1, mu3=0.7, c1=2,
                                   c2=1, beta=0.05, truncation=30)  # fmt: skip
    assert m.n_states == 6 * 31 * 61 == 11_346
    assert m.nu == pytest.approx(m.lam1 + m.lam2 + 2 + 1 + 0.7)
    assert m.describe()["rho1"] == pytest.approx(0.8)


@pytest.mark.parametrize("self_loop", ["pre_action", "post_action"])
def test_rows_sum_to_nu_and_stay_in_the_state_space(self_loop):
    m = SMALL.with_(self_loop=self_loop)
    p0, p1 = m.transition_matrices()
    assert np.allclose(np.asarray(p0.sum(axis=1)).ravel(), m.nu)
    rows1 = np.asarray(p1.sum(axis=1)).ravel()
    assert np.allclose(rows1[m.can_coallocate], m.nu)
    assert np.all(rows1[~m.can_coallocate] == 0)
    assert (p0.data >= 0).all() and (p1.data >= 0).all()  # shape (n, n): never leaves


def test_vectorised_dynamics_equal_the_state_by_state_rules():
    """The NumPy build and the literal Psi / eta of Section 2 give the same matrices."""
    m = SMALL
    for d, matrix in enumerate(m.transition_matrices()):
        dense = matrix.toarray()
        for i, s in enumerate(m.states.tolist()):
            if d == 1 and not m.can_coallocate[i]:
                continue
            row = np.zeros(m.n_states)
            for x, q in m.post_action(s, d):
                for y, rate in m.events(x):
                    row[m.index(y)] += q * rate
            row[i] += m.nu - row.sum()
            np.testing.assert_allclose(dense[i], row, atol=1e-12)


def test_arrival_of_a_two_node_job_to_an_empty_queue_keeps_x11():
    targets = dict(SMALL.events((0, 0, 0, 1, 0, 1)))
    assert (1, 0, 2, 1, 0, 1) in targets  # x11 unchanged: the paper's "x11 + 1" is a typo
    assert targets[(1, 0, 2, 1, 0, 1)] == pytest.approx(SMALL.lam1 * (1 - SMALL.p))


def test_actions_follow_section_2():
    assert SMALL.can_coallocate[SMALL.index((3, 2, 2, 1, 0, 0))]
    assert not SMALL.can_coallocate[SMALL.index((3, 2, 2, 2, 0, 0))]  # no free node
    assert not SMALL.can_coallocate[SMALL.index((3, 2, 1, 1, 0, 0))]  # 1-node head job
    assert not SMALL.can_coallocate[SMALL.index((3, 2, 2, 0, 0, 1))]  # one co-allocated max
    with pytest.raises(ValueError, match="not allowed"):
        SMALL.post_action((3, 2, 1, 1, 0, 0), 1)


@settings(max_examples=8, deadline=None)
@given(st.floats(0.3, 0.9), st.floats(0.3, 0.9), st.floats(0.05, 0.95), st.floats(0.3, 1.2))
def test_value_and_policy_iteration_agree(rho1, rho2, p, mu3):
    m = CoallocationMDP.from_loads(rho1, rho2, p, mu3=mu3, truncation=6)
    vi, pi = value_iteration(m, tol=1e-9), policy_iteration(m)
    assert vi.converged and pi.converged
    np.testing.assert_allclose(vi.values, pi.values, rtol=1e-7, atol=1e-7)
    assert np.array_equal(vi.policy, pi.policy)


def test_policy_is_a_monotone_switching_curve_where_the_paper_shows_one():
    sol = solve(fk.model(30))
    table = sol.policy_table(1, 15, 15).to_numpy()
    assert np.all(np.diff(table, axis=1) <= 0)  # fewer co-allocations as q2 grows
    assert np.all(np.diff(table, axis=0) >= 0)  # more as q1 grows
    assert sol.policy_table(0, 15, 15).to_numpy().sum() == 0  # x1 = 0: never


def test_simulation_agrees_with_the_exact_average_cost():
    m = CoallocationMDP.from_loads(0.7, 0.7, 0.6, truncation=10)
    sol = solve(m)
    for policy, actions in (("local", np.zeros(m.n_states, np.int8)), (sol, sol.policy)):
        runs = simulate_policy(m, policy, completions=100_000, replications=8, truncated=True)
        s = summarize_runs(runs, confidence=0.99)
        assert abs(s["mean"] - m.average_cost(actions)) <= s["ci"]


def test_optimal_policy_costs_less_than_local_and_heuristic_exactly():
    m = CoallocationMDP.from_loads(0.8, 0.8, 0.6, truncation=20)
    sol = solve(m)
    optimal = m.average_cost(sol.policy)
    assert optimal < m.average_cost(np.zeros(m.n_states, np.int8))


def test_policy_table_layout():
    table = solve(fk.model(10)).policy_table(1, 5, 7)
    assert list(table.index) == [1, 2, 3, 4, 5] and list(table.columns) == list(range(8))
    with pytest.raises(ValueError, match="q1_max"):
        solve(fk.model(10)).policy_table(1, 11, 5)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: CoallocationMDP.from_loads(1.0, 0.5, 0.6), "rho1"),
        (lambda: CoallocationMDP.from_loads(0.5, 0.5, 1.5), "p"),
        (lambda: CoallocationMDP(1.0, 1.0, 0.5, mu3=0.0), "mu3"),
        (lambda: CoallocationMDP(1.0, 1.0, 0.5, beta=0.0), "beta"),
        (lambda: CoallocationMDP(1.0, 1.0, 0.5, truncation=0), "truncation"),
        (lambda: CoallocationMDP(1.0, 1.0, 0.5, self_loop="sideways"), "self_loop"),
        (lambda: solve(SMALL, "newton"), "unknown method"),
        (lambda: simulate_policy(SMALL, "greedy", completions=10), "unknown policy"),
        (lambda: SMALL.decision_matrix(np.ones(SMALL.n_states)), "not allowed"),
        # issue 11, item 7: each was a silent NaN, a truncated value or a deep crash
        (lambda: CoallocationMDP.from_loads(0.8, 0.8, 0.6, c1=float("nan")), "c1"),
        (lambda: CoallocationMDP.from_loads(0.8, 0.8, 0.6, c2=float("inf")), "c2"),
        (lambda: CoallocationMDP.from_loads(0.8, 0.8, 0.6, truncation=2.5), "truncation"),
        (lambda: CoallocationMDP.from_loads(0.8, 0.8, 0.6, beta=1e-17), "beta = 1e-17"),
        (lambda: CoallocationMDP.from_loads(0.8, 0.8, 0.6, mu1=1e300), "too small next to nu"),
        (lambda: CoallocationMDP.from_loads(0.8, 0.8, 0.6, mu1=float("inf")), "mu1"),
        (lambda: CoallocationMDP.from_loads(0.8, 0.8, 0.6, mu3="0.7"), "mu3"),
        (lambda: CoallocationMDP(1.0, 1.0, True), "p"),
        (lambda: simulate_policy(SMALL, np.full(SMALL.n_states, 2), completions=10), "0 or 1"),
        (lambda: simulate_policy(SMALL, np.ones(SMALL.n_states), completions=10), "not allowed"),
        (lambda: simulate_policy(SMALL, "local", completions=10.5), "completions"),
        (lambda: simulate_policy(SMALL, "local", completions=10, warmup=float("nan")), "warmup"),
    ],
)
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises(HpcmodelsError, match=message):
        call()


def test_paper_tables_agree_in_most_cells():
    """The reproduction's numbers as reported: a guard against silent changes."""
    counts = {fig: fk.policy_rows(fig)[0]["ours"] for fig in fk.PAPER_TABLES}
    assert counts == {"Fig. 2": 229, "Fig. 3": 41, "Fig. 4": 62}


def test_window_stable_from_reads_the_last_change():
    import pandas as pd

    def study(agree):
        return pd.DataFrame({"Delta": [20, 30, 40, 60][: len(agree)],
                             "agree_with_largest_Delta": agree})  # fmt: skip

    assert fk.window_stable_from(study([212, 240, 240, 240])) == 30
    assert fk.window_stable_from(study([240, 240, 240])) == 20
    assert fk.window_stable_from(study([240, 239, 240, 240])) == 40
    assert fk.window_stable_from(study([212, 239, 240])) is None  # only the largest
    for bad in (study([]), pd.DataFrame({"Delta": [20]}), None):
        with pytest.raises(HpcmodelsError, match="truncation_study"):
            fk.window_stable_from(bad)


def test_the_truncation_study_finds_the_window_stable_from_delta_30():
    """The notebook's finding at small scale: Delta = 20 differs, 30 and 40 agree with 60."""
    table = fk.truncation_study("Fig. 2", (20, 30, 40, 60), progress=False)
    assert fk.window_stable_from(table) == 30
    assert (table["bound"] < 5e-7).all()
