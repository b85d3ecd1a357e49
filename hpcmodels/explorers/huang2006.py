"""Huang & Chang 2006 (PDPTA): the policy explorer of notebook 02."""

from __future__ import annotations

import html

import ipywidgets as w
import pandas as pd
from IPython.display import display

from ..errors import InvalidParameter, InvalidType, check_each, check_frame, check_int
from ..multicluster import ALLOCATIONS, COALLOCATIONS, SELECTIONS, simulate
from ..multicluster.system import as_system
from ..papers import huang2006
from ..papers.verdicts import missing_of
from ..plots import wait_cdf
from ..workloads.transforms import scale_runtimes
from .core import dropdown, figure, live, row, show, slider, status_line
from .core import table as table_html
from .printed import Printed, beside_printed, stored_values

__all__ = ["policy_explorer", "printed_for"]

COLUMNS = {  # the metrics shown, in words and units (Huang & Chang's Tables 2-9)
    "mean_wait": "mean wait (s)",
    "mean_waiting_ratio": "mean waiting ratio",
    "att": "average turnaround (s)",
    "mean_bounded_slowdown": "mean bounded slowdown",
    "utilization": "utilization",
}


WORDS = {  # the engine's policy names, as a student reads them
    "fcfs": "FCFS",
    "first_available": "first available (FPFS)",
    "smallest_first": "smallest first",
    "largest_first": "largest first",
    "conservative": "conservative backfilling",
    "easy": "EASY backfilling",
    "first_available_once": "first available, one per event",
    "first_fit": "first fit",
    "best_fit": "best fit",
    "worst_fit": "worst fit",
    "median_fit": "median fit (lower median)",
    "median_fit_upper": "median fit (upper median)",
    "random_fit": "random fit",
    "fastest_first": "fastest first",
    "ai2": "AI2 (Shih)",
    "tla": "TLA (Shih)",
    "local_first": "local first",
    "local_only": "local only",
    "none": "none",
    "fixed_order": "fixed order",
    "larger_first": "larger first",
    "smaller_first": "smaller first",
    "a1": "A1 (Jones)",
    "b1": "B1 (Jones)",
    "b2": "B2 (Jones)",
    "b3": "B3 (Jones)",
    "b4": "B4 (Jones)",
}


HUANG_HEURISTICS = ("fixed_order", "larger_first", "smaller_first")
"""The co-allocation heuristics whose co-allocated jobs run ``slowdown`` times slower."""


def _choices(names) -> list[tuple[str, str]]:
    return [(WORDS.get(n, n), n) for n in names]


def printed_for(
    name: str,
    clusters,
    selection: str,
    allocation: str,
    coallocation: str | None,
    load_factor: float,
    slowdown: float,
) -> list[tuple[str, Printed]]:
    """The cells the paper prints for configuration ``name``'s run
    (:func:`~hpcmodels.papers.huang2006.printed_cells`) as (engine metric, printed), with
    our paper-scale runs of each (the cleaned log, every runtime perturbed per replicate;
    random fit: one seed per replicate). ``name`` labels the configuration (text);
    ``clusters`` is a non-empty list of :class:`~hpcmodels.multicluster.Cluster`; the
    policies and numbers as :func:`~hpcmodels.papers.huang2006.printed_cells` takes
    them."""
    if not isinstance(name, str):
        raise InvalidType(f"name must be the configuration's label (text), got {name!r:.80}")
    clusters = as_system(clusters)
    out = []
    for cell in huang2006.printed_cells(
        clusters, selection, allocation, coallocation, load_factor, slowdown
    ):
        key = huang2006.ensemble_key(cell.table, cell.label, cell.row, cell.column)
        quantity = f"{name}: {COLUMNS[cell.metric]} ({cell.column})"
        scale = stored_values("huang2006", key)
        out.append((cell.metric, Printed(cell.table, quantity, cell.printed, scale)))
    return out


def log_offset_reason(n_jobs: int, printed, ours) -> str:
    """One line on why ours differs from the paper's printed cells (``printed``, a
    sequence of :class:`~.printed.Printed`, beside ``ours``, as many numbers), condensed
    from notebook 02's measured cause: the cleaned log lacks some of the paper's jobs
    (``n_jobs`` of its ``TOTAL_JOBS``), and each table lies at about one ratio of the
    paper's, not sampling noise; with each cell's ratio ours / paper here. Empty when
    the log is whole (``n_jobs`` >= the paper's count). ``n_jobs`` is a whole number
    >= 1, else an :class:`~hpcmodels.errors.InvalidParameter` naming it."""
    n_jobs = check_int("n_jobs", n_jobs, minimum=1)
    cells = check_each("printed", printed)
    mine = check_each("ours", ours)
    if len(cells) != len(mine):
        raise InvalidParameter(f"{len(cells)} printed cells but {len(mine)} of ours")
    missing = huang2006.TOTAL_JOBS - n_jobs
    if missing <= 0:
        return ""
    ratios = ", ".join(
        f"{float(o) / float(p.paper):.2f}"
        for p, o in zip(cells, mine, strict=True)
        if float(p.paper)
    )
    return (
        f"why ours differs: the cleaned log lacks {missing:,} of the paper's "
        f"{huang2006.TOTAL_JOBS:,} jobs, short ones (notebook 02, Table 1), and notebook 02 "
        "finds each table's cells at about one ratio of the paper's, that offset, not "
        f"sampling noise; ours / paper here: {ratios}"
    )


def policy_explorer(jobs, clusters, *, load_factor: float = 1.0, slowdown: float = 1.0) -> w.VBox:
    """Two scheduling configurations side by side on the same jobs: load factor, slowdown
    ratio and (selection, allocation, co-allocation) for each; the metrics and the
    waiting-time distributions recompute on every change (one simulation takes well
    under a second on the SDSC SP2 log). ``load_factor`` (in [1, 4]) and ``slowdown``
    (in [1, 6]) set the sliders: a value outside a slider's range is an
    :class:`~hpcmodels.errors.InvalidParameter` naming the argument, the value and the
    range. The slowdown ratio reaches the runs whose co-allocation is one of Huang's
    heuristics (the other runs have nothing it could slow down).

    ``jobs`` is a non-empty DataFrame with numeric ``submit``, ``runtime`` and ``procs``
    (or a frame that stands for a missing log, :func:`~hpcmodels.papers.verdicts.missing_of`:
    the explorer then says why it is not run), ``clusters`` a non-empty list of
    :class:`~hpcmodels.multicluster.Cluster`; else an
    :class:`~hpcmodels.errors.InvalidParameter` naming the argument."""
    if reason := missing_of(jobs):  # the log is missing: say so where the explorer would be
        return w.VBox([w.HTML(f"<b>Explorer not run</b>: {html.escape(reason)}")])
    columns = ["submit", "runtime", "procs"]
    if check_frame("jobs", jobs, columns, numeric=columns).empty:
        raise InvalidParameter("jobs is empty: no job to schedule")
    clusters = as_system(clusters)
    base = jobs[["submit", "runtime", "procs"]]
    lf = slider(
        w.FloatSlider,
        load_factor,
        1.0,
        4.0,
        0.25,
        "load factor",
        "every runtime times this factor (Section 2): higher is busier",
        name="load_factor",
    )
    sd = slider(
        w.FloatSlider,
        slowdown,
        1.0,
        6.0,
        0.5,
        "slowdown ratio",
        "a co-allocated job runs this many times slower (Section 3); no effect without "
        "co-allocation",
        name="slowdown",
    )
    coal_names = [c or "none" for c in COALLOCATIONS]

    def config(name, sel, alloc, coal):
        return [
            dropdown(
                _choices(SELECTIONS),
                sel,
                f"{name}: selection",
                "which waiting job starts next (Section 2)",
            ),
            dropdown(
                _choices(ALLOCATIONS),
                alloc,
                f"{name}: allocation",
                "which site a job that fits goes to (Section 3)",
            ),
            dropdown(
                _choices(coal_names),
                coal,
                f"{name}: co-allocation",
                "how a job that fits no single site is split across sites (Section 3)",
            ),
        ]

    a = config("A", "fcfs", "first_fit", "fixed_order" if len(clusters) > 1 else "none")
    b = config("B", "smallest_first", "best_fit", "larger_first" if len(clusters) > 1 else "none")
    out = w.Output()
    status = status_line()

    def update():
        with out:
            out.clear_output(wait=True)
            scaled = scale_runtimes(base, lf.value)
            results, rows, printed, ours = {}, {}, [], []
            for name, (sel, alloc, coal) in (("A", a), ("B", b)):
                coalloc = None if coal.value == "none" else coal.value
                # the slowdown ratio applies to Huang's heuristics' co-allocated jobs only
                cost = dict(slowdown=sd.value) if coalloc in HUANG_HEURISTICS else {}
                try:
                    r = simulate(
                        scaled, clusters, sel.value, alloc.value, coallocation=coalloc, **cost
                    )
                except ValueError as err:
                    print(f"configuration {name}: {err}")
                    return
                label = f"{name}: " + " + ".join(WORDS[c.value] for c in (sel, alloc, coal))
                results[label] = r
                rows[label] = r.metrics
                mine = printed_for(
                    name, clusters, sel.value, alloc.value, coalloc, lf.value, sd.value
                )
                printed += [p for _, p in mine]
                ours += [r.metrics[metric] for metric, _ in mine]
            table = pd.DataFrame(rows).T[list(COLUMNS)].rename(columns=COLUMNS)
            display(table.style.format(precision=3))
            if printed:
                print(
                    "the paper's numbers at these settings beside ours (random fit: the paper "
                    "averages 20 seeds, this run is one)"
                )
                display(table_html(beside_printed(printed, ours), index=True))
                print(log_offset_reason(len(base), printed, ours))
            else:
                print(huang2006.WHERE_PRINTED)
            fig, ax = figure(6, 4)
            wait_cdf(results, ax=ax, title=f"load factor {lf.value:g}, slowdown {sd.value:g}")
            show(fig)

    live(update, [lf, sd, *a, *b], status)
    return w.VBox([row([lf, sd, status]), row(a), row(b), out])
