"""Notebook 06's findings: each paper's own comparisons carried over to the common ground.

A :class:`CarriedClaim` is one comparison a paper makes on its own workload and system
("TLA gives a lower ATT than best fit", Shih 2013, Table 4). :func:`carried_claims`
judges it at every setting of the runs by the paired rule of :mod:`.compare`: at each
setting the claim *holds* (the 95 % interval of the paired difference lies below zero),
is *reversed* (above zero) or is *within noise*; the finding reports the counts, the
largest gain and the largest loss with their intervals, so a reader sees where a paper's
result carries over and where it does not. The list is fixed in advance, one or more
comparisons per paper, and every one is reported, whatever it shows."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ...errors import InvalidType, check_choice, check_each
from .compare import SETTING, check_runs, paired_differences
from .methods import METHODS, METRICS


@dataclass(frozen=True)
class CarriedClaim:
    """``better`` gives a lower ``metric`` than ``worse`` (the paper's words in
    ``claim``, where the paper makes it in ``source``), under ``selection``."""

    paper: str
    source: str
    claim: str
    better: str
    worse: str
    selection: str = "FCFS"
    metric: str = "att"


CLAIMS = (
    CarriedClaim("Shih 2013", "Table 4", "TLA beats best fit", "TLA", "Best Fit"),
    CarriedClaim("Shih 2013", "Table 4", "TLA beats AI2", "TLA", "AI2"),
    CarriedClaim("Shih 2013", "Table 4", "TLA beats fastest first", "TLA", "Fastest First"),
    CarriedClaim("Huang 2006", "Tables 5-6", "best fit beats first fit", "Best Fit", "First Fit"),
    CarriedClaim("Huang 2006", "Tables 5-6", "first fit beats worst fit", "First Fit", "Worst Fit"),
    CarriedClaim(
        "Huang 2006",
        "Tables 7-8",
        "larger first beats smaller first",
        "Larger First",
        "Smaller First",
        "FCFS",
    ),
    CarriedClaim(
        "Huang 2006",
        "Table 9",
        "the integrated approach (smallest first) beats larger first under FCFS",
        "Integrated",
        "Larger First",
        "FCFS",
    ),
    CarriedClaim(
        "He 2006",
        "Fig. 3",
        "ORT beats capacity-weighted fractions",
        "ORT, round robin",
        "Weighted, round robin",
    ),
    CarriedClaim(
        "He 2006",
        "Fig. 3",
        "round robin beats random dispatch (ORT fractions)",
        "ORT, round robin",
        "ORT, random",
    ),
    CarriedClaim("Jones 2005", "Section 6.3", "B3 beats A1", "B3", "A1", "FPFS"),
    CarriedClaim(
        "Jones 2005",
        "Fig. 13",
        "Migration Only beats First-Fit co-allocation",
        "Migration Only",
        "Jones First-Fit",
        "FPFS",
    ),
    CarriedClaim(
        "Jones 2005",
        "Section 4.4",
        "Migration Only beats No Share",
        "Migration Only",
        "No Share",
        "FPFS",
    ),
)


CARRIED_COLUMNS = [
    "paper",
    "source",
    "claim",
    "better",
    "worse",
    "selection",
    "metric",
    "settings",
    "holds",
    "within_noise",
    "reversed",
    "best_relative",
    "best_where",
    "worst_relative",
    "worst_where",
    "replicates",
    "finding",
]
"""The columns of :func:`carried_claims`' frame."""


def _claim(name: str, value: object) -> CarriedClaim:
    if not isinstance(value, CarriedClaim):
        raise InvalidType(f"{name} must be a CarriedClaim, got {type(value).__name__}")
    return value


def _where(row: pd.Series) -> str:
    bsbw = f", BSBW {row['bsbw']:.0f} Mbps" if row.get("coallocating") else ""
    return f"{row['workload']}, {row['load']} load, SH {row['sh']:g}{bsbw}"


def _num(x: float, sign: str = "") -> str:
    return f"{x:{sign},.0f}" if abs(x) >= 100 else f"{x:{sign}.3g}"


def _pct(row: pd.Series) -> str:
    return f"{100 * row['relative']:+.1f} % ({_num(row['diff'], '+')} +- {_num(row['ci'])})"


def carried_claims(runs: pd.DataFrame, claims=CLAIMS) -> pd.DataFrame:
    """Each claim of ``claims`` whose two methods and selection are in ``runs``
    (:func:`.compare.ground_runs`), judged at every setting: one row per claim with the
    settings where it holds / is within noise / is reversed (the BSBW levels count only
    where one of the two methods co-allocates), the largest gain and the
    largest loss (relative difference ``better - worse`` over ``worse``'s mean, and the
    paired difference with its 95 % half-width), and ``finding``: the sentence; the
    columns are :data:`CARRIED_COLUMNS` (no row when no claim applies, e.g. one method
    left). ``runs`` as :func:`.compare.check_runs` checks it (a claim's metric, a finite
    number column, when the claim applies); ``claims`` a sequence of
    :class:`CarriedClaim` (one claim alone goes in a list), each metric one of
    :data:`METRICS`."""
    check_runs(runs)
    claims = check_each("claims", claims, _claim)
    for k, c in enumerate(claims):
        check_choice(f"claims[{k}].metric ({c.claim!r})", c.metric, list(METRICS))
    rows = []
    for c in claims:
        mine = runs[(runs["selection"] == c.selection) & runs["method"].isin([c.better, c.worse])]
        uses_links = any(METHODS[m].coallocation for m in (c.better, c.worse) if m in METHODS)
        if not uses_links and len(mine):  # the BSBW changes neither run: one level only
            mine = mine[mine["bsbw"] == mine["bsbw"].iloc[0]]
        if mine.groupby([*SETTING])["method"].nunique().lt(2).all():
            continue
        table = paired_differences(mine, c.metric, c.worse)
        table = table[table["method"] == c.better].copy()
        table["coallocating"] = uses_links
        counts = table["verdict"].value_counts()
        holds = int(counts.get("better", 0))
        reversed_ = int(counts.get("worse", 0))
        noise = len(table) - holds - reversed_
        best = table.loc[table["relative"].idxmin()]
        worst = table.loc[table["relative"].idxmax()]
        sentence = (
            f"{c.paper} ({c.source}): {c.claim} [{METRICS[c.metric]}, {c.selection}]: holds "
            f"at {holds} of {len(table)} settings, within noise at {noise}, reversed at "
            f"{reversed_}; "
            + (
                f"largest gain {_pct(best)} at {_where(best)}; "
                if best["relative"] < 0
                else "never better on average; "
            )
            + (
                f"largest loss {_pct(worst)} at {_where(worst)}"
                if worst["relative"] > 0
                else "never worse on average"
            )
        )
        rows.append(
            dict(
                paper=c.paper,
                source=c.source,
                claim=c.claim,
                better=c.better,
                worse=c.worse,
                selection=c.selection,
                metric=c.metric,
                settings=len(table),
                holds=holds,
                within_noise=noise,
                reversed=reversed_,
                best_relative=float(best["relative"]),
                best_where=_where(best),
                worst_relative=float(worst["relative"]),
                worst_where=_where(worst),
                replicates=int(table["replicates"].min()),
                finding=sentence,
            )
        )
    return pd.DataFrame(rows, columns=CARRIED_COLUMNS)
