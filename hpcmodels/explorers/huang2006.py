"""Huang & Chang 2006 (PDPTA): the policy explorer of notebook 02."""

from __future__ import annotations

import html

import ipywidgets as w
import pandas as pd
from IPython.display import display

from ..multicluster import ALLOCATIONS, COALLOCATIONS, SELECTIONS, simulate
from ..papers.report import missing_of
from ..plots import wait_cdf
from ..workloads.transforms import scale_runtimes
from .core import figure, live, show, slider, status_line

__all__ = ["policy_explorer"]

COLUMNS = {  # the metrics shown, in words and units (Huang & Chang's Tables 2-9)
    "mean_wait": "mean wait (s)",
    "mean_waiting_ratio": "mean waiting ratio",
    "att": "average turnaround (s)",
    "mean_bounded_slowdown": "mean bounded slowdown",
    "utilization": "utilization",
}


def policy_explorer(jobs, clusters, *, load_factor: float = 1.0, slowdown: float = 1.0) -> w.VBox:
    """Two scheduling configurations side by side on the same jobs: load factor, slowdown
    ratio and (selection, allocation, co-allocation) for each; the metrics and the
    waiting-time distributions recompute on every change (one simulation takes well
    under a second on the SDSC SP2 log)."""
    if reason := missing_of(jobs):  # the log is missing: say so where the explorer would be
        return w.VBox([w.HTML(f"<b>Explorer not run</b>: {html.escape(reason)}")])
    base = jobs[["submit", "runtime", "procs"]]
    lf = slider(w.FloatSlider, load_factor, 1.0, 4.0, 0.25, "load factor")
    sd = slider(w.FloatSlider, slowdown, 1.0, 6.0, 0.5, "slowdown ratio")
    coal_names = [c or "none" for c in COALLOCATIONS]

    def config(name, sel, alloc, coal):
        style = {"description_width": "initial"}
        return [w.Dropdown(options=SELECTIONS, value=sel, description=f"{name}: selection",
                           style=style),
                w.Dropdown(options=ALLOCATIONS, value=alloc, description="allocation", style=style),
                w.Dropdown(options=coal_names, value=coal, description="co-allocation",
                           style=style)]  # fmt: skip

    a = config("A", "fcfs", "first_fit", "fixed_order" if len(clusters) > 1 else "none")
    b = config("B", "smallest_first", "best_fit", "larger_first" if len(clusters) > 1 else "none")
    out = w.Output()
    status = status_line()

    def update():
        with out:
            out.clear_output(wait=True)
            scaled = scale_runtimes(base, lf.value)
            results, rows = {}, {}
            for name, (sel, alloc, coal) in (("A", a), ("B", b)):
                coalloc = None if coal.value == "none" else coal.value
                try:
                    r = simulate(scaled, clusters, sel.value, alloc.value, coallocation=coalloc,
                                 slowdown=sd.value)  # fmt: skip
                except ValueError as err:
                    print(f"configuration {name}: {err}")
                    return
                label = f"{name}: {sel.value} + {alloc.value} + {coal.value}"
                results[label] = r
                rows[label] = r.metrics
            table = pd.DataFrame(rows).T[list(COLUMNS)].rename(columns=COLUMNS)
            display(table.style.format(precision=3))
            fig, ax = figure(6, 4)
            wait_cdf(results, ax=ax, title=f"load factor {lf.value:g}, slowdown {sd.value:g}")
            show(fig)

    live(update, [lf, sd, *a, *b], status)
    return w.VBox([w.HBox([lf, sd, status]), w.HBox(a), w.HBox(b), out])
