"""Shih et al. 2013 (JPDC 73), TLA: the explorers of notebook 01, Fig. 4's scoring step
on the reconstructed snapshot and a run of BF, FF, AI2 and TLA on a workload of Table 3."""

from __future__ import annotations

import ipywidgets as w
import pandas as pd
from IPython.display import display

from ..multicluster import Cluster, TLAOptions, simulate, tla_scores
from ..papers import shih2013
from ..workloads.transforms import speed_vectors
from .core import figure, live, serial, show, slider

__all__ = ["tla_run_explorer", "tla_snapshot_explorer"]


def tla_snapshot_explorer() -> w.VBox:
    """Fig. 4 live: the waiting jobs' processors and estimates, r2's end; TLA's score of
    each cluster for job 1 (every job's simulated turnaround) and the chosen cluster."""
    waiting = shih2013.SNAPSHOT_WAITING
    procs = [slider(w.IntSlider, j.procs, 1, 9, 1, f"job {k + 1} procs")
             for k, j in enumerate(waiting)]  # fmt: skip
    est = [slider(w.FloatSlider, j.estimate, 0.5, 20, 0.5, f"job {k + 1} estimate")
           for k, j in enumerate(waiting)]  # fmt: skip
    r2_end = slider(w.FloatSlider, 5.0, 0.0, 10.0, 0.5, "r2 end")
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
            fig, ax = figure(6, 2.4)
            table.drop(index="ATT").plot.bar(ax=ax, rot=0)
            ax.set_ylabel("simulated turnaround")
            show(fig)

    live(update, [*procs, *est, r2_end])
    return w.VBox([w.HBox(procs), w.HBox(est), r2_end, out])


def tla_run_explorer(workloads=("A1", "A2", "D1", "E1"), n_jobs: int = 5_000) -> w.VBox:
    """Workload, load, SH, speed vector, simulation and allocation depth; the Run button
    simulates BF, FF, AI2 and TLA on the first ``n_jobs`` jobs (with a progress bar) and
    shows their ATT and TLA's improvement."""
    wid = w.Dropdown(options=list(workloads), value=workloads[0], description="workload")
    load = w.Dropdown(options=list(shih2013.LOADS), value="medium", description="load")
    sh = w.Dropdown(options=list(shih2013.SH_LEVELS), value=0.0, description="SH")
    vector = slider(w.IntSlider, 0, 0, 9, 1, "speed vector")
    depth = slider(w.IntSlider, 0, 0, 500, 1, "simulation depth (0: all)")
    adepth = slider(w.IntSlider, 1, 1, 8, 1, "allocation depth")
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
            fig, ax = figure(5, 2.4)
            table["ATT (s)"].plot.barh(ax=ax)
            ax.set_xlabel("average turnaround time (s)")
            show(fig)

    button.on_click(serial(run))
    controls = w.VBox([w.HBox([wid, load, sh]), w.HBox([vector, depth, adepth]),
                       w.HBox([button, bar])])  # fmt: skip
    return w.VBox([controls, out])
