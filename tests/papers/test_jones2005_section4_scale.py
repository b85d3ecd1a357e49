"""Jones 2005 Section 4 at paper scale (hpcmodels/papers/jones2005/section4_scale.py),
on the real points at a small size: the frames rebuilt from a store are the quick
builders' frames for the same seed, the rows line up with the quick rows, and a claim
across 2, 4 and 8 clusters waits until all three are stored."""

from __future__ import annotations

import pandas as pd
import pytest

from hpcmodels.bandwidth import SECTION4
from hpcmodels.errors import InvalidParameter
from hpcmodels.papers import jones2005 as jo
from hpcmodels.papers.jones2005.published import CLAIMS
from hpcmodels.papers.jones2005.section4_scale import (
    BREAK_EVEN_SEEDS,
    SECTION4_CLUSTERS,
    SECTION4_SEEDS,
    break_even_clusters,
    section4_frames,
    section4_means,
    section4_points,
    section4_rows,
    section4_seeds_text,
)
from hpcmodels.papers.store import _rows

JOBS = 1_500  # per cluster: the real points, small


@pytest.fixture(scope="module")
def small_store() -> pd.DataFrame:
    points = [dict(p, jobs_per_cluster=JOBS) for p in section4_points()]
    return _rows(points, [jo.ensemble_point(**p) for p in points])


def test_the_points_are_every_seed_of_every_stored_cluster_count():
    points = section4_points()
    assert {p["clusters"] for p in points} == set(SECTION4_CLUSTERS) == set(jo.PENALTY_BSBWS)
    for m, seeds in SECTION4_SEEDS.items():
        assert {p["replicate"] for p in points if p["clusters"] == m} == set(range(seeds))
    assert all(p["jobs_per_cluster"] == SECTION4.jobs_per_cluster for p in points)
    assert jo.SECTION4_REPLICATES >= 3  # issue 24: >= 3 per point of a figure grid
    # 2 and 4 clusters are complete; 8 clusters come in stages of at most that many seeds
    assert SECTION4_SEEDS[2] == SECTION4_SEEDS[4] == jo.SECTION4_REPLICATES
    assert 1 <= SECTION4_SEEDS[8] <= jo.SECTION4_REPLICATES
    # the bisections: where the paper prints break-even penalties, 2 clusters complete, 8
    # clusters in stages of seeds whose curves are stored
    assert set(BREAK_EVEN_SEEDS) == set(break_even_clusters())
    assert BREAK_EVEN_SEEDS[2] == jo.SECTION4_REPLICATES
    assert 0 <= BREAK_EVEN_SEEDS[8] <= SECTION4_SEEDS[8]
    for m, seeds in BREAK_EVEN_SEEDS.items():
        bisected = [p for p in points if p["study"] == "section4 break-even" and p["clusters"] == m]
        assert sorted((p["replicate"], p["limit"]) for p in bisected) == [
            (r, lim) for r in range(seeds) for lim in ("migration_only", "no_share")
        ]


def test_the_paper_scale_bisections_are_the_quick_ones():
    import inspect

    from hpcmodels.papers.jones2005.section4_scale import BREAK_EVEN

    defaults = inspect.signature(jo.break_even).parameters
    assert BREAK_EVEN == {k: defaults[k].default for k in BREAK_EVEN}


def test_the_stored_frames_are_the_quick_builders_frames(small_store):
    curves, lims, be = section4_frames(small_store)
    setup = SECTION4.scaled(JOBS)
    for seed in range(jo.SECTION4_REPLICATES):
        counts = [m for m in SECTION4_CLUSTERS if seed < SECTION4_SEEDS[m]]
        quick_lims = jo.limits(counts, setup, seed=seed, progress=False)
        ours = lims[lims["replicate"] == seed].drop(columns="replicate")
        key = ["clusters", "strategy"]
        pd.testing.assert_frame_equal(
            ours.sort_values(key, ignore_index=True),
            quick_lims.sort_values(key, ignore_index=True),
            check_like=True,
        )
        for m in counts:
            quick = jo.penalty_curves(m, jo.PENALTY_BSBWS[m], setup, seed=seed, progress=False)
            part = curves[(curves["replicate"] == seed) & (curves["clusters"] == m)]
            key = ["bsbw", "model"]
            pd.testing.assert_frame_equal(
                part.drop(columns="replicate").sort_values(key, ignore_index=True),
                quick.sort_values(key, ignore_index=True),
                check_like=True,
            )
    m = min(SECTION4_CLUSTERS)
    quick_be = pd.DataFrame(jo.break_even(m, setup=setup, seeds=(0, 1, 2), progress=False))
    key = ["limit", "seed", "model"]
    pd.testing.assert_frame_equal(
        be[be["clusters"] == m].sort_values(key, ignore_index=True),
        quick_be.sort_values(key, ignore_index=True),
        check_like=True,
    )


def test_the_rows_line_up_with_the_quick_rows_and_wait_for_every_cluster_count(small_store):
    rows = pd.DataFrame(section4_rows(small_store))
    curves, lims = section4_means(small_store)
    _, _, be = section4_frames(small_store)
    quick = pd.DataFrame(jo.break_even_rows(be) + jo.section4_claims(curves, lims))
    assert set(zip(rows["item"], rows["quantity"], strict=True)) <= set(
        zip(quick["item"], quick["quantity"], strict=True)
    )
    per_count = rows["item"].str.endswith("clusters)")
    assert per_count.all() == (set(SECTION4_CLUSTERS) != set(jo.PENALTY_BSBWS))
    claims = rows[
        ~rows["item"].str.startswith("Section 4.4 (") | rows["quantity"].str.startswith("First-Fit")
    ]
    for item, quantity, ours in zip(
        claims["item"], claims["quantity"], claims["ours"], strict=True
    ):
        count = item.rsplit("(", 1)[-1].removesuffix(" clusters)")
        if count.isdigit():  # one cluster count: its own seeds
            seeds = SECTION4_SEEDS[int(count)]
            assert ours.endswith(f"(means over {seeds} seed{'s' if seeds > 1 else ''})")
        else:  # across the counts: the most seeds, and the counts that have fewer
            # (the trend of the break-even penalties counts the bisected seeds)
            per = BREAK_EVEN_SEEDS if quantity.startswith("break-even") else SECTION4_SEEDS
            fewer = [f"{m} clusters: {s}" for m, s in per.items() if s < 3]
            assert ours.endswith(
                "(means over 3 seeds" + (f" ({', '.join(fewer)}))" if fewer else ")")
            )


def test_the_caption_says_how_many_seeds_each_cluster_count_has(small_store):
    fewer = [f"{m} clusters: {s}" for m, s in SECTION4_SEEDS.items() if s < 3]
    assert section4_seeds_text(small_store) == "means over 3 seeds" + (
        f" ({', '.join(fewer)})" if fewer else ""
    )
    one_seed = small_store[small_store["replicate"] == 0]
    assert section4_seeds_text(one_seed) == "means over 1 seed"


def test_a_staged_bisection_from_one_seed_is_judged_without_an_interval(small_store):
    # 8 clusters' bisections for seed 0 only, beside 2 clusters' for 3 seeds, whatever
    # BREAK_EVEN_SEEDS holds (the store now has every seed's)
    extra = [
        dict(study="section4 break-even", strategy="first_fit", limit=lim, clusters=8,
             replicate=0, jobs_per_cluster=JOBS)
        for lim in ("migration_only", "no_share")
    ]  # fmt: skip
    eight = (small_store["study"] == "section4 break-even") & (small_store["clusters"] == 8)
    staged = pd.concat(
        [small_store[~eight], _rows(extra, [jo.ensemble_point(**p) for p in extra])],
        ignore_index=True,
    )
    rows = pd.DataFrame(section4_rows(staged))
    bisections = rows[rows["quantity"].str.startswith("break-even penalty vs")]
    eight = bisections[bisections["item"] == "Section 4.4 (8 clusters)"]
    assert len(eight) == 2
    for ours in eight["ours"]:
        assert ours.endswith("(one seed: no interval)") and "nan" not in ours
        assert "+-" not in ours
    two = bisections[bisections["item"] == "Section 4.4 (2 clusters)"]
    assert all(ours.endswith("(95 % interval over 3 seeds)") for ours in two["ours"])
    trend = rows[rows["quantity"] == CLAIMS["penalty trend"][1]]
    assert len(trend) == 1
    assert trend["ours"].iloc[0].endswith("(means over 3 seeds (8 clusters: 1))")


def test_a_store_without_section4_gives_no_rows():
    frame = pd.DataFrame({"item": ["x"], "replicate": [0], "value": [1.0], "study": ["baseline"]})
    assert section4_rows(frame) == []
    assert section4_seeds_text(frame) == "nothing stored"
    assert all(f.empty for f in section4_frames(frame))


@pytest.mark.parametrize(
    "build", [section4_frames, section4_means, section4_rows, section4_seeds_text]
)
@pytest.mark.parametrize(
    "store, message",
    [
        (None, "store must be a pandas DataFrame"),
        ("results/jones2005.parquet", "store must be a pandas DataFrame"),
        (pd.DataFrame({"item": ["x"], "value": [1.0]}), r"store lacks column\(s\) \['replicate'\]"),
    ],
)
def test_a_store_that_is_no_store_is_refused_naming_it(build, store, message):
    with pytest.raises(InvalidParameter, match=message):
        build(store)


def test_the_dynamic_vs_fixed_claim_counts_the_points_past_no_share_apart():
    """Past No Share's ATT the queue grows without bound; the reason counts those
    points apart from the steady ones (hand-made means: one of each)."""
    curves = pd.DataFrame(
        {
            "clusters": [2] * 4,
            "bsbw": [100.0, 100.0, 900.0, 900.0],
            "model": ["dynamic", "fixed"] * 2,
            "penalty": [1.1] * 4,
            "att": [50.0, 40.0, 500.0, 900.0],
            "coallocated": [0.3] * 4,
        }
    )
    lims = pd.DataFrame(
        {
            "clusters": [2] * 3,
            "strategy": ["no_share", "migration_only", "ideal"],
            "att": [100.0, 45.0, 30.0],
        }  # fmt: skip
    )
    row = jo.section4_claims(curves, lims)[0]
    assert row["quantity"].startswith("dynamic vs fixed")
    assert row["ours"] == "dynamic higher at 50% of 2 points with penalty > 1.01"
    assert row["verdict"] == "differs"
    assert "dynamic is higher at 1 of 1 points; past it" in row["reason"]
    assert row["reason"].endswith("the run's length, at 0 of 1")
