"""Shih et al. 2013 (JPDC 73), TLA: the explorers of notebook 01, Fig. 4's scoring step
on the reconstructed snapshot and a run of BF, FF, AI2 and TLA on a workload of Table 3."""

from __future__ import annotations

import ipywidgets as w
import pandas as pd
from IPython.display import display

from ..bounds import MAX_JOBS
from ..errors import InvalidParameter, InvalidType, check_choice, check_each, check_int, check_real
from ..multicluster import Cluster, TLAOptions, simulate, tla_scores
from ..papers import shih2013
from ..plots import method_colour
from ..workloads.transforms import speed_vectors
from .core import dropdown, figure, hint, live, row, serial, show, slider
from .core import table as table_html
from .printed import Printed, beside_printed, stored

__all__ = ["tla_run_explorer", "tla_snapshot_explorer"]

NO_TABLE1 = (
    "the paper prints Table 1 only at Fig. 4's snapshot (the sliders' starting values) "
    "and Fig. 9's average turnarounds only there with r2 end 1"
)
NO_TABLE4 = (
    "the paper prints no Table 4 cell for this workload, load and SH (it prints A1-B2 at "
    "every load and SH, the others at SH 0 for low and high load and at high load for "
    "every SH; docs/readings.md)"
)


def snapshot_printed(jobs, r2_end: float, scores: dict) -> tuple[list[Printed], list[float]]:
    """The numbers Section 3 prints at this snapshot, and ours: Table 1 (every job's
    turnaround and their average, job 1 on A or B) at Fig. 4's snapshot, Fig. 9's average
    turnarounds at the snapshot with r2 ending at 1; nothing elsewhere. ``jobs`` is the
    sequence of waiting jobs, ``r2_end`` a number, ``scores``
    :func:`~hpcmodels.multicluster.tla_scores`' dict."""
    r2_end = check_real("r2_end", r2_end)
    if check_each("jobs", jobs) != list(shih2013.SNAPSHOT_WAITING):
        return [], []
    printed, ours = [], []
    if r2_end == shih2013.SNAPSHOT_RUNNING[1].end:
        why = _table1_reasons()
        for c in ("A", "B"):
            for job, value in shih2013.TABLE1[f"score {c}"].items():
                reason = why.get(f"turnaround of job {job}, job 1 on {c}", "")
                quantity = f"job 1 on {c}: job {job}'s turnaround"
                printed.append(Printed("Table 1", quantity, value, exact=True, reason=reason))
                ours.append(scores[c].turnaround[job - 1])
            average = shih2013.TABLE1_AVERAGE[c]
            reason = why.get(f"ATT, job 1 on {c}", "")
            printed.append(
                Printed("Table 1", f"job 1 on {c}: average", average, exact=True, reason=reason)
            )
            ours.append(scores[c].att)
    elif r2_end == shih2013.R2_ACTUAL_END:
        for c in ("A", "B"):
            printed.append(
                Printed("Fig. 9", f"job 1 on {c}: average turnaround", shih2013.FIG9_ATT[c])
            )
            ours.append(scores[c].att)
    return printed, ours


def _table1_reasons() -> dict[str, str]:
    """Notebook 01's measured cause of each Table 1 row where ours differs from the
    paper (:func:`~hpcmodels.papers.shih2013.snapshot_rows`), by the row's quantity."""
    return {r["quantity"]: r["reason"] for r in shih2013.snapshot_rows() if r.get("reason")}


def table4_reason(printed: Printed, gain: float, n_jobs: int) -> str:
    """One line on why this Run's improvement ``gain`` (per cent, on the first
    ``n_jobs`` jobs) differs from Table 4's ``printed`` cell, condensed from notebook
    01's measured one: a cell is one run, and one run is one sample (our paper-scale
    runs of the cell, where the store holds them, give its range). ``printed`` is
    :func:`table4_printed`'s, ``gain`` a number, ``n_jobs`` a whole number >= 1."""
    if not isinstance(printed, Printed):
        raise InvalidType(f"printed must be a Printed, got {type(printed).__name__}")
    gain = check_real("gain", gain)
    n_jobs = check_int("n_jobs", n_jobs, minimum=1)
    paper = float(printed.paper)
    text = (
        f"why ours ({gain:.1f} %) differs from the paper's {printed.paper} %: this Run is one "
        f"sample, the first {n_jobs:,} jobs on one speed vector, and the paper's cell is one "
        "run of the whole workload; notebook 01 finds that one run is one sample"
    )
    scale = printed.scale
    if scale is not None and len(scale):
        lo, hi = float(scale.min()), float(scale.max())
        where = "inside" if lo <= paper <= hi else "outside"
        text += (
            f": our {len(scale)} paper-scale runs of this cell range {lo:.0f} % to "
            f"{hi:.0f} % (the paper's {printed.paper} % {where})"
        )
    return text


def table4_printed(wid: str, load: str, sh: float) -> Printed | None:
    """Table 4's printed cell at this workload, load and SH (None where it prints none),
    with our paper-scale runs of it where the store holds them. ``wid`` is a workload of
    Table 3, ``load`` one of Shih's loads, ``sh`` a number."""
    wid = check_choice("wid", wid, [x.wid for x in shih2013.TABLE3])
    load = check_choice("load", load, list(shih2013.LOADS))
    paper = shih2013.TABLE4.get((wid, load, check_real("sh", sh)))
    if paper is None:
        return None
    store = stored(shih2013.PAPER)
    scale = None if store is None else shih2013.table4_improvements(store, wid, load, sh)
    quantity = f"{wid}, {load} load, SH {sh:g}: TLA's improvement over the best of BF, FF, AI2 (%)"
    return Printed("Table 4", quantity, str(paper), scale)


def tla_snapshot_explorer() -> w.VBox:
    """Fig. 4 live: the waiting jobs' processors and estimates, r2's end; TLA's score of
    each cluster for job 1 (every job's simulated turnaround) and the chosen cluster."""
    waiting = shih2013.SNAPSHOT_WAITING
    procs = [
        slider(w.IntSlider, j.procs, 1, 9, 1, f"job {k + 1} procs") for k, j in enumerate(waiting)
    ]
    est = [
        slider(w.FloatSlider, j.estimate, 0.5, 20, 0.5, f"job {k + 1} estimate")
        for k, j in enumerate(waiting)
    ]
    r2_end = slider(
        w.FloatSlider,
        5.0,
        0.0,
        10.0,
        0.5,
        "r2 end",
        "when running job r2 on cluster B ends (its estimate: 5; Fig. 9 replays "
        "with its actual end, 1)",
    )
    out = w.Output()

    def update():
        with out:
            out.clear_output(wait=True)
            jobs = [
                j._replace(procs=p.value, estimate=e.value)
                for j, p, e in zip(waiting, procs, est, strict=True)
            ]
            running = list(shih2013.SNAPSHOT_RUNNING)
            running[1] = running[1]._replace(end=r2_end.value)
            scores = tla_scores(list(shih2013.SNAPSHOT_CLUSTERS), running, jobs)
            if not scores:
                print("job 1 fits no cluster now: TLA has nothing to score")
                return
            table = pd.DataFrame(
                {f"job 1 on {c}": s.turnaround for c, s in scores.items()},
                index=pd.Index(range(1, 5), name="job"),
            )
            table.loc["ATT"] = [s.att for s in scores.values()]
            best = min(scores, key=lambda c: scores[c].att)
            print(f"TLA allocates job 1 to cluster {best}")
            printed, ours = snapshot_printed(jobs, r2_end.value, scores)
            if printed:
                print(f"the paper's {printed[0].source} (this snapshot) beside ours")
                display(table_html(beside_printed(printed, ours), index=True))
            else:
                print(NO_TABLE1)
            display(table_html(table.round(2), index=True))
            fig, ax = figure(6, 2.8)
            table.drop(index="ATT").plot.bar(ax=ax, rot=0)
            ax.set_ylabel("turnaround (time units)")
            ax.set_xlabel("waiting job")
            ax.legend(fontsize="small", frameon=False)
            show(fig)

    live(update, [*procs, *est, r2_end])
    return w.VBox([row(procs), row(est), r2_end, out])


def tla_run_explorer(workloads=("A1", "A2", "D1", "E1"), n_jobs: int = 5_000) -> w.VBox:
    """Workload, load, SH, speed vector, simulation and allocation depth; the Run button
    simulates BF, FF, AI2 and TLA on the first ``n_jobs`` jobs (with a progress bar) and
    shows their ATT and TLA's improvement, beside Table 4's printed cell and our
    paper-scale runs of it where they exist. ``n_jobs`` is a whole number in [1, 10**8]
    (:data:`hpcmodels.bounds.MAX_JOBS`); ``workloads`` a non-empty sequence of Table 3's
    workloads (``"A1"`` ... ``"F2"``; not one name alone), the first shown first."""
    n_jobs = check_int("n_jobs", n_jobs, minimum=1, maximum=MAX_JOBS)
    workloads = check_each("workloads", workloads, check_choice, [x.wid for x in shih2013.TABLE3])
    if not workloads:
        raise InvalidParameter("workloads is empty: give at least one of Table 3's workloads")
    wid = dropdown(
        list(workloads),
        workloads[0],
        "workload",
        "Table 3's workloads: A from the SDSC SP2 log, D Lublin99, E Feitelson96",
    )
    load = dropdown(
        list(shih2013.LOADS),
        "medium",
        "load",
        "Section 4.1: runtimes scaled to a system loading of 0.5, 0.75 or 1",
    )
    sh = dropdown(
        list(shih2013.SH_LEVELS),
        0.0,
        "SH",
        "system heterogeneity: the spread of the clusters' speeds (0: all speed 1)",
    )
    vector = slider(
        w.IntSlider, 0, 0, 9, 1, "speed vector", "which of the 10 random speed vectors at this SH"
    )
    depth = slider(
        w.IntSlider,
        0,
        0,
        500,
        1,
        "simulation depth (0: all)",
        "how many waiting jobs TLA's look-ahead simulates (Section 5.2)",
    )
    adepth = slider(
        w.IntSlider,
        1,
        1,
        8,
        1,
        "allocation depth",
        "how many waiting jobs TLA allocates per decision (Section 5.4)",
    )
    button = w.Button(
        description="Run",
        button_style="primary",
        tooltip=f"simulate the four methods on the first {n_jobs:,} jobs",
    )
    bar = w.IntProgress(value=0, min=0, max=len(shih2013.METHODS), description="runs")
    note = hint()
    out = w.Output()

    def explain(*_):
        vector.disabled = sh.value == 0
        note.value = (
            "<i>SH 0: every cluster has speed 1, so the speed vector has no effect</i>"
            if sh.value == 0
            else f"<i>SH {sh.value:g}: speed vector {vector.value} of 10</i>"
        ) + f"<i>; Run simulates the first {n_jobs:,} jobs (the paper: the whole workload)</i>"

    sh.observe(explain, names="value")
    vector.observe(explain, names="value")
    explain()

    def run():
        with out:
            out.clear_output(wait=True)
            spec = next(x for x in shih2013.TABLE3 if x.wid == wid.value)
            try:
                jobs = shih2013.scaled_jobs(wid.value, shih2013.LOADS[load.value], n_jobs=n_jobs)
            except ValueError as err:
                print(f"cannot run: {err}")
                return
            speeds = speed_vectors(spec.clusters, sh.value, 10)[vector.value]
            clusters = [
                Cluster(f"c{i}", p, s)
                for i, (p, s) in enumerate(zip(spec.clusters, speeds, strict=True))
            ]
            opts = TLAOptions(depth=depth.value or None, allocation_depth=adepth.value)
            att = {}
            bar.value = 0
            for name, allocation in shih2013.METHODS.items():
                knobs = opts if allocation == "tla" else None  # TLA's knobs: TLA's alone
                att[name] = simulate(jobs, clusters, "fcfs", allocation, tla=knobs).metrics["att"]
                bar.value += 1
            table = pd.Series(att, name="average turnaround (s)").to_frame()
            best = min(att["BF"], att["FF"], att["AI2"])
            gain = 100 * (best - att["TLA"]) / best
            print(
                f"speeds {', '.join(f'{s:.2f}' for s in speeds)}; TLA improvement over the "
                f"best of BF, FF, AI2: {gain:.1f} % ({n_jobs:,} jobs, one speed vector)"
            )
            printed = table4_printed(wid.value, load.value, sh.value)
            if printed is None:
                print(NO_TABLE4)
            else:
                print(
                    "the paper's Table 4 (this setting) beside ours"
                    + (": its cell at SH > 0 is the mean over 10 speed vectors" if sh.value else "")
                )
                display(table_html(beside_printed([printed], [gain]), index=True))
                print(table4_reason(printed, gain, n_jobs))
            display(table.style.format(precision=0))
            fig, ax = figure(5, 2.4)
            table["average turnaround (s)"].plot.barh(
                ax=ax, color=[method_colour(m) for m in table.index]
            )
            ax.set_xlabel("average turnaround time (s)")
            show(fig)

    button.on_click(serial(run))
    controls = w.VBox(
        [row([wid, load, sh]), row([vector, depth, adepth]), note, row([button, bar])]
    )
    return w.VBox([controls, out])
