"""Jones, Pang, Stanzione, Ligon 2005: the explorers of notebook 04, Figs. 5-7's link
saturation picture and Section 6's strategies at a glance."""

from __future__ import annotations

from dataclasses import replace

import ipywidgets as w
import numpy as np
import pandas as pd
from IPython.display import display

from ..bandwidth import (
    SECTION6,
    allot_bandwidth,
    link_demand,
    ppbw_from_bsbw,
    run_point,
    slowdown_factors,
)
from ..bounds import MAX_JOBS
from ..errors import InvalidParameter, InvalidType, check_int, check_ints
from ..papers import jones2005
from ..plots import method_colour
from ..tables import MISSING
from .core import figure, hint, live, row, show, slider, status_line
from .core import table as core_table
from .printed import Printed, beside_printed, stored_values

__all__ = ["LINK_PICTURE_JOBS", "bandwidth_explorer", "link_saturation_explorer"]

# three hand-placed co-allocated jobs over three clusters (Jones 2005, Figs. 5-7): nodes
# of each job on each cluster
LINK_PICTURE_JOBS = ((3, 2, 1), (4, 4, 0), (0, 5, 5))


def link_saturation_explorer(
    jobs=LINK_PICTURE_JOBS, bsbw: float = 400.0, link_mbps: float = 1000.0
) -> w.VBox:
    """Jones 2005, Figs. 5-7 live: place each job's nodes on three clusters; every link's
    required bandwidth (Eq. 1 with Eq. 8's PPBW), the allotment of Steps 1-5 and each
    job's slowdown factor (Eq. 5) recompute at once.

    The arguments set sliders and must lie in their ranges: every node count of
    ``jobs`` a whole number in [0, 20], ``bsbw`` in [0, 2000] and ``link_mbps`` in
    [100, 2000] Mbps; else an :class:`~hpcmodels.errors.InvalidParameter` naming the
    argument, the value and the range; the rows of ``jobs`` must be non-empty and of one
    length."""
    if isinstance(jobs, str | bytes | dict) or not hasattr(jobs, "__iter__"):
        raise InvalidType(f"jobs must be rows of node counts, got {jobs!r:.80}")
    jobs = [check_ints(f"jobs[{k}]", job) for k, job in enumerate(jobs)]  # ranges: the sliders
    if not jobs or not jobs[0] or any(len(job) != len(jobs[0]) for job in jobs):
        raise InvalidParameter(f"jobs must be non-empty rows of one length, got {jobs!r:.80}")
    m = len(jobs[0])
    nodes = [
        [
            slider(w.IntSlider, n, 0, 20, 1, f"job {k + 1} on C{i + 1}", name=f"jobs[{k}][{i}]")
            for i, n in enumerate(job)
        ]
        for k, job in enumerate(jobs)
    ]
    bw = slider(w.FloatSlider, bsbw, 0, 2000, 50, "BSBW (Mbps)", name="bsbw")
    cap = slider(w.FloatSlider, link_mbps, 100, 2000, 50, "link capacity (Mbps)", name="link_mbps")
    out = w.Output()

    def update():
        with out:
            out.clear_output(wait=True)
            split = np.array([[s.value for s in row] for row in nodes])
            total = split.sum(axis=1)
            demand = np.array(
                [
                    [link_demand(n, max(t, 1), ppbw_from_bsbw(bw.value, max(t, 1))) for n in row]
                    for row, t in zip(split, total, strict=True)
                ]
            )
            allotted = allot_bandwidth(demand, np.full(m, cap.value))
            sd = slowdown_factors(demand, allotted)
            links = [f"C{i + 1}" for i in range(m)]
            table = pd.DataFrame(
                {
                    "nodes": [" + ".join(map(str, row)) for row in split],
                    **{f"{c} required (Mbps)": demand[:, i] for i, c in enumerate(links)},
                    **{f"{c} allotted (Mbps)": allotted[:, i] for i, c in enumerate(links)},
                    "slowdown factor sd (ratio)": sd,
                },
                index=pd.Index([f"job {k + 1}" for k in range(len(split))], name="job"),
            )
            saturated = [c for i, c in enumerate(links) if demand[:, i].sum() > cap.value]
            print("saturated links: " + (", ".join(saturated) if saturated else "none"))
            shown = table.round({c: 3 if c.startswith("slowdown") else 1 for c in table.columns})
            display(core_table(shown, index=True))
            fig, axes = figure(7, 2.6, ncols=2, sharey=True)
            for ax, data, title in ((axes[0], demand, "required"), (axes[1], allotted, "allotted")):
                bottom = np.zeros(m)
                for k in range(len(split)):
                    ax.bar(links, data[k], bottom=bottom, label=f"job {k + 1}")
                    bottom += data[k]
                ax.axhline(cap.value, color="k", ls="--", lw=1)
                ax.set_title(f"{title} bandwidth per link")
            axes[0].set_ylabel("Mbps")
            axes[1].legend(fontsize=7)
            show(fig)

    live(update, [*(s for row in nodes for s in row), bw, cap])
    rows = [row(line) for line in nodes]
    return w.VBox([*rows, row([bw, cap]), out])


NO_BASELINES = (
    "the paper prints numbers here only for Section 6's {clusters} clusters: Migration Only "
    "{mo} s and Ideal {ideal} s (Section 6.3); its modules' times are in figures only"
)


def baselines_printed(clusters: int) -> list[Printed]:
    """Section 6.3's printed baselines (Migration Only, Ideal; no co-allocation, so no
    BSBW, LSLT or chunk changes them) at Section 6's number of clusters, with our
    paper-scale runs (400,000 jobs per cluster, FPFS one pass); none elsewhere."""
    if check_int("clusters", clusters, minimum=1) != SECTION6.clusters:
        return []
    out = []
    for strategy, printed in jones2005.BASELINES.items():
        key = jones2005.ensemble_key("baseline", strategy, "first_available", 0.0, 0.0)
        quantity = f"{STRATEGY_NAMES[strategy]}: average turnaround (s)"
        out.append(Printed("Section 6.3", quantity, printed, stored_values("jones2005", key)))
    return out


BANDWIDTH_COLUMNS = {
    "att": "average turnaround (s)",
    "mean_wait": "mean wait (s)",
    "coallocated": "share co-allocated",
    "penalty": "penalty (mean slowdown)",
    "max_link_level": "busiest link (share of capacity)",
}
STRATEGY_NAMES = {
    "no_share": "No Share",
    "migration_only": "Migration Only",
    "ideal": "Ideal",
    "first_fit": "First-Fit",
    "a1": "A1",
    "b1": "B1",
    "b2": "B2",
    "b3": "B3",
    "b4": "B4",
}


def bandwidth_explorer(
    jobs_per_cluster: int = 5_000,
    *,
    bsbw: float = 500.0,
    lslt: float = 1.0,
    chunk: float = 0.8,
    clusters: int = 4,
) -> w.VBox:
    """Jones 2005, Section 6 at a glance: BSBW, LSLT, B3's chunk and the number of
    clusters; every strategy runs on the same Section 6.1 workload (``jobs_per_cluster``
    jobs per cluster, the first change or so takes a second) and a table and a chart of
    their average turnaround times redraw, with a progress bar while they run.

    ``bsbw`` (in [100, 1000] Mbps), ``lslt`` (in [0.4, 1.2]), ``chunk`` (in [0.5, 0.95])
    and ``clusters`` (a whole number in [2, 8]) set sliders: a value outside a slider's
    range is an :class:`~hpcmodels.errors.InvalidParameter` naming the argument, the
    value and the range. ``jobs_per_cluster`` is a whole number in [1, 10**8 / 8] (8
    clusters at most: :data:`hpcmodels.bounds.MAX_JOBS` jobs in all)."""
    jobs_per_cluster = check_int(
        "jobs_per_cluster", jobs_per_cluster, minimum=1, maximum=MAX_JOBS // 8
    )
    strategies = ("no_share", "migration_only", "ideal", "first_fit", "a1", "b1", "b2", "b3", "b4")
    bw = slider(
        w.FloatSlider,
        bsbw,
        100,
        1000,
        50,
        "BSBW (Mbps)",
        "every job's bisection bandwidth (Eq. 8 turns it into bandwidth per node)",
        name="bsbw",
    )
    level = slider(
        w.FloatSlider,
        lslt,
        0.4,
        1.2,
        0.1,
        "LSLT",
        "link saturation level threshold: the share of a link's capacity A1 and "
        "B1-B4 aim not to exceed (Section 6.2)",
        name="lslt",
    )
    chunk_size = slider(
        w.FloatSlider,
        chunk,
        0.5,
        0.95,
        0.05,
        "B3 chunk",
        "B3 (big-small chunk) puts this share of a job on one cluster and the "
        "rest elsewhere; changes B3 only",
        name="chunk",
    )
    count = slider(
        w.IntSlider,
        clusters,
        2,
        8,
        1,
        "clusters",
        "clusters of 100 nodes each (Section 6.1)",
        name="clusters",
    )
    note = hint()

    def explain(*_):
        note.value = (
            f"<i>{count.value} clusters x {jobs_per_cluster:,} jobs (the paper: "
            f"400,000 per cluster); the chunk changes B3 only; the LSLT changes "
            "A1 and B1-B4 only</i>"
        )

    count.observe(explain, names="value")
    explain()
    bar = w.IntProgress(value=0, min=0, max=len(strategies), description="runs")
    out = w.Output()
    status = status_line()

    def _run():
        setup = replace(SECTION6, clusters=count.value, jobs_per_cluster=jobs_per_cluster)
        bar.value = 0
        rows = []
        for st in strategies:
            rows.append(
                run_point(st, setup, bsbw=bw.value, lslt=level.value, chunk=chunk_size.value)
            )
            bar.value += 1
        table = pd.DataFrame(rows).set_index("strategy")[list(BANDWIDTH_COLUMNS)]
        with out:
            out.clear_output(wait=True)
            best = table.loc[["a1", "b1", "b2", "b3", "b4"], "att"].idxmin()
            print(
                f"BSBW {bw.value:.0f} Mbps, LSLT {level.value:.0%}, chunk {chunk_size.value:.0%}, "
                f"{count.value} clusters of {jobs_per_cluster:,} jobs each (the paper: "
                f"400,000): best module {best.upper()}"
            )
            none = f"{MISSING} where none is co-allocated"
            print(f"penalty: the mean slowdown of co-allocated jobs ({none})")
            names = [STRATEGY_NAMES[s] for s in table.index]
            shown = table.set_axis(pd.Index(names, name="strategy"))
            display(core_table(shown.rename(columns=BANDWIDTH_COLUMNS).round(3), index=True))
            printed = baselines_printed(count.value)
            if printed:
                print(
                    "the paper's Section 6.3 baselines beside ours (this run: "
                    f"{jobs_per_cluster:,} jobs per cluster)"
                )
                display(
                    core_table(
                        beside_printed(printed, [table.loc[s, "att"] for s in jones2005.BASELINES]),
                        index=True,
                    )
                )
            else:
                mo, ideal = jones2005.BASELINES.values()
                print(NO_BASELINES.format(clusters=SECTION6.clusters, mo=mo, ideal=ideal))
            fig, ax = figure(7, 2.6)
            ax.bar(names, table["att"], color=[method_colour(n) or "tab:blue" for n in names])
            for name, style in (("migration_only", "--"), ("ideal", ":")):
                ax.axhline(
                    table.loc[name, "att"], color="k", ls=style, lw=1, label=name.replace("_", " ")
                )
            top = 2.5 * table.loc["migration_only", "att"]
            ax.set_ylim(0, top)
            for x, value in enumerate(table["att"]):
                if value > top:  # an unstable strategy: say how far off the chart it is
                    ax.text(
                        x,
                        0.93 * top,
                        f"{value:.0f}",
                        ha="center",
                        fontsize=7,
                        rotation=90,
                        va="top",
                        color="white",
                    )
            ax.set_ylabel("average turnaround (s)")
            ax.legend(fontsize=7)
            ax.tick_params(axis="x", labelsize=7, rotation=30)
            for label in ax.get_xticklabels():
                label.set_horizontalalignment("right")
            show(fig)

    live(_run, (bw, level, chunk_size, count), status)
    return w.VBox([row([bw, level]), row([chunk_size, count, bar, status]), note, out])
