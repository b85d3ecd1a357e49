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
from hpcmodels.papers.jones2005.section4_scale import (
    SECTION4_CLUSTERS,
    section4_frames,
    section4_means,
    section4_points,
    section4_rows,
)
from hpcmodels.papers.store import _rows

JOBS = 1_500  # per cluster: the real points, small


@pytest.fixture(scope="module")
def small_store() -> pd.DataFrame:
    points = [dict(p, jobs_per_cluster=JOBS) for p in section4_points()]
    return _rows(points, [jo.ensemble_point(**p) for p in points])


def test_the_points_are_every_seed_of_every_stored_cluster_count():
    points = section4_points()
    assert {p["clusters"] for p in points} == set(SECTION4_CLUSTERS)
    assert {p["replicate"] for p in points} == set(range(jo.SECTION4_REPLICATES))
    assert all(p["jobs_per_cluster"] == SECTION4.jobs_per_cluster for p in points)
    assert jo.SECTION4_REPLICATES >= 3  # issue 24: >= 3 per point of a figure grid


def test_the_paper_scale_bisections_are_the_quick_ones():
    import inspect

    from hpcmodels.papers.jones2005.section4_scale import BREAK_EVEN

    defaults = inspect.signature(jo.break_even).parameters
    assert BREAK_EVEN == {k: defaults[k].default for k in BREAK_EVEN}


def test_the_stored_frames_are_the_quick_builders_frames(small_store):
    curves, lims, be = section4_frames(small_store)
    setup = SECTION4.scaled(JOBS)
    for seed in range(jo.SECTION4_REPLICATES):
        quick_lims = jo.limits(SECTION4_CLUSTERS, setup, seed=seed, progress=False)
        ours = lims[lims["replicate"] == seed].drop(columns="replicate")
        key = ["clusters", "strategy"]
        pd.testing.assert_frame_equal(
            ours.sort_values(key, ignore_index=True),
            quick_lims.sort_values(key, ignore_index=True),
            check_like=True,
        )
        for m in SECTION4_CLUSTERS:
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
    assert (
        rows["ours"][
            ~rows["item"].str.startswith("Section 4.4 (")
            | rows["quantity"].str.startswith("First-Fit")
        ]
        .str.contains("means over 3 seeds")
        .all()
    )


def test_a_store_without_section4_gives_no_rows():
    frame = pd.DataFrame({"item": ["x"], "replicate": [0], "value": [1.0], "study": ["baseline"]})
    assert section4_rows(frame) == []
    assert all(f.empty for f in section4_frames(frame))


@pytest.mark.parametrize("build", [section4_frames, section4_means, section4_rows])
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
