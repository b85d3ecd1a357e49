"""Filippopoulos & Karatza: the co-allocation policy explorer of notebook 05."""

from __future__ import annotations

import ipywidgets as w
import pandas as pd

from ..mdp import CoallocationMDP, solve
from ..papers.filippopoulos.published import published_policy
from ..plots import policy_heatmap
from .core import figure, live, row, show, slider, status_line

WHY_CELLS_DIFFER = (
    "why ours differs: where our tables differ, the switching curve is shifted by one column "
    "in a few rows; notebook 05 measured three causes and none accounts for every cell: "
    "stopping value iteration early (about 1,100 iterations) does not change our table, "
    "truncations from 30 to 300 give the same table in Fig. 2's window, and the other "
    "reading of the Bellman equation agrees in more cells, but not all"
)
"""Notebook 05's measured causes of the cells where our policy tables differ (its
section on Figs. 2-4), condensed."""

__all__ = ["mdp_explorer"]

NO_PAPER_TABLE = (
    "the paper prints no policy at this setting: its Figs. 2-4 are at rho1 = rho2 = 0.8, "
    "p = 0.6, mu3 = 0.7, x1 = 1 (Fig. 2) and rho1 = rho2 = 0.9, p = 0.8, mu3 = 0.8, "
    "x1 = 0 or 1 (Figs. 3, 4), costs c1 = 2, c2 = 1"
)


def mdp_explorer(
    rho: float = 0.8, p: float = 0.6, mu3: float = 0.7, truncation: int = 30, x1: int = 1
) -> w.VBox:
    """Sliders for the loads, p, mu3, the costs and Delta; the optimal co-allocation
    policy (modified policy iteration, warm-started from the previous setting while
    Delta stays the same: a few hundredths of a second at Delta = 30, about half a
    second at 100) is recomputed and drawn as a heatmap for the chosen x1. At the
    settings of the paper's Figs. 2-4 the paper's table is drawn beside ours, the
    cells that differ crossed and counted; elsewhere a line says where they are.

    Each argument sets a slider and must lie in its range: ``rho`` in [0.3, 0.95],
    ``p`` in [0, 1], ``mu3`` in [0.1, 1.5], ``truncation`` a whole number in [5, 100],
    ``x1`` 0 or 1; else an :class:`~hpcmodels.errors.InvalidParameter` naming the
    argument, the value and the range."""
    controls = {
        "rho1": slider(
            w.FloatSlider,
            rho,
            0.3,
            0.95,
            0.01,
            "rho1",
            "load of cluster 1 (two nodes): its arrival rate over its capacity",
            name="rho",
        ),
        "rho2": slider(
            w.FloatSlider,
            rho,
            0.3,
            0.95,
            0.01,
            "rho2",
            "load of cluster 2 (one node), whose node a co-allocated job takes (pre-empting)",
            name="rho",
        ),
        "p": slider(
            w.FloatSlider,
            p,
            0.0,
            1.0,
            0.05,
            "p (1-component)",
            "share of cluster 1's jobs that need one node (the rest need two)",
            name="p",
        ),
        "mu3": slider(
            w.FloatSlider,
            mu3,
            0.1,
            1.5,
            0.05,
            "mu3",
            "service rate of a co-allocated job (slower than a local one below 1)",
            name="mu3",
        ),
        "c1": slider(
            w.FloatSlider,
            2.0,
            0.0,
            5.0,
            0.5,
            "c1",
            "cost per job and unit time at cluster 1, waiting or served",
        ),
        "c2": slider(
            w.FloatSlider, 1.0, 0.0, 5.0, 0.5, "c2", "cost per job and unit time at cluster 2"
        ),
        "truncation": slider(
            w.IntSlider,
            truncation,
            5,
            100,
            1,
            "Delta",
            "the queues are truncated at Delta jobs each (the paper's Delta)",
            name="truncation",
        ),
        "x1": slider(
            w.IntSlider,
            x1,
            0,
            1,
            1,
            "x1",
            "one-node jobs in service at cluster 1: the slice of the policy drawn",
            name="x1",
        ),
    }
    out = w.Output()
    status = status_line()
    previous: dict = {}  # the last solution: a warm start for the next setting

    def update():
        with out:
            out.clear_output(wait=True)
            v = {k: c.value for k, c in controls.items()}
            try:
                mdp = CoallocationMDP.from_loads(
                    v["rho1"],
                    v["rho2"],
                    v["p"],
                    mu3=v["mu3"],
                    c1=v["c1"],
                    c2=v["c2"],
                    truncation=v["truncation"],
                )
            except ValueError as err:
                print(f"invalid setting: {err}")
                return
            last = previous.get("solution")
            same_space = last is not None and last.mdp.truncation == mdp.truncation
            sol = solve(mdp, start=last.values if same_space else None)
            previous["solution"] = sol
            printed = published_policy(
                v["rho1"], v["rho2"], v["p"], v["mu3"], v["c1"], v["c2"], v["x1"]
            )
            if printed is not None and v["truncation"] < printed[1].shape[1] - 1:
                printed = None  # the paper's window does not fit this truncation
            size = min(15, v["truncation"])
            rows, cols = (
                (size, size) if printed is None else (printed[1].shape[0], printed[1].shape[1] - 1)
            )
            table = sol.policy_table(v["x1"], rows, cols)
            print(
                f"ours: co-allocate in {int(table.to_numpy().sum())} of {table.size} states "
                f"shown (x1 = {v['x1']}, q1 = 1..{rows}, q2 = 0..{cols})"
            )
            title = (
                f"ours, x1 = {v['x1']}: {sol.iterations} iterations, {sol.seconds:.2f} s (timing)"
            )
            if printed is None:
                print(NO_PAPER_TABLE)
                fig, ax = figure(0.38 * (cols + 1) + 3.5, 0.3 * rows + 1.9)
                policy_heatmap(table, ax=ax, title=title)
                show(fig)
                return
            name, paper = printed
            differ = int((table.to_numpy() != paper).sum())
            print(
                f"the paper's {name} (this setting, solved at Delta = 30): co-allocate in "
                f"{int(paper.sum())} states; {differ} of {paper.size} cells differ from ours "
                "(crossed)"
            )
            if differ:
                print(WHY_CELLS_DIFFER)
            fig, axes = figure(2 * (0.38 * (cols + 1) + 3.0), 0.3 * rows + 1.9, ncols=2)
            printed_table = pd.DataFrame(paper, index=table.index, columns=table.columns)
            policy_heatmap(printed_table, ax=axes[0], title=f"the paper's {name}")
            policy_heatmap(table, paper, ax=axes[1], title=title)
            show(fig)

    live(update, controls.values(), status)
    items = list(controls.values())
    return w.VBox([row(items[:4]), row([*items[4:], status]), out])
