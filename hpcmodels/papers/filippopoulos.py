"""Filippopoulos & Karatza: the published policy tables and statements, and the
functions that rebuild each figure with ``hpcmodels.mdp`` and check each statement.

Experiments (Sections 5-6), all with mu1 = mu2 = 1, beta = 0.05, Delta = 30 unless said:

* Fig. 2: rho1 = rho2 = 0.8, p = 0.6, mu3 = 0.7, c1 = 2, c2 = 1; policy for x1 = 1
  (for x1 = 0 the paper reports "never co-allocate").
* Figs. 3-4: rho1 = rho2 = 0.9, p = 0.8, mu3 = 0.8; policy for x1 = 0 and x1 = 1.
* Fig. 5 (and 6, the % reduction): average cost of the optimal, heuristic and local
  policies for loads 0.5-0.9 (Fig. 2's other parameters); Fig. 7: equal costs
  c1 = c2 = 1, loads 0.5-0.83; Fig. 8: mu3 = 0.4-0.8 at load 0.8; Fig. 9: p = 0.2-0.8 at
  load 0.8. The paper simulates 2,000,000 completions x 60 replications per point; the
  figures' numbers are not in the text, so those items are checked through the claims.

The module goes from the published data (tables, printed numbers, quoted statements)
to build functions returning frames (``policy_comparison``, ``truncation_study``,
``stopping_study``, ``reading_study``, ``beyond_window``, ``coallocation_extent``,
``policy_costs``) and from those frames to report rows (``*_rows``, ``*_claims``).
Every tolerance is a kind of :mod:`hpcmodels.papers.report`; "close" is its
:func:`~hpcmodels.papers.report.alike`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..errors import InvalidParameter
from ..mdp import CoallocationMDP, solve
from ..mdp.simulate import simulate_policy, summarize_runs
from ..sweep import raise_failures, sweep
from .report import alike, claim, compare_claim, compare_value, fmt_series

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
BEYOND_WINDOW = {  # each table's sentence on the states past its last row and column
    "Fig. 2": "It remains the same for states 16 <= q1, q2 <= 30.",
    "Fig. 3": "It remains the same for values 6 < q1, q2 <= 30.",
    "Fig. 4": "It does not change for 6 < q1 <= Delta, 10 < q2 <= Delta.",
}
PAPER_STATES = "11346"  # Section 4: "We choose Delta = 30 which yields 11346 states."
PAPER_ITERATIONS = "1100"  # Section 4: "approximately 1100 iterations to converge"
PAPER_THETA = "0.4"  # Section 6, Fig. 8: "The value of theta = 0.4 seems to be ..."
FIG8_QUOTES = {  # Section 6 on Fig. 8
    "beneficial": "It is obvious that co-allocation is beneficial for mu3 >= 0.4.",
    "very well": "Our heuristic policy performs very well when mu3 >= 0.5.",
    "fails": "However, it fails to detect the fact at service rates mu3 < 0.4, jobs need not "
    "be co-allocated.",
}
LOADS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9)
EQUAL_COST_LOADS = (0.5, 0.6, 0.7, 0.8, 0.83)
MU3S = (0.4, 0.5, 0.6, 0.7, 0.8)
PS = (0.2, 0.4, 0.6, 0.8)
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


def model(truncation: int = 30, **params) -> CoallocationMDP:
    """A model of the paper: Fig. 2's parameters unless overridden (``rho`` sets both loads)."""
    settings = dict(EXPERIMENT_1, mu1=1.0, mu2=1.0, c1=2.0, c2=1.0, beta=0.05)
    rho = params.pop("rho", None)
    if rho is not None:
        settings.update(rho1=rho, rho2=rho)
    settings.update(params)
    return CoallocationMDP.from_loads(truncation=truncation, **settings)


def heuristic_actions(mdp: CoallocationMDP) -> np.ndarray:
    """Section 6's "p c1 q1 > c2 q2 - best pack" heuristic as one action per state:
    co-allocate where it is allowed, ``x1 = 1`` and ``p c1 q1 > c2 q2`` (the rule
    :func:`hpcmodels.mdp.simulate.simulate_policy` applies as ``"heuristic"``). Its
    rule does not involve mu3."""
    q1, q2, _, x1, _, _ = mdp.states.T
    return (mdp.can_coallocate & (x1 == 1) & (mdp.p * mdp.c1 * q1 > mdp.c2 * q2)).astype(np.int8)


# ------------------------------------------------------------------ build functions


def policy_comparison(figure: str, truncation: int = 30) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Our policy table next to the paper's for Fig. 2, 3 or 4: (ours, cell-wise
    difference ours - paper)."""
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
    paper and with the largest Delta, iterations, seconds and the certified bound."""
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
    Section 4 reports "approximately 1100 iterations" and no stopping rule."""
    from ..mdp import value_iteration

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


def _quadrant(figure: str, truncation: int) -> tuple[int, int, int]:
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
    at every Delta, so a larger Delta shows what the truncation does to them."""
    experiment, x1, paper = PAPER_TABLES[figure]
    corner = int(paper[-1, -1])
    rows = []
    for d in truncations:
        first_q1, first_q2, last = _quadrant(figure, d)
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
    co-allocation is by this extent ("it is fully employed when x1 = 1")."""
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


POLICIES = ("optimal", "heuristic", "local")


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
    half-width. The optimal policy is solved here (a few tens of ms at Delta = 30)."""
    mdp = model(truncation, **point)
    chosen = solve(mdp) if policy == "optimal" else policy
    runs = simulate_policy(
        mdp,
        chosen,
        completions=completions,
        replications=replications,
        seed=seed,
        truncated=truncated,
    )
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
    both."""
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


def coallocation_threshold(
    rho: float = 0.8,
    mu3_grid: Sequence[float] = tuple(np.round(np.arange(0.30, 0.71, 0.01), 2)),
    truncation: int = 30,
) -> float:
    """Smallest mu3 on the grid at which the optimal policy co-allocates anywhere
    (Fig. 8's threshold theta)."""
    values = None  # each point warm-starts from the previous one (same state space)
    for mu3 in mu3_grid:
        solution = solve(model(truncation, rho=rho, mu3=float(mu3)), start=values)
        if solution.policy.any():
            return float(mu3)
        values = solution.values
    return float("nan")


# ------------------------------------------------------------------ rows: Sections 4-5


def policy_rows(
    figure: str,
    truncation: int = 30,
    comparison=None,
    *,
    readings: pd.DataFrame | None = None,
    stopping: pd.DataFrame | None = None,
    study: pd.DataFrame | None = None,
) -> list[dict]:
    """Report row: cells of Fig. 2, 3 or 4 agreeing with the paper (a count: exact only
    when all agree). ``comparison`` is :func:`policy_comparison`'s result, if already
    computed; the studies, when given, add their measurements to the cause:
    ``readings`` (:func:`reading_study`), ``stopping`` (:func:`stopping_study` of this
    figure) and ``study`` (:func:`truncation_study` of this figure)."""
    ours, diff = comparison or policy_comparison(figure, truncation)
    cells = diff.size
    wrong = [(q1, q2) for q1 in diff.index for q2 in diff.columns if diff.loc[q1, q2] != 0]
    agree = cells - len(wrong)
    where = ", ".join(f"(q1={a}, q2={b}: ours {ours.loc[a, b]})" for a, b in wrong[:12])
    parts = [f"{len(wrong)} cells differ: {where}" + (" ..." if len(wrong) > 12 else "")]
    if stopping is not None:
        capped = stopping[~stopping["converged"]]
        parts.append(
            "value iteration stopped after "
            + ", ".join(f"{r.iterations:,}" for r in capped.itertuples())
            + " iterations agrees in "
            + ", ".join(str(r.agree_with_paper) for r in capped.itertuples())
            + f" cells (converged: {stopping['agree_with_paper'].iloc[-1]})"
        )
    if study is not None:
        parts.append(
            "cells agreeing by Delta: "
            + ", ".join(f"{r.Delta}: {r.agree_with_paper}" for r in study.itertuples())
        )
    if readings is not None:
        r = readings.set_index("figure").loc[figure]
        parts.append(
            f"the post-action reading of the self-transition agrees in {r['agree (post_action)']}"
        )
    return [
        compare_value(
            figure,
            f"policy cells agreeing with the paper (of {cells}), Delta = {truncation}",
            str(cells),
            float(agree),
            kind="count",
            other_input="" if truncation == 30 else f"Delta = {truncation}",
            cause="; ".join(parts),
        )
    ]


def _states(truncation: int) -> int:
    return int(model(truncation).n_states)


def complexity_rows(stopping: pd.DataFrame, truncation: int = 30) -> list[dict]:
    """Section 4's numbers: the states of the Delta = 30 model ("11346") and the
    iterations of successive approximation ("approximately 1100"), from a
    :func:`stopping_study` (its last row is our converged run)."""
    other = "" if truncation == 30 else f"Delta = {truncation}"
    states = compare_value(
        "Sec. 4",
        "states of the truncated model, 6 (Delta + 1)(2 Delta + 1)",
        PAPER_STATES,
        float(_states(truncation)),
        kind="count",
        other_input=other,
        cause=f"our state space at Delta = {truncation}",
        note='Sec. 4: "We choose Delta = 30 which yields 11346 states."',
    )
    final = stopping.iloc[-1]
    at = stopping[stopping["iterations"] == int(PAPER_ITERATIONS)]
    cause = (
        f"our stopping rule (the MacQueen bound certifying every value within "
        f"{final['bound']:.1g} of the optimum) needs {int(final['iterations']):,}"
    )
    if len(at):
        r = at.iloc[0]
        cause += (
            f"; stopped after {int(r['iterations']):,} iterations, ours certifies every "
            f"value within {r['bound']:.2g} and its policy is the converged one in "
            f"{int(r['same_policy']):,} of {int(r['states']):,} states"
        )
    iterations = compare_value(
        "Sec. 4",
        "successive-approximation iterations to converge, "
        "Delta = 30, beta = 0.05 (Fig. 2's parameters, from J = 0)",
        PAPER_ITERATIONS,
        float(final["iterations"]),
        kind="approximate",
        other_input=other,
        cause=cause,
        note='Sec. 4: "the algorithm needed approximately 1100 '
        'iterations to converge"; the paper gives neither its initial '
        "guess nor its stopping rule",
    )
    return [states, iterations]


def beyond_window_rows(frames: Mapping[str, pd.DataFrame]) -> list[dict]:
    """Figs. 2-4's sentences on the states past the printed window, from
    :func:`beyond_window` frames (figure: frame): the claim holds when, at the paper's
    Delta = 30, every such state takes the action of the printed corner cell."""
    rows = []
    for figure, frame in frames.items():
        frame = frame.sort_values("Delta")
        first_q1, first_q2, _ = _quadrant(figure, 30)
        at = frame[frame["Delta"] == 30]
        if at.empty:
            raise InvalidParameter(
                f"the {figure} frame needs Delta = 30, got {list(frame['Delta'])}"
            )
        r = at.iloc[0]
        corner = int(r["corner_action"])

        def said(row) -> str:
            text = f"Delta = {row.Delta}: {row.agree} of {row.states}"
            if row.agree < row.states:
                text += (
                    f" (the others at q1 >= {int(row.min_q1_differing)}, "
                    f"q2 >= {int(row.min_q2_differing)})"
                )
            return text

        ours = f"states taking the printed corner action ({corner}): " + "; ".join(
            said(row) for row in frame.itertuples()
        )
        larger = frame[frame["Delta"] > 30]
        cause = ""
        if r["agree"] < r["states"] and len(larger):
            big = larger.iloc[-1]
            if big["agree"] == big["states"]:
                cause = (
                    f"the truncation's boundary (arrivals to a full queue are lost): at "
                    f"Delta = {int(big['Delta'])} all {int(big['states'])} states take action {corner}"
                )
            else:
                cause = (
                    f"not the truncation: at Delta = {int(big['Delta'])}, "
                    f"{int(big['agree'])} of {int(big['states'])}; our corner cell is "
                    f"{int(r['ours_corner'])} where the paper prints {corner}"
                )
        quantity = (
            f"policy past the printed window (q1 >= {first_q1}, q2 >= {first_q2}, "
            "up to 30) is the printed corner's action, Delta = 30"
        )
        rows.append(
            compare_claim(
                figure,
                quantity,
                BEYOND_WINDOW[figure],
                bool(r["agree"] == r["states"]),
                ours,
                cause=cause,
            )
        )
    return rows


def policy_claims(truncation: int = 30, larger: int = 60) -> list[dict]:
    """Section 5's statements about the x1 = 0 policies, over q1, q2 <= 30; a
    differing claim is measured again at Delta = ``larger``."""
    x0 = solve(model(truncation, **EXPERIMENT_1)).policy_table(0, 30, 30)

    def rule_cells(d: int) -> pd.DataFrame:
        fig3 = solve(model(d, **EXPERIMENT_2)).policy_table(0, 30, 30)
        only = fig3.copy()
        only.loc[:, :] = 0
        only.loc[4:, 0] = 1
        return fig3 != only

    def where(wrong: pd.DataFrame, d: int) -> str:
        cells = [(a, b) for a in wrong.index for b in wrong.columns if wrong.loc[a, b]]
        window = [c for c in cells if c[0] <= 6 and c[1] <= 6]
        edge = [c for c in cells if c not in window]
        text = (
            f"Delta = {d}: {len(cells)} of {wrong.size} cells (q1, q2 <= 30) differ from the rule"
        )
        if window:
            text += ", in the printed window " + ", ".join(f"(q1={a}, q2={b})" for a, b in window)
        if edge:
            text += (
                f"; {len(edge)} outside it, all with max(q1, q2) >= "
                f"{min(max(a, b) for a, b in edge)}"
            )
        return text

    wrong = rule_cells(truncation)
    holds = not wrong.to_numpy().any()
    cause = "" if holds else where(rule_cells(larger), larger)
    return [
        claim(
            "Fig. 2",
            "with both nodes of cluster 1 free (x1 = 0) the optimum never co-allocates",
            x0.to_numpy().sum() == 0,
            f"{int(x0.to_numpy().sum())} co-allocating cells over q1, q2 <= 30",
        ),
        claim(
            "Fig. 3",
            "heavy load, x1 = 0: co-allocate only when q2 = 0 and q1 > 3",
            holds,
            where(wrong, truncation),
            cause=cause,
        ),
    ]


def _rises(values: pd.Series) -> bool:
    """Never falls, and ends higher than it starts (a count that grows with x)."""
    v = values.to_numpy(dtype=float)
    return bool(np.all(np.diff(v) >= 0) and v[-1] > v[0])


def extent_claims(loads: pd.DataFrame, mu3s: pd.DataFrame, steps: pd.DataFrame) -> list[dict]:
    """Section 5's two inferences from Figs. 2-4, measured the way it argues (how much
    the optimum co-allocates, :func:`coallocation_extent`), one parameter varied at a
    time: ``loads`` over the load (Fig. 2's mu3 and p), ``mu3s`` over mu3 (load 0.8),
    ``steps`` over :data:`EXPERIMENT_STEPS` (from Fig. 2's experiment to Figs. 3-4's)."""
    by_load = loads.set_index("rho")["optimal"]
    by_mu3 = mu3s.set_index("mu3")["optimal"]
    step = steps.assign(step=[s for s, _ in EXPERIMENT_STEPS][: len(steps)])
    path = "; ".join(
        f"{r.step}: {r.optimal_x1_1} (x1 = 1), {r.optimal_x1_0} (x1 = 0)" for r in step.itertuples()
    )
    window = f"co-allocating states of the optimum, q1, q2 <= {WINDOW[0]}"
    return [
        compare_claim(
            "Sec. 5",
            "co-allocation is used more as mu3 rises (load 0.8, Fig. 8's mu3)",
            "Furthermore, co-allocating parallel jobs is more advantageous as the "
            "service rate of co-allocated jobs increases.",
            _rises(by_mu3),
            f"{window}, by mu3: {fmt_series(by_mu3)}",
            cause=f"the count does not grow with mu3: {fmt_series(by_mu3)}",
        ),
        compare_claim(
            "Sec. 5",
            "co-allocation is used more as the load rises (mu3 = 0.7, p = 0.6, Fig. 5's loads)",
            "This indicates that co-allocation under high load conditions becomes more beneficial",
            _rises(by_load),
            f"{window}, by load: {fmt_series(by_load)}",
            cause="the paper compares Fig. 2 (load 0.8) with Figs. 3-4 (load 0.9), "
            "where mu3 and p change too; from one to the other, one parameter at a "
            f"time, co-allocating states: {path}",
        ),
    ]


# ------------------------------------------------------------------ rows: Section 6


SIM_CLAIMS = {  # Section 6's statements on Figs. 5-9 as report rows name them: (item, quantity)
    "fig5 close": ("Fig. 5", "the heuristic is close to optimal (within 5 %) at loads <= 0.8"),
    "fig5 behind": ("Fig. 5", "the heuristic falls behind the optimum at loads > 0.85"),
    "fig5 beats local": ("Fig. 5", "the heuristic beats the local policy at every load"),
    "fig6 grows": ("Fig. 6", "the reduction of optimal over local grows with the load"),
    "fig7 close": ("Fig. 7", "with equal costs the heuristic stays close to optimal"),
    "fig8 beneficial": ("Fig. 8", "co-allocation is beneficial above mu3 = 0.4 (at Fig. 8's "
                        "points 0.5-0.8 the optimum co-allocates and costs less than the local "
                        "policy)"),
    "fig8 very well": ("Fig. 8", "the heuristic performs very well when mu3 >= 0.5 (read at "
                       "its weakest: it costs less than the local policy)"),
    "fig8 close": ("Fig. 8", "the heuristic is close to optimal for mu3 >= 0.6"),
    "fig8 fails": ("Fig. 8", "at mu3 = 0.4 the heuristic fails to detect that jobs need not "
                   "be co-allocated (it costs more than the local policy = the optimum)"),
    "fig9 close": ("Fig. 9", "the heuristic is close to optimal for every p"),
    "fig9 balanced": ("Fig. 9", "costs are higher when the two job types are balanced"),
}  # fmt: skip
"""The simulated statements (quick rows: :func:`simulation_claims`, :func:`fig8_claims`;
paper scale: :func:`ensemble_rows`), one wording for both."""


def _pivot(df: pd.DataFrame, x: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    return (
        df.pivot(index=x, columns="policy", values="average_cost"),
        df.pivot(index=x, columns="policy", values="ci"),
    )


def _close(cost: pd.DataFrame, ci: pd.DataFrame, a: str, b: str) -> pd.Series:
    """Whether policy ``a``'s cost is "close" to policy ``b``'s at each point: the
    project's one meaning of close (:func:`~hpcmodels.papers.report.alike`: within 5 %,
    or the two 95 % confidence intervals overlap)."""
    return pd.Series(
        {k: alike([cost.at[k, a], cost.at[k, b]], [ci.at[k, a], ci.at[k, b]]) for k in cost.index},
        dtype=bool,
    )


def _gap(cost: pd.DataFrame, ci: pd.DataFrame, where, name: str) -> str:
    """The heuristic's excess over the optimum at the points ``where`` (a measurement)."""
    return "; ".join(
        f"{name} = {k:g}: heuristic {cost.at[k, 'heuristic']:.2f} +- "
        f"{ci.at[k, 'heuristic']:.2f}, optimal {cost.at[k, 'optimal']:.2f} +- "
        f"{ci.at[k, 'optimal']:.2f} "
        f"({100 * (cost.at[k, 'heuristic'] / cost.at[k, 'optimal'] - 1):+.1f} %)"
        for k in cost.index[where]
    )


_UNEXPLAINED = "beyond 5 % and the 95 % intervals; cause not identified"
_PAIRED = "point estimates (the policies' runs at a point share their seeds: common random numbers)"


def simulation_claims(
    fig5: pd.DataFrame,
    fig7: pd.DataFrame,
    fig8: pd.DataFrame,
    fig9: pd.DataFrame,
    threshold: float,
    extent_loads: pd.DataFrame,
    extent_mu3: pd.DataFrame,
) -> list[dict]:
    """Section 6's statements about Figs. 5-9, from :func:`policy_costs` frames, the
    threshold of :func:`coallocation_threshold` and the :func:`coallocation_extent`
    frames over Fig. 5's loads and Fig. 8's mu3."""
    c5, ci5 = _pivot(fig5, "rho")
    reduction = 100 * (1 - c5["optimal"] / c5["local"])
    close5 = _close(c5, ci5, "heuristic", "optimal")
    moderate = c5.index <= 0.8
    behind = ~close5 & (c5["heuristic"] > c5["optimal"])
    c7, ci7 = _pivot(fig7, "rho")
    close7 = _close(c7, ci7, "heuristic", "optimal")
    c9, ci9 = _pivot(fig9, "p")
    close9 = _close(c9, ci9, "heuristic", "optimal")
    beats = c5["heuristic"] < c5["local"]
    peak = reduction.idxmax()
    extent = extent_loads.set_index("rho")["optimal"]
    return [
        claim(
            *SIM_CLAIMS["fig5 close"],
            close5[moderate].all(),
            fmt_series(close5),
            cause=_gap(c5, ci5, moderate & ~close5.to_numpy(), "rho") + f": {_UNEXPLAINED}",
        ),
        claim(
            *SIM_CLAIMS["fig5 behind"],
            behind[c5.index > 0.85].all(),
            fmt_series((c5["heuristic"] - c5["optimal"]).round(2)),
            cause="the heuristic is close to optimal at "
            + ", ".join(f"{k:g}" for k in c5.index[(c5.index > 0.85) & ~behind.to_numpy()]),
        ),
        claim(
            *SIM_CLAIMS["fig5 beats local"],
            beats.all(),
            fmt_series((c5["local"] - c5["heuristic"]).round(2)),
            cause="; ".join(
                f"rho = {k:g}: heuristic {c5.at[k, 'heuristic']:.2f}, local {c5.at[k, 'local']:.2f}"
                for k in c5.index[~beats.to_numpy()]
            )
            + "; cause not identified",
        ),
        claim(
            *SIM_CLAIMS["fig6 grows"],
            bool(np.all(np.diff(reduction.to_numpy()) > 0)),
            fmt_series(reduction.round(1)),
            cause=f"the reduction peaks at rho = {peak:g} ({reduction[peak]:.1f} %) and falls "
            f"to {reduction.iloc[-1]:.1f} % at rho = {reduction.index[-1]:g}; the optimum "
            f"co-allocates in fewer window states as the load rises ({fmt_series(extent)}; "
            "Sec. 5 row)",
        ),
        claim(
            *SIM_CLAIMS["fig7 close"],
            close7.all(),
            fmt_series((c7["heuristic"] - c7["optimal"]).round(2)),
            cause=_gap(c7, ci7, ~close7.to_numpy(), "rho") + f": {_UNEXPLAINED}",
        ),
        *fig8_claims(fig8, threshold, extent_mu3),
        claim(
            *SIM_CLAIMS["fig9 close"],
            close9.all(),
            fmt_series((c9["heuristic"] - c9["optimal"]).round(2)),
            cause=_gap(c9, ci9, ~close9.to_numpy(), "p") + f": {_UNEXPLAINED}",
        ),
        claim(
            *SIM_CLAIMS["fig9 balanced"],
            c9["optimal"].idxmax() not in (min(c9.index), max(c9.index)),
            fmt_series(c9["optimal"].round(2)),
            cause=f"the optimal cost is highest at p = {c9['optimal'].idxmax():g}",
        ),
    ]


def fig8_claims(fig8: pd.DataFrame, threshold: float, extent: pd.DataFrame) -> list[dict]:
    """Section 6's statements about Fig. 8 (mu3 = 0.4-0.8 at load 0.8): the threshold
    theta (the smallest mu3, grid step 0.01, at which the optimum co-allocates
    anywhere), where co-allocation pays, and how the heuristic does."""
    c8, ci8 = _pivot(fig8, "mu3")
    close8 = _close(c8, ci8, "heuristic", "optimal")
    pays = c8.index > 0.4
    lowest = c8.index.min()
    high = c8.index >= 0.6
    ext = extent.set_index("mu3")
    bracket = 0.4 < threshold <= 0.5
    beneficial = threshold <= 0.5 and bool((c8["optimal"] < c8["local"])[pays].all())
    better = c8["heuristic"] < c8["local"]
    worse_than_local = pays & ~better.to_numpy()
    fails_low = (not close8[lowest]) and c8.at[lowest, "heuristic"] > c8.at[lowest, "local"]
    heuristic_states = "; ".join(
        f"{k:g}: {ext.at[k, 'heuristic_x1_1']} vs {ext.at[k, 'optimal_x1_1']}" for k in ext.index
    )
    return [
        claim(
            "Fig. 8",
            "co-allocation never pays for mu3 <= 0.4 (optimal = local)",
            threshold > 0.4,
            f"the optimal policy first co-allocates at mu3 = {threshold:g}",
            cause=f"the Delta = 30 optimum co-allocates already at mu3 = {threshold:g}",
        ),
        compare_value(
            "Fig. 8",
            "threshold theta on mu3 below which optimal = local",
            PAPER_THETA,
            threshold,
            kind="approximate",
            note="smallest mu3 (grid step 0.01) at which the Delta = 30 optimum "
            "co-allocates in any state",
            cause="the paper's theta is read on Fig. 8's points (step 0.1): "
            + (
                "ours lies in the same bracket, optimal = local at 0.4 and not at 0.5"
                if bracket
                else f"ours ({threshold:g}) is outside (0.4, 0.5]"
            ),
        ),
        compare_claim(
            *SIM_CLAIMS["fig8 beneficial"],
            FIG8_QUOTES["beneficial"],
            beneficial,
            "optimal - local: " + fmt_series((c8["optimal"] - c8["local"]).round(2)),
            cause=f"the optimum first co-allocates at mu3 = {threshold:g}; optimal - local: "
            + fmt_series((c8["optimal"] - c8["local"]).round(2)),
            note=_PAIRED,
        ),
        compare_claim(
            *SIM_CLAIMS["fig8 very well"],
            FIG8_QUOTES["very well"],
            bool(better[c8.index >= 0.5].all()),
            "local - heuristic: " + fmt_series((c8["local"] - c8["heuristic"]).round(2)),
            cause="; ".join(
                f"mu3 = {k:g}: heuristic {c8.at[k, 'heuristic']:.2f}, local {c8.at[k, 'local']:.2f}"
                for k in c8.index[worse_than_local]
            )
            + "; the heuristic's rule ignores mu3: co-allocating window states (x1 = 1), "
            f"heuristic vs optimum, by mu3: {heuristic_states}",
            note=_PAIRED,
        ),
        claim(
            *SIM_CLAIMS["fig8 close"],
            close8[high].all(),
            fmt_series((c8["heuristic"] - c8["optimal"]).round(2)),
            cause=_gap(c8, ci8, high & ~close8.to_numpy(), "mu3") + f": {_UNEXPLAINED}",
        ),
        compare_claim(
            *SIM_CLAIMS["fig8 fails"],
            FIG8_QUOTES["fails"],
            bool(fails_low),
            f"mu3 = {lowest:g}: heuristic {c8.at[lowest, 'heuristic']:.2f} +- "
            f"{ci8.at[lowest, 'heuristic']:.2f}, local {c8.at[lowest, 'local']:.2f} +- "
            f"{ci8.at[lowest, 'local']:.2f}",
            cause="the heuristic's cost is close to (or below) the local policy's there",
        ),
    ]


# ------------------------------------------------------------------ paper-scale ensembles

ENSEMBLE_COMPLETIONS = 2_000_000  # Section 6: "2.000.000 jobs completions were simulated"
ENSEMBLE_REPLICATES = 60  # "a 95% confidence interval was computed by 60 independent replications"
ENSEMBLE_SEED = 0  # replicate r runs on stream r of SeedSequence(0), as the notebook's runs
SIM_FIGURES = {  # figure: (the varied parameter, its points), Section 6
    "Fig. 5": ("rho", [{"rho": r} for r in LOADS]),
    "Fig. 7": ("rho", [{"rho": r, "c1": 1.0, "c2": 1.0} for r in EQUAL_COST_LOADS]),
    "Fig. 8": ("mu3", [{"rho": 0.8, "mu3": m} for m in MU3S]),
    "Fig. 9": ("p", [{"rho": 0.8, "p": p} for p in PS]),
}
"""Figs. 5 and 7-9's parameter points (Fig. 6 is Fig. 5's runs); every other parameter
is Fig. 2's (mu3 = 0.7, p = 0.6, c1 = 2, c2 = 1)."""


def _full(point: Mapping) -> dict:
    """A figure point with every parameter the simulation takes (Fig. 2's by default)."""
    full = {"rho": 0.8, "mu3": EXPERIMENT_1["mu3"], "p": EXPERIMENT_1["p"], "c1": 2.0, "c2": 1.0}
    full.update({k: float(v) for k, v in point.items()})
    return full


def ensemble_key(figure: str, policy: str, x: str, value: float) -> str:
    """The store's item key of one policy's run at one point of a figure."""
    return f"{figure} | {policy} average cost at {x} = {value:g}"


def ensemble_points(
    replicates: int = ENSEMBLE_REPLICATES, completions: int = ENSEMBLE_COMPLETIONS
) -> list[dict]:
    """Figs. 5 and 7-9 at the paper's scale (Section 6): every point of
    :data:`SIM_FIGURES`, ``replicates`` single runs of ``completions`` job completions
    each (the paper: 60 replications of 2,000,000), the truncated chain at Delta = 30 as
    in the notebook. One point is one replicate of all three policies: the same random
    numbers for each (common random numbers), so they are compared run by run."""
    return [
        {
            "figure": figure,
            **_full(point),
            "completions": int(completions),
            "truncation": 30,
            "replicate": r,
        }
        for r in range(replicates)
        for figure, (_, points) in SIM_FIGURES.items()
        for point in points
    ]


_SOLVED: dict[tuple, object] = {}


def _optimal(mdp: CoallocationMDP, key: tuple):
    """The optimal policy of ``mdp`` (kept per process: a Dask worker solves each
    parameter point once for its 60 replicates)."""
    if key not in _SOLVED:
        _SOLVED[key] = solve(mdp)
    return _SOLVED[key]


def ensemble_point(
    figure: str,
    rho: float,
    mu3: float,
    p: float,
    c1: float,
    c2: float,
    completions: int,
    truncation: int,
    replicate: int,
) -> dict[str, float]:
    """One replicate at one point of ``figure``: the average cost of the optimal,
    heuristic and local policies in one run each (warm-up 5 %), all three on random
    stream ``replicate`` of ``SeedSequence(ENSEMBLE_SEED)``: ``{item key: cost}``."""
    if figure not in SIM_FIGURES:
        raise InvalidParameter(f"unknown figure {figure!r}; choose one of {list(SIM_FIGURES)}")
    params = dict(rho=float(rho), mu3=float(mu3), p=float(p), c1=float(c1), c2=float(c2))
    x = SIM_FIGURES[figure][0]
    mdp = model(int(truncation), **params)
    out = {}
    solved = _optimal(mdp, (int(truncation), *params.values()))
    for policy in POLICIES:
        chosen = solved if policy == "optimal" else policy
        runs = simulate_policy(
            mdp,
            chosen,
            completions=int(completions),
            replications=1,
            seed=ENSEMBLE_SEED,
            truncated=True,
            first=int(replicate),
        )
        out[ensemble_key(figure, policy, x, params[x])] = float(runs["average_cost"].iloc[0])
    return out


def ensemble_cost(point: dict) -> float:
    """Relative cost of recomputing a point: events grow with the completions (and a
    little with the load, through lost arrivals at the truncation)."""
    return point["completions"] * (1 + point["rho"])


def ensemble_runs(store: pd.DataFrame, figure: str) -> dict[tuple[float, str], np.ndarray]:
    """The store's runs of ``figure``: ``{(x value, policy): costs in replicate order}``
    over :data:`SIM_FIGURES`'s points (a missing one is an error naming it)."""
    from .store import values

    x, points = SIM_FIGURES[figure]
    runs = {}
    for point in points:
        k = _full(point)[x]
        for policy in POLICIES:
            runs[k, policy] = values(store, ensemble_key(figure, policy, x, k))
    return runs


def ensemble_costs(store: pd.DataFrame) -> pd.DataFrame:
    """Every figure's point and policy at paper scale: the mean of the runs, its
    Student-t 95 % half-width (as the paper's interval over its 60 replications), the
    single-run range and the number of runs (:func:`policy_costs`'s columns, plus
    ``figure``, ``x``, ``low``, ``high``, ``replicates``)."""
    from .ensemble import summarize

    rows = []
    for figure, (x, _) in SIM_FIGURES.items():
        for (k, policy), costs in ensemble_runs(store, figure).items():
            s = summarize(costs)
            rows.append(
                {
                    "figure": figure,
                    "x": x,
                    x: k,
                    "policy": policy,
                    "average_cost": s.mean,
                    "ci": s.ci,
                    "low": s.low,
                    "high": s.high,
                    "replicates": s.n,
                }
            )
    return pd.DataFrame(rows)


def _paired_cells(cells, *, higher_is_better: bool = False) -> dict:
    """Each cell ``(label, a, b)``: "a beats b" on the paired runs
    (:func:`hpcmodels.papers.ensemble.paired_claim`). Returns the cells sorted into ``better``,
    ``unresolved`` (the paired 95 % CI contains 0) and ``reversed``, each a list of
    ``label (mean +- ci)`` texts, and ``text`` listing every cell."""
    from .ensemble import paired_claim

    out = {"better": [], "unresolved": [], "reversed": [], "all": [], "n": 0}
    for label, a, b in cells:
        r = paired_claim("", "", a, b, higher_is_better=higher_is_better)
        text = f"{label}: {r['mean']:+.3g} ± {r['ci']:.2g}"
        out["n"] = r["replicates"]
        out["all"].append(text)
        if r["verdict"] == "qualitative":
            out["better"].append(text)
        elif "contains 0" in r["reason"]:
            out["unresolved"].append(text)
        else:
            out["reversed"].append(text)
    return out


def _cells_cause(cells: dict, why: str = "cause not identified") -> str:
    parts = []
    if cells["reversed"]:
        parts.append("reversed on the paired runs at " + "; ".join(cells["reversed"]) + f": {why}")
    if cells["unresolved"]:
        parts.append(
            "the paired 95 % CI contains 0 at "
            + "; ".join(cells["unresolved"])
            + f": {cells['n']} runs cannot tell them apart"
        )
    return "; ".join(parts)


def _holds(cells: dict) -> bool:
    return not cells["reversed"] and not cells["unresolved"]


def _row(
    key: str,
    holds: bool,
    ours: str,
    *,
    cause: str = "",
    paper: str = "",
    replicates: int = 0,
    note: str = "",
) -> dict:
    """A paper-scale claim row under :data:`SIM_CLAIMS`'s item and quantity."""
    item, quantity = SIM_CLAIMS[key]
    row = compare_claim(
        item, quantity, paper or quantity, bool(holds), ours, cause=cause, note=note
    )
    row["replicates"] = replicates
    return row


def _close_at(runs: dict, ks, a: str = "heuristic", b: str = "optimal") -> tuple[dict, str]:
    """Whether ``a`` is "close" to ``b`` at each ``k`` (the report's one meaning,
    :func:`alike`, on the means of the runs and their 95 % half-widths) and the paired
    gap ``a - b`` at each, as text."""
    from .ensemble import summarize

    close, parts = {}, []
    for k in ks:
        sa, sb, d = summarize(runs[k, a]), summarize(runs[k, b]), summarize(runs[k, a] - runs[k, b])
        close[k] = alike([sa.mean, sb.mean], [sa.ci, sb.ci])
        parts.append(
            f"{k:g}: {d.mean:+.3g} ± {d.ci:.2g} ({100 * d.mean / sb.mean:+.1f} %"
            f"{'' if close[k] else ', not close'})"
        )
    return close, f"{a} - {b} on the paired runs: " + "; ".join(parts)


def _far(close: dict, ks) -> str:
    """The cause of a "close" claim that fails: where the gap is beyond both limits."""
    far = ", ".join(f"{k:g}" for k in ks if not close[k])
    return f"beyond 5 % and the 95 % intervals at {far}; cause not identified"


def ensemble_rows(store: pd.DataFrame) -> list[dict]:
    """Section 6's statements on Figs. 5-9 judged on the store (:mod:`hpcmodels.papers.ensemble`):
    the paper prints no number of these figures, so every row is a claim. "A beats B" holds
    when, at every point it speaks of, the paired differences of the same replicates have
    a 95 % interval on the claimed side of zero; "close" keeps the report's one meaning
    (:func:`alike`: within 5 %, or the 95 % intervals overlap) on the means of the runs.
    Fig. 8's threshold is the exact one (:func:`coallocation_threshold`)."""
    from .ensemble import summarize

    r5 = ensemble_runs(store, "Fig. 5")
    n = len(r5[LOADS[0], "optimal"])
    runs = f"{n} runs of {int(store['completions'].iloc[0]):,} completions per point"
    rows = []

    # Fig. 5: close at moderate load, behind above 0.85, better than local everywhere
    moderate = [k for k in LOADS if k <= 0.8]
    close5, gap5 = _close_at(r5, LOADS)
    rows.append(
        _row(
            "fig5 close",
            all(close5[k] for k in moderate),
            gap5,
            cause=_far(close5, moderate),
            replicates=n,
            note=runs,
        )
    )
    high = [k for k in LOADS if k > 0.85]
    behind = _paired_cells([(f"rho = {k:g}", r5[k, "optimal"], r5[k, "heuristic"]) for k in high])
    near = [f"the heuristic is close to optimal at rho = {k:g}" for k in high if close5[k]]
    cause = "; ".join(filter(None, [_cells_cause(behind), *near]))
    rows.append(
        _row(
            "fig5 behind",
            _holds(behind) and not any(close5[k] for k in high),
            "optimal - heuristic, paired: " + "; ".join(behind["all"]),
            cause=cause,
            replicates=n,
            note=runs,
        )
    )
    beats = _paired_cells([(f"rho = {k:g}", r5[k, "heuristic"], r5[k, "local"]) for k in LOADS])
    rows.append(
        _row(
            "fig5 beats local",
            _holds(beats),
            "heuristic - local, paired: " + "; ".join(beats["all"]),
            cause=_cells_cause(beats),
            replicates=n,
            note=runs,
        )
    )

    # Fig. 6: the reduction of optimal over local, per replicate, load after load
    red = {k: 100 * (1 - r5[k, "optimal"] / r5[k, "local"]) for k in LOADS}
    steps = _paired_cells(
        [(f"{a:g} -> {b:g}", red[b], red[a]) for a, b in zip(LOADS, LOADS[1:], strict=False)],
        higher_is_better=True,
    )
    per_load = "; ".join(
        f"{k:g}: {summarize(v).mean:.1f} ± {summarize(v).ci:.1f}" for k, v in red.items()
    )
    truncation = int(store["truncation"].iloc[0])
    extent = coallocation_extent([{"rho": k} for k in LOADS], truncation).set_index("rho")
    rows.append(
        _row(
            "fig6 grows",
            _holds(steps),
            f"% reduction 100 (1 - optimal/local) per run, by load: {per_load}; its "
            "change from load to load, paired: " + "; ".join(steps["all"]),
            cause=_cells_cause(
                steps,
                "the optimum co-allocates in fewer window states "
                "as the load rises (" + fmt_series(extent["optimal"]) + "; Sec. 5 row)",
            ),
            replicates=n,
            note=runs,
        )
    )

    # Fig. 7: equal costs
    r7 = ensemble_runs(store, "Fig. 7")
    close7, gap7 = _close_at(r7, EQUAL_COST_LOADS)
    rows.append(
        _row(
            "fig7 close",
            all(close7.values()),
            gap7,
            cause=_far(close7, EQUAL_COST_LOADS),
            replicates=n,
            note=runs,
        )
    )

    # Fig. 8: mu3 at load 0.8
    r8 = ensemble_runs(store, "Fig. 8")
    threshold = coallocation_threshold(0.8, truncation=truncation)
    ext8 = coallocation_extent([{"rho": 0.8, "mu3": k} for k in MU3S], truncation).set_index("mu3")
    states = "; ".join(
        f"{k:g}: {ext8.at[k, 'heuristic_x1_1']} vs {ext8.at[k, 'optimal_x1_1']}" for k in ext8.index
    )
    pays = [k for k in MU3S if k > 0.4]
    opt = _paired_cells([(f"mu3 = {k:g}", r8[k, "optimal"], r8[k, "local"]) for k in pays])
    rows.append(
        _row(
            "fig8 beneficial",
            threshold <= 0.5 and _holds(opt),
            f"the optimum first co-allocates at mu3 = {threshold:g}; optimal - local, "
            "paired: " + "; ".join(opt["all"]),
            paper=FIG8_QUOTES["beneficial"],
            cause=_cells_cause(opt) or f"the optimum first co-allocates at mu3 = {threshold:g}",
            replicates=n,
            note=runs,
        )
    )
    well = _paired_cells(
        [(f"mu3 = {k:g}", r8[k, "heuristic"], r8[k, "local"]) for k in MU3S if k >= 0.5]
    )
    rows.append(
        _row(
            "fig8 very well",
            _holds(well),
            "heuristic - local, paired: " + "; ".join(well["all"]),
            paper=FIG8_QUOTES["very well"],
            cause=_cells_cause(
                well,
                "the heuristic's rule p c1 q1 > c2 q2 ignores "
                "mu3: co-allocating window states (x1 = 1), heuristic "
                f"vs optimum, by mu3: {states}",
            ),
            replicates=n,
            note=runs,
        )
    )
    upper = [k for k in MU3S if k >= 0.6]
    close8, gap8 = _close_at(r8, MU3S)
    rows.append(
        _row(
            "fig8 close",
            all(close8[k] for k in upper),
            gap8,
            cause=_far(close8, upper),
            replicates=n,
            note=runs,
        )
    )
    low = min(MU3S)
    fails = _paired_cells([(f"mu3 = {low:g}", r8[low, "local"], r8[low, "heuristic"])])
    _, gap_low = _close_at(r8, [low])
    rows.append(
        _row(
            "fig8 fails",
            _holds(fails) and not close8[low],
            "local - heuristic, paired: " + "; ".join(fails["all"]) + f"; {gap_low}",
            paper=FIG8_QUOTES["fails"],
            cause=_cells_cause(fails) or "the heuristic is close to the optimum there",
            replicates=n,
            note=runs,
        )
    )

    # Fig. 9: p at load 0.8
    r9 = ensemble_runs(store, "Fig. 9")
    close9, gap9 = _close_at(r9, PS)
    rows.append(
        _row(
            "fig9 close",
            all(close9.values()),
            gap9,
            cause=_far(close9, PS),
            replicates=n,
            note=runs,
        )
    )
    means = {k: float(np.mean(r9[k, "optimal"])) for k in PS}
    top = max(means, key=means.get)
    ends = [k for k in (min(PS), max(PS)) if k != top]
    above = _paired_cells(
        [(f"p = {top:g} vs {k:g}", r9[top, "optimal"], r9[k, "optimal"]) for k in ends],
        higher_is_better=True,
    )
    interior = top not in (min(PS), max(PS))
    rows.append(
        _row(
            "fig9 balanced",
            interior and _holds(above),
            "optimal cost by p: "
            + "; ".join(
                f"{k:g}: {summarize(r9[k, 'optimal']).mean:.2f} ± "
                f"{summarize(r9[k, 'optimal']).ci:.2g}"
                for k in PS
            )
            + (
                f"; highest at p = {top:g}, above the ends, paired: " + "; ".join(above["all"])
                if interior
                else ""
            ),
            cause=_cells_cause(above)
            if interior
            else f"the optimal cost is highest at p = {top:g}, an end of the range",
            replicates=n,
            note=runs,
        )
    )
    return rows


def exact_check(costs: pd.DataFrame, truncation: int = 30) -> pd.DataFrame:
    """:func:`ensemble_costs`'s frame with each policy's exact long-run average cost on
    the truncated chain (:meth:`CoallocationMDP.average_cost`, from the stationary
    distribution) and ``z``: how many standard errors of the mean of the runs it lies
    from that value (a check of the simulation at paper scale)."""
    from scipy import stats

    exact = {}
    for figure, (x, points) in SIM_FIGURES.items():
        for point in points:
            params = _full(point)
            key = tuple(params.values())
            if key not in exact:
                mdp = model(truncation, **params)
                heuristic = heuristic_actions(mdp)
                exact[key] = {
                    "optimal": mdp.average_cost(_optimal(mdp, (truncation, *key)).policy),
                    "heuristic": mdp.average_cost(heuristic),
                    "local": mdp.average_cost(np.zeros_like(heuristic)),
                }
            exact[figure, params[x]] = exact[key]
    out = costs.copy()
    out["exact"] = [exact[r.figure, getattr(r, r.x)][r.policy] for r in out.itertuples()]
    se = out["ci"] / stats.t.ppf(0.975, out["replicates"] - 1)
    out["z"] = (out["average_cost"] - out["exact"]) / se
    return out
