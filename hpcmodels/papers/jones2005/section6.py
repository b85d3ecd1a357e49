"""Section 6 (Section 6.1's set-up): the Migration Only and Ideal baselines under both
readings of FPFS, Fig. 13 (First-Fit against A1 and B1), Figs. 14-21 (every module over
BSBW x LSLT) and their cuts, Figs. 22-27. Each builder returns a frame."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ...bandwidth import SECTION6, Setup
from .points import sweep_point, sweep_runs
from .published import BSBWS, HIGH_BSBW, LOW_BSBW, LSLTS, SURFACES

# ---------------------------------------------------------------- Section 6 baselines


def baselines(
    setup: Setup = SECTION6,
    *,
    selections=("first_available", "first_available_once"),
    strategies=("no_share", "migration_only", "ideal"),
    seed: int = 0,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> pd.DataFrame:
    """The limits under each FPFS reading: one row per (selection, strategy). Each run
    is a point of :func:`hpcmodels.sweep.sweep` (``cache``: a folder keeping finished
    points; ``client``: where they run, as there); so in every builder below. ``seed``
    is a whole number in [0, 2**63 - 1], checked before any run (so in every builder
    below)."""
    points = [
        sweep_point(st, setup, selection=sel, seed=seed) for sel in selections for st in strategies
    ]
    rows = sweep_runs(points, cache=cache, client=client, progress=progress, desc="baselines")
    frame = pd.DataFrame(rows)
    frame.attrs["clusters"] = setup.clusters
    return frame


# ---------------------------------------------------------------- Figs. 13-27


def surface_grid(
    setup: Setup = SECTION6,
    *,
    bsbws: Sequence[float] = BSBWS,
    lslts: Sequence[float] = LSLTS,
    labels: Sequence[str] = tuple(SURFACES),
    seed: int = 0,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> pd.DataFrame:
    """Figs. 14-21: ATT of each module over BSBW x LSLT (one row per point)."""
    plan = [(lab, b, x) for lab in labels for b in bsbws for x in lslts]
    points = [
        sweep_point(SURFACES[lab][0], setup, bsbw=b, lslt=x, chunk=SURFACES[lab][1], seed=seed)
        for lab, b, x in plan
    ]
    runs = sweep_runs(points, cache=cache, client=client, progress=progress, desc="Figs. 14-21")
    return pd.DataFrame([dict(r, label=lab) for (lab, _, _), r in zip(plan, runs, strict=True)])


def fig13(
    setup: Setup = SECTION6,
    *,
    bsbws: Sequence[float] = BSBWS,
    seed: int = 0,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> pd.DataFrame:
    """Fig. 13: First-Fit against A1 and B1 (LSLT 100 %) over BSBW, with Migration Only
    and Ideal run on the same workload (rows with ``bsbw`` NaN)."""
    names = {"first_fit": "First-Fit", "a1": "A1", "b1": "B1"}
    points = [sweep_point(st, setup, bsbw=b, lslt=1.0, seed=seed) for st in names for b in bsbws]
    limit_points = [sweep_point(st, setup, seed=seed) for st in ("migration_only", "ideal")]
    runs = sweep_runs(
        points + limit_points, cache=cache, client=client, progress=progress, desc="Fig. 13"
    )
    rows = [dict(r, label=names[r["strategy"]]) for r in runs[: len(points)]]
    rows += [dict(r, label=r["strategy"], bsbw=np.nan) for r in runs[len(points) :]]
    return pd.DataFrame(rows)


def fig13_limits(f13: pd.DataFrame) -> dict[str, float]:
    """Migration Only's and Ideal's ATT from :func:`fig13`'s rows."""
    return {
        st: float(f13.loc[f13["strategy"] == st, "att"].iloc[0])
        for st in ("migration_only", "ideal")
    }


def fig13_lines(f13: pd.DataFrame) -> pd.DataFrame:
    """ATT per BSBW (rows) and strategy (columns) of :func:`fig13`."""
    return f13.dropna(subset=["bsbw"]).pivot(index="bsbw", columns="label", values="att")


def nearest_value(values, target: float) -> float:
    values = np.asarray(sorted(set(values)))
    return float(values[np.argmin(np.abs(values - target))])


def cuts(surf: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Figs. 22-27 from the surfaces: ATT vs BSBW at LSLT 100 %, and ATT vs LSLT at the
    BSBWs nearest 300 and 800 Mbps (columns: one per module label)."""
    lslt = nearest_value(surf["lslt"], 1.0)
    low, high = nearest_value(surf["bsbw"], LOW_BSBW), nearest_value(surf["bsbw"], HIGH_BSBW)
    at = surf[surf["lslt"] == lslt].pivot(index="bsbw", columns="label", values="att")
    lo = surf[surf["bsbw"] == low].pivot(index="lslt", columns="label", values="att")
    hi = surf[surf["bsbw"] == high].pivot(index="lslt", columns="label", values="att")
    return {f"LSLT {lslt:.0%}": at, f"BSBW {low:.0f} Mbps": lo, f"BSBW {high:.0f} Mbps": hi}
