"""Shih et al. 2013's report rows judged on the paper-scale store
(:mod:`hpcmodels.papers.ensemble`'s rules), and Section 5's paper-scale means shaped like
the quick studies."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...errors import InvalidParameter, InvalidType, check_real
from ..verdicts import compare_claim, not_run
from .ensemble import (
    ALL_WAITING,
    FIG10_DEPTHS,
    FIG12_DEPTHS,
    SECTION5_RUNS,
    depth_label,
    ensemble_key,
    tla_improvement,
)
from .published import FIG10_ACTIVATIONS, LOADS, METHODS, TABLE4, TABLE5, paper_claim
from .reading_effects import reading_cause, reading_effects
from .rows import NOT_FOUND, SDSC_INPUT, claim_rows
from .workloads import ENSEMBLE_JOBS, ENSEMBLE_VECTORS, is_trace, missing_log_of


def _att_table(store: pd.DataFrame, wid: str, load: str, sh: float) -> np.ndarray | None:
    """Replicates x methods ATT of one configuration (None when not in the store)."""
    from ..store import values

    keys = [ensemble_key("Table 4", wid, load, sh, f"{m} ATT (s)") for m in METHODS]
    if not store["item"].eq(keys[0]).any():
        return None
    return np.column_stack([values(store, key) for key in keys])


def table4_improvements(store: pd.DataFrame, wid: str, load: str, sh: float) -> np.ndarray | None:
    """TLA's improvement over the best of BF, FF and AI2 (%) in each paper-scale run of
    Table 4's configuration (workload ``wid``, ``load``, ``sh``), in replicate order;
    ``None`` when the store does not hold it."""
    for name, value in (("wid", wid), ("load", load)):
        if not isinstance(value, str):
            raise InvalidType(f"{name} must be a string, got {value!r}")
    table = _att_table(store, wid, load, check_real("sh", sh, at_least=0))
    return None if table is None else tla_improvement(table)


def _replicates_note(wid: str, n: int) -> str:
    if is_trace(wid):
        return (
            f"whole trace, {n} replicates (speed vector r and every runtime x (1 +- 1e-4) "
            "common to the four methods)"
        )
    return f"{ENSEMBLE_JOBS[wid[0]]:,} jobs, {n} replicates (workload seed and speed vector r)"


def ensemble_rows(store: pd.DataFrame) -> list[dict]:
    """Sections 4-5 judged on the ensembles (:mod:`hpcmodels.papers.ensemble`): each Table 4
    cell as TLA's improvement of the mean of 10 runs (one run at SH = 0, where the
    paper has one vector), resampled over whole replicates; Table 4's claims on the
    paired per-replicate differences; Table 5 and the Section 5.2 counts against one run;
    Fig. 7's spread over the 20 vectors of every SH > 0 configuration."""
    from ..ensemble import ensemble_statistic, ensemble_value, paired_claim, with_replicates
    from ..store import values

    effects = reading_effects(store)

    def cause(item: str, quantity: str, otherwise: str) -> str:
        return reading_cause(effects, item, quantity) or otherwise

    rows, gains, losses, unresolved, spreads, paired_runs = [], {}, [], [], [], []
    for (wid, load, sh), paper in TABLE4.items():
        quantity = f"{wid}, {load} load, SH = {sh:g}: TLA improvement %"
        table = _att_table(store, wid, load, sh)
        if table is None:
            missing = missing_log_of(wid, ENSEMBLE_JOBS.get(wid[0]), 0)
            rows.append(
                not_run(
                    "Table 4",
                    quantity,
                    paper,
                    f"log missing: {missing}" if missing else "not in the store",
                )
            )
            continue
        k = 1 if sh == 0 else 10
        row = ensemble_statistic(
            "Table 4",
            quantity,
            paper,
            table,
            tla_improvement,
            kind="percent",
            k=k,
            other_input=SDSC_INPUT if wid in ("A1", "A2") else "",
            note=_replicates_note(wid, len(table)),
            cause=cause("Table 4", quantity, NOT_FOUND),
            deterministic=sh == 0 and wid in ("A1", "A2"),  # a trace, speeds all 1
        )
        if wid in ("E1", "E2"):
            row.update(
                verdict="reconstructed model",
                reason="Feitelson96 reconstruction (provisional parameters); " + row["reason"],
            )
        rows.append(row)
        if sh > 0:
            cv = 100 * table.std(axis=0, ddof=0) / table.mean(axis=0)
            spreads.append(bool(cv[3] < cv[:3].min()))
        if wid in ("E1", "E2"):
            continue
        gains[(wid, load, sh)] = row["ours"]
        paired_runs.append(len(table))
        best = int(np.argmin(table[:, :3].mean(axis=0)))
        paired = paired_claim("Table 4", "TLA beats the best other", table[:, 3], table[:, best])
        if paired["reason"].startswith("reversed"):
            losses.append(f"{wid} {load} SH {sh:g}")
        elif paired["verdict"] != "qualitative":
            unresolved.append(f"{wid} {load} SH {sh:g}")
    if gains:
        outside = [c for c in losses if not c.endswith("low SH 0")]
        by_load = pd.Series(gains).groupby(level=1).mean()
        present = [lo for lo in LOADS if lo in by_load.index]
        claims = claim_rows(
            "Table 4",
            [
                (
                    not outside,
                    f"paired TLA - best other per replicate, 95 % CI above 0 in "
                    f"{len(losses)} of {len(gains)} cells ({', '.join(losses) or 'none'}); containing 0 "
                    f"in {len(unresolved)} ({', '.join(unresolved) or 'none'})",
                ),
                (
                    by_load[present].idxmax() == "medium",
                    ", ".join(f"{lo} {by_load[lo]:.0f} %" for lo in present)
                    + " (improvement of the "
                    "mean over all replicates, averaged over the cells run)",
                ),
            ],
        )
        rows += [with_replicates(c, min(paired_runs)) for c in claims]
    if spreads:
        row = compare_claim(
            "Fig. 7",
            f"coefficient of variation over {ENSEMBLE_VECTORS} speed vectors "
            "(every SH > 0 configuration run)",
            paper_claim("Fig. 7", "coefficient of variation over speed vectors"),
            sum(spreads) > len(spreads) / 2,
            f"TLA's is the smallest in {sum(spreads)} of {len(spreads)} configurations",
        )
        rows.append(with_replicates(row, ENSEMBLE_VECTORS))
    for load in LOADS:
        for method in METHODS:
            key = ensemble_key("Table 5", "A2", load, 0.0, method)
            if store["item"].eq(key).any():
                rows.append(
                    ensemble_value(
                        "Table 5",
                        key.split(" | ")[1],
                        TABLE5.loc[load, method],
                        values(store, key),
                        kind="fraction",
                        k=1,
                        other_input=SDSC_INPUT,
                        note="whole trace, one run per replicate",
                        cause=cause("Table 5", key.split(" | ")[1], NOT_FOUND),
                        deterministic=True,  # A2 at SH 0
                    )
                )
    reading = (
        "our reading of 'activated' (the paper does not define it): the job fits "
        "at least two clusters and another job waits"
    )
    for what, paper in zip(
        ("TLA activations", "decisions changed against depth 1"), FIG10_ACTIVATIONS, strict=True
    ):
        key = ensemble_key("Fig. 10", "A1", "high", 0.0, what)
        if store["item"].eq(key).any():
            rows.append(
                ensemble_value(
                    "Fig. 10",
                    key.split(" | ")[1],
                    paper,
                    values(store, key),
                    kind="count",
                    k=1,
                    other_input=SDSC_INPUT,
                    note=reading,
                    cause=cause(
                        "Fig. 10",
                        key.split(" | ")[1],
                        "cause not identified; no other reading of 'activated' was computed",
                    ),
                    deterministic=True,  # A1 at SH 0
                )
            )
    return rows + section5_ensemble_rows(store)


def section5_runs(store: pd.DataFrame, study: str) -> pd.DataFrame:
    """The stored runs of one Section 5 study (a key of :data:`SECTION5_RUNS`): one row
    per value with its setting (``factor``, ``depth``, ``policy``, ``allocation_depth``),
    ``replicate``, ``what`` (the quantity after the key's last colon, for example
    ``TLA ATT (s)``) and ``value``; empty when the store has none."""
    from ...errors import check_frame

    check_frame("store", store, ("item", "value", "replicate", "study"))
    if study not in SECTION5_RUNS:
        raise InvalidParameter(f"study {study!r}: choose one of {list(SECTION5_RUNS)}")
    runs = store[store["study"] == study]
    # whole numbers: the store holds them as floats once other studies leave them NaN
    knobs = {k: runs[k].astype(np.int64) for k in ("depth", "allocation_depth")}
    return runs.assign(what=runs["item"].str.rsplit(": ", n=1).str[-1], **knobs)[
        ["factor", "depth", "policy", "allocation_depth", "replicate", "what", "value"]
    ].reset_index(drop=True)


def _att(runs: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """ATT runs pivoted: index ``by`` + replicate, one column per method."""
    att = runs[runs["what"].str.endswith(" ATT (s)")]
    return att.assign(method=att["what"].str.removesuffix(" ATT (s)")).pivot_table(
        index=[*by, "replicate"], columns="method", values="value", aggfunc="first"
    )


def section5_means(store: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Figs. 8 and 10-13 at paper scale: the mean over the stored replicates of each
    setting, shaped like the quick studies (:func:`inaccuracy_study`,
    :func:`depth_study`, :func:`tla_knob_study` for Figs. 12 and 13), so that
    :func:`hpcmodels.plots.depth_panels` and :func:`hpcmodels.plots.tla_knob_panels`
    draw either. Studies the store lacks are left out."""
    out = {}
    runs = {study: section5_runs(store, study) for study in SECTION5_RUNS}
    if not runs["fig8"].empty:
        fig8 = _att(runs["fig8"], ["factor"]).groupby(level="factor").mean()
        out["fig8"] = fig8[list(METHODS)].rename_axis("inaccuracy factor").rename_axis(None, axis=1)
    if not runs["fig10"].empty:
        fig10 = runs["fig10"].pivot_table(
            index="depth", columns="what", values="value", aggfunc="mean"
        )
        fig10 = fig10.reindex([d for d in FIG10_DEPTHS if d in fig10.index])
        fig10.index = [depth_label(d) if d == ALL_WAITING else int(d) for d in fig10.index]
        out["fig10"] = (
            fig10.rename(
                columns={
                    "TLA ATT (s)": "att",
                    "TLA activations": "activations",
                    "decisions changed against depth 1": "changes vs depth 1",
                }
            )[["att", "activations", "changes vs depth 1"]]
            .rename_axis("depth")
            .rename_axis(None, axis=1)
        )
    for study, order in (("fig12", FIG12_DEPTHS), ("fig13", (ALL_WAITING,))):
        if runs[study].empty:
            continue
        mean = _att(runs[study], ["depth", "policy", "allocation_depth"])["TLA"]
        mean = mean.groupby(level=["depth", "policy", "allocation_depth"]).mean().reset_index()
        rank = {d: i for i, d in enumerate(order)}
        mean = mean.sort_values(
            ["policy", "depth", "allocation_depth"],
            key=lambda c: c.map(rank) if c.name == "depth" else c,
            kind="stable",
            ignore_index=True,
        )
        mean["depth"] = [depth_label(d) if d == ALL_WAITING else int(d) for d in mean["depth"]]
        out[study] = mean.rename(columns={"allocation_depth": "allocation depth", "TLA": "att"})
    return out


def section5_label(study: str) -> str:
    """The run of one Section 5 study at paper scale, in words."""
    wid, load = SECTION5_RUNS[study]
    size = "whole trace" if is_trace(wid) else f"{ENSEMBLE_JOBS[wid[0]]:,} jobs"
    return f"{wid}, {load} load, {size}, SH = 0"


def _paired(item: str, quantity: str, a, b, **kw) -> dict:
    """A paper's claim (:data:`~.published.CLAIMS`) judged on paired replicates
    (:func:`hpcmodels.papers.ensemble.paired_claim`), the row showing the claim."""
    from ..ensemble import paired_claim

    return dict(paired_claim(item, quantity, a, b, **kw), paper=paper_claim(item, quantity))


def section5_ensemble_rows(store: pd.DataFrame) -> list[dict]:
    """Sections 5.1-5.4's claims at paper scale, each judged on the paired replicates
    (:func:`hpcmodels.papers.ensemble.paired_claim`: the settings compared run on the same
    jobs): quantities named as :func:`section5_claims` and :func:`depth_rows` name
    them, so the report puts the two scales side by side."""
    from ..ensemble import with_replicates

    rows = []
    fig8 = section5_runs(store, "fig8")
    if not fig8.empty:
        att = _att(fig8, ["factor"])
        n = att.index.get_level_values("replicate").nunique()
        change = (
            att[["BF", "FF", "AI2"]].groupby(level="replicate").agg(lambda c: c.max() - c.min())
        )
        largest = float(change.to_numpy().max())
        row = compare_claim(
            "Fig. 8",
            "BF, FF, AI2 against the inaccuracy",
            paper_claim("Fig. 8", "BF, FF, AI2 against the inaccuracy"),
            largest <= 1e-9 * float(att[["BF", "FF", "AI2"]].abs().to_numpy().max()),
            f"{section5_label('fig8')}, {n} replicates: largest change of their ATT over the "
            f"{att.index.get_level_values('factor').nunique()} factors {largest:.3g} s",
        )
        rows.append(with_replicates(row, n))
        tla = att["TLA"].unstack("factor")
        lo, hi = tla.columns.min(), tla.columns.max()
        row = _paired(
            "Fig. 8",
            "TLA against the inaccuracy",
            tla[lo],
            tla[hi],
            a_name=f"factor {lo:g}",
            b_name=f"factor {hi:g}",
            note=f"{section5_label('fig8')}; TLA's ATT, estimates drawn per replicate",
        )
        rows.append(row)
    fig10 = section5_runs(store, "fig10")
    if not fig10.empty:
        tla = _att(fig10, ["depth"])["TLA"].unstack("depth")
        row = _paired(
            "Fig. 10",
            "ATT against simulation depth",
            tla[ALL_WAITING],
            tla[1],
            a_name="depth all",
            b_name="depth 1",
            note=f"{section5_label('fig10')}; TLA's ATT",
        )
        rows.append(row)
    fig12 = section5_runs(store, "fig12")
    if not fig12.empty:
        att = _att(fig12, ["depth", "policy"])["TLA"]
        deep = att.xs(ALL_WAITING, level="depth").unstack("policy")
        others = deep.drop(columns="random_fit")
        row = _paired(
            "Fig. 12",
            "worst policy inside the simulation",
            others.max(axis=1),
            deep["random_fit"],
            a_name="the worst other policy",
            b_name="random fit",
            note=f"{section5_label('fig12')}; depth all",
        )
        rows.append(row)
        grid = att.unstack("policy")  # rows (depth, replicate), columns policies

        def effect(over: str) -> pd.Series:
            """Per replicate: the ATT range over ``over`` averaged over the other knob."""
            if over == "depth":
                span = grid.groupby(level="replicate").agg(lambda c: c.max() - c.min())
                return span.mean(axis=1)
            return (grid.max(axis=1) - grid.min(axis=1)).groupby(level="replicate").mean()

        row = _paired(
            "Fig. 12",
            "depth matters more than policy",
            effect("depth"),
            effect("policy"),
            a_name="range over depths",
            b_name="range over policies",
            higher_is_better=True,
            note=f"{section5_label('fig12')}; mean ATT ranges per replicate",
        )
        rows.append(row)
    fig13 = section5_runs(store, "fig13")
    if not fig13.empty:
        tla = _att(fig13, ["allocation_depth"])["TLA"].unstack("allocation_depth")
        lo, hi = tla.columns.min(), tla.columns.max()
        row = _paired(
            "Fig. 13",
            "ATT against allocation depth",
            tla[lo],
            tla[hi],
            a_name=f"allocation depth {lo}",
            b_name=f"allocation depth {hi}",
            note=f"{section5_label('fig13')}; TLA's ATT",
        )
        rows.append(row)
    return rows
