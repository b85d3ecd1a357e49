"""Benchmark of the co-allocation MDP solvers (``hpcmodels.mdp``) against ``quantecon``.

Solves the Filippopoulos & Karatza co-allocation MDP (rho1 = rho2 = 0.8, p = 0.6,
mu = (1, 1, 0.7), c = (2, 1), beta = 0.05) at Delta = 30 (11,346 states; the paper
reports about 5 hours and 1,100 iterations; our target is under 1 s) and Delta = 100
(121,806 states) by value iteration and policy iteration, and solves the SAME MDP with
``quantecon.markov.DiscreteDP`` in its state-action-pair form with a sparse ``Q``.

The uniformised problem ``J = min_d (c + P_d J) / (nu + beta)`` is handed to quantecon
as a maximisation with discount ``alpha = nu / (nu + beta)``, rewards
``r(s, d) = -c(s) / (nu + beta)`` and transition probabilities ``P_d / nu``; action 1
exists only where co-allocation is allowed. Then ``J = -v`` on the same scale, so the
tolerances map one to one: ours stops when ``alpha/(1-alpha) span(J_{k+1} - J_k) < tol``
(tol = 1e-6) and returns the MacQueen midpoint, within tol/2 of J*; quantecon's value
iteration stops when ``||v_{k+1} - v_k||_inf < epsilon (1-alpha) / (2 alpha)``
(epsilon = 1e-6), its iterate then within epsilon/2 of v*. Both value iterations start
from 0 and both policy iterations from the policy that never co-allocates (quantecon's
greedy policy for v = 0: the rewards do not depend on the action and its argmax breaks
ties to action 0). Both policy iterations evaluate a policy exactly with SuperLU
(``scipy.sparse.linalg.spsolve``).

Columns: ``build`` is the time (median of 3) to build the matrices from a fresh model (state
enumeration and ``transition_matrices()``; for quantecon also the state-action pairs and
the ``DiscreteDP`` constructor). ``ours`` is ``mdp.solve(...)`` end to end: its API
builds P0 and P1 itself, so it includes that assembly, while ``peer`` (``ddp.solve``)
does not; ``peer/ours`` is therefore a conservative speed-up. ``policy diff`` counts states
whose optimal actions differ, ``max|dJ|`` is ``max |J_ours - J_peer|``.

Timing: ``time.perf_counter``. Ours: after one warm-up value iteration on the same
model instance (which fills its cached state enumeration; hpcmodels.mdp has no JIT),
the median of 3 runs at Delta = 30 and a single run at Delta = 100. quantecon: its numba
helpers are compiled on a Delta = 3 model first, then each solve runs once.

Run with ``python benchmarks/bench_mdp.py`` (``make bench``): Delta = 30 and 100, about
4 minutes on 2 CPUs, nearly all of it the two policy iterations at Delta = 100 (6 steps,
each a sparse LU of 121,806 states: about 1.5 min for ours, 2.3 min for quantecon; each
is run once). ``--quick`` runs only Delta = 30 (about 10 s). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import quantecon
import scipy
import scipy.sparse as sp
from quantecon.markov import DiscreteDP

from hpcmodels.mdp import CoallocationMDP

from timing import median_time

PARAMS = dict(rho1=0.8, rho2=0.8, p=0.6, mu1=1, mu2=1, mu3=0.7, c1=2, c2=1, beta=0.05)
TOL = 1e-6  # ours: value_iteration(tol=...); quantecon: epsilon
METHODS = ("value_iteration", "policy_iteration")
MAX_ITER = {"value_iteration": 100_000, "policy_iteration": 1000}  # both libraries
TARGET = {30: 1.0}  # seconds, ours, per method


def model(truncation: int) -> CoallocationMDP:
    return CoallocationMDP.from_loads(**PARAMS, truncation=truncation)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def build_ours_model(truncation: int) -> CoallocationMDP:
    """A fresh model with its matrices built (the state enumeration is cached on it)."""
    mdp = model(truncation)
    mdp.transition_matrices()
    return mdp


def peer_ddp(mdp: CoallocationMDP) -> DiscreteDP:
    """The same MDP as a quantecon ``DiscreteDP`` (state-action pairs, sparse Q), with
    the pairs sorted by state then action so quantecon takes its no-sort path."""
    p0, p1 = mdp.transition_matrices()
    n, nu, k = mdp.n_states, mdp.nu, mdp.nu + mdp.beta
    allowed = np.flatnonzero(mdp.can_coallocate)
    s_indices = np.concatenate([np.arange(n), allowed])
    a_indices = np.concatenate([np.zeros(n, np.int64), np.ones(len(allowed), np.int64)])
    order = np.lexsort((a_indices, s_indices))
    q = sp.vstack([p0, p1[allowed]], format="csr")[order] / nu
    r = -mdp.cost[s_indices[order]] / k
    return DiscreteDP(r, q, nu / k, s_indices[order], a_indices[order])


def peer_solve(ddp: DiscreteDP, method: str):
    v0 = np.zeros(ddp.num_states)
    epsilon = TOL if method == "value_iteration" else None
    return ddp.solve(method, v_init=v0, epsilon=epsilon, max_iter=MAX_ITER[method])


def q_gap(mdp: CoallocationMDP, values: np.ndarray) -> np.ndarray:
    """``Q(s, 1) - Q(s, 0)`` for our cost-minimising Bellman operator (nan where
    action 1 is not allowed)."""
    p0, p1 = mdp.transition_matrices()
    gap = (p1 @ values - p0 @ values) / (mdp.nu + mdp.beta)
    return np.where(mdp.can_coallocate, gap, np.nan)


def bench(truncation: int, repeat: int) -> tuple[list[dict], list[str]]:
    rows, notes = [], []
    build_ours, mdp = median_time(lambda: build_ours_model(truncation), 3)
    build_peer, ddp = median_time(lambda: peer_ddp(model(truncation)), 3)
    log(f"Delta = {truncation}: {mdp.n_states:,} states, {ddp.num_sa_pairs:,} state-action pairs")

    mdp.solve()  # warm-up
    ours, peers = {}, {}
    for method in METHODS:
        options = {"tol": TOL} if method == "value_iteration" else {}
        t, sol = median_time(lambda m=method, o=options: mdp.solve(m, **o), repeat)
        log(f"  ours  {method}: {t:.3f} s, {sol.iterations} iterations")
        t_peer, res = timed(lambda method=method: peer_solve(ddp, method))
        log(f"  peer  {method}: {t_peer:.3f} s, {res.num_iter} iterations")
        ours[method], peers[method] = sol, res
        differ = np.flatnonzero(sol.policy != res.sigma)
        target = TARGET.get(truncation)
        converged = sol.converged and res.num_iter < MAX_ITER[method]
        rows.append(
            {
                "Delta": truncation,
                "states": f"{mdp.n_states:,}",
                "method": method.replace("_iteration", " iter."),
                "build ours [s]": f"{build_ours:.3f}",
                "build peer [s]": f"{build_peer:.3f}",
                "ours [s]": f"{t:.3f}",
                "peer [s]": f"{t_peer:.3f}",
                "peer/ours": f"{t_peer / t:.1f}x",
                "iter ours": sol.iterations,
                "iter peer": res.num_iter,
                "policy diff": len(differ),
                "max|dJ|": f"{np.abs(sol.values + res.v).max():.1e}",
                "ours target": "-"
                if target is None
                else f"< {target:g} s: " + ("yes" if t < target else "NO"),
            }
        )
        if not converged:
            notes.append(f"Delta = {truncation} {method}: a solver hit its iteration cap")
        if len(differ):
            exact = ours.get("policy_iteration", sol).values
            gap_all = q_gap(mdp, exact)
            gap = gap_all[differ]
            rel = np.abs(gap) / np.abs(exact[differ])
            notes.append(
                f"Delta = {truncation} {method}: {len(differ)} states differ; "
                f"|Q1 - Q0| there (at this J) max {np.nanmax(np.abs(gap)):.1e}, "
                f"relative max {np.nanmax(rel):.1e} (ours breaks ties to 0 within 1e-9 relative)"
            )
            for i in differ[:5]:
                notes.append(
                    f"    state {tuple(int(v) for v in mdp.states[i])}: ours {sol.policy[i]}, "
                    f"peer {res.sigma[i]}, Q1 - Q0 = {gap_all[i]:.3e}"
                )
    vi, pi = ours["value_iteration"], ours["policy_iteration"]
    notes.append(
        f"Delta = {truncation}: ours VI vs ours PI: {int((vi.policy != pi.policy).sum())} "
        f"policy diffs, max|dJ| {np.abs(vi.values - pi.values).max():.1e}; peer VI vs peer PI: "
        f"{int((peers['value_iteration'].sigma != peers['policy_iteration'].sigma).sum())} "
        "policy diffs"
    )
    return rows, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only Delta = 30")
    args = parser.parse_args()

    print(
        f"{platform.platform()} | Python {platform.python_version()} | numpy {np.__version__}"
        f" | scipy {scipy.__version__} | quantecon {quantecon.__version__}"
        f" | {os.cpu_count()} CPUs"
    )
    tiny = peer_ddp(model(3))  # compile quantecon's numba helpers outside the timings
    for method in METHODS:
        peer_solve(tiny, method)

    rows, notes = [], []
    for truncation, repeat in ((30, 3),) if args.quick else ((30, 3), (100, 1)):
        r, n = bench(truncation, repeat)
        rows += r
        notes += n
    print(pd.DataFrame(rows).to_string(index=False))
    print(
        "ours = hpcmodels.mdp CoallocationMDP.solve (median of 3 at Delta = 30, 1 run at 100,"
        " after a warm-up; includes assembling P0, P1); peer = quantecon DiscreteDP.solve, one"
        " run, matrices prebuilt; peer/ours = ratio of those solve times.\n"
        f"Tolerance: ours VI tol = {TOL:g} (span rule, midpoint within tol/2 of J*); quantecon"
        f" VI epsilon = {TOL:g} (sup-norm rule ||dv|| < eps (1-alpha)/(2 alpha), within eps/2"
        " of v*), same scale since J = -v; PI is exact in both (sparse LU per step).\n"
        "Paper (Filippopoulos & Karatza), Delta = 30: about 5 hours, about 1,100 iterations."
    )
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
