"""Interactive explorers for the notebooks (ipywidgets). They only call the models."""

from __future__ import annotations

import ipywidgets as w
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import display

from .papers import he2006
from .queueing import UniformSlack
from .queueing.system import MultiCluster

__all__ = ["allocation_explorer", "mdp_explorer", "policy_explorer", "tla_run_explorer",
           "tla_snapshot_explorer"]  # fmt: skip


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

    def update(*_):
        with out:
            out.clear_output(wait=True)
            try:
                sysm = MultiCluster(tuple(n.value for n in nodes), tuple(s.value for s in speeds))
                table = he2006.allocation_summary(sysm, load.value, UniformSlack(0, slack.value))
            except ValueError as err:
                print(f"invalid setting: {err}")
                return
            display(table.round(4))
            fig, ax = plt.subplots(figsize=(6, 2.6))
            clusters = [c for c in table.columns if c.startswith("cluster")]
            table[clusters].plot.bar(ax=ax, rot=0)
            ax.set_ylabel("fraction of jobs")
            ax.legend(fontsize="small", ncols=len(clusters))
            plt.show()

    for control in [load, slack, *nodes, *speeds]:
        control.observe(update, names="value")
    update()
    return w.VBox([w.HBox([load, slack]), w.HBox(nodes), w.HBox(speeds), out])


def policy_explorer(jobs, clusters, *, load_factor: float = 1.0, slowdown: float = 1.0) -> w.VBox:
    """Two scheduling configurations side by side on the same jobs: load factor, slowdown
    ratio and (selection, allocation, co-allocation) for each; the metrics and the
    waiting-time distributions recompute on every change (one simulation takes well
    under a second on the SDSC SP2 log)."""
    from .multicluster import ALLOCATIONS, COALLOCATIONS, SELECTIONS, simulate
    from .plots import wait_cdf
    from .workloads.transforms import scale_runtimes

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

    def update(*_):
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
            wait_cdf(results, title=f"load factor {lf.value:g}, slowdown {sd.value:g}")
            plt.show()

    for control in [lf, sd, *a, *b]:
        control.observe(update, names="value")
    update()
    return w.VBox([w.HBox([lf, sd]), w.HBox(a), w.HBox(b), out])


def mdp_explorer(rho: float = 0.8, p: float = 0.6, mu3: float = 0.7, truncation: int = 30,
                 x1: int = 1) -> w.VBox:  # fmt: skip
    """Sliders for the loads, p, mu3, the costs and Delta; the optimal co-allocation
    policy (value iteration, well under a second at Delta = 30) is recomputed and drawn
    as a heatmap for the chosen x1."""
    from .mdp import CoallocationMDP
    from .plots import policy_heatmap

    controls = {
        "rho1": _slider(w.FloatSlider, rho, 0.3, 0.95, 0.01, "rho1"),
        "rho2": _slider(w.FloatSlider, rho, 0.3, 0.95, 0.01, "rho2"),
        "p": _slider(w.FloatSlider, p, 0.0, 1.0, 0.05, "p (1-component)"),
        "mu3": _slider(w.FloatSlider, mu3, 0.1, 1.5, 0.05, "mu3"),
        "c1": _slider(w.FloatSlider, 2.0, 0.0, 5.0, 0.5, "c1"),
        "c2": _slider(w.FloatSlider, 1.0, 0.0, 5.0, 0.5, "c2"),
        "truncation": _slider(w.IntSlider, truncation, 5, 60, 1, "Delta"),
        "x1": _slider(w.IntSlider, x1, 0, 1, 1, "x1"),
    }
    out = w.Output()

    def update(*_):
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
            sol = mdp.solve()
            size = min(15, v["truncation"])
            policy_heatmap(sol.policy_table(v["x1"], size, size),
                           title=f"x1 = {v['x1']}: {sol.iterations} iterations, "
                           f"{sol.seconds:.2f} s (timing)")  # fmt: skip
            plt.show()

    for control in controls.values():
        control.observe(update, names="value")
    update()
    items = list(controls.values())
    return w.VBox([w.HBox(items[:4]), w.HBox(items[4:]), out])


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

    def update(*_):
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
            fig, ax = plt.subplots(figsize=(6, 2.4))
            table.drop(index="ATT").plot.bar(ax=ax, rot=0)
            ax.set_ylabel("simulated turnaround")
            plt.show()

    for control in [*procs, *est, r2_end]:
        control.observe(update, names="value")
    update()
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

    def run(*_):
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
            fig, ax = plt.subplots(figsize=(5, 2.4))
            table["ATT (s)"].plot.barh(ax=ax)
            ax.set_xlabel("average turnaround time (s)")
            plt.show()

    button.on_click(run)
    controls = w.VBox([w.HBox([wid, load, sh]), w.HBox([vector, depth, adepth]),
                       w.HBox([button, bar])])  # fmt: skip
    return w.VBox([controls, out])
