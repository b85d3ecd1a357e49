"""Benchmark of the co-allocation MDP solvers (``hpcmodels.mdp``) against ``quantecon``.

Solves the Filippopoulos & Karatza co-allocation MDP (rho1 = rho2 = 0.8, p = 0.6,
mu = (1, 1, 0.7), c = (2, 1), beta = 0.05) with each of our methods and each of
quantecon's (``DiscreteDP`` with a sparse ``Q`` over state-action pairs: value
iteration ``vi``, policy iteration ``pi``, modified policy iteration ``mpi``).

The same problem on both sides: the uniformised ``J = min_d (c + P_d J) / (nu + beta)``
is handed to quantecon as a maximisation with discount ``alpha = nu / (nu + beta)``,
rewards ``-c(s) / (nu + beta)`` and transition probabilities ``P_d / nu``; action 1
exists only where co-allocation is allowed; ``J = -v``. Tolerances map one to one: ours
certifies ``|J - J*| <= tol / 2`` (MacQueen bounds, tol = 1e-6); quantecon's ``vi`` and
``mpi`` stop on ``epsilon = 1e-6`` (also within ``epsilon / 2``), its ``pi`` is exact.
Fair starts: every method of both libraries starts from ``v = 0`` (quantecon's policy
iteration from the greedy policy of ``v = 0``, never co-allocate, as ours);
``max_iter`` is 100,000 for both, far above what any method needs.

Columns: ``ours [s]`` is ``solve(CoallocationMDP(...), method)`` on a FRESH model, so it
includes building the state space and ``P_0``, ``P_1`` (``build [s]`` on its own);
``peer [s]`` is ``DiscreteDP.solve`` with its matrices already built (``peer build [s]``
apart): ``peer/ours`` is therefore conservative. Times are medians of 3 (Delta >= 100:
one run) after a warm-up (numba compiles or loads its cache; quantecon's numba helpers
compile on a Delta = 3 model first). ``policy diff`` counts states where our policy and
the peer's differ; ``max|dJ|`` is ``max |J_ours - J_peer|``.

Below the table: our default ``solve()`` against the FASTEST quantecon method at each
Delta (target >= 3x at Delta = 60 and 100), policy iteration at Delta = 30 (target
< 0.3 s) and, with ``--full``, Delta = 300 in a fresh process (target < 30 s, < 2 GB).

Run: ``python benchmarks/bench_mdp.py --quick`` (``make bench``: Delta = 30 and 60,
about 30 s; quantecon's policy iteration only at 30, one sparse LU per step takes 4 s
at 60) or without ``--quick`` (``make bench FULL=1``: adds Delta = 100 with every
method, quantecon's policy iteration there takes about 3 minutes, and Delta = 300).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
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

from hpcmodels.mdp import CoallocationMDP, solve

from timing import median_time

PARAMS = dict(rho1=0.8, rho2=0.8, p=0.6, mu1=1, mu2=1, mu3=0.7, c1=2, c2=1, beta=0.05)
TOL = 1e-6
MAX_ITER = 100_000
PAIRS = (("value_iteration", "vi"), ("policy_iteration", "pi"),
         ("modified_policy_iteration", "mpi"))  # fmt: skip
DEFAULT = "modified_policy_iteration"


def model(truncation: int) -> CoallocationMDP:
    return CoallocationMDP.from_loads(**PARAMS, truncation=truncation)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    if repeat > 1:
        return median_time(fn, repeat)
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


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
    epsilon = None if method == "pi" else TOL
    return ddp.solve(method, v_init=np.zeros(ddp.num_states), epsilon=epsilon, max_iter=MAX_ITER)


def bench(truncation: int, repeat: int, peer_methods: set[str]) -> tuple[list[dict], dict]:
    """Rows of the table at one Delta, and the times our default and the fastest peer took."""
    mdp = model(truncation)
    build, _ = timed(lambda: model(truncation).transition_matrices(), repeat)
    peer_build, ddp = timed(lambda: peer_ddp(model(truncation)), repeat)
    log(f"Delta = {truncation}: {mdp.n_states:,} states, {ddp.num_sa_pairs:,} state-action pairs")
    rows, times = [], {"ours": {}, "peer": {}}
    for ours_method, peer_method in PAIRS:
        t, sol = timed(lambda m=ours_method: solve(model(truncation), m, tol=TOL), repeat)
        times["ours"][ours_method] = t
        log(f"  ours {ours_method}: {t:.3f} s, {sol.iterations} iterations")
        row = {"Delta": truncation, "states": f"{mdp.n_states:,}", "ours": ours_method,
               "build [s]": f"{build:.3f}", "ours [s]": f"{t:.3f}", "iter ours": sol.iterations,
               "bound": f"{sol.bound:.1e}", "peer": peer_method,
               "peer build [s]": f"{peer_build:.3f}"}  # fmt: skip
        if peer_method in peer_methods:
            t_peer, res = timed(lambda m=peer_method: peer_solve(ddp, m), repeat)
            times["peer"][peer_method] = t_peer
            log(f"  peer {peer_method}: {t_peer:.3f} s, {res.num_iter} iterations")
            row.update({"peer [s]": f"{t_peer:.3f}", "iter peer": res.num_iter,
                        "peer/ours": f"{t_peer / t:.1f}x",
                        "policy diff": int((sol.policy != res.sigma).sum()),
                        "max|dJ|": f"{np.abs(sol.values + res.v).max():.1e}"})  # fmt: skip
        else:
            row.update({"peer [s]": "not run", "iter peer": "-", "peer/ours": "-",
                        "policy diff": "-", "max|dJ|": "-"})  # fmt: skip
        rows.append(row)
    return rows, times


LARGE = """
import resource, sys, time
from hpcmodels.mdp import CoallocationMDP, solve
solve(CoallocationMDP.from_loads(0.8, 0.8, 0.6, truncation=3))  # numba cache
start = time.perf_counter()
sol = solve(CoallocationMDP.from_loads({params}, truncation={d}))
print(time.perf_counter() - start, sol.n_states, sol.iterations, sol.bound,
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20)
"""


def large(truncation: int) -> str:
    """Our default solve at a large Delta in a fresh process: time and peak memory."""
    params = ", ".join(f"{k}={v}" for k, v in PARAMS.items())
    out = subprocess.run([sys.executable, "-c", LARGE.format(params=params, d=truncation)],
                         capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
    seconds, states, iterations, bound, gib = (
        float(out[0]),
        int(out[1]),
        out[2],
        out[3],
        float(out[4]),
    )
    ok = "yes" if seconds < 30 and gib < 2 else "NO"
    return (f"Delta = {truncation} ({states:,} states), default solve, model build included, "
            f"fresh process: {seconds:.1f} s, {iterations} iterations, bound {float(bound):.1e}, "
            f"peak memory {gib:.2f} GiB (target < 30 s and < 2 GB: {ok})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="Delta = 30 and 60 only (quantecon's policy iteration at 30)")  # fmt: skip
    args = parser.parse_args()
    print(f"{platform.platform()} | {platform.processor() or platform.machine()} | "
          f"{os.cpu_count()} CPUs | Python {platform.python_version()} | numpy {np.__version__}"
          f" | scipy {scipy.__version__} | quantecon {quantecon.__version__}")  # fmt: skip
    tiny = peer_ddp(model(3))  # compile quantecon's numba helpers outside the timings
    for _, method in PAIRS:
        peer_solve(tiny, method)
    solve(model(3))  # and ours (or load its cache)

    plan = [(30, 3, {"vi", "pi", "mpi"}), (60, 3, {"vi", "mpi"})]
    if not args.quick:
        plan.append((100, 1, {"vi", "pi", "mpi"}))
    rows, notes = [], []
    for truncation, repeat, peers in plan:
        r, times = bench(truncation, repeat, peers)
        rows += r
        fastest = min(times["peer"], key=times["peer"].get)
        ratio = times["peer"][fastest] / times["ours"][DEFAULT]
        target = (
            " (target >= 3x: " + ("yes" if ratio >= 3 else "NO") + ")" if truncation >= 60 else ""
        )
        notes.append(f"Delta = {truncation}: our default solve {times['ours'][DEFAULT]:.3f} s (model "
                     f"build included) vs quantecon's fastest here, {fastest}, "
                     f"{times['peer'][fastest]:.3f} s: {ratio:.1f}x{target}")  # fmt: skip
        if truncation == 30:
            pi = times["ours"]["policy_iteration"]
            notes.append(f"Delta = 30: our policy iteration {pi:.3f} s (target < 0.3 s: "
                         + ("yes" if pi < 0.3 else "NO") + ")")  # fmt: skip
    print(pd.DataFrame(rows).to_string(index=False))
    for note in notes:
        print(note)
    if not args.quick:
        log("Delta = 300 in a fresh process ...")
        print(large(300))
    print("Paper (Filippopoulos & Karatza), Delta = 30: value iteration, about 5 hours and "
          "1,100 iterations.")  # fmt: skip


if __name__ == "__main__":
    main()
