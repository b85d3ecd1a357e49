"""Filippopoulos & Karatza: the co-allocation policy explorer of notebook 05."""

from __future__ import annotations

import ipywidgets as w

from ..mdp import CoallocationMDP, solve
from ..plots import policy_heatmap
from .core import figure, live, show, slider, status_line

__all__ = ["mdp_explorer"]


def mdp_explorer(rho: float = 0.8, p: float = 0.6, mu3: float = 0.7, truncation: int = 30,
                 x1: int = 1) -> w.VBox:  # fmt: skip
    """Sliders for the loads, p, mu3, the costs and Delta; the optimal co-allocation
    policy (modified policy iteration, warm-started from the previous setting while
    Delta stays the same: a few hundredths of a second at Delta = 30, about half a
    second at 100) is recomputed and drawn as a heatmap for the chosen x1."""
    controls = {
        "rho1": slider(w.FloatSlider, rho, 0.3, 0.95, 0.01, "rho1"),
        "rho2": slider(w.FloatSlider, rho, 0.3, 0.95, 0.01, "rho2"),
        "p": slider(w.FloatSlider, p, 0.0, 1.0, 0.05, "p (1-component)"),
        "mu3": slider(w.FloatSlider, mu3, 0.1, 1.5, 0.05, "mu3"),
        "c1": slider(w.FloatSlider, 2.0, 0.0, 5.0, 0.5, "c1"),
        "c2": slider(w.FloatSlider, 1.0, 0.0, 5.0, 0.5, "c2"),
        "truncation": slider(w.IntSlider, truncation, 5, 100, 1, "Delta"),
        "x1": slider(w.IntSlider, x1, 0, 1, 1, "x1"),
    }
    out = w.Output()
    status = status_line()
    previous: dict = {}  # the last solution: a warm start for the next setting

    def update():
        with out:
            out.clear_output(wait=True)
            v = {k: c.value for k, c in controls.items()}
            try:
                mdp = CoallocationMDP.from_loads(v["rho1"], v["rho2"], v["p"], mu3=v["mu3"],
                                                 c1=v["c1"], c2=v["c2"],
                                                 truncation=v["truncation"])  # fmt: skip
            except ValueError as err:
                print(f"invalid setting: {err}")
                return
            last = previous.get("solution")
            same_space = last is not None and last.mdp.truncation == mdp.truncation
            sol = solve(mdp, start=last.values if same_space else None)
            previous["solution"] = sol
            size = min(15, v["truncation"])
            table = sol.policy_table(v["x1"], size, size)
            print(f"co-allocate in {int(table.to_numpy().sum())} of {table.size} states shown "
                  f"(x1 = {v['x1']}, q1 = 1..{size}, q2 = 0..{size})")  # fmt: skip
            fig, ax = figure(0.38 * (size + 1) + 3.5, 0.3 * size + 1.9)
            policy_heatmap(table, ax=ax,
                           title=f"x1 = {v['x1']}: {sol.iterations} iterations, "
                           f"{sol.seconds:.2f} s (timing)")  # fmt: skip
            show(fig)

    live(update, controls.values(), status)
    items = list(controls.values())
    return w.VBox([w.HBox(items[:4]), w.HBox([*items[4:], status]), out])
