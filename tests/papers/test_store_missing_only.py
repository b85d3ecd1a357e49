"""``compute_store(missing_only=True)`` (``reproduce --full --missing-only``): the stored
runs of points that are still the paper's are kept, only the points the store lacks are
computed, points no longer listed are dropped, each sweep keeps the commit and times of
the call that made it, and a store whose runs today's code no longer reproduces is
refused. Checked on a small stand-in paper module."""

from __future__ import annotations

import types

import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter
from hpcmodels.papers import store

CALLS: list[dict] = []
SHIFT = {"value": 0.0}


def _point(study: str, replicate: int, width: float | None = None) -> dict:
    """A stand-in run: its kind of run is ``study`` (store.KINDS of 'jones2005')."""
    CALLS.append(dict(study=study, replicate=replicate, width=width))
    value = 10.0 * replicate + (width or 1.0) + SHIFT.get(study, SHIFT["value"])
    return {f"{study} | ATT (s)": value, f"{study} | share": value / 100}


def _paper(points: list[dict]):
    return types.SimpleNamespace(
        ensemble_points=lambda: [dict(p) for p in points],
        ensemble_point=_point,
        ensemble_cost=lambda p: 1.0 + p["replicate"],
    )


@pytest.fixture
def paper(monkeypatch):
    """Install a stand-in module for the paper name 'jones2005' (store's look-up)."""
    CALLS.clear()
    SHIFT.clear()
    SHIFT["value"] = 0.0

    def install(points):
        module = _paper(points)
        monkeypatch.setattr(store, "_module", lambda name: module)
        return module

    return install


def _compute(folder, **options):
    return store.compute_store(
        "jones2005", folder=folder, client="serial", progress=False, **options
    )


FIRST = [dict(study="a", replicate=r) for r in range(3)]
LATER = [dict(study="b", replicate=r, width=2.0) for r in range(2)]


def test_only_the_missing_points_are_computed_and_the_rest_kept(paper, tmp_path):
    paper(FIRST)
    _compute(tmp_path, command="first")
    before = store.read_store("jones2005", tmp_path)
    assert len(CALLS) == 3 and len(before) == 6
    paper(FIRST + LATER)
    CALLS.clear()
    _compute(tmp_path, command="second", missing_only=True)
    after = store.read_store("jones2005", tmp_path)
    # the check recomputes the cheapest stored point of its one kind, then only the new run
    assert [(c["study"], c["replicate"]) for c in CALLS] == [("a", 0), ("b", 0), ("b", 1)]
    assert len(after) == 10
    kept = after[after["item"].str.startswith("a |")].reset_index(drop=True)
    assert kept[["item", "replicate", "value"]].equals(before[["item", "replicate", "value"]])
    new = after[after["item"] == "b | ATT (s)"]
    assert list(new["value"]) == [2.0, 12.0] and list(new["width"]) == [2.0, 2.0]
    info = store.read_provenance("jones2005", tmp_path)
    assert [s["command"] for s in info["sweeps"]] == ["first", "second"]
    assert [s["points"] for s in info["sweeps"]] == [3, 2]
    for sweep in info["sweeps"]:
        for key in ("commit", "source_fingerprint", "started", "ended", "wall_seconds"):
            assert key in sweep
    assert info["command"] == "second"


def test_nothing_missing_computes_nothing_and_keeps_every_row(paper, tmp_path):
    paper(FIRST + LATER)
    _compute(tmp_path)
    before = store.read_store("jones2005", tmp_path)
    CALLS.clear()
    _compute(tmp_path, missing_only=True)
    after = store.read_store("jones2005", tmp_path)
    assert len(CALLS) == 2  # the check's recomputations only
    pd.testing.assert_frame_equal(after, before, check_like=True)
    assert store.read_provenance("jones2005", tmp_path)["sweeps"][-1]["points"] == 0


def test_unlisted_points_are_refused_not_dropped(paper, tmp_path):
    """Issue 51: it used to keep the listed points only, so a run without a workload log
    (whose points a paper then does not list) dropped their rows without a word."""
    paper(FIRST + LATER)
    _compute(tmp_path)
    paper(FIRST[:2])  # the paper no longer lists replicate 2 of 'a', nor any 'b'
    with pytest.raises(InvalidParameter, match=r"3 point\(s\) that today's ensemble points"):
        _compute(tmp_path, missing_only=True)
    _compute(tmp_path)  # dropping them on purpose: compute the whole store again
    after = store.read_store("jones2005", tmp_path)
    assert sorted(set(after["replicate"])) == [0, 1] and set(after["item"]) == {
        "a | ATT (s)",
        "a | share",
    }


def test_a_store_that_today_s_code_does_not_reproduce_is_refused(paper, tmp_path):
    paper(FIRST)
    _compute(tmp_path)
    SHIFT["value"] = 1e-9  # results moved
    paper(FIRST + LATER)
    before = (tmp_path / "jones2005.parquet").read_bytes()
    with pytest.raises(InvalidParameter, match="results moved"):
        _compute(tmp_path, missing_only=True)
    assert (tmp_path / "jones2005.parquet").read_bytes() == before  # nothing written
    _compute(tmp_path)  # computing everything again is what it asks for
    again = store.read_store("jones2005", tmp_path)
    assert store.values(again, "a | ATT (s)")[0] == 1.0 + 1e-9


def test_a_move_in_any_kind_of_run_is_refused_not_only_in_the_cheapest(paper, tmp_path):
    """Kind b's runs cost more than kind a's; a move in b alone is found (issue 50: the
    check recomputes the cheapest point of every kind, every item)."""
    paper(FIRST + LATER)
    _compute(tmp_path)
    SHIFT["b"] = 1e-9
    paper(FIRST + LATER + [dict(study="a", replicate=3)])
    with pytest.raises(InvalidParameter, match=r"'b \| ATT \(s\)'.*2 item\(s\).*results moved"):
        _compute(tmp_path, missing_only=True)


def test_missing_only_without_a_store_computes_every_point(paper, tmp_path):
    paper(FIRST)
    _compute(tmp_path, missing_only=True)
    assert len(CALLS) == 3
    assert len(store.read_provenance("jones2005", tmp_path)["sweeps"]) == 1


@pytest.mark.parametrize("value", [1, "yes", None])
def test_missing_only_must_be_a_bool(paper, tmp_path, value):
    paper(FIRST)
    with pytest.raises(InvalidParameter, match="missing_only must be True or False"):
        _compute(tmp_path, missing_only=value)
    assert CALLS == []
