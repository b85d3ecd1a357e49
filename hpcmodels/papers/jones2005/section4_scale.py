"""Section 4 at paper scale (4,000,000 jobs per cluster, Section 4.3): the store's points
for Figs. 9-11 and Section 4.4's break-even penalties, the frames the quick builders
return rebuilt from the store (:func:`section4_frames`), and the report rows judged on
them by the quick rows' own functions (:func:`section4_rows`).

Each replicate is one workload seed for every cluster count, limit and BSBW (paired).
The points run the same functions as the quick notebook (:func:`.section4.penalty_point`,
:func:`.section4.break_even_point` with :func:`.section4.break_even`'s defaults), so the
two scales differ only in the number of jobs and of seeds."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ...bandwidth import SECTION4, run_point
from ...bounds import MAX_CLUSTERS, MAX_JOBS, MAX_REPLICATES
from ...errors import InvalidParameter, check_frame, check_int
from ..ensemble import with_replicates
from .points import with_clusters
from .published import PENALTY_BSBWS, PENALTY_RANGES
from .rows import break_even_rows, section4_claims
from .section4 import break_even_point, penalty_point

# Figs. 9-11 and the break-even penalties read off them are a figure grid: 10 seeds
# would take most of a day here (2 clusters took 880 CPU-s per seed; one 8-cluster run
# takes 65-450 s and 15-20 GB), so >= 3 (issue 24's rule)
SECTION4_REPLICATES = 3
# the seeds stored per cluster count, all SECTION4_REPLICATES now. 8 clusters (32,000,000
# jobs a run, one run at a time for memory) came in stages, each a --missing-only sweep
# short enough to finish in one working session here, since the machine keeps nothing
# between sessions but the repository: seed 0's limits and First-Fit curve (14 points,
# about an hour), then seed 1's, then seed 2's. A count with fewer seeds is allowed: its
# rows say how many seeds their means cover.
SECTION4_SEEDS = {2: SECTION4_REPLICATES, 4: SECTION4_REPLICATES, 8: 3}
# the seeds whose break-even bisections are stored, per cluster count the paper prints
# them for (Section 4.4: 2 and 8), at most SECTION4_SEEDS[m]; 8 clusters' came a seed at
# a time too (two bisections per seed: 3,083 s, 2,846 s and 2,746 s here)
BREAK_EVEN_SEEDS = {2: SECTION4_REPLICATES, 8: 3}
SECTION4_CLUSTERS = tuple(SECTION4_SEEDS)
# what one more seed cost here, wall seconds (the store's provenance): 2 clusters' limits,
# curves and bisections 1,317 s for 3 seeds on 2 cores, 4 clusters' 2,878 s for 3 seeds
# on 2 cores, 8 clusters' limits and curves 3,198-3,215 s and their two bisections
# 2,746-3,083 s, one run at a time (15-20 GB a run)
SEED_SECONDS = {2: 1317 / 3, 4: 2878 / 3, 8: 3210 + 2890}
SECTION4_COST = (
    f"seeds {SECTION4_REPLICATES} to 9 would take about "
    f"{(10 - SECTION4_REPLICATES) * sum(SEED_SECONDS.values()) / 3600:.0f} h here (a seed "
    f"took {SEED_SECONDS[2]:,.0f} s at 2 clusters, {SEED_SECONDS[4]:,.0f} s at 4 and "
    f"{SEED_SECONDS[8]:,.0f} s at 8, whose 32,000,000-job runs go one at a time for memory)"
)
LIMITS = ("no_share", "migration_only", "ideal")
# break_even's defaults (the quick notebook's bisections; a test keeps them equal)
BREAK_EVEN = dict(bsbw_range=(0.0, 3000.0), penalty_range=(1.0, 2.0), iterations=8)
# penalty_point's results per model (the penalty: the dynamic model's, fed to the fixed)
CURVE_RESULTS = {"penalty": "penalty", "att": "ATT (s)", "coallocated": "co-allocated share"}
POINT_COLUMNS = ["study", "strategy", "clusters", "bsbw", "limit", "replicate"]


def _prefix(clusters: int) -> str:
    return f"Section 4.3, {clusters} clusters"


def limit_key(clusters: int, strategy: str) -> str:
    return f"{_prefix(clusters)} | {strategy} ATT (s)"


def curve_key(clusters: int, bsbw: float, model: str, what: str) -> str:
    return f"{_prefix(clusters)} | First-Fit {model} {what} at {bsbw:.0f} Mbps"


def break_even_key(clusters: int, limit: str, what: str) -> str:
    return f"Section 4.4, {clusters} clusters | break-even vs {limit}: {what}"


def break_even_clusters() -> list[int]:
    """The cluster counts whose break-even penalties the paper prints (Section 4.4)."""
    return sorted({m for _, m in PENALTY_RANGES})


def section4_points() -> list[dict]:
    """Per cluster count and each of its :data:`SECTION4_SEEDS` seeds: No Share,
    Migration Only and Ideal; every BSBW of :data:`PENALTY_BSBWS` (First-Fit, dynamic
    and fixed model); and the break-even penalties against Migration Only and No Share
    where the paper prints them, for the first :data:`BREAK_EVEN_SEEDS` seeds."""
    jobs = SECTION4.jobs_per_cluster
    points = []
    for m, seeds in SECTION4_SEEDS.items():
        for r in range(seeds):
            base = dict(jobs_per_cluster=jobs, clusters=m, replicate=r)
            points += [dict(study="section4 limit", strategy=st, **base) for st in LIMITS]
            points += [
                dict(study="section4 curve", strategy="first_fit", bsbw=b, **base)
                for b in PENALTY_BSBWS[m]
            ]
            if r < BREAK_EVEN_SEEDS.get(m, 0):
                points += [
                    dict(study="section4 break-even", strategy="first_fit", limit=lim, **base)
                    for lim in ("migration_only", "no_share")
                ]
    return points


def section4_point(
    study: str,
    strategy: str,
    jobs_per_cluster: int,
    clusters: int,
    replicate: int,
    bsbw: float | None = None,
    limit: str | None = None,
) -> dict:
    """One Section 4 point with workload seed ``replicate``: ``{item key: value}``.
    ``jobs_per_cluster`` is a whole number in [1, 10**8], ``clusters`` one in [1, 10**6]
    and ``replicate`` one in [0, 10**6 - 1] (:mod:`hpcmodels.bounds`)."""
    jobs_per_cluster = check_int("jobs_per_cluster", jobs_per_cluster, minimum=1, maximum=MAX_JOBS)
    m = check_int("clusters", clusters, minimum=1, maximum=MAX_CLUSTERS)
    seed = check_int("replicate", replicate, minimum=0, maximum=MAX_REPLICATES - 1)
    setup = with_clusters(SECTION4.scaled(jobs_per_cluster), m)
    if study == "section4 limit":
        return {limit_key(m, strategy): run_point(strategy, setup, seed=seed)["att"]}
    if study == "section4 curve":
        r = penalty_point(setup, float(bsbw), seed)
        return {
            curve_key(m, bsbw, model, label): r[what if what == "penalty" else f"{model}_{what}"]
            for model in ("dynamic", "fixed")
            for what, label in CURVE_RESULTS.items()
            if not (what == "penalty" and model == "fixed")
        }
    if study == "section4 break-even":
        r = break_even_point(setup, limit, seed, **BREAK_EVEN)
        return {
            break_even_key(m, limit, "level ATT (s)"): r["level"],
            break_even_key(m, limit, "BSBW (Mbps)"): r["bsbw"],
            break_even_key(m, limit, "dynamic penalty"): r["dynamic"],
            break_even_key(m, limit, "fixed penalty"): r["fixed"],
        }
    raise InvalidParameter(f"not a Section 4 study: {study!r}")


def _value(store: pd.DataFrame, key: str, replicate: int) -> float:
    rows = store[(store["item"] == key) & (store["replicate"] == replicate)]
    return float(rows["value"].iloc[0]) if len(rows) else float("nan")


def section4_frames(store: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The stored Section 4 runs as the quick builders' frames, with a ``replicate``
    column: :func:`.section4.penalty_curves`' (one row per cluster count, BSBW and
    model), :func:`.section4.limits`' and :func:`.section4.break_even`'s (``seed`` is
    the replicate; a bisection whose range did not bracket the limit has no stored
    value and reads NaN, as in the quick frame). Empty frames when nothing is stored."""
    check_frame("store", store, ["item", "replicate", "value"])
    if "study" not in store:
        return pd.DataFrame(), pd.DataFrame(), pd.DataFrame()
    s4 = store[store["study"].astype(str).str.startswith("section4")]
    curves, lims, be = [], [], []
    point_columns = [c for c in POINT_COLUMNS if c in s4]
    for point in s4.drop_duplicates(point_columns).reindex(columns=POINT_COLUMNS).itertuples():
        m, r = int(point.clusters), int(point.replicate)
        if point.study == "section4 limit":
            att = _value(s4, limit_key(m, point.strategy), r)
            lims.append(dict(clusters=m, strategy=point.strategy, att=att, replicate=r))
        elif point.study == "section4 curve":
            b = float(point.bsbw)
            penalty = _value(s4, curve_key(m, b, "dynamic", "penalty"), r)
            for model in ("dynamic", "fixed"):
                curves.append(
                    dict(
                        clusters=m,
                        bsbw=b,
                        model=model,
                        penalty=penalty,
                        att=_value(s4, curve_key(m, b, model, "ATT (s)"), r),
                        coallocated=_value(
                            s4, curve_key(m, b, model, CURVE_RESULTS["coallocated"]), r
                        ),
                        replicate=r,
                    )
                )
        else:
            lim = point.limit
            for model in ("dynamic", "fixed"):
                be.append(
                    dict(
                        clusters=m,
                        limit=lim,
                        seed=r,
                        level=_value(s4, break_even_key(m, lim, "level ATT (s)"), r),
                        model=model,
                        bsbw=_value(s4, break_even_key(m, lim, "BSBW (Mbps)"), r)
                        if model == "dynamic"
                        else np.nan,
                        penalty=_value(s4, break_even_key(m, lim, f"{model} penalty"), r),
                    )
                )
    return pd.DataFrame(curves), pd.DataFrame(lims), pd.DataFrame(be)


def section4_means(store: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figs. 9-11 at paper scale: the mean over the stored seeds of every curve point
    and limit, shaped like the quick frames (for :func:`hpcmodels.plots.penalty_panels`
    and :func:`.rows.section4_claims`); empty frames when nothing is stored."""
    curves, lims, _ = section4_frames(store)
    if curves.empty or lims.empty:
        return pd.DataFrame(), pd.DataFrame()
    key = ["clusters", "bsbw", "model"]
    curves = curves.groupby(key, as_index=False)[list(CURVE_RESULTS)].mean()
    lims = lims.groupby(["clusters", "strategy"], as_index=False)["att"].mean()
    return curves, lims


def _seeds_text(seeds: pd.Series, clusters: list[int]) -> str:
    """ "means over 3 seeds", or with the counts that have fewer stored so far: "means
    over 3 seeds (8 clusters: 1)" (``seeds``: stored seeds per cluster count)."""
    most = int(seeds[clusters].max())
    fewer = [f"{m} clusters: {int(seeds[m])}" for m in clusters if seeds[m] < most]
    text = f"means over {most} seed{'s' if most > 1 else ''}"
    return text + (f" ({', '.join(fewer)})" if fewer else "")


def section4_seeds_text(store: pd.DataFrame) -> str:
    """How many seeds the stored Section 4 means cover, for a caption: "means over 3
    seeds", or "means over 3 seeds (8 clusters: 1)" while a cluster count is staged
    (:data:`SECTION4_SEEDS`); "nothing stored" when the store has no Section 4."""
    curves, _, _ = section4_frames(store)
    if curves.empty:
        return "nothing stored"
    seeds = curves.groupby("clusters")["replicate"].nunique()
    return _seeds_text(seeds, sorted(seeds.index))


def section4_rows(store: pd.DataFrame) -> list[dict]:
    """Section 4.4 judged at paper scale by the quick rows' functions: the break-even
    penalties (mean and 95 % t-interval over the seeds, each seed its own workload and
    limit level; from one seed its crossing alone; the trend across cluster counts says
    how many seeds each count's bisections have, :data:`BREAK_EVEN_SEEDS`) and the
    claims on the mean curves and limits (a difference of means is the mean of the
    paired differences: every seed runs every point). A claim across
    the cluster counts is judged once 2, 4 and 8 clusters are all stored; each claim
    says how many seeds its means cover per cluster count (:data:`SECTION4_SEEDS`)."""
    curves, lims, be = section4_frames(store)
    rows = []
    if not be.empty:
        bisected = be.groupby("clusters")["seed"].nunique()
        for row in break_even_rows(be):
            count = re.search(r"\((\d+) clusters\)$", row["item"])
            clusters = [int(count.group(1))] if count else sorted(bisected.index)
            if count is None:  # the trend across cluster counts
                row["ours"] = f"{row['ours']} ({_seeds_text(bisected, clusters)})"
            rows.append(_rests_on(row, bisected, clusters))
    means, mean_lims = section4_means(store)
    if means.empty:
        return rows
    seeds = curves.groupby("clusters")["replicate"].nunique()
    every_count = set(means["clusters"]) >= set(PENALTY_BSBWS)
    for row in section4_claims(means, mean_lims):
        count = re.search(r"\((\d+) clusters\)$", row["item"])
        if not every_count and count is None:
            continue  # a claim across 2, 4 and 8 clusters waits for all three
        clusters = [int(count.group(1))] if count else sorted(seeds.index)
        row["ours"] = f"{row['ours']} ({_seeds_text(seeds, clusters)})"
        rows.append(_rests_on(row, seeds, clusters))
    return rows


def _rests_on(row: dict, seeds: pd.Series, clusters: list[int]) -> dict:
    """A Section 4.4 row with the seeds it rests on (the fewest of its cluster counts'),
    and why fewer than ten when so (:data:`SECTION4_COST`)."""
    if row.get("kind") != "claim":
        return row
    return with_replicates(row, int(seeds[clusters].min()), SECTION4_COST)
