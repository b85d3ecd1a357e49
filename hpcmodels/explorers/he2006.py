"""He et al. 2006 (IEEE TPDS 17(2)): the allocation explorer of notebook 03."""

from __future__ import annotations

import ipywidgets as w
import pandas as pd
from IPython.display import display

from ..errors import InvalidParameter, InvalidType, check_frame
from ..papers import he2006
from ..queueing import UniformSlack
from ..queueing.system import MultiCluster
from .core import figure, live, row, show, slider, status_line

__all__ = ["allocation_explorer", "beside_paper"]

NO_PAPER_FRACTIONS = (
    "the paper prints no fractions at this setting: Table 3 is this system (nodes 3, 5, 7, "
    "9 at speeds 20, 16, 12, 8) at workload 0.1, slack max 30 s; Table 4 is four clusters "
    "of 4 nodes at speeds (21, 1, 1, 1), (18, 2, 2, 2) or (15, 3, 3, 3), workload 0.5, "
    "slack max 10 s"
)


def beside_paper(ours: pd.DataFrame, paper: pd.DataFrame) -> pd.DataFrame:
    """Per strategy (rows) and cluster (columns): ours (4 decimals), the paper's value as
    printed and the difference ours - paper (signed, 4 decimals), as text rows
    "<strategy>: ours / paper / difference". ``paper`` is a DataFrame of numbers indexed
    by strategy, each once (:func:`hpcmodels.papers.he2006.published_fractions`), ``ours`` one
    holding its every strategy (row) and cluster (column) as finite numbers; else an
    :class:`~hpcmodels.errors.InvalidParameter` naming the argument."""
    clusters = list(check_frame("paper", paper, []).columns)
    check_frame("paper", paper, clusters, numeric=clusters)
    check_frame("ours", ours, clusters, numeric=clusters)
    if paper.index.duplicated().any():
        raise InvalidParameter(f"paper holds a strategy twice: {list(paper.index)}")
    lacking = [s for s in paper.index if s not in ours.index]
    if lacking:
        raise InvalidParameter(f"ours lacks the paper's strateg(ies) {lacking} (rows)")
    rows = {}
    for strategy in paper.index:
        mine, printed = ours.loc[strategy], paper.loc[strategy]
        rows[f"{strategy}: ours"] = mine.map(lambda x: f"{x:.4f}")
        rows[f"{strategy}: paper"] = printed.map(lambda x: f"{x:g}")
        rows[f"{strategy}: difference"] = (mine - printed).map(lambda x: f"{x:+.4f}")
    return pd.DataFrame(rows).T


def allocation_explorer(
    system: MultiCluster = he2006.TABLE2, workload: float = 0.1, slack_upper: float = 30.0
) -> w.VBox:
    """Sliders for workload, node counts, node speeds and slack; the weighted, ORT and OMR
    fractions and their exact mean response time and miss rate recompute live. At the
    settings of the paper's Tables 3 and 4 its printed fractions are shown beside ours
    with the difference; elsewhere one line says where they are.

    ``system`` is a :class:`~hpcmodels.queueing.system.MultiCluster`; every argument
    sets a slider and must lie in its range: ``workload`` in [0.02, 0.98],
    ``slack_upper`` in [1, 120] s, each of ``system.nodes`` a whole number in [1, 64],
    each of ``system.speeds`` in [0.5, 40]; else an
    :class:`~hpcmodels.errors.InvalidParameter` naming the argument, the value and the
    range."""
    if not isinstance(system, MultiCluster):
        raise InvalidType(f"system must be a MultiCluster, got {type(system).__name__}")
    load = slider(
        w.FloatSlider,
        workload,
        0.02,
        0.98,
        0.01,
        "workload (share of capacity)",
        "the arrival rate as a share of the rate that saturates the whole system",
        name="workload",
    )
    slack = slider(
        w.FloatSlider,
        slack_upper,
        1,
        120,
        1,
        "slack max (s)",
        "jobs' slack is uniform on [0, max] seconds: the wait a soft real-time job "
        "tolerates; changes OMR and the miss rates only",
        name="slack_upper",
    )
    nodes = [
        slider(
            w.IntSlider,
            m,
            1,
            64,
            1,
            f"nodes {i + 1}",
            f"nodes of cluster {i + 1}",
            name=f"system.nodes[{i}]",
        )
        for i, m in enumerate(system.nodes)
    ]
    speeds = [
        slider(
            w.FloatSlider,
            s,
            0.5,
            40,
            0.5,
            f"speed {i + 1} (jobs/s per node)",
            f"service rate of one node of cluster {i + 1}",
            name=f"system.speeds[{i}]",
        )
        for i, s in enumerate(system.speeds)
    ]
    out = w.Output()
    status = status_line()

    def update():
        with out:
            out.clear_output(wait=True)
            try:
                sysm = MultiCluster(tuple(n.value for n in nodes), tuple(s.value for s in speeds))
                table = he2006.allocation_summary(sysm, load.value, UniformSlack(0, slack.value))
            except ValueError as err:
                print(f"invalid setting: {err}")
                return
            clusters = [c for c in table.columns if c.startswith("cluster")]
            printed = he2006.published_fractions(sysm, load.value, slack.value)
            if printed is None:
                print(NO_PAPER_FRACTIONS)
            else:
                name, paper = printed
                print(f"the paper's {name} (this setting): its fractions beside ours")
                display(beside_paper(table[clusters].loc[paper.index], paper))
            display(table.style.format(precision=4))
            fig, ax = figure(6, 2.6)
            table[clusters].plot.bar(ax=ax, rot=0)
            ax.set_ylabel("fraction of jobs")
            ax.legend(
                fontsize="small",
                ncols=len(clusters),
                loc="lower center",
                bbox_to_anchor=(0.5, 1.0),
                frameon=False,
            )
            show(fig)

    live(update, [load, slack, *nodes, *speeds], status)
    return w.VBox([row([load, slack, status]), row(nodes), row(speeds), out])
