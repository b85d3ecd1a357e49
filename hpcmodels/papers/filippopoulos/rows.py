"""Report rows: the policy tables, Section 4's numbers and Sections 5-6's statements
judged on the frames of :mod:`.policies` and :mod:`.simulation` (every tolerance a kind
of :mod:`hpcmodels.papers.report`; "close" is its :func:`~hpcmodels.papers.verdicts.alike`)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ...errors import InvalidParameter
from ...mdp import solve
from ..verdicts import claim, compare_claim, compare_value, fmt_series
from .model import check_truncation, model
from .policies import EXPERIMENT_STEPS, WINDOW, policy_comparison, quadrant
from .published import (
    BEYOND_WINDOW,
    EXPERIMENT_1,
    EXPERIMENT_2,
    PAPER_ITERATIONS,
    PAPER_STATES,
)

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
    figure) and ``study`` (:func:`truncation_study` of this figure). ``truncation`` is
    a whole number in [1, 1000]."""
    truncation = check_truncation(truncation)
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
    :func:`stopping_study` (its last row is our converged run). ``truncation`` is a whole
    number in [1, 1000]."""
    truncation = check_truncation(truncation)
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
        first_q1, first_q2, _ = quadrant(figure, 30)
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
    differing claim is measured again at Delta = ``larger``. Both are whole numbers in
    [1, 1000]."""
    truncation, larger = check_truncation(truncation), check_truncation(larger, "larger")
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
