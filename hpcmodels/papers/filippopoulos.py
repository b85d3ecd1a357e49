"""Filippopoulos & Karatza: the published policy tables and the functions that rebuild
each figure with ``hpcmodels.mdp``.

Experiments (Sections 5-6), all with mu1 = mu2 = 1, beta = 0.05, Delta = 30 unless said:

* Fig. 2: rho1 = rho2 = 0.8, p = 0.6, mu3 = 0.7, c1 = 2, c2 = 1; policy for x1 = 1
  (for x1 = 0 the paper reports "never co-allocate").
* Figs. 3-4: rho1 = rho2 = 0.9, p = 0.8, mu3 = 0.8; policy for x1 = 0 and x1 = 1.
* Fig. 5 (and 6, the % reduction): average cost of the optimal, heuristic and local
  policies for loads 0.5-0.9 (Fig. 2's other parameters); Fig. 7: equal costs
  c1 = c2 = 1, loads 0.5-0.83; Fig. 8: mu3 = 0.4-0.8 at load 0.8; Fig. 9: p = 0.2-0.8 at
  load 0.8. The paper simulates 2,000,000 completions x 60 replications per point; the
  figures' numbers are not in the text, so those items are checked through the claims.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..errors import InvalidParameter
from ..mdp import CoallocationMDP
from ..mdp.simulate import simulate_policy, summarize_runs
from .report import compare_claim, compare_value

PAPER = "filippopoulos"
TITLE = "Filippopoulos & Karatza: a dynamic programming model of co-allocation in two clusters"
CITATION = (
    "D. Filippopoulos, H. Karatza. A dynamic programming model of two heterogeneous "
    "clusters with co-allocation of jobs."
)
EXPERIMENT_1 = dict(rho1=0.8, rho2=0.8, p=0.6, mu3=0.7)
EXPERIMENT_2 = dict(rho1=0.9, rho2=0.9, p=0.8, mu3=0.8)


def _rows(*counts: int, width: int) -> np.ndarray:
    """A 0/1 table from the number of leading ones in each row (the paper's tables are
    all of this form: co-allocate for q2 below a threshold)."""
    return np.array([[1] * k + [0] * (width - k) for k in counts], dtype=int)


# Fig. 2: x1 = 1, q1 = 1..15 (rows), q2 = 0..15 (columns)
FIG2 = _rows(1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5, 6, 6, 6, width=16)
# Fig. 3: x1 = 0, q1 = 1..6, q2 = 0..6
FIG3 = _rows(0, 0, 0, 1, 1, 1, width=7)
# Fig. 4: x1 = 1, q1 = 1..6, q2 = 0..10
FIG4 = _rows(1, 3, 5, 10, 10, 10, width=11)
PAPER_TABLES = {  # figure: (experiment, x1, table)
    "Fig. 2": (EXPERIMENT_1, 1, FIG2),
    "Fig. 3": (EXPERIMENT_2, 0, FIG3),
    "Fig. 4": (EXPERIMENT_2, 1, FIG4),
}
LOADS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9)
EQUAL_COST_LOADS = (0.5, 0.6, 0.7, 0.8, 0.83)
MU3S = (0.4, 0.5, 0.6, 0.7, 0.8)
PS = (0.2, 0.4, 0.6, 0.8)


def model(truncation: int = 30, **params) -> CoallocationMDP:
    """A model of the paper: Fig. 2's parameters unless overridden (``rho`` sets both loads)."""
    settings = dict(EXPERIMENT_1, mu1=1.0, mu2=1.0, c1=2.0, c2=1.0, beta=0.05)
    rho = params.pop("rho", None)
    if rho is not None:
        settings.update(rho1=rho, rho2=rho)
    settings.update(params)
    return CoallocationMDP.from_loads(truncation=truncation, **settings)


def policy_comparison(figure: str, truncation: int = 30) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Our policy table next to the paper's for Fig. 2, 3 or 4: (ours, cell-wise
    difference ours - paper)."""
    experiment, x1, paper = PAPER_TABLES[figure]
    solution = model(truncation, **experiment).solve()
    ours = solution.policy_table(x1, paper.shape[0], paper.shape[1] - 1)
    return ours, ours - paper


def policy_rows(figure: str, truncation: int = 30, comparison=None) -> list[dict]:
    """Report rows: cells agreeing with the paper, and where the others are.
    ``comparison`` is :func:`policy_comparison`'s result, if already computed."""
    ours, diff = comparison or policy_comparison(figure, truncation)
    cells = diff.size
    wrong = [(q1, q2) for q1 in diff.index for q2 in diff.columns if diff.loc[q1, q2] != 0]
    agree = cells - len(wrong)
    where = ", ".join(f"(q1={a}, q2={b}: ours {ours.loc[a, b]})" for a, b in wrong[:12])
    row = compare_value(figure, f"policy cells agreeing with the paper (of {cells}), Delta = "
                        f"{truncation}", str(cells), float(agree),
                        reason=f"{len(wrong)} cells differ: {where}"
                        + (" ..." if len(wrong) > 12 else ""))  # fmt: skip
    return [row]


TRUNCATIONS = (20, 30, 40, 60, 100, 200, 300)
"""The truncation study's Delta values (Delta = 300: 1,085,406 states, a few seconds)."""


def truncation_study(figure: str = "Fig. 2", truncations: Sequence[int] = TRUNCATIONS,
                     progress: bool = True) -> pd.DataFrame:  # fmt: skip
    """How the policy in the paper's window changes with Delta: cells agreeing with the
    paper and with the largest Delta, iterations, seconds and the certified bound."""
    experiment, x1, paper = PAPER_TABLES[figure]
    rows, tables = [], {}
    for d in tqdm(truncations, desc="truncation", disable=not progress):
        sol = model(d, **experiment).solve()
        tables[d] = sol.policy_table(x1, paper.shape[0], paper.shape[1] - 1).to_numpy()
        rows.append({"Delta": d, "states": sol.n_states, "iterations": sol.iterations,
                     "seconds": sol.seconds, "bound": sol.bound,
                     "agree_with_paper": int((tables[d] == paper).sum())})  # fmt: skip
    largest = tables[max(truncations)]
    for row in rows:
        row["agree_with_largest_Delta"] = int((tables[row["Delta"]] == largest).sum())
    return pd.DataFrame(rows)


def window_stable_from(study: pd.DataFrame) -> int | None:
    """The smallest Delta of a :func:`truncation_study` from which the policy window no
    longer changes: it and every larger Delta agree with the largest in every cell
    (``None`` if only the largest does)."""
    needed = {"Delta", "agree_with_largest_Delta"}
    if not isinstance(study, pd.DataFrame) or not needed <= set(study.columns) or study.empty:
        raise InvalidParameter("study must be a non-empty truncation_study() frame with columns "
                               f"{sorted(needed)}, got {type(study).__name__}")  # fmt: skip
    ordered = study.sort_values("Delta")
    cells = int(ordered["agree_with_largest_Delta"].max())
    same = (ordered["agree_with_largest_Delta"] == cells).to_numpy()
    if same.all():
        return int(ordered["Delta"].iloc[0])
    last_change = int(np.flatnonzero(~same).max())
    if last_change >= len(ordered) - 2:  # only the largest agrees with itself
        return None
    return int(ordered["Delta"].iloc[last_change + 1])


def policy_costs(points: Sequence[dict], label: str, *, completions: int, replications: int,
                 seed: int = 0, truncation: int = 30, truncated: bool = True,
                 progress: bool = True) -> pd.DataFrame:  # fmt: skip
    """Simulated average cost (mean and 95 % CI) of the optimal, heuristic and local
    policies at each parameter point.

    ``truncated=True`` (default) simulates the chain the policy was optimised for, whose
    queues hold at most Delta jobs (arrivals to a full queue are lost). Our reading: the
    untruncated system is unstable at loads >= 0.85 under the local policy (FCFS
    head-of-line blocking costs cluster 1 capacity), and the Delta = 30 policy stops
    co-allocating near q1 = Delta, so its costs diverge there too; the notebook shows
    both."""
    rows = []
    for point in tqdm(points, desc=label, disable=not progress):
        mdp = model(truncation, **point)
        solution = mdp.solve()
        policies = {"optimal": solution, "heuristic": "heuristic", "local": "local"}
        for name, policy in policies.items():
            runs = simulate_policy(mdp, policy, completions=completions,
                                   replications=replications, seed=seed,
                                   truncated=truncated)  # fmt: skip
            s = summarize_runs(runs)
            rows.append({**point, "policy": name, "average_cost": s["mean"], "ci": s["ci"]})
    return pd.DataFrame(rows)


def coallocation_threshold(rho: float = 0.8, mu3_grid: Sequence[float] = tuple(np.round(np.arange(0.30, 0.71, 0.01), 2)),
                           truncation: int = 30) -> float:  # fmt: skip
    """Smallest mu3 on the grid at which the optimal policy co-allocates anywhere
    (Fig. 8's threshold theta)."""
    values = None  # each point warm-starts from the previous one (same state space)
    for mu3 in mu3_grid:
        solution = model(truncation, rho=rho, mu3=float(mu3)).solve(start=values)
        if solution.policy.any():
            return float(mu3)
        values = solution.values
    return float("nan")


# ------------------------------------------------------------------ claims


def _claim(item, text, holds, ours, reason=""):
    return compare_claim(item, text, text, bool(holds), ours, reason=reason)


def _pivot(df: pd.DataFrame, x: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    return (df.pivot(index=x, columns="policy", values="average_cost"),
            df.pivot(index=x, columns="policy", values="ci"))  # fmt: skip


CLOSE = 0.05
"""Our criterion for the paper's "close to optimal": within 5 % of the optimal cost, or
inside the two runs' combined 95 % confidence intervals."""


def _close(cost: pd.DataFrame, ci: pd.DataFrame, a: str, b: str) -> pd.Series:
    """Whether policy ``a``'s cost is close to policy ``b``'s (see :data:`CLOSE`)."""
    gap = (cost[a] - cost[b]).abs()
    return (gap <= CLOSE * cost[b]) | (gap <= ci[a] + ci[b])


def simulation_claims(fig5: pd.DataFrame, fig7: pd.DataFrame, fig8: pd.DataFrame,
                      fig9: pd.DataFrame, threshold: float) -> list[dict]:  # fmt: skip
    """Section 6's statements about Figs. 5-9."""
    c5, ci5 = _pivot(fig5, "rho")
    reduction = 100 * (1 - c5["optimal"] / c5["local"])
    close5 = _close(c5, ci5, "heuristic", "optimal")
    moderate = close5[c5.index <= 0.8]
    c7, ci7 = _pivot(fig7, "rho")
    c8, ci8 = _pivot(fig8, "mu3")
    c9, ci9 = _pivot(fig9, "p")
    fmt = lambda s: ", ".join(f"{k:g}: {v}" for k, v in s.items())  # noqa: E731
    return [
        _claim("Fig. 5", "the heuristic is close to optimal (within 5 %) at loads <= 0.8",
               moderate.all(), fmt(close5)),
        _claim("Fig. 5", "the heuristic falls behind the optimum at loads > 0.85",
               (c5["heuristic"] > c5["optimal"] + ci5["heuristic"] + ci5["optimal"])[c5.index > 0.85].all(),
               fmt((c5["heuristic"] - c5["optimal"]).round(2))),
        _claim("Fig. 5", "the heuristic beats the local policy at every load",
               (c5["heuristic"] < c5["local"]).all(), fmt((c5["local"] - c5["heuristic"]).round(2))),
        _claim("Fig. 6", "the reduction of optimal over local grows with the load",
               bool(np.all(np.diff(reduction.to_numpy()) > 0)), fmt(reduction.round(1))),
        _claim("Fig. 7", "with equal costs the heuristic stays close to optimal",
               _close(c7, ci7, "heuristic", "optimal").all(),
               fmt((c7["heuristic"] - c7["optimal"]).round(2))),
        _claim("Fig. 8", "co-allocation never pays for mu3 <= 0.4 (optimal = local)",
               threshold > 0.4, f"the optimal policy first co-allocates at mu3 = {threshold:g}"),
        compare_value("Fig. 8", "threshold theta on mu3 below which optimal = local", "0.4",
                      threshold, tolerance=0.05,
                      reason="smallest mu3 (grid step 0.01) at which the Delta = 30 optimum "
                      "co-allocates in any state"),
        _claim("Fig. 8", "the heuristic is close to optimal for mu3 >= 0.6",
               _close(c8, ci8, "heuristic", "optimal")[c8.index >= 0.6].all(),
               fmt((c8["heuristic"] - c8["optimal"]).round(2))),
        _claim("Fig. 9", "the heuristic is close to optimal for every p",
               _close(c9, ci9, "heuristic", "optimal").all(),
               fmt((c9["heuristic"] - c9["optimal"]).round(2))),
        _claim("Fig. 9", "costs are higher when the two job types are balanced",
               c9["optimal"].idxmax() not in (min(c9.index), max(c9.index)),
               fmt(c9["optimal"].round(2))),
    ]  # fmt: skip


def policy_claims() -> list[dict]:
    """Section 5's statements about the policies."""
    sol1 = model(**EXPERIMENT_1).solve()
    x0 = sol1.policy_table(0, 30, 30)
    sol2 = model(**EXPERIMENT_2).solve()
    fig3 = sol2.policy_table(0, 30, 30)
    only = fig3.copy()
    only.loc[:, :] = 0
    only.loc[4:, 0] = 1
    return [
        _claim("Fig. 2", "with both nodes of cluster 1 free (x1 = 0) the optimum never "
               "co-allocates", x0.to_numpy().sum() == 0, f"{int(x0.to_numpy().sum())} co-allocating cells"),
        _claim("Fig. 3", "heavy load, x1 = 0: co-allocate only when q2 = 0 and q1 > 3",
               (fig3 == only).all().all(), f"{int((fig3 != only).to_numpy().sum())} cells differ"
               " from that rule over q1, q2 <= 30"),
    ]  # fmt: skip


def reading_study() -> pd.DataFrame:
    """Cells of Figs. 2-4 agreeing with the paper under both readings of the Bellman
    equation's self-transition (to the pre-action state as printed, or to the
    post-action state)."""
    rows = []
    for figure, (experiment, x1, paper) in PAPER_TABLES.items():
        row = {"figure": figure, "cells": paper.size}
        for reading in ("pre_action", "post_action"):
            sol = model(self_loop=reading, **experiment).solve()
            table = sol.policy_table(x1, paper.shape[0], paper.shape[1] - 1).to_numpy()
            row[f"agree ({reading})"] = int((table == paper).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def stopping_study(
    figure: str = "Fig. 2", iterations: Sequence[int] = (300, 600, 1100)
) -> pd.DataFrame:
    """Cells agreeing with the paper when value iteration is stopped early (the paper
    reports about 1,100 iterations), against our converged run."""
    from ..mdp import value_iteration

    experiment, x1, paper = PAPER_TABLES[figure]
    mdp = model(**experiment)
    rows = []
    for cap in (*iterations, None):
        sol = value_iteration(mdp) if cap is None else value_iteration(mdp, max_iter=cap)
        table = sol.policy_table(x1, paper.shape[0], paper.shape[1] - 1).to_numpy()
        rows.append({"iterations": sol.iterations, "converged": sol.converged,
                     "agree_with_paper": int((table == paper).sum()), "cells": paper.size})  # fmt: skip
    return pd.DataFrame(rows)
