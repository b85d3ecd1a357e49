"""Sections 4-5: the optimal policy's tables (Figs. 2-4) rebuilt with
:mod:`hpcmodels.mdp`, and the studies around them (truncation Delta, the stopping of
successive approximation, the reading of the self-transition, the states past the
printed window, how much the optimum co-allocates, Fig. 8's threshold theta). Each
``build`` function returns a frame."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ...bounds import MAX_ITERATIONS
from ...errors import InvalidParameter, check_bool, check_ints
from ...mdp import solve, value_iteration
from ...mdp.model import MAX_TRUNCATION
from .model import check_truncation, heuristic_actions, model
from .published import EXPERIMENT_1, EXPERIMENT_2, PAPER_TABLES

WINDOW = (15, 15)
"""The policy window ``(q1_max, q2_max)`` of the extent counts: Fig. 2's, the largest
the paper prints, away from the truncation at Delta = 30."""
EXPERIMENT_STEPS = (
    ("Fig. 2's experiment", EXPERIMENT_1),
    ("load 0.8 -> 0.9", dict(EXPERIMENT_1, rho1=0.9, rho2=0.9)),
    ("then mu3 0.7 -> 0.8", dict(EXPERIMENT_1, rho1=0.9, rho2=0.9, mu3=0.8)),
    ("then p 0.6 -> 0.8 (Figs. 3-4)", EXPERIMENT_2),
)
"""From the first experiment to the second one parameter at a time: Section 5 compares
the two (load, mu3 and p all change) and attributes the difference to the load."""


def policy_comparison(figure: str, truncation: int = 30) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Our policy table next to the paper's for Fig. 2, 3 or 4: (ours, cell-wise
    difference ours - paper). ``truncation`` is a whole number in [1, 1000]."""
    truncation = check_truncation(truncation)
    experiment, x1, paper = PAPER_TABLES[figure]
    solution = solve(model(truncation, **experiment))
    ours = solution.policy_table(x1, paper.shape[0], paper.shape[1] - 1)
    return ours, ours - paper


TRUNCATIONS = (20, 30, 40, 60, 100, 200, 300)
"""The truncation study's Delta values (Delta = 300: 1,085,406 states, a few seconds)."""


def truncation_study(
    figure: str = "Fig. 2", truncations: Sequence[int] = TRUNCATIONS, progress: bool = True
) -> pd.DataFrame:
    """How the policy in the paper's window changes with Delta: cells agreeing with the
    paper and with the largest Delta, iterations, seconds and the certified bound.
    ``progress`` (a bar over the Deltas) is a bool; ``truncations`` whole numbers in [1,
    1000], each checked before any is solved."""
    progress = check_bool("progress", progress)
    truncations = check_ints("truncations", truncations, minimum=1, maximum=MAX_TRUNCATION)
    experiment, x1, paper = PAPER_TABLES[figure]
    rows, tables = [], {}
    for d in tqdm(truncations, desc=f"truncation ({figure})", disable=not progress):
        sol = solve(model(d, **experiment))
        tables[d] = sol.policy_table(x1, paper.shape[0], paper.shape[1] - 1).to_numpy()
        rows.append(
            {
                "Delta": d,
                "states": sol.n_states,
                "iterations": sol.iterations,
                "seconds": sol.seconds,
                "bound": sol.bound,
                "agree_with_paper": int((tables[d] == paper).sum()),
            }
        )
    largest = tables[max(truncations)]
    for row in rows:
        row["agree_with_largest_Delta"] = int((tables[row["Delta"]] == largest).sum())
    frame = pd.DataFrame(rows)
    frame.attrs["figure"] = figure
    return frame


def window_stable_from(study: pd.DataFrame) -> int | None:
    """The smallest Delta of a :func:`truncation_study` from which the policy window no
    longer changes: it and every larger Delta agree with the largest in every cell
    (``None`` if only the largest does)."""
    needed = {"Delta", "agree_with_largest_Delta"}
    if not isinstance(study, pd.DataFrame) or not needed <= set(study.columns) or study.empty:
        raise InvalidParameter(
            "study must be a non-empty truncation_study() frame with columns "
            f"{sorted(needed)}, got {type(study).__name__}"
        )
    ordered = study.sort_values("Delta")
    cells = int(ordered["agree_with_largest_Delta"].max())
    same = (ordered["agree_with_largest_Delta"] == cells).to_numpy()
    if same.all():
        return int(ordered["Delta"].iloc[0])
    last_change = int(np.flatnonzero(~same).max())
    if last_change >= len(ordered) - 2:  # only the largest agrees with itself
        return None
    return int(ordered["Delta"].iloc[last_change + 1])


def reading_study() -> pd.DataFrame:
    """Cells of Figs. 2-4 agreeing with the paper under both readings of the Bellman
    equation's self-transition (to the pre-action state as printed, or to the
    post-action state)."""
    rows = []
    for figure, (experiment, x1, paper) in PAPER_TABLES.items():
        row = {"figure": figure, "cells": paper.size}
        for reading in ("pre_action", "post_action"):
            sol = solve(model(self_loop=reading, **experiment))
            table = sol.policy_table(x1, paper.shape[0], paper.shape[1] - 1).to_numpy()
            row[f"agree ({reading})"] = int((table == paper).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def stopping_study(
    figure: str = "Fig. 2", iterations: Sequence[int] = (300, 600, 1100), truncation: int = 30
) -> pd.DataFrame:
    """Value iteration (the paper's successive approximation, from ``J = 0``) stopped
    after each of ``iterations`` steps and run to our stopping rule (last row): the
    certified bound reached (every value within it of the optimum), the states whose
    action is the converged one, and the cells of the figure agreeing with the paper.
    Section 4 reports "approximately 1100 iterations" and no stopping rule.
    ``iterations``: whole numbers in [1, 10**6] (:data:`hpcmodels.bounds.MAX_ITERATIONS`);
    ``truncation`` one in [1, 1000]."""
    iterations = check_ints("iterations", iterations, minimum=1, maximum=MAX_ITERATIONS)
    truncation = check_truncation(truncation)
    experiment, x1, paper = PAPER_TABLES[figure]
    mdp = model(truncation, **experiment)
    converged = value_iteration(mdp)
    rows = []
    for cap in (*iterations, None):
        sol = converged if cap is None else value_iteration(mdp, max_iter=cap)
        table = sol.policy_table(x1, paper.shape[0], paper.shape[1] - 1).to_numpy()
        rows.append(
            {
                "iterations": sol.iterations,
                "converged": sol.converged,
                "bound": sol.bound,
                "states": sol.n_states,
                "same_policy": int((sol.policy == converged.policy).sum()),
                "agree_with_paper": int((table == paper).sum()),
                "cells": paper.size,
            }
        )
    return pd.DataFrame(rows)


def quadrant(figure: str, truncation: int) -> tuple[int, int, int]:
    """The states past the printed window that the figure's sentence speaks of: rows
    ``q1 = first_q1 .. last``, columns ``q2 = first_q2 .. last`` (``last`` = 30, the
    paper's Delta, or the truncation if smaller)."""
    paper = PAPER_TABLES[figure][2]
    last = min(30, truncation)
    return paper.shape[0] + 1, paper.shape[1], last


def beyond_window(figure: str, truncations: Sequence[int] = (30, 60)) -> pd.DataFrame:
    """The states past the printed window of Fig. 2, 3 or 4 that the paper says keep the
    table's policy (:data:`BEYOND_WINDOW`: both queues beyond the last printed row and
    column, up to 30): at each Delta, how many there are, how many take the action of
    the printed corner cell, and where the others lie. The same states (q1, q2 <= 30)
    at every Delta, so a larger Delta shows what the truncation does to them.
    ``truncations``: whole numbers in [1, 1000]."""
    truncations = check_ints("truncations", truncations, minimum=1, maximum=MAX_TRUNCATION)
    experiment, x1, paper = PAPER_TABLES[figure]
    corner = int(paper[-1, -1])
    rows = []
    for d in truncations:
        first_q1, first_q2, last = quadrant(figure, d)
        sol = solve(model(d, **experiment))
        table = sol.policy_table(x1, last, last).loc[first_q1:, first_q2:]
        differ = table.to_numpy() != corner
        q1s, q2s = np.nonzero(differ)
        rows.append(
            {
                "Delta": d,
                "states": table.size,
                "corner_action": corner,
                "ours_corner": int(sol.action((paper.shape[0], paper.shape[1] - 1, 2, x1, 0, 0))),
                "agree": int(table.size - differ.sum()),
                "min_q1_differing": int(table.index[q1s].min()) if len(q1s) else None,
                "min_q2_differing": int(table.columns[q2s].min()) if len(q2s) else None,
            }
        )
    frame = pd.DataFrame(rows)
    frame.attrs["figure"] = figure
    return frame


def coallocation_extent(
    points: Sequence[Mapping], truncation: int = 30, window: tuple[int, int] = WINDOW
) -> pd.DataFrame:
    """How much the optimal policy co-allocates at each parameter point: the states of
    the window ``q1 <= window[0], q2 <= window[1]`` (head job of two nodes, no 2-node or
    co-allocated job running, as in Figs. 2-4) where it co-allocates, for x1 = 0 and
    x1 = 1, and where the heuristic does (x1 = 1). Section 5 judges how beneficial
    co-allocation is by this extent ("it is fully employed when x1 = 1").
    ``truncation`` is a whole number in [1, 1000]; ``window`` two whole numbers in [0,
    1000] (queue lengths; beyond Delta it takes every state)."""
    truncation = check_truncation(truncation)
    window = tuple(check_ints("window", window, minimum=0, maximum=MAX_TRUNCATION))
    if len(window) != 2:
        raise InvalidParameter(f"window must be two whole numbers (q1, q2), got {window!r:.80}")
    rows = []
    for point in points:
        mdp = model(truncation, **point)
        sol = solve(mdp)
        heuristic = heuristic_actions(mdp)
        q1, q2, g, x1, x2, x11 = mdp.states.T
        in_window = (
            (q1 >= 1) & (q1 <= window[0]) & (q2 <= window[1]) & (g == 2) & (x2 == 0) & (x11 == 0)
        )
        rows.append(
            {
                **point,
                "optimal_x1_0": int(sol.policy[in_window & (x1 == 0)].sum()),
                "optimal_x1_1": int(sol.policy[in_window & (x1 == 1)].sum()),
                "heuristic_x1_1": int(heuristic[in_window & (x1 == 1)].sum()),
            }
        )
    frame = pd.DataFrame(rows)
    frame["optimal"] = frame["optimal_x1_0"] + frame["optimal_x1_1"]
    return frame


def coallocation_threshold(
    rho: float = 0.8,
    mu3_grid: Sequence[float] = tuple(np.round(np.arange(0.30, 0.71, 0.01), 2)),
    truncation: int = 30,
) -> float:
    """Smallest mu3 on the grid at which the optimal policy co-allocates anywhere
    (Fig. 8's threshold theta). ``truncation`` is a whole number in [1, 1000]."""
    truncation = check_truncation(truncation)
    values = None  # each point warm-starts from the previous one (same state space)
    for mu3 in mu3_grid:
        solution = solve(model(truncation, rho=rho, mu3=float(mu3)), start=values)
        if solution.policy.any():
            return float(mu3)
        values = solution.values
    return float("nan")
