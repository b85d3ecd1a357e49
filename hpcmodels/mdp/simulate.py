"""Simulation of the two-cluster system under a co-allocation policy (Section 6).

The continuous-time system is simulated event by event (numba): Poisson arrivals at both
clusters, exponential services, and after every arrival or completion one decision (at
most one job of queue 1 starts, Section 2). The width of the job that becomes the head
of queue 1 is drawn when it becomes the head (widths are independent, so this is the
model's own description). The estimate is the long-run average cost
``E[c1 (q1 + x1 + x2 + x11) + c2 q2]``: the time average over a run of ``completions``
job completions (the paper: 2,000,000) after discarding the first ``warmup`` fraction,
with a 95 % Student-t interval over independent replications (the paper: 60).

Policies: ``"local"`` never co-allocates; ``"heuristic"`` is the paper's "p c1 q1 >
c2 q2 - best pack" rule (co-allocate when allowed, ``x1 = 1`` and ``p c1 q1 > c2 q2``);
a :class:`~hpcmodels.mdp.solve.Solution` (or a 0/1 array per state) applies that
policy, with queue lengths beyond the truncation looked up at the truncation (the
policy's boundary). ``truncated=True`` simulates the truncated chain itself (arrivals to
a full queue are lost), whose exact average is :meth:`CoallocationMDP.average_cost`.
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd

from ..bounds import (
    MAX_REPLICATES,
    MAX_SEED,
    check_completions,
)
from ..errors import InvalidParameter, check_bool, check_int, check_real
from ..stats import t_interval
from .model import CoallocationMDP
from .solve import Solution

__all__ = ["simulate_policy", "summarize_runs"]

TABLE, HEURISTIC, LOCAL = 0, 1, 2


@numba.njit(cache=True)
def _new_head(q1, p, rng):
    if q1 == 0:
        return 0
    return 1 if rng.random() < p else 2


@numba.njit(cache=True)
def _run(
    rng,
    lam1,
    lam2,
    p,
    mu1,
    mu2,
    mu3,
    c1,
    c2,
    mode,
    policy,
    lookup,
    delta,
    truncated,
    completions,
    warmup,
):
    q1 = q2 = g = x1 = x2 = x11 = 0
    done = 0
    area = 0.0
    elapsed = 0.0
    while done < completions:
        a1 = lam1 if not (truncated and q1 >= delta) else 0.0
        a2 = lam2 if not (truncated and q2 >= delta) else 0.0
        s2 = mu2 if (x11 == 0 and q2 > 0) else 0.0
        total = a1 + a2 + mu1 * (x1 + x2) + mu3 * x11 + s2
        dt = rng.exponential(1.0 / total)
        if done >= warmup:
            area += (c1 * (q1 + x1 + x2 + x11) + c2 * q2) * dt
            elapsed += dt
        u = rng.random() * total
        if u < a1:
            q1 += 1
            if q1 == 1:
                g = _new_head(1, p, rng)
        elif u < a1 + a2:
            q2 += 1
        else:
            done += 1
            u -= a1 + a2
            if u < mu1 * x1:
                x1 -= 1
            elif u < mu1 * (x1 + x2):
                x2 -= 1
            elif u < mu1 * (x1 + x2) + mu3 * x11:
                x11 -= 1
            else:
                q2 -= 1
        free = 2 - x1 - 2 * x2 - x11
        coallocate = False
        if g == 2 and x11 == 0 and free >= 1:
            if mode == HEURISTIC:
                coallocate = x1 == 1 and p * c1 * q1 > c2 * q2
            elif mode == TABLE:
                i = lookup[min(q1, delta), g, min(q2, delta), x11, x2, x1]
                coallocate = policy[i] == 1
        if coallocate:
            x11 += 1
        elif g > 0 and free >= g:
            if g == 1:
                x1 += 1
            else:
                x2 += 1
        else:
            continue
        q1 -= 1
        g = _new_head(q1, p, rng)
    return area / elapsed


def simulate_policy(
    mdp: CoallocationMDP,
    policy: str | Solution | np.ndarray,
    *,
    completions: int = 2_000_000,
    replications: int = 60,
    warmup: float = 0.05,
    seed: int = 0,
    truncated: bool = False,
    first: int = 0,
) -> pd.DataFrame:
    """Average cost of ``policy`` in each of ``replications`` independent runs (one row
    each: ``replication``, ``average_cost``). See the module docstring.

    Replication ``i`` draws from the ``i``-th child stream of ``SeedSequence(seed)``
    (``SeedSequence(seed).spawn(n)[i]`` for any ``n > i``); ``first`` starts the runs at
    replication ``first``, so any one replication can be rerun alone and gives the
    same number as in a longer series.

    ``completions`` is a whole number in [1, 10**10]: a run is one numba call, which
    Ctrl-C cannot interrupt, and 10**10 completions take about 10 minutes at the
    measured ~2 x 10**7 completions per second (:data:`hpcmodels.bounds.MAX_COMPLETIONS`);
    ``replications`` one in [1, 10**6], with ``completions x replications`` at most
    10**12 (about 14 hours; Ctrl-C stops the call between runs); ``first`` one in [0,
    10**6 - 1] (a replicate index, :data:`hpcmodels.bounds.MAX_REPLICATES`); ``seed`` one
    in [0, 2**63 - 1]; ``warmup`` a fraction in [0, 1); ``truncated`` a bool."""
    completions, replications = check_completions(completions, replications)
    first = check_int("first", first, minimum=0, maximum=MAX_REPLICATES - 1)
    seed = check_int("seed", seed, minimum=0, maximum=MAX_SEED)
    truncated = check_bool("truncated", truncated)
    if not check_real("warmup", warmup, at_least=0.0) < 1:
        raise InvalidParameter(f"warmup must be a fraction in [0, 1), got {warmup!r}")
    table = np.zeros(mdp.n_states, np.int8)
    if isinstance(policy, str):
        modes = {"local": LOCAL, "heuristic": HEURISTIC}
        if policy not in modes:
            raise InvalidParameter(
                f"unknown policy {policy!r}; use 'local', 'heuristic', a Solution "
                "or an array of actions"
            )
        mode = modes[policy]
    else:
        mode = TABLE
        table = mdp.check_policy(policy.policy if isinstance(policy, Solution) else policy)
    rows = []
    for r in range(first, first + replications):
        # the r-th child of SeedSequence(seed), as SeedSequence(seed).spawn(...)[r]
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(r,)))
        cost = _run(
            rng,
            mdp.lam1,
            mdp.lam2,
            mdp.p,
            mdp.mu1,
            mdp.mu2,
            mdp.mu3,
            mdp.c1,
            mdp.c2,
            mode,
            table,
            mdp._lookup,
            mdp.truncation,
            truncated,
            int(completions),
            int(warmup * completions),
        )
        rows.append({"replication": r, "average_cost": cost})
    return pd.DataFrame(rows)


def summarize_runs(runs: pd.DataFrame, confidence: float = 0.95) -> dict:
    """Mean average cost and its Student-t confidence half-width over replications."""
    mean, half = t_interval(runs["average_cost"].to_numpy(), confidence)
    return {"mean": mean, "ci": half, "replications": len(runs)}
