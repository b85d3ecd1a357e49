"""Section 4 (Figs. 9-11, Section 4.3's set-up with 2, 4 and 8 clusters): First-Fit
co-allocation under the bandwidth-centric model over a BSBW sweep, each point's measured
mean penalty fed to the fixed-penalty model; No Share, Migration Only and Ideal as
limits; and Section 4.4's break-even penalties, found by bisection on BSBW (dynamic
model) or on the penalty (fixed model). Each builder returns a frame (or its rows)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ...bandwidth import SECTION4, Setup, run_point
from ...bandwidth.experiment import att_gap
from ...bounds import MAX_REPLICATES, MAX_SEED
from ...errors import check_int, check_ints
from ...sweep import sweep_results
from .points import check_seed, sweep_point, sweep_runs, with_clusters

MAX_BISECTIONS = 60
"""Most halvings of a break-even bisection (``iterations``): each is one more simulation
run (minutes at the paper's scale), and 60 halvings shrink the bracket by 2**-60, below
float64's relative resolution (2**-52) of any crossing farther than 2**-8 of the
bracket's width from zero. The paper's reading uses 8."""


def penalty_point(setup: Setup, bsbw: float, seed: int) -> dict:
    """One BSBW of Figs. 9-11 (a sweep point): First-Fit under the dynamic model, then
    the fixed-penalty model fed its measured mean penalty (at least 1)."""
    dyn = run_point("first_fit", setup, bsbw=bsbw, seed=seed)
    fixed = run_point("fixed_penalty", setup, penalty=max(dyn["penalty"], 1.0), seed=seed)
    return {
        "penalty": dyn["penalty"],
        "dynamic_att": dyn["att"],
        "dynamic_coallocated": dyn["coallocated"],
        "fixed_att": fixed["att"],
        "fixed_coallocated": fixed["coallocated"],
    }


def penalty_curves(
    clusters: int,
    bsbws: Sequence[float],
    setup: Setup = SECTION4,
    *,
    seed: int = 0,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> pd.DataFrame:
    """Figs. 9-11 for one cluster count: per BSBW, First-Fit under the dynamic model
    (its ATT and measured mean penalty) and the fixed-penalty model fed that penalty.
    ``clusters`` is a whole number in [1, 10**6] (:class:`~hpcmodels.bandwidth.Setup`'s
    bounds) and ``seed`` one in [0, 2**63 - 1], checked before any run."""
    s = with_clusters(setup, clusters)
    seed = check_seed(seed)
    grid = [dict(setup=s, bsbw=float(b), seed=seed) for b in bsbws]
    results = sweep_results(
        penalty_point,
        grid,
        cache=cache,
        client=client,
        progress=progress,
        desc=f"{clusters} clusters",
    )
    rows = []
    for b, r in zip(bsbws, results, strict=True):
        for model in ("dynamic", "fixed"):
            rows.append(
                dict(
                    clusters=clusters,
                    bsbw=float(b),
                    model=model,
                    penalty=r["penalty"],
                    att=r[f"{model}_att"],
                    coallocated=r[f"{model}_coallocated"],
                )
            )
    return pd.DataFrame(rows)


def limits(
    clusters: Sequence[int],
    setup: Setup = SECTION4,
    *,
    seed: int = 0,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> pd.DataFrame:
    """No Share, Migration Only and Ideal ATT per cluster count. ``clusters``: whole
    numbers in [1, 10**6] (:class:`~hpcmodels.bandwidth.Setup`'s bounds); ``seed`` one in
    [0, 2**63 - 1]; all checked before any run."""
    plan = [(m, st) for m in clusters for st in ("no_share", "migration_only", "ideal")]
    points = [sweep_point(st, with_clusters(setup, m), seed=seed) for m, st in plan]
    runs = sweep_runs(points, cache=cache, client=client, progress=progress, desc="limits")
    return pd.DataFrame(
        [dict(clusters=m, strategy=st, att=r["att"]) for (m, st), r in zip(plan, runs, strict=True)]
    )


def _bisect(f, lo: float, hi: float, iterations: int) -> float:
    """The point of [lo, hi] where the increasing (noisy) ``f`` crosses 0."""
    flo, fhi = f(lo), f(hi)
    if flo > 0 or fhi < 0:
        return float("nan")
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        if f(mid) < 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def break_even_point(
    setup: Setup,
    limit: str,
    seed: int,
    bsbw_range: Sequence[float],
    penalty_range: Sequence[float],
    iterations: int,
) -> dict:
    """One seed and limit of :func:`break_even` (a sweep point; the bisections inside
    run one after the other): the limit's ATT ``level``, the BSBW where First-Fit
    reaches it and the penalty measured there (``dynamic``), and the fixed-model
    penalty that reaches it (``fixed``); NaN where the range does not bracket it.
    ``seed`` is a whole number in [0, 2**63 - 1], ``iterations`` one in [0, 60]
    (:data:`MAX_BISECTIONS`), checked before the first run."""
    seed = check_seed(seed)
    iterations = check_int("iterations", iterations, minimum=0, maximum=MAX_BISECTIONS)
    level = run_point(limit, setup, seed=seed)["att"]

    def dynamic_gap(b):  # only its sign is read: a run deep in overload stops early
        return att_gap("first_fit", setup, level, bsbw=b, seed=seed)

    def fixed_gap(x):
        return att_gap("fixed_penalty", setup, level, penalty=x, seed=seed)

    bsbw = _bisect(dynamic_gap, *bsbw_range, iterations)
    dyn = run_point("first_fit", setup, bsbw=bsbw, seed=seed)["penalty"] if bsbw == bsbw else np.nan
    fixed = _bisect(fixed_gap, *penalty_range, iterations)
    return {"level": level, "bsbw": bsbw, "dynamic": dyn, "fixed": fixed}


def break_even(
    clusters: int,
    levels: Sequence[str] = ("migration_only", "no_share"),
    setup: Setup = SECTION4,
    *,
    seeds: Sequence[int] = (0,),
    bsbw_range=(0.0, 3000.0),
    penalty_range=(1.0, 2.0),
    iterations: int = 8,
    progress: bool = True,
    cache: str | Path | None = None,
    client=None,
) -> list[dict]:
    """Section 4.4's penalties: for each limit (``levels``: the strategies), the
    co-allocation penalty at which First-Fit's ATT reaches it, under the dynamic model
    (bisection on BSBW; the penalty measured there) and the fixed model (bisection on
    the penalty); one row per seed, limit and model, each seed with its own workload and
    its own limit level. Each (seed, limit) is a sweep point.

    ``clusters`` is a whole number in [1, 10**6] (:class:`~hpcmodels.bandwidth.Setup`'s
    bounds), ``seeds`` at most 10**6 whole numbers in [0, 2**63 - 1] and ``iterations``
    one in [0, 60] (:data:`MAX_BISECTIONS`), all checked before any run."""
    s = with_clusters(setup, clusters)
    seeds = check_ints("seeds", seeds, minimum=0, maximum=MAX_SEED, max_length=MAX_REPLICATES)
    iterations = check_int("iterations", iterations, minimum=0, maximum=MAX_BISECTIONS)
    plan = [(seed, limit) for seed in seeds for limit in levels]
    grid = [
        dict(
            setup=s,
            limit=limit,
            seed=seed,
            bsbw_range=tuple(bsbw_range),
            penalty_range=tuple(penalty_range),
            iterations=iterations,
        )
        for seed, limit in plan
    ]
    results = sweep_results(
        break_even_point,
        grid,
        cache=cache,
        client=client,
        progress=progress,
        desc=f"break-even, {clusters} clusters",
    )
    rows = []
    for (seed, limit), r in zip(plan, results, strict=True):
        for model in ("dynamic", "fixed"):
            rows.append(
                dict(
                    clusters=clusters,
                    limit=limit,
                    seed=seed,
                    level=r["level"],
                    model=model,
                    bsbw=r["bsbw"] if model == "dynamic" else np.nan,
                    penalty=r[model],
                )
            )
    return rows
