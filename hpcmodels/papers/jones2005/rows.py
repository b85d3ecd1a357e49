"""Report rows: the Section 6.3 baselines, Section 4.4's penalty ranges and claims,
Section 6.3's and Fig. 13's claims and Table 1, judged on the builders' frames (every
tolerance a kind of :mod:`hpcmodels.papers.report`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats import t_interval
from ..verdicts import alike, compare_claim, compare_value
from .published import BASELINES, CLAIMS, PENALTY_RANGES, TENDENCIES, VARIETY
from .section6 import fig13_limits, fig13_lines, nearest_value


def quantity_claim(item: str, quantity: str, claim: str, ours: str, holds, cause: str = "") -> dict:
    """A claim whose quantity is not its own text (:func:`verdicts.compare_claim`)."""
    return compare_claim(item, quantity, claim, bool(holds), ours, cause=cause)


def baseline_rows(frame: pd.DataFrame) -> list[dict]:
    """Migration Only and Ideal against Section 6.3, under each reading of FPFS (the
    other reading's row says how far it lies from the default on the same workload)."""
    rows = []
    att = frame.set_index(["selection", "strategy"])["att"]
    for row in frame[frame["strategy"].isin(list(BASELINES))].itertuples():
        paper = BASELINES[row.strategy]
        default = row.selection == "first_available"
        reading = "one pass" if default else "one job per event"
        per = row.jobs // frame.attrs.get("clusters", 4)
        note = f"{per:,} jobs per cluster ({row.jobs:,} in all), 95 % CI +-{row.att_ci:.0f} s (batch means)"
        if not default:
            other = att.get(("first_available", row.strategy), np.nan)
            note += (
                f"; the other reading of FPFS (one start per scheduling event): "
                f"{row.att - other:+.0f} s from the one-pass reading on the same workload"
            )
        cause = (
            f"{row.att - float(paper):+.0f} s from the paper, beyond the time tolerance and "
            "the run's CI; cause not identified (the model is checked against an oracle)"
        )
        rows.append(
            compare_value(
                f"Section 6.3 ({reading})",
                f"{row.strategy} ATT (s)",
                paper,
                row.att,
                kind="time",
                ci=row.att_ci,
                note=note,
                cause=cause,
            )
        )
    return rows


def _crossing(mean: float, ci: float) -> str:
    """A crossing as "1.201 +- 0.006", or "1.201" from one seed (no interval)."""
    return f"{mean:.3f}" + ("" if np.isnan(ci) else f" +- {ci:.3f}")


def _outside(mean: float, ci: float, lo: float, hi: float) -> float:
    """How far ``mean +- ci`` lies outside the printed range ``[lo, hi]`` widened by half
    its printed precision (0.005); 0 when they meet."""
    ci = 0.0 if np.isnan(ci) else ci
    return max(lo - 0.005 - (mean + ci), (mean - ci) - (hi + 0.005), 0.0)


def break_even_rows(be: pd.DataFrame) -> list[dict]:
    """Section 4.4's penalty ranges against our break-even penalties: each model's
    crossing, the mean over seeds with its 95 % t-interval. The paper's range spans its
    two models' crossings as read off its plots; the claim holds when each model's
    interval (widened by half the printed precision, 0.005) meets the range."""
    rows = []
    for (limit, m), (lo, hi) in PENALTY_RANGES.items():
        sub = be[(be["limit"] == limit) & (be["clusters"] == m)]
        if sub.empty:
            continue
        found = {model: t_interval(grp["penalty"]) for model, grp in sub.groupby("model")}
        seeds = sub["seed"].nunique()
        crossing = {model: _crossing(mean, ci) for model, (mean, ci) in found.items()}
        ours = "; ".join(f"{model} {text}" for model, text in crossing.items())
        outside = [
            f"the {model} crossing {crossing[model]} lies {_outside(mean, ci, lo, hi):.3f} "
            f"outside the printed range"
            for model, (mean, ci) in found.items()
            if _outside(mean, ci, lo, hi) > 0
        ]
        cause = "; ".join(outside) + f" (mean over {seeds} seed(s))"
        spread = f"95 % interval over {seeds} seeds" if seeds > 1 else "one seed: no interval"
        rows.append(
            quantity_claim(
                f"Section 4.4 ({m} clusters)",
                f"break-even penalty vs {limit.replace('_', ' ')}",
                f"{lo}-{hi}",
                f"{ours} ({spread})",
                not outside,
                cause,
            )
        )
    trend = be.groupby(["limit", "clusters"])["penalty"].mean().unstack("clusters")
    cols = sorted(trend.columns)
    if len(cols) < 2:  # one cluster count: no trend to judge
        return rows
    holds = bool((trend[cols[0]] > trend[cols[-1]]).all())
    text = "; ".join(
        f"{limit}: " + ", ".join(f"{m}: {trend.loc[limit, m]:.3f}" for m in cols)
        for limit in trend.index
    )
    rows.append(
        quantity_claim(
            *CLAIMS["penalty trend"],
            text,
            holds,
        )
    )
    return rows


def section4_claims(curves: pd.DataFrame, lims: pd.DataFrame) -> list[dict]:
    """Section 4.4's claims: the dynamic model is less generous than the fixed one at
    the same mean penalty; migration's gain over No Share grows with the cluster count;
    First-Fit falls below Migration Only as BSBW grows."""
    rows = []
    co = curves[curves["penalty"] > 1.01].pivot_table(
        index=["clusters", "bsbw"], columns="model", values="att"
    )
    worse = (co["dynamic"] > co["fixed"]).mean() if len(co) else float("nan")
    lim = lims.pivot(index="clusters", columns="strategy", values="att")
    rows.append(
        quantity_claim(
            *CLAIMS["dynamic vs fixed"],
            f"dynamic higher at {worse:.0%} of {len(co)} points with penalty > 1.01",
            worse >= 0.8,
            cause=_past_no_share(co, lim["no_share"]),
        )
    )
    gain = (lim["no_share"] - lim["migration_only"]) / lim["no_share"]
    rows.append(
        quantity_claim(
            *CLAIMS["migration gain"],
            ", ".join(f"{m}: {g:.1%}" for m, g in gain.items()),
            bool(np.all(np.diff(gain.to_numpy()) > 0)),
        )
    )
    item, quantity, said = CLAIMS["first-fit vs mo"]
    for m, grp in curves[curves["model"] == "dynamic"].groupby("clusters"):
        mo = lim.loc[m, "migration_only"]
        worse_at = grp.loc[grp["att"] > mo, "bsbw"]
        holds = len(worse_at) > 0 and bool(
            (grp.loc[grp["bsbw"] >= worse_at.min(), "att"] > mo).all()
        )
        rows.append(
            quantity_claim(
                f"{item} ({m} clusters)",
                quantity,
                said,
                f"worse from BSBW {worse_at.min():.0f} Mbps"
                if len(worse_at)
                else "never worse in the range run",
                holds,
            )
        )
    return rows


def _past_no_share(co: pd.DataFrame, no_share: pd.Series) -> str:
    """The dynamic-vs-fixed count split at No Share's level (``co``: ATT per (clusters,
    BSBW) and model; ``no_share``: No Share's ATT per cluster count): below it the runs
    reach a steady state; past it the queue grows without bound and a mean ATT measures
    how long the run is (Section 4's runs at paper scale)."""
    level = no_share.reindex(co.index.get_level_values("clusters")).to_numpy()
    below = (co["dynamic"] <= level) & (co["fixed"] <= level)
    higher = co["dynamic"] > co["fixed"]
    return (
        f"below No Share's ATT dynamic is higher at {int(higher[below].sum())} of "
        f"{int(below.sum())} points; past it, where the queue grows without bound and a mean "
        f"ATT measures the run's length, at {int(higher[~below].sum())} of {int((~below).sum())}"
    )


def tendency_row(key: str, att: pd.DataFrame, b3: list[str], mo: float) -> dict:
    """A "B3 tends to X as the chunk grows / shrinks" claim (:data:`TENDENCIES`) on one
    run's surfaces ``att`` (rows: the grid's points, columns: the modules; ``mo``:
    Migration Only's ATT): the mean distance |B3 - X| over the grid at the smallest and
    the largest chunk; it holds when the B3 said closer is."""
    ref, closer, farther = TENDENCIES[key]
    to = mo if ref == "MO" else att[ref]
    lo_c, hi_c = b3[0], b3[-1]
    dist = {c: (att[c] - to).abs().mean() for c in (lo_c, hi_c)}
    return quantity_claim(
        *CLAIMS[key],
        f"mean |B3 - {ref}|: {lo_c} {dist[lo_c]:.0f} s, {hi_c} {dist[hi_c]:.0f} s",
        dist[b3[closer]] < dist[b3[farther]],
    )


def _b3_loses(surf: pd.DataFrame, b3: list[str], scale: pd.DataFrame | None) -> str:
    """Where B3 loses to A1 at LSLT 100 % in this one run, and what the paired
    paper-scale ensembles say (``scale``: :func:`ensemble_rows`' frame; one run cannot
    tell a loss from the seed's noise)."""
    full = surf[np.isclose(surf["lslt"], nearest_value(surf["lslt"], 1.0))]
    att = full.pivot_table(index="bsbw", columns="label", values="att")
    loses = att[b3].ge(att["A1"], axis=0)
    text = f"B3 loses to A1 in {int(loses.to_numpy().sum())} of {loses.size} cells of this run"
    if scale is not None:
        paired = scale[scale["quantity"] == CLAIMS["b3 at 100"][1]]
        if len(paired):
            text += f"; at paper scale, {paired['ours'].iloc[0]}"
    return text


def _first_fit_wins(f: pd.DataFrame, lost, ideal: float) -> str:
    """Where First-Fit is not beaten by A1 and B1: whether the three are alike there
    (verdicts.alike) and how close First-Fit is to Ideal."""
    alike_at = [b for b in lost if alike(f.loc[b, ["First-Fit", "A1", "B1"]])]
    gap = ", ".join(f"{b:.0f} Mbps {f.loc[b, 'First-Fit'] / ideal - 1:+.1%}" for b in lost)
    return (
        f"at {len(alike_at)} of the {len(lost)} BSBWs where First-Fit is not beaten the "
        f"three modules are alike (spread <= 5 %); First-Fit against Ideal there: {gap}"
    )


def section6_claims(
    surf: pd.DataFrame, f13: pd.DataFrame, scale: pd.DataFrame | None = None
) -> list[dict]:
    """Section 6.3's claims on the surfaces and Fig. 13's sweep (Migration Only and
    Ideal from the same workload, :func:`fig13`); ``scale`` (the paper-scale rows,
    :func:`hpcmodels.papers.store.paper_scale`) supplies the paired verdicts a cause
    quotes."""
    rows = []
    a1 = surf[surf["strategy"] == "a1"]
    over = float((a1["max_link_level"] - a1["lslt"]).max())
    rows.append(
        quantity_claim(
            *CLAIMS["a1 within lslt"],
            f"highest level minus LSLT over {len(a1)} runs: {over:+.2e}",
            over <= 1e-9,
        )
    )
    att = surf.pivot_table(index=["bsbw", "lslt"], columns="label", values="att")
    b3 = [c for c in att.columns if c.startswith("B3")]
    beats = att[b3].lt(att["A1"], axis=0)
    share = float(beats.any(axis=1).mean())
    rows.append(
        quantity_claim(
            *CLAIMS["b3 variety"],
            f"some B3 better than A1 at {share:.0%} of {len(att)} points",
            share >= VARIETY,
        )
    )
    full = att.xs(nearest_value(surf["lslt"], 1.0), level="lslt")
    all_b3 = full[b3].lt(full["A1"], axis=0)
    where = ", ".join(
        f"{c}: {', '.join(f'{b:.0f}' for b in all_b3.index[all_b3[c]]) or 'none'}" for c in b3
    )
    rows.append(
        quantity_claim(
            *CLAIMS["b3 at 100"],
            f"{int(all_b3.to_numpy().sum())} of {all_b3.size} (chunk, BSBW) cells "
            f"better; BSBWs where B3 wins: {where}",
            float(all_b3.to_numpy().mean()) >= 0.5,
            _b3_loses(surf, b3, scale),
        )
    )
    mo, ideal = fig13_limits(f13).values()
    rows += [tendency_row(key, att, b3, mo) for key in TENDENCIES]
    mean = att.mean()
    rows.append(
        quantity_claim(
            *CLAIMS["b4 worst"],
            ", ".join(f"{k} {v:.0f}" for k, v in mean.items()),
            mean.idxmax() == "B4",
        )
    )
    spread = att.groupby(level="lslt").std().mean()  # variation with BSBW at each LSLT
    b_only = spread[[c for c in spread.index if c.startswith("B")]]
    stable = b_only.idxmin().startswith("B3")
    rows.append(
        quantity_claim(
            *CLAIMS["b3 stable"],
            "std over BSBW: " + ", ".join(f"{k} {v:.0f}" for k, v in b_only.items()),
            stable,
        )
    )
    f = fig13_lines(f13)
    better = bool((f["A1"] < f["First-Fit"]).all() and (f["B1"] < f["First-Fit"]).all())
    lost = f.index[(f["A1"] >= f["First-Fit"]) | (f["B1"] >= f["First-Fit"])]
    detail = "; ".join(
        f"at {b:.0f} Mbps First-Fit {f.loc[b, 'First-Fit']:.0f} s, A1 "
        f"{f.loc[b, 'A1']:.0f} s, B1 {f.loc[b, 'B1']:.0f} s (Ideal {ideal:.0f} s)"
        for b in lost
    )
    rows.append(
        quantity_claim(
            *CLAIMS["fig13 beaten"],
            f"A1 better at {(f['A1'] < f['First-Fit']).mean():.0%}, B1 at "
            f"{(f['B1'] < f['First-Fit']).mean():.0%} of {len(f)} BSBWs"
            + (f"; {detail}" if detail else ""),
            better,
            _first_fit_wins(f, lost, ideal),
        )
    )
    worse = f.index[f["First-Fit"] > mo]
    rows.append(
        quantity_claim(
            *CLAIMS["fig13 vs mo"],
            f"First-Fit worse than Migration Only from {worse.min():.0f} Mbps"
            if len(worse)
            else "never worse",
            len(worse) > 0,
        )
    )
    return rows


def table1_rows(t1: pd.DataFrame) -> list[dict]:
    """Table 1: the modules' relative cost (the absolute microseconds are of another
    machine and implementation; shown, not compared)."""
    a1 = t1.set_index("module")
    ratio_paper = a1.loc["A1", "paper_us"] / a1.loc[["B1", "B2", "B3", "B4"], "paper_us"].mean()
    ratio_ours = a1.loc["A1", "ours_us"] / a1.loc[["B1", "B2", "B3", "B4"], "ours_us"].mean()
    ratio_loops = (
        a1.loc["A1", "paper_loops_us"] / a1.loc[["B1", "B2", "B3", "B4"], "ours_us"].mean()
    )
    return [
        quantity_claim(
            "Table 1",
            "A1 costs more than the B modules per decision",
            f"A1 {ratio_paper:.0f}x the B modules' mean",
            f"ours {ratio_ours:.1f}x (O(m p)); the paper's loops {ratio_loops:.0f}x",
            ratio_ours > 1 and ratio_loops > 1,
        ),
    ]
