"""Section 6: the optimal, heuristic and local policies simulated at Figs. 5-9's
parameter points (:func:`policy_costs`, one sweep point per parameter point and policy)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ...bounds import (
    MAX_SEED,
    check_completions,
)
from ...errors import check_bool, check_int
from ...mdp import solve
from ...mdp.simulate import simulate_policy, summarize_runs
from ...sweep import raise_failures, sweep
from .model import check_truncation, model

POLICIES = ("optimal", "heuristic", "local")


def _checked(completions, replications, seed, truncation, truncated) -> dict:
    """The run's counts, as :func:`hpcmodels.mdp.simulate.simulate_policy` takes them:
    ``completions`` in [1, 10**10], ``replications`` in [1, 10**6] (their product at
    most 10**12), ``seed`` in [0, 2**63 - 1], ``truncation`` in [1, 1000] (whole
    numbers; :mod:`hpcmodels.bounds`), ``truncated`` a bool."""
    completions, replications = check_completions(completions, replications)
    return dict(
        completions=completions,
        replications=replications,
        seed=check_int("seed", seed, minimum=0, maximum=MAX_SEED),
        truncation=check_truncation(truncation),
        truncated=check_bool("truncated", truncated),
    )


def policy_cost(
    point: dict,
    policy: str,
    *,
    completions: int,
    replications: int,
    seed: int,
    truncation: int,
    truncated: bool,
) -> dict:
    """One policy's simulated average cost at one parameter point (``point`` as
    :func:`model` takes it): the mean over ``replications`` independent runs and its 95 %
    half-width. The optimal policy is solved here (a few tens of ms at Delta = 30).
    The counts' ranges are :func:`policy_costs`'s."""
    run = _checked(completions, replications, seed, truncation, truncated)
    mdp = model(run.pop("truncation"), **point)
    chosen = solve(mdp) if policy == "optimal" else policy
    runs = simulate_policy(mdp, chosen, **run)
    s = summarize_runs(runs)
    return {"average_cost": s["mean"], "ci": s["ci"]}


def policy_costs(
    points: Sequence[dict],
    label: str,
    *,
    completions: int,
    replications: int,
    seed: int = 0,
    truncation: int = 30,
    truncated: bool = True,
    progress: bool = True,
    client=None,
    cache=None,
) -> pd.DataFrame:
    """Simulated average cost (mean and 95 % CI) of the optimal, heuristic and local
    policies at each parameter point, one :func:`hpcmodels.sweep.sweep` point
    (:func:`policy_cost`) per parameter point and policy (``client``, ``cache`` as there).

    ``truncated=True`` (default) simulates the chain the policy was optimised for, whose
    queues hold at most Delta jobs (arrivals to a full queue are lost). Our reading: the
    untruncated system is unstable at loads >= 0.85 under the local policy (FCFS
    head-of-line blocking costs cluster 1 capacity), and the Delta = 30 policy stops
    co-allocating near q1 = Delta, so its costs diverge there too; the notebook shows
    both.

    ``completions`` is a whole number in [1, 10**10] and ``replications`` one in [1,
    10**6], their product at most 10**12 (:mod:`hpcmodels.bounds`: one run is one numba
    call of about 10 minutes at most); ``seed`` one in [0, 2**63 - 1]; ``truncation``
    one in [1, 1000]; ``truncated`` and ``progress`` bools. They are checked before any point runs."""
    run = _checked(completions, replications, seed, truncation, truncated)
    completions, replications, seed = run["completions"], run["replications"], run["seed"]
    truncation, truncated = run["truncation"], run["truncated"]
    progress = check_bool("progress", progress)
    grid = [
        dict(
            point=dict(point),
            policy=name,
            completions=completions,
            replications=replications,
            seed=seed,
            truncation=truncation,
            truncated=truncated,
        )
        for point in points
        for name in POLICIES
    ]
    runs = raise_failures(
        sweep(policy_cost, grid, cache=cache, client=client, progress=progress, desc=label),
        f"policy_cost ({label})",
    )
    return pd.DataFrame(
        [
            {**g["point"], "policy": g["policy"], "average_cost": r.average_cost, "ci": r.ci}
            for g, r in zip(grid, runs.itertuples(), strict=True)
        ]
    )
