"""Huang & Chang 2006: the conclusions of Sections 2-4 checked on our tables (the
policies of Tables 2-3, the orderings of the allocation methods in Tables 5-6 under both
median-fit readings, the heuristics of Tables 7-8, the integrated approach of Table 9)."""

from __future__ import annotations

import math
from itertools import pairwise

import pandas as pd

from ..verdicts import alike, claim, fmt_series, missing_of
from .published import (
    HIGH_ORDER,
    LOW_ORDER,
    MEDIAN_UPPER,
    METHODS,
    OUR_METHODS,
    POLICIES,
)
from .rows import num
from .workload import not_run_rows


def _below(values: pd.Series, pairs) -> list[str]:
    """The ``(a, b)`` pairs (``a`` claimed at most ``b``) where ``b`` lies below ``a``,
    with both values and how far apart they are."""
    return [
        f"{b} {num(values[b])} < {a} {num(values[a])} ({values[a] / values[b] - 1:.1%} apart)"
        for a, b in pairs
        if values[a] > values[b]
    ]


def _unresolved(values: pd.Series, ci: pd.Series | None, pairs) -> list[str]:
    """The ``(a, b)`` pairs whose order the 95 % intervals of ``ci`` do not settle."""
    if ci is None:
        return []
    half = {k: float(v) if math.isfinite(v) else 0.0 for k, v in ci.items()}
    return [
        f"{a} vs {b}"
        for a, b in pairs
        if (half[a] or half[b]) and abs(values[a] - values[b]) <= half[a] + half[b]
    ]


def _per_row(table: pd.DataFrame, rows, pairs, check) -> list[str]:
    return [f"{r:g}: {x}" for r in rows for x in check(table.loc[r], pairs)]


def section2_claims(wait: pd.DataFrame, ratio: pd.DataFrame) -> list[dict]:
    """Section 2's conclusions from Tables 2-3 (rows: load factor, columns: policy); a
    claim that fails names the load factors and values that break it (``not run`` rows
    when the tables could not be made)."""
    if reason := missing_of(wait, ratio):
        return not_run_rows(["Tables 2-3"], reason, "Section 2's claims")
    others = [p for p in POLICIES if p != "FCFS"]
    rows = list(wait.index)
    vs_fcfs = [("FCFS", p) for p in others]  # claimed: the policy below FCFS
    fcfs_fails = [f"waiting time {x}" for x in _per_row(-wait, rows, vs_fcfs, _below)]
    fcfs_fails += [f"waiting ratio {x}" for x in _per_row(-ratio, rows, vs_fcfs, _below)]
    sf_first = [("Smallest First", p) for p in POLICIES if p != "Smallest First"]
    ratio_fails = _per_row(ratio, rows, sf_first, _below)
    best_wait = wait.idxmin(axis=1)
    vs_bf = [("Smallest First", "Backfilling"), ("First Available", "Backfilling")]
    bf_fails = _per_row(wait, rows, vs_bf, _below)
    only_sf = {p: bool((ratio[p] < ratio["Backfilling"]).all()) for p in others[:-1]}
    sf_vs_bf = _per_row(ratio, rows, [("Smallest First", "Backfilling")], _below)
    also = [p for p in ("First Available", "Largest First") if only_sf[p]]
    only_cause = "; ".join(
        ([f"smallest first not below backfilling at {', '.join(sf_vs_bf)}"] if sf_vs_bf else [])
        + [f"{p} is below backfilling at every load factor too" for p in also]
    )
    return [
        claim(
            "Tables 2-3",
            "all non-FCFS policies beat FCFS at every load factor",
            not fcfs_fails,
            "holds" if not fcfs_fails else "fails",
            cause="; ".join(f.replace(" < ", " > ") for f in fcfs_fails),
        ),
        claim(
            "Tables 2-3",
            "smallest first has the lowest waiting ratio at every load factor",
            not ratio_fails,
            fmt_series(ratio.idxmin(axis=1)),
            cause="; ".join(ratio_fails),
        ),
        claim(
            "Table 2",
            "smallest first has the lowest waiting time at most load factors",
            (best_wait == "Smallest First").mean() > 0.5,
            fmt_series(best_wait),
            cause="; ".join(_per_row(wait, rows, sf_first, _below)),
        ),
        claim(
            "Table 2",
            "smallest first and first available wait less than backfilling at every load factor",
            not bf_fails,
            fmt_series(pd.Series({r: not _below(wait.loc[r], vs_bf) for r in rows})),
            cause="; ".join(bf_fails),
        ),
        claim(
            "Table 3",
            "only smallest first has a lower waiting ratio than backfilling at every load factor",
            only_sf["Smallest First"] and not also,
            fmt_series(only_sf),
            cause=only_cause,
        ),
    ]


def _as_reading(table: pd.DataFrame, reading: str) -> pd.DataFrame:
    """Tables 5-6 with the "Median Fit" column taken from ``reading``."""
    out = table[list(METHODS)].copy()
    out["Median Fit"] = table[reading]
    return out


def _order_text(table: pd.DataFrame, rows, ci: pd.DataFrame | None) -> str:
    parts = []
    for s in rows:
        values = table.loc[s, list(METHODS)].sort_values()
        shown = []
        for name, v in values.items():
            h = ci.loc[s, name] if ci is not None and name in ci.columns else math.nan
            shown.append(f"{name} {num(v)}" + (f" ± {num(h, 2)}" if math.isfinite(h) and h else ""))
        parts.append(f"{s:g}: " + " < ".join(shown))
    return "; ".join(parts)


def _method_claims(
    item: str, what: str, table: pd.DataFrame, ci: pd.DataFrame | None, reading: str
) -> list[dict]:
    """Section 3's orderings of the allocation methods on one of Tables 5-6 under one
    median-fit reading. A claim holds when ours' values (random fit: the mean over its
    seeds) are in the claimed order; when it fails, the cause names the pairs out of
    order; the note names the pairs random fit's 95 % interval does not settle."""
    t = _as_reading(table, reading)
    ci = _as_reading(ci, reading) if ci is not None else None
    tag = " (median fit: " + ("upper median)" if reading == MEDIAN_UPPER else "lower median)")
    best_first = [("Best Fit", m) for m in METHODS if m != "Best Fit"]
    out = []
    for text, rows, pairs in (
        (f"best fit {what} at every slowdown ratio > 1", [s for s in t.index if s > 1], best_first),
        (
            "slowdown <= 2: best > first > median > random > worst fit",
            [s for s in t.index if 1 < s <= 2],
            list(pairwise(LOW_ORDER)),
        ),
        (
            "slowdown >= 4: best > random > first > median > worst fit",
            [s for s in t.index if s >= 4],
            list(pairwise(HIGH_ORDER)),
        ),
    ):
        fails = _per_row(t, rows, pairs, _below)
        unresolved = [
            f"{s:g}: {p}"
            for s in rows
            for p in _unresolved(t.loc[s], None if ci is None else ci.loc[s], pairs)
        ]
        note = ("the 95 % intervals do not settle " + ", ".join(unresolved)) if unresolved else ""
        out.append(
            claim(
                item,
                text + tag,
                not fails,
                _order_text(t, rows, ci),
                cause="; ".join(fails),
                note=note,
            )
        )
    return out


def section3_claims(
    t5: pd.DataFrame,
    t6: pd.DataFrame,
    t7: pd.DataFrame,
    t8: pd.DataFrame,
    t9: pd.DataFrame,
    ci5: pd.DataFrame | None = None,
    ci6: pd.DataFrame | None = None,
) -> list[dict]:
    """Sections 3-4's conclusions (rows: slowdown ratio). ``t5``/``t6``: waiting time and
    ratio per allocation method, with both median-fit readings (:data:`OUR_METHODS`),
    ``ci5``/``ci6`` their 95 % half-widths (random fit); ``t7``/``t8``: per heuristic;
    ``t9``: :func:`table9_frame`. The orderings of Section 3 ("both performance metrics
    reflect the same trend") are checked on Table 5 and on Table 6, once per median-fit
    reading; "alike" is :func:`~hpcmodels.papers.verdicts.alike` (``not run`` rows when
    the tables could not be made)."""
    if reason := missing_of(t5, t6, t7, t8, t9):
        return not_run_rows(["Tables 5-9"], reason, "Sections 3-4's claims")
    out = []
    if 1.0 in t5.index:
        at1 = t5.loc[1.0, OUR_METHODS]
        cis = ci5.loc[1.0, OUR_METHODS].fillna(0.0) if ci5 is not None else None
        same = alike(at1, cis)
        out.append(
            claim(
                "Tables 5-6",
                "with slowdown 1 the five methods perform alike",
                same,
                fmt_series(at1.round(2)),
            )
        )
    for reading in ("Median Fit", MEDIAN_UPPER):
        out += _method_claims("Table 5", "waits least", t5, ci5, reading)
        out += _method_claims("Table 6", "has the lowest waiting ratio", t6, ci6, reading)
    for item, table, what in (
        ("Table 7", t7, "waits least"),
        ("Table 8", t8, "has the lowest waiting ratio"),
    ):
        rows = table.loc[table.index > 1]
        best = rows.min(axis=1)
        larger = rows["Best Fit with Larger First"]
        ok = pd.Series(
            [a <= b or alike([a, b]) for a, b in zip(larger, best, strict=True)], index=rows.index
        )
        out.append(
            claim(
                item,
                f"larger first {what}, or is alike to the best heuristic, at "
                "every slowdown ratio > 1",
                ok.all(),
                fmt_series({s: f"{num(larger[s])} vs best {num(best[s])}" for s in rows.index}),
                cause="; ".join(
                    f"{s:g}: larger first {num(larger[s])} is "
                    f"{larger[s] / best[s] - 1:.1%} above the best"
                    for s in rows.index[~ok]
                ),
            )
        )
    up = t9.sort_index()
    gain = {m: up[f"{m} single-pool"] / up[f"{m} integrated"] for m in ("wait", "ratio")}
    shrinks = {
        m: [
            f"x{g.iloc[i]:.3g} at {g.index[i]:g} -> x{g.iloc[i + 1]:.3g} at {g.index[i + 1]:g}"
            for i in range(len(g) - 1)
            if not g.iloc[i + 1] > g.iloc[i]
        ]
        for m, g in gain.items()
    }
    loses = [
        f"{s:g}: {num(r['wait integrated'])} >= {num(r['wait single-pool'])}"
        for s, r in t9.iterrows()
        if not r["wait integrated"] < r["wait single-pool"]
    ]
    at5 = float(gain["ratio"].get(5.0, float("nan")))
    out += [
        claim(
            "Table 9",
            "the integrated approach beats the single-pool queue at every slowdown",
            not loses,
            fmt_series(gain["wait"].map(lambda g: f"x{g:.2f}")),
            cause="; ".join(loses),
        ),
        claim(
            "Table 9",
            "more than 20 times lower waiting ratio at slowdown 5",
            at5 > 20,
            f"x{at5:.1f}",
            cause=f"the waiting ratio is x{at5:.1f} lower at slowdown 5",
        ),
        claim(
            "Table 9",
            "the improvement in waiting time grows with the slowdown ratio",
            not shrinks["wait"],
            fmt_series(gain["wait"].map(lambda g: f"x{g:.2f}")),
            cause="; ".join(shrinks["wait"]),
        ),
        claim(
            "Table 9",
            "the improvement in waiting ratio grows with the slowdown ratio",
            not shrinks["ratio"],
            fmt_series(gain["ratio"].map(lambda g: f"x{g:.1f}")),
            cause="; ".join(shrinks["ratio"]),
        ),
    ]
    return out
