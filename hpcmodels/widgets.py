"""Interactive explorers for the notebooks (ipywidgets). They only call the models."""

from __future__ import annotations

import html
import io
import threading
from dataclasses import replace

import ipywidgets as w
import numpy as np
import pandas as pd
from IPython.display import Image, display
from matplotlib.figure import Figure

from .papers import he2006
from .papers.report import missing_of
from .queueing import UniformSlack
from .queueing.system import MultiCluster

__all__ = ["allocation_explorer", "bandwidth_explorer", "link_saturation_explorer",
           "mdp_explorer", "policy_explorer", "tla_run_explorer", "tla_snapshot_explorer"]  # fmt: skip


def _serial(run, status: w.HTML | None = None):
    """``run`` as a widget callback that never overlaps itself: widget messages may
    arrive on another kernel thread (JupyterLab's subshells), and two drawings at once
    gave blank charts. A change made during a run is picked up when it ends; ``status``
    shows that a run is under way."""
    lock, again = threading.Lock(), [False]

    def callback(*_):
        again[0] = True
        while again[0] and lock.acquire(blocking=False):
            try:
                while again[0]:
                    again[0] = False
                    if status is not None:
                        status.value = "<i>computing...</i>"
                    run()
            finally:
                if status is not None:
                    status.value = ""
                lock.release()

    return callback


def _status() -> w.HTML:
    return w.HTML(value="", layout=w.Layout(min_width="8em"))


def _figure(width: float, height: float, ncols: int = 1, nrows: int = 1):
    """A figure outside pyplot's global state (safe under concurrent callbacks)."""
    fig = Figure(figsize=(width, height))
    return fig, fig.subplots(nrows, ncols, squeeze=True)


def _slider(kind, value, lo, hi, step, label):
    return kind(
        value=value,
        min=lo,
        max=hi,
        step=step,
        description=label,
        style={"description_width": "initial"},
        continuous_update=False,
    )


def allocation_explorer(
    system: MultiCluster = he2006.TABLE2, workload: float = 0.1, slack_upper: float = 30.0
) -> w.VBox:
    """Sliders for workload, node counts, node speeds and slack; the weighted, ORT and OMR
    fractions and their exact mean response time and miss rate recompute live."""
    load = _slider(w.FloatSlider, workload, 0.02, 0.98, 0.01, "workload")
    slack = _slider(w.FloatSlider, slack_upper, 1, 120, 1, "slack max (s)")
    nodes = [
        _slider(w.IntSlider, m, 1, 64, 1, f"nodes {i + 1}") for i, m in enumerate(system.nodes)
    ]
    speeds = [
        _slider(w.FloatSlider, s, 0.5, 40, 0.5, f"speed {i + 1}")
        for i, s in enumerate(system.speeds)
    ]
    out = w.Output()
    status = _status()

    def update():
        with out:
            out.clear_output(wait=True)
            try:
                sysm = MultiCluster(tuple(n.value for n in nodes), tuple(s.value for s in speeds))
                table = he2006.allocation_summary(sysm, load.value, UniformSlack(0, slack.value))
            except ValueError as err:
                print(f"invalid setting: {err}")
                return
            display(table.round(4))
            fig, ax = _figure(6, 2.6)
            clusters = [c for c in table.columns if c.startswith("cluster")]
            table[clusters].plot.bar(ax=ax, rot=0)
            ax.set_ylabel("fraction of jobs")
            ax.legend(fontsize="small", ncols=len(clusters), loc="lower center",
                      bbox_to_anchor=(0.5, 1.0), frameon=False)  # fmt: skip
            fig.tight_layout()
            _show(fig)

    callback = _serial(update, status)
    for control in [load, slack, *nodes, *speeds]:
        control.observe(callback, names="value")
    callback()
    return w.VBox([w.HBox([load, slack, status]), w.HBox(nodes), w.HBox(speeds), out])


def policy_explorer(jobs, clusters, *, load_factor: float = 1.0, slowdown: float = 1.0) -> w.VBox:
    """Two scheduling configurations side by side on the same jobs: load factor, slowdown
    ratio and (selection, allocation, co-allocation) for each; the metrics and the
    waiting-time distributions recompute on every change (one simulation takes well
    under a second on the SDSC SP2 log)."""
    from .multicluster import ALLOCATIONS, COALLOCATIONS, SELECTIONS, simulate
    from .plots import wait_cdf
    from .workloads.transforms import scale_runtimes

    if reason := missing_of(jobs):  # the log is missing: say so where the explorer would be
        return w.VBox([w.HTML(f"<b>Explorer not run</b>: {html.escape(reason)}")])
    base = jobs[["submit", "runtime", "procs"]]
    lf = _slider(w.FloatSlider, load_factor, 1.0, 4.0, 0.25, "load factor")
    sd = _slider(w.FloatSlider, slowdown, 1.0, 6.0, 0.5, "slowdown ratio")
    coal_names = [c or "none" for c in COALLOCATIONS]

    def config(sel, alloc, coal):
        return [w.Dropdown(options=SELECTIONS, value=sel, description="selection"),
                w.Dropdown(options=ALLOCATIONS, value=alloc, description="allocation"),
                w.Dropdown(options=coal_names, value=coal, description="co-allocation")]  # fmt: skip

    a = config("fcfs", "first_fit", "fixed_order" if len(clusters) > 1 else "none")
    b = config("smallest_first", "best_fit", "larger_first" if len(clusters) > 1 else "none")
    out = w.Output()
    status = _status()

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
            display(pd.DataFrame(rows).T[["mean_wait", "mean_waiting_ratio", "att",
                                          "mean_bounded_slowdown", "utilization"]].round(3))  # fmt: skip
            fig, ax = _figure(6, 4)
            wait_cdf(results, ax=ax, title=f"load factor {lf.value:g}, slowdown {sd.value:g}")
            fig.tight_layout()
            _show(fig)

    callback = _serial(update, status)
    for control in [lf, sd, *a, *b]:
        control.observe(callback, names="value")
    callback()
    return w.VBox([w.HBox([lf, sd, status]), w.HBox(a), w.HBox(b), out])


def mdp_explorer(rho: float = 0.8, p: float = 0.6, mu3: float = 0.7, truncation: int = 30,
                 x1: int = 1) -> w.VBox:  # fmt: skip
    """Sliders for the loads, p, mu3, the costs and Delta; the optimal co-allocation
    policy (modified policy iteration, warm-started from the previous setting while
    Delta stays the same: a few hundredths of a second at Delta = 30, about half a
    second at 100) is recomputed and drawn as a heatmap for the chosen x1."""
    from .mdp import CoallocationMDP, solve
    from .plots import policy_heatmap

    controls = {
        "rho1": _slider(w.FloatSlider, rho, 0.3, 0.95, 0.01, "rho1"),
        "rho2": _slider(w.FloatSlider, rho, 0.3, 0.95, 0.01, "rho2"),
        "p": _slider(w.FloatSlider, p, 0.0, 1.0, 0.05, "p (1-component)"),
        "mu3": _slider(w.FloatSlider, mu3, 0.1, 1.5, 0.05, "mu3"),
        "c1": _slider(w.FloatSlider, 2.0, 0.0, 5.0, 0.5, "c1"),
        "c2": _slider(w.FloatSlider, 1.0, 0.0, 5.0, 0.5, "c2"),
        "truncation": _slider(w.IntSlider, truncation, 5, 100, 1, "Delta"),
        "x1": _slider(w.IntSlider, x1, 0, 1, 1, "x1"),
    }
    out = w.Output()
    status = _status()
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
            fig, ax = _figure(0.38 * (size + 1) + 3.5, 0.3 * size + 1.9)
            policy_heatmap(table, ax=ax,
                           title=f"x1 = {v['x1']}: {sol.iterations} iterations, "
                           f"{sol.seconds:.2f} s (timing)")  # fmt: skip
            fig.tight_layout()
            _show(fig)

    callback = _serial(update, status)
    for control in controls.values():
        control.observe(callback, names="value")
    callback()
    items = list(controls.values())
    return w.VBox([w.HBox(items[:4]), w.HBox([*items[4:], status]), out])


def tla_snapshot_explorer() -> w.VBox:
    """Fig. 4 live: the waiting jobs' processors and estimates, r2's end; TLA's score of
    each cluster for job 1 (every job's simulated turnaround) and the chosen cluster."""
    from .multicluster import tla_scores
    from .papers import shih2013

    waiting = shih2013.SNAPSHOT_WAITING
    procs = [_slider(w.IntSlider, j.procs, 1, 9, 1, f"job {k + 1} procs")
             for k, j in enumerate(waiting)]  # fmt: skip
    est = [_slider(w.FloatSlider, j.estimate, 0.5, 20, 0.5, f"job {k + 1} estimate")
           for k, j in enumerate(waiting)]  # fmt: skip
    r2_end = _slider(w.FloatSlider, 5.0, 0.0, 10.0, 0.5, "r2 end")
    out = w.Output()

    def update():
        with out:
            out.clear_output(wait=True)
            jobs = [j._replace(procs=p.value, estimate=e.value)
                    for j, p, e in zip(waiting, procs, est, strict=True)]  # fmt: skip
            running = list(shih2013.SNAPSHOT_RUNNING)
            running[1] = running[1]._replace(end=r2_end.value)
            scores = tla_scores(list(shih2013.SNAPSHOT_CLUSTERS), running, jobs)
            if not scores:
                print("job 1 fits no cluster now: TLA has nothing to score")
                return
            table = pd.DataFrame({f"job 1 on {c}": s.turnaround for c, s in scores.items()},
                                 index=pd.Index(range(1, 5), name="job"))  # fmt: skip
            table.loc["ATT"] = [s.att for s in scores.values()]
            best = min(scores, key=lambda c: scores[c].att)
            print(f"TLA allocates job 1 to cluster {best}")
            display(table)
            fig, ax = _figure(6, 2.4)
            table.drop(index="ATT").plot.bar(ax=ax, rot=0)
            ax.set_ylabel("simulated turnaround")
            fig.tight_layout()
            _show(fig)

    callback = _serial(update)
    for control in [*procs, *est, r2_end]:
        control.observe(callback, names="value")
    callback()
    return w.VBox([w.HBox(procs), w.HBox(est), r2_end, out])


def tla_run_explorer(workloads=("A1", "A2", "D1", "E1"), n_jobs: int = 5_000) -> w.VBox:
    """Workload, load, SH, speed vector, simulation and allocation depth; the Run button
    simulates BF, FF, AI2 and TLA on the first ``n_jobs`` jobs (with a progress bar) and
    shows their ATT and TLA's improvement."""
    from .multicluster import Cluster, TLAOptions, simulate
    from .papers import shih2013
    from .workloads.transforms import speed_vectors

    wid = w.Dropdown(options=list(workloads), value=workloads[0], description="workload")
    load = w.Dropdown(options=list(shih2013.LOADS), value="medium", description="load")
    sh = w.Dropdown(options=list(shih2013.SH_LEVELS), value=0.0, description="SH")
    vector = _slider(w.IntSlider, 0, 0, 9, 1, "speed vector")
    depth = _slider(w.IntSlider, 0, 0, 500, 1, "simulation depth (0: all)")
    adepth = _slider(w.IntSlider, 1, 1, 8, 1, "allocation depth")
    button = w.Button(description="Run", button_style="primary")
    bar = w.IntProgress(value=0, min=0, max=len(shih2013.METHODS), description="runs")
    out = w.Output()

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
            clusters = [Cluster(f"c{i}", p, s)
                        for i, (p, s) in enumerate(zip(spec.clusters, speeds, strict=True))]  # fmt: skip
            opts = TLAOptions(depth=depth.value or None, allocation_depth=adepth.value)
            att = {}
            bar.value = 0
            for name, allocation in shih2013.METHODS.items():
                att[name] = simulate(jobs, clusters, "fcfs", allocation, tla=opts).metrics["att"]
                bar.value += 1
            table = pd.Series(att, name="ATT (s)").to_frame()
            best = min(att["BF"], att["FF"], att["AI2"])
            print(f"speeds {', '.join(f'{s:.2f}' for s in speeds)}; TLA improvement over the "
                  f"best of BF, FF, AI2: {100 * (best - att['TLA']) / best:.1f} %")  # fmt: skip
            display(table.round(0))
            fig, ax = _figure(5, 2.4)
            table["ATT (s)"].plot.barh(ax=ax)
            ax.set_xlabel("average turnaround time (s)")
            fig.tight_layout()
            _show(fig)

    button.on_click(_serial(run))
    controls = w.VBox([w.HBox([wid, load, sh]), w.HBox([vector, depth, adepth]),
                       w.HBox([button, bar])])  # fmt: skip
    return w.VBox([controls, out])


def _show(fig: Figure) -> None:
    """Display a pyplot-free figure as a PNG (no global pyplot state: safe when widget
    messages arrive on another thread)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    display(Image(data=buffer.getvalue(), format="png"))


# three hand-placed co-allocated jobs over three clusters (Jones 2005, Figs. 5-7): nodes
# of each job on each cluster
LINK_PICTURE_JOBS = ((3, 2, 1), (4, 4, 0), (0, 5, 5))


def link_saturation_explorer(jobs=LINK_PICTURE_JOBS, bsbw: float = 400.0,
                             link_mbps: float = 1000.0) -> w.VBox:  # fmt: skip
    """Jones 2005, Figs. 5-7 live: place each job's nodes on three clusters; every link's
    required bandwidth (Eq. 1 with Eq. 8's PPBW), the allotment of Steps 1-5 and each
    job's slowdown factor (Eq. 5) recompute at once."""
    from .bandwidth import allot_bandwidth, link_demand, ppbw_from_bsbw, slowdown_factors

    m = len(jobs[0])
    nodes = [[_slider(w.IntSlider, n, 0, 20, 1, f"job {k + 1} on C{i + 1}")
              for i, n in enumerate(job)] for k, job in enumerate(jobs)]  # fmt: skip
    bw = _slider(w.FloatSlider, bsbw, 0, 2000, 50, "BSBW (Mbps)")
    cap = _slider(w.FloatSlider, link_mbps, 100, 2000, 50, "link capacity (Mbps)")
    out = w.Output()

    def update():
        with out:
            out.clear_output(wait=True)
            split = np.array([[s.value for s in row] for row in nodes])
            total = split.sum(axis=1)
            demand = np.array([[link_demand(n, max(t, 1), ppbw_from_bsbw(bw.value, max(t, 1)))
                                for n in row] for row, t in zip(split, total, strict=True)])  # fmt: skip
            allotted = allot_bandwidth(demand, np.full(m, cap.value))
            sd = slowdown_factors(demand, allotted)
            links = [f"C{i + 1}" for i in range(m)]
            table = pd.DataFrame(
                {"nodes": [" + ".join(map(str, row)) for row in split],
                 **{f"{c} required": demand[:, i] for i, c in enumerate(links)},
                 **{f"{c} allotted": allotted[:, i] for i, c in enumerate(links)},
                 "slowdown factor sd": sd},
                index=pd.Index([f"job {k + 1}" for k in range(len(split))], name="job"))  # fmt: skip
            saturated = [c for i, c in enumerate(links) if demand[:, i].sum() > cap.value]
            print("saturated links: " + (", ".join(saturated) if saturated else "none"))
            display(table.round(3))
            fig = Figure(figsize=(7, 2.6))
            axes = fig.subplots(1, 2, sharey=True)
            for ax, data, title in ((axes[0], demand, "required"), (axes[1], allotted, "allotted")):
                bottom = np.zeros(m)
                for k in range(len(split)):
                    ax.bar(links, data[k], bottom=bottom, label=f"job {k + 1}")
                    bottom += data[k]
                ax.axhline(cap.value, color="k", ls="--", lw=1)
                ax.set_title(f"{title} bandwidth per link")
            axes[0].set_ylabel("Mbps")
            axes[1].legend(fontsize=7)
            fig.tight_layout()
            _show(fig)

    callback = _serial(update)
    for control in [*(s for row in nodes for s in row), bw, cap]:
        control.observe(callback, names="value")
    callback()
    rows = [w.HBox(row) for row in nodes]
    return w.VBox([*rows, w.HBox([bw, cap]), out])


def bandwidth_explorer(jobs_per_cluster: int = 5_000, *, bsbw: float = 500.0, lslt: float = 1.0,
                       chunk: float = 0.8, clusters: int = 4) -> w.VBox:  # fmt: skip
    """Jones 2005, Section 6 at a glance: BSBW, LSLT, B3's chunk and the number of
    clusters; every strategy runs on the same Section 6.1 workload (``jobs_per_cluster``
    jobs per cluster, the first change or so takes a second) and a table and a chart of
    their average turnaround times redraw, with a progress bar while they run."""
    from .bandwidth import SECTION6, run_point

    strategies = ("no_share", "migration_only", "ideal", "first_fit", "a1", "b1", "b2", "b3", "b4")
    bw = _slider(w.FloatSlider, bsbw, 100, 1000, 50, "BSBW (Mbps)")
    level = _slider(w.FloatSlider, lslt, 0.4, 1.2, 0.1, "LSLT")
    chunk_size = _slider(w.FloatSlider, chunk, 0.5, 0.95, 0.05, "B3 chunk")
    count = _slider(w.IntSlider, clusters, 2, 8, 1, "clusters")
    bar = w.IntProgress(value=0, min=0, max=len(strategies), description="runs")
    out = w.Output()
    status = _status()

    def _run():
        setup = replace(SECTION6, clusters=count.value, jobs_per_cluster=jobs_per_cluster)
        bar.value = 0
        rows = []
        for st in strategies:
            rows.append(run_point(st, setup, bsbw=bw.value, lslt=level.value,
                                  chunk=chunk_size.value))  # fmt: skip
            bar.value += 1
        table = pd.DataFrame(rows).set_index("strategy")[
            ["att", "mean_wait", "coallocated", "penalty", "max_link_level"]
        ]
        with out:
            out.clear_output(wait=True)
            best = table.loc[["a1", "b1", "b2", "b3", "b4"], "att"].idxmin()
            print(f"BSBW {bw.value:.0f} Mbps, LSLT {level.value:.0%}, chunk {chunk_size.value:.0%}, "
                  f"{count.value} clusters: best module {best.upper()}")  # fmt: skip
            display(table.round(3))
            fig, ax = _figure(7, 2.6)
            ax.bar(table.index, table["att"], color="tab:blue")
            for name, style in (("migration_only", "--"), ("ideal", ":")):
                ax.axhline(table.loc[name, "att"], color="k", ls=style, lw=1,
                           label=name.replace("_", " "))  # fmt: skip
            top = 2.5 * table.loc["migration_only", "att"]
            ax.set_ylim(0, top)
            for x, value in enumerate(table["att"]):
                if value > top:  # an unstable strategy: say how far off the chart it is
                    ax.text(x, 0.93 * top, f"{value:.0f}", ha="center", fontsize=7, rotation=90,
                            va="top", color="white")  # fmt: skip
            ax.set_ylabel("average turnaround (s)")
            ax.legend(fontsize=7)
            ax.tick_params(axis="x", labelsize=7)
            fig.tight_layout()
            _show(fig)

    callback = _serial(_run, status)
    for control in (bw, level, chunk_size, count):
        control.observe(callback, names="value")
    callback()
    return w.VBox([w.HBox([bw, level]), w.HBox([chunk_size, count, bar, status]), out])
