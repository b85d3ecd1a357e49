"""Figures for the notebooks: curves with confidence intervals, paper-vs-ours bars.

Plotting only; every number comes from the models. Figures are saved as
``<figures_dir>/<paper>_<item>.png`` by :func:`save`.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.ticker import MaxNLocator

from .errors import InvalidParameter, InvalidType, check_bool, check_frame, check_path

__all__ = [
    "use_style",
    "curves",
    "panel_pair",
    "paper_vs_ours_bars",
    "save",
    "log_distributions",
    "table_lines",
    "wait_cdf",
    "policy_heatmap",
    "penalty_panels",
    "module_lines",
    "surface_panels",
    "win_map_panels",
    "tornado",
    "METHOD_COLOURS",
    "method_colour",
]

CI_COLUMN = {"mean_response": "response_ci", "miss_rate": "miss_ci"}
LABELS = {
    "mean_response": "mean response time (s)",
    "miss_rate": "mean miss rate",
    "workload": "workload (fraction of saturation)",
    "speeds": "node speeds [cluster 1, clusters 2-4]",
    "nodes": "nodes [cluster 1, clusters 2-4]",
    "slack_upper": "slack upper limit (s)",
    "cv": "CV of inter-arrival times",
    "change": "workload change from the initial level",
}


# One colour per method across the suite: the apps, the explorers and the notebooks'
# figures. Distinct within each group that is drawn together (notebook 06's allocation
# and co-allocation groups, He's eight algorithms, Jones's strategies and modules); a
# name a paper spells otherwise is an alias of the same method (METHOD_ALIASES).
METHOD_COLOURS = {
    # allocators (Shih 2013, Huang 2006) and dispatchers (He 2006)
    "TLA": "#d55e00",
    "AI2": "#0072b2",
    "Fastest First": "#009e73",
    "Best Fit": "#cc79a7",
    "First Fit": "#e69f00",
    "Worst Fit": "#56b4e9",
    "Median Fit": "#8c564b",
    "Median Fit (upper median)": "#c49c94",
    "Random Fit": "#7f7f7f",
    "ORT, round robin": "#17becf",
    "ORT, random": "#9edae5",
    "OMR, round robin": "#2ca02c",
    "OMR, random": "#98df8a",
    "Weighted, round robin": "#bcbd22",
    "Weighted, random": "#dbdb8d",
    "DLL": "#d62728",
    "DLM": "#ff9896",
    "Round robin": "#9467bd",
    "Random": "#c5b0d5",
    # co-allocators (Jones 2005, Huang 2006)
    "No Share": "#000000",
    "Migration Only": "#1f77b4",
    "Ideal": "#aec7e8",
    "Jones First-Fit": "#ff7f0e",
    "A1": "#2ca02c",
    "A2": "#98df8a",
    "B1": "#d62728",
    "B2": "#ff9896",
    "B3": "#9467bd",
    "B4": "#c5b0d5",
    "Best Fit, no co-allocation": "#cc79a7",  # Best Fit's colour: the same allocator
    "Fixed Order": "#8c564b",
    "Smaller First": "#56b4e9",
    "Larger First": "#e69f00",
    "Integrated": "#009e73",
}
METHOD_ALIASES = {
    "BF": "Best Fit",
    "FF": "Fastest First",
    "ORT-RR": "ORT, round robin",
    "ORT-Rand": "ORT, random",
    "OMR-RR": "OMR, round robin",
    "OMR-Rand": "OMR, random",
    "W-RR": "Weighted, round robin",
    "W-Rand": "Weighted, random",
    "First-Fit": "Jones First-Fit",
    # the engine's names
    "tla": "TLA",
    "ai2": "AI2",
    "fastest_first": "Fastest First",
    "best_fit": "Best Fit",
    "first_fit": "First Fit",
    "worst_fit": "Worst Fit",
    "median_fit": "Median Fit",
    "median_fit_upper": "Median Fit (upper median)",
    "random_fit": "Random Fit",
    "no_share": "No Share",
    "migration_only": "Migration Only",
    "ideal": "Ideal",
    "fixed_order": "Fixed Order",
    "smaller_first": "Smaller First",
    "larger_first": "Larger First",
}


def method_colour(name: str) -> str | None:
    """The suite's colour of method ``name`` (:data:`METHOD_COLOURS`, a paper's own
    spelling through :data:`METHOD_ALIASES`, e.g. Shih's "BF" is "Best Fit"); ``None``
    for a label that is no method (matplotlib then takes its next colour). ``name``
    must be text, else an :class:`~hpcmodels.errors.InvalidType` naming ``name``."""
    if not isinstance(name, str):
        raise InvalidType(f"name must be a method's name (text), got {name!r:.80}")
    return METHOD_COLOURS.get(METHOD_ALIASES.get(name, name))


def use_style() -> None:
    """The house style: seaborn's whitegrid with a colour-blind palette, and in a
    notebook every table as :mod:`hpcmodels.tables` shows it ("—" for a missing value,
    one precision per column, no row numbers, never wider than the page)."""
    from .tables import use_tables

    sns.set_theme(style="whitegrid", palette="colorblind", context="notebook")
    use_tables()


def curves(
    df: pd.DataFrame,
    x: str,
    metric: str,
    algorithms: list[str] | None = None,
    *,
    ax: plt.Axes | None = None,
    title: str | None = None,
    analytic: bool = False,
    hue: str = "algorithm",
) -> plt.Axes:
    """One line per algorithm with 95 % confidence bars; categorical ``x`` kept in order.

    With ``analytic=True`` the M/M/m prediction for the same fractions under random
    dispatch is drawn dashed next to each simulated curve (``analytic`` is a bool).
    """
    analytic = check_bool("analytic", analytic)
    ax = ax or plt.subplots(figsize=(6, 4))[1]
    groups = algorithms or list(dict.fromkeys(df[hue]))
    categorical = df[x].dtype == object
    order = list(dict.fromkeys(df[x]))
    for name in groups:
        part = df[df[hue] == name]
        xs = [order.index(v) for v in part[x]] if categorical else part[x]
        line = ax.errorbar(
            xs,
            part[metric],
            yerr=part[CI_COLUMN.get(metric, metric)],
            marker="o",
            ms=4,
            capsize=3,
            label=name,
            color=method_colour(str(name)),
        )
        model = {"mean_response": "analytic_response", "miss_rate": "analytic_miss"}[metric]
        if analytic and part[model].notna().any():
            ax.plot(xs, part[model], ls="--", lw=1, color=line[0].get_color(), alpha=0.7)
    if categorical:
        ax.set_xticks(range(len(order)), order)
    ax.set_xlabel(LABELS.get(x, x))
    ax.set_ylabel(LABELS.get(metric, metric))
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small")
    return ax


def panel_pair(
    df: pd.DataFrame,
    x: str,
    left: tuple[str, list[str]],
    right: tuple[str, list[str]],
    titles: tuple[str, str],
    analytic: bool = False,
) -> plt.Figure:
    """Two panels side by side (the papers' "(a)" and "(b)"); ``analytic`` (a bool) as
    :func:`curves`."""
    analytic = check_bool("analytic", analytic)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    for ax, (metric, algos), title in zip(axes, (left, right), titles, strict=True):
        curves(df, x, metric, algos, ax=ax, title=title, analytic=analytic)
    fig.tight_layout()
    return fig


def paper_vs_ours_bars(rows: pd.DataFrame, title: str) -> plt.Figure:
    """Grouped bars: the paper's value and ours for every quantity of a table."""
    fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(rows)), 4))
    xs = np.arange(len(rows))
    ax.bar(xs - 0.2, rows["paper"].astype(float), 0.4, label="paper")
    ax.bar(xs + 0.2, rows["ours"].astype(float), 0.4, label="ours")
    ax.set_xticks(xs, rows["quantity"], rotation=60, ha="right", fontsize="small")
    ax.set_ylabel("fraction of jobs")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    return fig


def show(fig: plt.Figure) -> None:
    """Lay out a figure made outside pyplot (``matplotlib.figure.Figure``) and display it
    as a PNG: IPython shows such a figure only as text otherwise. No global pyplot state,
    so it is safe when widget messages arrive on another thread. ``fig`` is a matplotlib
    figure, else an :class:`~hpcmodels.errors.InvalidType`."""
    import io

    from IPython.display import Image, display
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):
        raise InvalidType(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    display(Image(data=buffer.getvalue(), format="png"))


def save(fig: plt.Figure, name: str, figures_dir: str | Path) -> Path:
    """Save ``fig`` as ``<figures_dir>/<name>.png`` (150 dpi) and return the path.
    ``figures_dir`` is a non-empty ``str`` or ``os.PathLike`` naming a folder (``""``, a
    bool or None is an :class:`~hpcmodels.errors.InvalidParameter` naming it)."""
    out = check_path("figures_dir", figures_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.png"
    fig.savefig(path, dpi=150, bbox_inches="tight", metadata={"Software": None})
    return path


def log_distributions(frame: pd.DataFrame, title: str = "") -> plt.Figure:
    """Job-size and runtime distributions of a workload (log-scaled histograms, seaborn),
    with processors on a log2 axis so the preference for powers of two shows."""
    procs = frame["procs"].fillna(frame["req_procs"]).dropna()
    runtime = frame["runtime"].dropna()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4))
    sns.histplot(procs[procs > 0], log_scale=2, discrete=False, bins=40, ax=axes[0])
    axes[0].set(xlabel="processors", ylabel="jobs", title="job size")
    sns.histplot(runtime[runtime > 0], log_scale=10, bins=50, ax=axes[1])
    axes[1].set(xlabel="runtime (s)", ylabel="jobs", title="runtime")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def table_lines(
    ours: pd.DataFrame,
    paper: pd.DataFrame,
    title: str,
    ylabel: str,
    *,
    logy: bool = False,
    ax: plt.Axes | None = None,
) -> plt.Axes:
    """A paper table against ours: one colour per column, ours solid, paper dashed;
    ``logy`` (a bool): a logarithmic y axis."""
    logy = check_bool("logy", logy)
    ax = ax or plt.subplots(figsize=(6.5, 4))[1]
    for column in paper.columns:
        line = ax.plot(
            ours.index,
            ours[column].astype(float),
            marker="o",
            label=f"{column}",
            color=method_colour(str(column)),
        )
        ax.plot(
            paper.index,
            paper[column].astype(float),
            ls="--",
            marker="x",
            color=line[0].get_color(),
            alpha=0.7,
        )
    ax.set(title=title, xlabel=ours.index.name or "", ylabel=ylabel + " (solid ours, dashed paper)")
    if logy:
        ax.set_yscale("log")
    ax.legend(fontsize="small")
    return ax


def wait_cdf(results: dict, ax: plt.Axes | None = None, title: str = "") -> plt.Axes:
    """Empirical CDF of the waiting times of several simulation results (``Result``)."""
    ax = ax or plt.subplots(figsize=(6, 4))[1]
    for label, result in results.items():
        wait = np.sort((result.jobs["start"] - result.jobs["submit"]).to_numpy())
        ax.step(np.maximum(wait, 1.0), np.arange(1, wait.size + 1) / wait.size, label=label)
    ax.set_xscale("log")
    ax.set(xlabel="waiting time (s; < 1 s shown at 1 s)", ylabel="fraction of jobs", title=title)
    ax.legend(fontsize="small")
    return ax


def policy_heatmap(
    ours: pd.DataFrame, paper: np.ndarray | None = None, title: str = "", ax: plt.Axes | None = None
) -> plt.Axes:
    """A 0/1 policy table (rows q1, columns q2) as a heatmap; with ``paper``, the cells
    where the paper's table differs are marked with a cross."""
    ax = ax or plt.subplots(figsize=(0.38 * ours.shape[1] + 2, 0.3 * ours.shape[0] + 1.5))[1]
    sns.heatmap(
        ours,
        cmap=["#f2f2f2", "#3a78b5"],
        vmin=0,
        vmax=1,
        cbar=False,
        linewidths=0.5,
        linecolor="white",
        ax=ax,
    )
    if paper is not None:
        for i, j in zip(*np.nonzero(ours.to_numpy() != paper), strict=True):
            ax.text(
                j + 0.5,
                i + 0.5,
                "x",
                ha="center",
                va="center",
                color="#d62728",
                fontsize=11,
                fontweight="bold",
            )
    ax.set(title=title or "optimal action", xlabel="q2", ylabel="q1")
    from matplotlib.patches import Patch

    ax.legend(
        handles=[
            Patch(color="#3a78b5", label="co-allocate"),
            Patch(color="#f2f2f2", label="wait (do not co-allocate)"),
        ],
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
        fontsize="small",
        frameon=False,
    )
    return ax


LIMIT_ORDER = ("no_share", "migration_only", "ideal")  # drawn solid, dashed, dotted


def _limit_lines(ax: plt.Axes, limits: dict[str, float]) -> None:
    for (name, value), style in zip(limits.items(), ("-", "--", ":"), strict=False):
        ax.axhline(value, color="k", ls=style, lw=1, label=name.replace("_", " "))


def penalty_panels(curves: pd.DataFrame, limits: pd.DataFrame) -> plt.Figure:
    """Jones 2005, Figs. 9-11: average turnaround time against the mean co-allocation
    penalty, dynamic and fixed models, one panel per cluster count, with the No Share,
    Migration Only and Ideal limits (turnaround clipped at twice No Share)."""
    counts = sorted(curves["clusters"].unique())
    fig, axes = plt.subplots(1, len(counts), figsize=(5 * len(counts), 3.8), squeeze=False)
    for ax, m in zip(axes[0], counts, strict=True):
        lim = limits[limits["clusters"] == m].set_index("strategy")["att"]
        lim = lim.reindex([s for s in LIMIT_ORDER if s in lim.index])  # one style per limit
        for model, grp in curves[curves["clusters"] == m].groupby("model"):
            grp = grp.sort_values("penalty")
            ax.plot(grp["penalty"], grp["att"], marker="o", ms=3, label=f"First-Fit, {model}")
        _limit_lines(ax, lim.to_dict())
        ax.set_ylim(0, 2 * lim["no_share"])
        ax.set_xlabel("mean co-allocation penalty")
        ax.set_title(f"{m} clusters")
    axes[0][0].set_ylabel("average turnaround time (s)")
    axes[0][-1].legend(fontsize=8)
    fig.tight_layout()
    return fig


def module_lines(
    frame: pd.DataFrame,
    x: str,
    limits: dict[str, float],
    ax: plt.Axes,
    title: str = "",
    cap: float | None = None,
) -> plt.Axes:
    """Turnaround time of each column of ``frame`` (index: ``x``) with horizontal limits;
    values above ``cap`` are drawn at the cap (an unstable run)."""
    for label in frame.columns:
        values = frame[label] if cap is None else frame[label].clip(upper=cap)
        ax.plot(frame.index, values, marker="o", ms=3, label=label)
    _limit_lines(ax, limits)
    if cap is not None:
        ax.set_ylim(0, cap)
    ax.set_xlabel(x)
    ax.set_title(title)
    return ax


def cut_panels(
    sections: dict[str, pd.DataFrame], limits: dict[str, float], cap: float | None = None
) -> plt.Figure:
    """Jones 2005, Figs. 22-27: one column per cut (``sections``: title -> ATT frame,
    index BSBW or LSLT, one column per module, as ``jones2005.cuts`` gives), every module
    but B3 (with B3 at 80 %) above, B3's chunks below; ``limits`` drawn across."""
    fig, axes = plt.subplots(2, len(sections), figsize=(16, 7.5), squeeze=False)
    for col, (title, frame) in enumerate(sections.items()):
        b3 = [c for c in frame.columns if c.startswith("B3")]
        others = [c for c in frame.columns if c not in b3] + [c for c in b3 if "80" in c]
        x = "BSBW (Mbps)" if title.startswith("LSLT") else "LSLT"
        for row, labels in enumerate((others, b3)):
            module_lines(frame[labels], x, limits, axes[row, col], title, cap=cap)
    for row in range(2):
        axes[row, 0].set_ylabel("average turnaround time (s)")
        axes[row, -1].legend(fontsize=7)
    fig.tight_layout()
    return fig


def surface_panels(surf: pd.DataFrame, labels: list[str]) -> plt.Figure:
    """Jones 2005, Figs. 14-21: average turnaround time over BSBW x LSLT, one heat map per
    module on a shared colour scale."""
    n = len(labels)
    cols = 4
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), squeeze=False)
    pivots = {
        lab: surf[surf["label"] == lab].pivot(index="lslt", columns="bsbw", values="att")
        for lab in labels
    }
    vmin = min(p.to_numpy().min() for p in pivots.values())
    vmax = np.percentile(np.concatenate([p.to_numpy().ravel() for p in pivots.values()]), 95)
    for ax, lab in zip(axes.ravel(), labels, strict=False):
        p = pivots[lab].sort_index(ascending=False)
        sns.heatmap(
            p,
            ax=ax,
            vmin=vmin,
            vmax=vmax,
            cmap="viridis",
            cbar=True,
            xticklabels=[f"{b:.0f}" for b in p.columns],
            yticklabels=[f"{x:.0%}" for x in p.index],
        )
        ax.set_title(lab)
        ax.set_xlabel("BSBW (Mbps)")
        ax.set_ylabel("LSLT")
    for ax in axes.ravel()[n:]:
        ax.axis("off")
    fig.tight_layout()
    return fig


def _colours(labels) -> list[str]:
    """The suite's colour of each of ``labels`` (methods); a label that is no method
    takes the colour of its place in the house palette."""
    fallback = sns.color_palette("colorblind", len(labels)).as_hex()
    return [method_colour(str(k)) or f for k, f in zip(labels, fallback, strict=True)]


def _rows(name: str, value: object, columns) -> pd.DataFrame:
    """``value``, if it is a non-empty DataFrame with ``columns``; else an
    :class:`~hpcmodels.errors.InvalidParameter` naming ``name`` and the missing columns
    (:class:`~hpcmodels.errors.InvalidType` when it is no DataFrame)."""
    check_frame(name, value, columns)
    if value.empty:
        raise InvalidParameter(
            f"{name} is empty ({len(value)} rows, columns {list(value.columns)}): nothing to plot"
        )
    return value


def _title(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidType(f"{name} must be a string, got {type(value).__name__} {value!r:.80}")
    return value


def depth_panels(depth: pd.DataFrame, title: str) -> plt.Figure:
    """Shih 2013, Figs. 10-11: TLA's ATT against the simulation depth, and its decisions
    changed against depth 1 (``depth``: indexed by depth, columns ``att`` and
    ``changes vs depth 1``, as ``shih2013.depth_study`` or ``section5_means`` give).

    ``depth`` must be a non-empty DataFrame with those columns and ``title`` a string:
    else an :class:`~hpcmodels.errors.InvalidParameter` naming the argument and the
    missing columns (:class:`~hpcmodels.errors.InvalidType` for another type)."""
    _rows("depth", depth, ["att", "changes vs depth 1"])
    _title("title", title)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    labels = [str(d) for d in depth.index]
    axes[0].plot(labels, depth["att"], marker="o")
    axes[0].set(xlabel="simulation depth", ylabel="ATT (s)", title=f"Fig. 10: {title}")
    axes[1].bar(labels, depth["changes vs depth 1"])
    axes[1].set(xlabel="simulation depth", ylabel="decisions changed vs depth 1", title="Fig. 11")
    fig.tight_layout()
    return fig


def tla_knob_panels(
    fig8: pd.DataFrame, fig12: pd.DataFrame, fig13: pd.DataFrame, titles: dict[str, str]
) -> plt.Figure:
    """Shih 2013, Figs. 8, 12 and 13: ATT of the four methods against the inaccuracy
    factor; TLA's ATT against the simulation depth per policy inside the simulation;
    TLA's ATT against the allocation depth (frames as ``shih2013.inaccuracy_study`` and
    ``tla_knob_study`` or ``section5_means`` give; ``titles``: each figure's run).

    Accepted: non-empty DataFrames, ``fig8`` indexed by the factor with one column per
    method, ``fig12`` with columns ``depth``, ``policy`` and ``att``, ``fig13`` with
    ``allocation depth`` and ``att``; ``titles`` a dict with string values for the keys
    ``fig8``, ``fig12`` and ``fig13``. Else an :class:`~hpcmodels.errors.InvalidParameter`
    naming the argument and the missing columns or keys
    (:class:`~hpcmodels.errors.InvalidType` for another type)."""
    _rows("fig8", fig8, [])  # no rows or no columns: empty
    _rows("fig12", fig12, ["depth", "policy", "att"])
    _rows("fig13", fig13, ["allocation depth", "att"])
    if not isinstance(titles, dict):
        raise InvalidType(
            f"titles must be a dict of the keys ['fig8', 'fig12', 'fig13'], got "
            f"{type(titles).__name__}"
        )
    missing = [k for k in ("fig8", "fig12", "fig13") if k not in titles]
    if missing:
        raise InvalidParameter(f"titles lacks key(s) {missing}; it has {list(titles)}")
    for key in ("fig8", "fig12", "fig13"):
        _title(f"titles[{key!r}]", titles[key])
    fig, axes = plt.subplots(1, 3, figsize=(15, 3.8))
    fig8.plot(ax=axes[0], logx=True, marker="o", color=_colours(fig8.columns))
    axes[0].set(xlabel="inaccuracy factor", ylabel="ATT (s)", title=f"Fig. 8: {titles['fig8']}")
    for policy, part in fig12.groupby("policy", sort=False):
        axes[1].plot(part["depth"].astype(str), part["att"], marker="o", label=policy)
    axes[1].set(xlabel="simulation depth", ylabel="ATT (s)", title=f"Fig. 12: {titles['fig12']}")
    axes[1].legend(fontsize="small")
    axes[2].plot(fig13["allocation depth"].astype(str), fig13["att"], marker="o")
    axes[2].set(xlabel="allocation depth", ylabel="ATT (s)", title=f"Fig. 13: {titles['fig13']}")
    fig.tight_layout()
    return fig


CELL_NUMBER = (
    "in a cell: the winner's mean minus the runner-up's, in % of the runner-up's mean "
    "(paired over the replicates; -25 % = a quarter lower)"
)
"""What the number in a win map's cell is (printed under every map)."""


def _winner_colour(winner: str) -> str:
    """A win map cell's colour: the method's (:func:`method_colour`; methods that ran
    identically, "A = B", take the first's colour, hatched); grey for a name that is no
    method of the suite."""
    return method_colour(winner.split(" = ")[0]) or "#999999"


WIN_AXES = {
    "load": "system loading (Shih's levels)",
    "sh": "speed heterogeneity SH",
    "bsbw": "jobs' bisection bandwidth (Mbps)",
    "selection": "queue policy",
}


def win_map_panels(wins: pd.DataFrame, rows: str = "load", columns: str = "sh", title: str = ""):
    """Notebook 06's win map: one panel per workload, one cell per (``rows``,
    ``columns``) level, coloured by the method of lowest mean (one colour per method,
    one legend), with the paired margin over the runner-up in per cent; a faded cell
    marked "tie" is a win within noise (the paired 95 % interval contains zero).
    ``wins`` is :func:`hpcmodels.papers.across.compare.win_map`'s frame, filtered to one
    row per cell."""
    from matplotlib.patches import Patch, Rectangle

    check_frame("wins", wins, ["workload", rows, columns, "winner", "relative", "clear"])
    if wins.empty:
        raise InvalidParameter("wins is empty: nothing to map")
    if wins.duplicated(["workload", rows, columns]).any():
        raise InvalidParameter(
            f"wins has several rows per (workload, {rows}, {columns}) cell: filter the other "
            "settings (selection, bsbw or sh) first"
        )
    panels = list(dict.fromkeys(wins["workload"]))
    winners = list(dict.fromkeys(wins.sort_values("winner")["winner"]))
    palette = {w: _winner_colour(w) for w in winners}
    row_levels = list(dict.fromkeys(wins[rows]))
    col_levels = sorted(set(wins[columns]))
    from matplotlib.figure import Figure

    # outside pyplot's global state: the explorer draws it from widget callbacks too
    # a panel at least 3 inches wide: one column would overlap the next panel's labels
    width = max(1.7 * len(col_levels), 3.0) * len(panels) + 2.5
    fig = Figure(figsize=(width, 0.9 * len(row_levels) + 2.0))
    axes = fig.subplots(1, len(panels), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        sub = wins[wins["workload"] == panel].set_index([rows, columns])
        for i, r in enumerate(row_levels):
            for j, c in enumerate(col_levels):
                if (r, c) not in sub.index:
                    continue
                cell = sub.loc[(r, c)]
                clear = bool(cell["clear"])
                ax.add_patch(
                    Rectangle(
                        (j, i),
                        1,
                        1,
                        facecolor=palette[cell["winner"]],
                        alpha=1.0 if clear else 0.35,
                        linewidth=0,
                        hatch="//" if " = " in cell["winner"] else None,
                    )
                )
                pct = 100 * cell["relative"]
                text = f"{pct:+.0f} %" if abs(pct) >= 9.5 else f"{pct:+.1f} %"
                text += "" if clear else "\ntie"
                if "runner_up" in cell and pd.isna(cell["runner_up"]):
                    text = "all\nidentical"
                ax.text(j + 0.5, i + 0.5, text, ha="center", va="center", fontsize="small")
        ax.set_xlim(0, len(col_levels))
        ax.set_ylim(len(row_levels), 0)
        ax.set_xticks(
            np.arange(len(col_levels)) + 0.5,
            [f"{c:g}" if isinstance(c, float) else str(c) for c in col_levels],
        )
        ax.set_yticks(np.arange(len(row_levels)) + 0.5, [str(r) for r in row_levels])
        ax.set(
            title=str(panel), xlabel=WIN_AXES.get(columns, columns), ylabel=WIN_AXES.get(rows, rows)
        )
        ax.grid(False)
    handles = [
        Patch(facecolor=palette[w], hatch="//" if " = " in w else None, label=w) for w in winners
    ]
    handles.append(Patch(color="#cccccc", alpha=0.35, label="faded, 'tie': within noise"))
    axes[0][-1].legend(
        handles=handles,
        title="lowest mean",
        loc="upper left",
        bbox_to_anchor=(1.02, 1),
        fontsize="small",
        frameon=False,
    )
    fig.suptitle(title or "winner and its paired margin over the runner-up")
    fig.text(0.01, 0.01, CELL_NUMBER, fontsize="small", ha="left", va="bottom")
    fig.set_layout_engine("tight", rect=(0, 0.07, 1, 1))  # room for the line below
    return fig


TORNADO_COLUMNS = ["reading", "change", "low", "high"]


def tornado(
    effects: pd.DataFrame,
    *,
    title: str = "",
    needed: float | None = None,
    tolerance: float | None = None,
    unit: str = "",
    ax: plt.Axes | None = None,
) -> plt.Axes:
    """A tornado chart of one cell: each reading (a row of ``effects``) against the
    change it makes to the cell, with its paired 95 % interval, the largest change on
    top. ``effects`` has columns ``reading`` (text), ``change``, ``low``, ``high``
    (numbers: the mean paired change and its interval; low <= change <= high).
    ``needed`` (paper - ours at the default, drawn as a dashed line) and ``tolerance``
    (the verdict's band around it, shaded) say how far a reading would have to move the
    cell to match; ``unit`` labels the axis. Returns the axes drawn on."""
    check_frame("effects", effects, TORNADO_COLUMNS)
    if effects.empty:
        raise InvalidParameter("effects is empty: a tornado chart needs at least one reading")
    numbers = effects[["change", "low", "high"]].apply(pd.to_numeric, errors="coerce")
    if not np.isfinite(numbers.to_numpy(float)).all():
        raise InvalidParameter("effects' change, low and high must be finite numbers")
    if ((numbers["low"] > numbers["change"]) | (numbers["change"] > numbers["high"])).any():
        raise InvalidParameter("effects must have low <= change <= high on every row")
    for name, value in (("needed", needed), ("tolerance", tolerance)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or not np.isfinite(value)
        ):
            raise InvalidParameter(f"{name} must be a finite number or None, got {value!r}")
    if tolerance is not None and tolerance < 0:
        raise InvalidParameter(f"tolerance must be >= 0, got {tolerance!r}")
    order = numbers["change"].abs().sort_values().index
    frame = numbers.loc[order]
    labels = effects.loc[order, "reading"].astype(str)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 0.45 * len(frame) + 1.4))
    ys = np.arange(len(frame))
    towards = (
        np.sign(frame["change"]) == np.sign(needed) if needed else np.zeros(len(frame), dtype=bool)
    )
    colours = np.where(towards, "#009e73", "#999999")
    ax.barh(ys, frame["change"], color=colours, height=0.6)
    ax.errorbar(
        frame["change"],
        ys,
        xerr=[frame["change"] - frame["low"], frame["high"] - frame["change"]],
        fmt="none",
        ecolor="black",
        capsize=3,
        lw=1,
    )
    ax.axvline(0, color="black", lw=0.8)
    if needed is not None:
        if tolerance:
            ax.axvspan(needed - tolerance, needed + tolerance, color="#f0e442", alpha=0.35)
        ax.axvline(needed, color="#d55e00", ls="--", lw=1.2, label="paper - ours (default)")
        ax.legend(fontsize="small", loc="best")
    ax.set_yticks(ys, labels, fontsize="small")
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5))
    ax.set_xlabel(f"change from the default reading{f' ({unit})' if unit else ''}")
    if title:
        ax.set_title(title, fontsize="medium")
    return ax
