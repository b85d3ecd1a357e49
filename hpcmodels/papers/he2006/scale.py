"""He et al. 2006: every simulated row of the report judged on the paper-scale store (Figs.
3-8a)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...stats import t_interval
from ..verdicts import compare_claim, fmt_series
from .analytic import improvement, improvement_of_better
from .causes import (
    fig3_bound,
    fig3_gap,
    fig5_bound,
    model_gain,
    sim_deterioration,
)
from .claims import alike_claim, alike_row, order_rows
from .ensemble import store_frames
from .paired import (
    cells_claim,
    gain_cells,
    gain_series,
    gap_runs,
    judge,
    scale_percent,
    steps,
)
from .rows import fig7_gain_points, gain_curve
from .select import CI_COLUMN, axis_labels, seed_values, series, value


def _scale_patterns(df: pd.DataFrame) -> dict[str, bool]:
    """:func:`_patterns_3a` judged on the paired runs."""
    return {
        "ORT-RR below W-RR at every workload": judge(
            (f"{w:g}", seed_values(df, "ORT-RR", workload=w), seed_values(df, "W-RR", workload=w))
            for w in axis_labels(df, "workload", "ORT-RR")
        ).holds(),
        "ORT-RR's gain over W-RR shrinks as the workload rises": judge(
            gain_cells(df), higher_is_better=True
        ).holds(),
        "DLL below ORT-RR at every workload": judge(
            (f"{w:g}", seed_values(df, "DLL", workload=w), seed_values(df, "ORT-RR", workload=w))
            for w in axis_labels(df, "workload", "DLL")
        ).holds(ties_hold=True),
    }


def fig3_scale_rows(df: pd.DataFrame) -> list[dict]:
    """:func:`fig3_checks` at paper scale (the store's Fig. 3 frame)."""

    def gain(w: float, key: str, note: str = "", cause: str = "") -> dict:
        return scale_percent(
            "Fig. 3a",
            f"ORT-RR better than W-RR at workload {w:g} (%)",
            key,
            gain_series(
                seed_values(df, "ORT-RR", workload=w),
                seed_values(df, "W-RR", workload=w),
                "ORT-RR",
                "W-RR",
            ),
            note=note,
            cause=cause,
        )

    rows = [
        gain(0.1, "fig3a_ort_rr_vs_w_rr_0.1", note=fig3_bound(), cause=model_gain(df, 0.1)),
        gain(0.9, "fig3a_ort_rr_vs_w_rr_0.9", cause=fig3_gap(df, 0.9)),
        *order_rows(df, "Fig. 3 allocation", paired=True),
    ]
    gain_text = fmt_series(gain_curve(df, "workload").map(lambda g: f"{g:.1f} %"))
    rows.append(
        cells_claim(
            "Fig. 3a",
            "ORT-RR's advantage over W-RR grows as the workload falls",
            "the difference increases as the workload decreases",
            judge(gain_cells(df), higher_is_better=True),
            "the gain (W - ORT)/W larger",
            ours=f"mean gain {gain_text}",
        )
    )
    omr = series(df, "OMR-RR", "workload")
    low = omr.idxmin()
    interior = omr.index[0] < low < omr.index[-1]
    ends = [omr.index[0], omr.index[-1]] if interior else []
    cells = judge(
        (
            f"{low:g} vs {w:g}",
            seed_values(df, "OMR-RR", workload=low),
            seed_values(df, "OMR-RR", workload=w),
        )
        for w in ends
    )
    row = cells_claim(
        "Fig. 3a",
        "under OMR the response time first falls, then rises",
        "first decreases and then increases",
        cells,
        f"the minimum ({low:g}) lower",
        ours=f"mean smallest at workload {low:g} ({fmt_series(omr.map(lambda v: f'{v:.3g}'))})",
    )
    if not interior:
        row.update(
            verdict="differs",
            reason=f"OMR-RR's mean response time is smallest at the grid's edge, workload {low:g}",
        )
    rows.append(row)
    rows += order_rows(df, "Fig. 3 dispatch", paired=True)
    ws = axis_labels(df, "workload", "DLL")
    low, high = ws[0], ws[-1]
    for fig, column, bound, others in (
        ("3a", "mean_response", "DLL", ["ORT-RR", "ORT-Rand"]),
        ("3b", "miss_rate", "DLM", ["OMR-RR"]),
    ):
        names = [bound, *others]
        at_low = df[df["workload"] == low].set_index("algorithm")
        row = alike_claim(
            f"Fig. {fig}",
            f"{' and '.join(names)} alike at workload {low:g} (verdicts.alike)",
            "the performance difference is small",
            at_low.loc[names, column],
            at_low.loc[names, CI_COLUMN[column]],
        )
        row["replicates"] = len(seed_values(df, bound, column, workload=low))
        rows.append(row)
        main = others[0]
        g_low, g_high = (gap_runs(df, main, bound, column, w) for w in (low, high))
        rows.append(
            cells_claim(
                f"Fig. {fig}",
                f"{main}'s gap to {bound}, ({main} - {bound})/{main}, smaller at "
                f"workload {low:g} than at {high:g}",
                "especially when the workload is low",
                judge([(f"|gap| at {low:g} vs {high:g}", np.abs(g_low), np.abs(g_high))]),
                f"the |gap| at {low:g} smaller",
                ours=f"mean gap {g_low.mean():.1f} % at {low:g}, {g_high.mean():.1f} % at {high:g}",
            )
        )
    return rows


def _largest_decrease(df: pd.DataFrame, x: str, at: str | None = None):
    """ORT-RR's decrease from ``[6,6]`` to ``at`` (default: where its mean is smallest),
    per replicate, both readings."""
    ort = series(df, "ORT-RR", x)
    at = at or ort.idxmin()
    return at, gain_series(
        seed_values(df, "ORT-RR", **{x: at}),
        seed_values(df, "ORT-RR", **{x: "[6,6]"}),
        f"R{at}",
        "R[6,6]",
    )


def fig4_scale_rows(df: pd.DataFrame) -> list[dict]:
    """:func:`fig4_checks` at paper scale."""
    at, readings = _largest_decrease(df, "speeds")
    return [
        scale_percent(
            "Fig. 4a",
            "largest decrease of ORT-RR's response time from [6,6] (%)",
            "fig4a_max_decrease",
            readings,
            note=f"our mean response time is smallest at {at}",
            cause="cause not identified",
        ),
        alike_row(df, "Fig. 4a", paired=True),
        *order_rows(df, "Fig. 4", paired=True),
        alike_row(df, "Fig. 4b", paired=True),
    ]


def fig5_scale_rows(df: pd.DataFrame, fig4_df: pd.DataFrame) -> list[dict]:
    """:func:`fig5_checks` at paper scale (with Fig. 4's frame for the comparison)."""
    _, by_size = _largest_decrease(df, "nodes", "[21,1]")
    at, by_speed = _largest_decrease(fig4_df, "speeds")
    omr_model = series(df, "OMR-RR", "nodes", "analytic_miss")
    omr = series(df, "OMR-RR", "nodes", "miss_rate")
    return [
        scale_percent(
            "Fig. 5a",
            "decrease of ORT-RR's response time from [6,6] to [21,1] (%)",
            "fig5a_decrease",
            by_size,
            cause=fig5_bound(df),
        ),
        *order_rows(df, "Fig. 5", paired=True),
        cells_claim(
            "Fig. 5b",
            "OMR-RR's miss rate improves as the size difference shrinks",
            "improved as the difference in the number of nodes decreases",
            judge(
                [
                    (
                        "[6,6] vs [21,1]",
                        seed_values(df, "OMR-RR", "miss_rate", nodes="[6,6]"),
                        seed_values(df, "OMR-RR", "miss_rate", nodes="[21,1]"),
                    )
                ]
            ),
            "[6,6] lower",
            ours=f"mean [21,1]: {omr['[21,1]']:.4f}, [6,6]: {omr['[6,6]']:.4f}",
            explain=f"the M/M/m model agrees with our simulation: OMR's exact miss rate is "
            f"{omr_model['[21,1]']:.4f} at [21,1] and {omr_model['[6,6]']:.4f} at [6,6]",
        ),
        cells_claim(
            "Fig. 5a",
            "speed differences matter more than size differences (Fig. 4a vs 5a)",
            "node speed has a more significant impact than cluster size",
            judge(
                [
                    (
                        f"speed ([6,6] to {at}) vs size ([6,6] to [21,1])",
                        by_speed[0][1],
                        by_size[0][1],
                    )
                ],
                higher_is_better=True,
            ),
            "the speed decrease larger",
            ours=f"mean {by_speed[0][1].mean():.1f} % vs {by_size[0][1].mean():.1f} % (R0 - R1)/R0",
        ),
    ]


def fig6_scale_rows(df: pd.DataFrame) -> list[dict]:
    """:func:`fig6_checks` at paper scale."""
    x = "slack_upper"
    w_model = series(df, "W-RR", x, "analytic_miss")
    curvature = np.diff(w_model.values, 2)
    shape = (
        "convex (every second difference > 0)"
        if np.all(curvature > 0)
        else "not convex"
        if np.all(curvature <= 0)
        else "neither convex nor concave"
    )
    s = np.asarray(axis_labels(df, x, "W-RR"), float)
    w_runs = np.array([seed_values(df, "W-RR", "miss_rate", **{x: k}) for k in s])  # slack x seed
    fits = np.polynomial.polynomial.polyfit(s, w_runs, 1)  # one line per seed
    residuals = w_runs - (fits[0] + np.outer(s, fits[1]))
    off = [t_interval(r) for r in residuals]
    outside = [(k, m, c) for k, (m, c) in zip(s, off, strict=True) if abs(m) > c]
    worst = max(range(len(s)), key=lambda i: abs(off[i][0]) / off[i][1] if off[i][1] else math.inf)
    omr_m = series(df, "OMR-RR", x, "miss_rate")
    omr_runs = [seed_values(df, "OMR-RR", "miss_rate", **{x: k}) for k in s]
    drops = [a - b for a, b in zip(omr_runs, omr_runs[1:], strict=False)]
    linear = compare_claim(
        "Fig. 6b",
        "W-RR falls linearly: every point within its 95 % CI of a fitted line",
        "a linear decrease under the weighted allocation",
        not outside,
        f"each seed's miss rates fitted by a line: the mean residual is largest at slack "
        f"{s[worst]:g}, {off[worst][0]:+.4f} ± {off[worst][1]:.4f}",
        cause="the mean residual from each seed's line is outside its 95 % CI at slack "
        + ", ".join(f"{k:g} ({m:+.4f} ± {c:.4f})" for k, m, c in outside)
        + f"; the M/M/m miss rate of the same fractions (random splitting) is {shape} in the "
        f"slack limit: {fmt_series(w_model.map(lambda v: f'{v:.4f}'))}",
    )
    linear["replicates"] = w_runs.shape[1]
    return [
        alike_row(df, "Fig. 6a", paired=True),
        cells_claim(
            "Fig. 6b",
            "miss rates fall as the slack grows (OMR-RR and W-RR)",
            "the mean miss rate improves as the slack increases",
            judge(steps(df, x, "OMR-RR", "miss_rate") + steps(df, x, "W-RR", "miss_rate")),
            "the larger slack lower",
            ours=f"mean OMR-RR {omr_m.iloc[0]:.4f} -> {omr_m.iloc[-1]:.4f}, W-RR "
            f"{series(df, 'W-RR', x, 'miss_rate').iloc[0]:.4f} -> "
            f"{series(df, 'W-RR', x, 'miss_rate').iloc[-1]:.4f}",
        ),
        linear,
        cells_claim(
            "Fig. 6b",
            "OMR-RR's improvement diminishes as the slack grows",
            "its improvement diminishes",
            judge(
                (
                    f"drop {s[i + 1]:g}->{s[i + 2]:g} vs {s[i]:g}->{s[i + 1]:g}",
                    drops[i + 1],
                    drops[i],
                )
                for i in range(len(drops) - 1)
            ),
            "the later drop smaller",
            ours="mean drops " + ", ".join(f"{d.mean():.4f}" for d in drops),
        ),
    ]


def fig7_scale_rows(
    df_a: pd.DataFrame, df_b: pd.DataFrame, fig3_df: pd.DataFrame, control: pd.DataFrame
) -> list[dict]:
    """:func:`fig7_checks` at paper scale (with Fig. 3's frame and the exponential-size
    control)."""
    from ..ensemble import summarize

    def with_exponential(w: float, better: str, worse: str) -> str:
        r = gain_series(
            seed_values(control, better, workload=w),
            seed_values(control, worse, workload=w),
            better,
            worse,
        )
        return "the same arrivals with exponential sizes give " + ", ".join(
            f"{summarize(x).mean:.1f} ± {summarize(x).ci:.1f} % {d}" for d, x in r
        )

    def gain(item, df, better, worse, key, quantity, w, **where) -> dict:
        r = gain_series(
            seed_values(df, better, **where), seed_values(df, worse, **where), better, worse
        )
        return scale_percent(item, quantity, key, r, cause=with_exponential(w, better, worse))

    p7, p3 = _scale_patterns(df_b), _scale_patterns(fig3_df)
    same = [name for name in p7 if p7[name] == p3[name]]
    text = "; ".join(
        f"{name}: 7b {'yes' if p7[name] else 'no'}, 3a {'yes' if p3[name] else 'no'}" for name in p7
    )
    patterns = compare_claim(
        "Fig. 7b",
        "the patterns of our Fig. 3a (ORT-RR vs W-RR, its trend, DLL) hold alike in our Fig. 7b",
        "the curves of ORT-RR, DLL and W-RR demonstrate similar patterns to Fig. 3a",
        len(same) == len(p7),
        text + " (each pattern judged on the paired runs)",
        cause="differs in " + ", ".join(n for n in p7 if n not in same),
        note="compared with our Fig. 3a; where that departs from the paper, its own rows say so",
    )
    patterns["replicates"] = len(seed_values(df_b, "ORT-RR", workload=0.1))
    grows = judge(
        sum((steps(df_a, "cv", a) for a in ("ORT-RR", "W-RR", "DLL")), []), higher_is_better=True
    )
    gains = [gain(*point[:7], **point[7]) for point in fig7_gain_points(df_a, df_b)]
    return [
        *(g for g in gains if g["item"] == "Fig. 7a"),
        cells_claim(
            "Fig. 7a",
            "response times grow with the CV (ORT-RR, W-RR, DLL)",
            "the mean response time increases as the CV increases",
            grows,
            "the larger CV higher",
            ours="; ".join(
                f"{a}: " + fmt_series(series(df_a, a, "cv").map(lambda v: f"{v:.1f}"))
                for a in ("ORT-RR", "W-RR", "DLL")
            ),
        ),
        *(g for g in gains if g["item"] == "Fig. 7b"),
        patterns,
    ]


def fig8_scale_rows(df_a: pd.DataFrame, initial: float = 0.3) -> list[dict]:
    """The simulated rows of :func:`fig8_checks` at paper scale (the thresholds are exact
    model values: no ensemble)."""
    changes = axis_labels(df_a[df_a["allocation"] == "accurate"], "change", "ORT-RR")

    def det(c: float) -> np.ndarray:
        kept = seed_values(df_a, "ORT-RR", allocation="approximate", change=c)
        fresh = seed_values(df_a, "ORT-RR", allocation="accurate", change=c)
        return 100 * (kept / fresh - 1)

    sim = sim_deterioration(df_a, initial)
    up = [c for c in changes if c >= 0]
    down = [c for c in changes if c <= 0][::-1]
    cells = judge(
        (
            (f"{c0:+.0%} -> {c1:+.0%}", det(c1), det(c0))
            for side in (up, down)
            for c0, c1 in zip(side, side[1:], strict=False)
        ),
        higher_is_better=True,
    )
    model_grows = all(np.all(np.diff(sd.model.values) > 0) for sd in (sim.loc[up], sim.loc[down]))
    o = value(df_a, "ORT-RR", "analytic_response", allocation="accurate", change=0.0)
    x = value(df_a, "W-RR", "analytic_response", allocation="weighted", change=0.0)
    return [
        scale_percent(
            "Fig. 8a",
            f"ORT-RR better than W-RR at workload {initial} (%)",
            "fig8a_ort_vs_w_0.3",
            gain_series(
                seed_values(df_a, "ORT-RR", allocation="accurate", change=0.0),
                seed_values(df_a, "W-RR", allocation="weighted", change=0.0),
                "ORT-RR",
                "W-RR",
            ),
            cause=f"the M/M/m model (random splitting) gives {improvement(o, x):.1f} % "
            f"(W - ORT)/W, {improvement_of_better(o, x):.1f} % (W - ORT)/ORT",
        ),
        cells_claim(
            "Fig. 8a",
            "ORT-RR's deterioration under the kept fractions grows with the change, on each side",
            "the performance deterioration increases as the deviation increases",
            cells,
            "the larger change worse",
            ours="mean "
            + fmt_series(
                sim.apply(
                    lambda r: f"{r.simulated:.1f} ± {r.ci:.1f} % (model {r.model:.1f} %)", axis=1
                )
            ),
            explain=f"the exact model's deterioration {'grows' if model_grows else 'does not grow'}"
            " at every step",
        ),
    ]


def ensemble_rows(store: pd.DataFrame) -> list[dict]:
    """Every simulated row of the report judged on the paper-scale store, in the quick
    rows' order and with their item and quantity: each printed percentage per replicate
    from that replicate's paired runs against our mean of five runs (Section 5.1), each
    ordering or trend on the paired runs, cell by cell (:mod:`hpcmodels.papers.ensemble`). The
    rows the quick run computes exactly (Tables 3-4, the Fig. 8 thresholds, the Bounded
    Pareto mean) have no paper-scale row."""
    f = store_frames(store)
    return (
        fig3_scale_rows(f["Fig. 3"])
        + fig4_scale_rows(f["Fig. 4"])
        + fig5_scale_rows(f["Fig. 5"], f["Fig. 4"])
        + fig6_scale_rows(f["Fig. 6"])
        + fig7_scale_rows(f["Fig. 7a"], f["Fig. 7b"], f["Fig. 3"], f["Fig. 7 control"])
        + fig8_scale_rows(f["Fig. 8a"])
    )
