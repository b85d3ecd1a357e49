"""The committed paper-scale store (results/): every paper with ensembles has its store,
the store has a row for every item of every point, its rows are what today's code
computes (the cheapest stored point of every kind of run, every item, to 1e-12
relative: :data:`hpcmodels.papers.store.KINDS`), and the report rows built from it are
valid. A change that moves results fails here until the store is regenerated with
``python -m hpcmodels reproduce --full`` (the commit saying why).

Left to ``python -m hpcmodels verify jones2005``: Jones's Section 4 break-even
bisections (about 22 runs of 8 million jobs each, minutes per point); their runs are
Section 4 First-Fit runs at a penalty, the kind the curve points check here."""

from __future__ import annotations

import functools
import json

import numpy as np
import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter, LogNotAvailable
from hpcmodels.papers import store
from hpcmodels.papers.ensemble import CLAIM_REPLICATES
from hpcmodels.papers.verdicts import VERDICTS

from logs import SDSC, need_log

PAPERS = store.ensemble_papers()


def _stored(paper: str) -> pd.DataFrame:
    frame = store.read_store(paper)
    assert frame is not None, (
        f"{paper} defines paper-scale ensembles but results/{paper}.parquet is missing: "
        f"run `python -m hpcmodels reproduce --full` and commit results/"
    )
    return frame


def _text(value) -> str:
    """A point's parameter as text; a missing one (None in the point, NaN in a float
    column of the store) and a whole number (2 in the point, 2.0 in a float column)
    read the same on both sides."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "None"
    value = value.item() if isinstance(value, np.generic) else value
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # a whole number in a float column (NaN in other rows) reads as one
    return str(value)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_store_has_every_point_of_the_paper(paper):
    frame = _stored(paper)
    params = [c for c in frame.columns if c not in ("item", "value")]
    stored = {tuple(map(_text, r)) for r in frame[params].itertuples(index=False)}
    wanted = {
        tuple(_text(p.get(c)) for c in params) for p in store._module(paper).ensemble_points()
    }
    assert wanted <= stored, sorted(wanted - stored)[:5]
    if wanted != stored:  # a paper lists no points for a log that is absent here
        need_log(SDSC)  # skips, naming the log; with it, every stored point must be listed
        assert wanted == stored, sorted(stored - wanted)[:5]
    assert not frame.duplicated(["item", "replicate"] + params).any()
    assert np.isfinite(frame["value"]).all()
    info = store.read_provenance(paper)
    for key in ("package_version", "source_fingerprint", "commit", "command", "machine",
                "started", "ended", "sweeps"):  # fmt: skip
        assert key in info, key
    assert sum(s["points"] for s in info["sweeps"]) == len(wanted)


@functools.cache
def _recomputed(paper: str) -> list[tuple[dict, pd.DataFrame, dict]]:
    """(point, its stored rows, its items recomputed) for the cheapest stored point of
    every kind of run of ``paper`` (shared by the two tests below)."""
    frame = _stored(paper)
    out = []
    for point in store.checked_points(paper, frame):
        try:
            now = store.recompute_point(paper, point)
        except LogNotAvailable as error:  # a trace-driven point without its log here
            pytest.skip(f"{paper}'s runs need a log that is not available here: {error}")
        out.append((point, store.point_rows(frame, point), now))
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_every_kind_of_stored_run_is_what_the_code_computes(paper):
    """The cheapest stored point of every kind (method, module, policy, section), every
    item of it, recomputed: equal to 1e-12 relative, no item missing or new."""
    checked = _recomputed(paper)
    kinds = {tuple(store._text(p.get(c)) for c in store.KINDS[paper]) for p, _, _ in checked}
    assert len(kinds) == len(checked) >= 2
    for point, rows, now in checked:
        assert len(rows) >= 1, point
        drifted = store.drift(rows, now)
        assert drifted.empty, f"{point}:\n{drifted.to_string()}"


@pytest.mark.parametrize("paper", PAPERS)
def test_a_stored_value_changed_by_1e9_fails_the_check(paper):
    """Each stored value of every recomputed point, changed alone by 1e-9 relative (or,
    where it is 0, set to 1e-300), is found by the check, and only that one."""
    for point, rows, now in _recomputed(paper):
        values = rows["value"].to_numpy()
        for i in range(len(rows)):
            changed = values.copy()
            changed[i] = changed[i] * (1 + 1e-9) if changed[i] else 1e-300
            drifted = store.drift(rows.assign(value=changed), now)
            assert list(drifted["item"]) == [rows["item"].iloc[i]], (point, i)
        assert list(store.drift(rows.iloc[1:], now)["item"]) == [rows["item"].iloc[0]]


@pytest.mark.parametrize("paper", [p for p in PAPERS if p != "across"])  # no paper: findings
def test_every_paper_scale_row_is_judged(paper):
    rows = store.paper_scale(paper)
    assert rows is not None and len(rows) > 0
    assert set(rows["verdict"]) <= set(VERDICTS)
    missing = rows[rows["verdict"] == "not run"]  # only an input absent here: a log
    assert missing["reason"].str.contains("log missing").all(), missing["reason"].tolist()
    numeric = rows[(rows["kind"] != "claim") & (rows["verdict"] != "not run")]
    assert (numeric["replicates"] >= 10).all()  # issue 24: >= 10 runs per printed item
    claims = rows[(rows["kind"] == "claim") & (rows["verdict"] != "not run")]
    assert claims["replicates"].notna().all(), claims.loc[claims["replicates"].isna(), "quantity"]
    few = claims[claims["replicates"] < CLAIM_REPLICATES]  # issue 50: fewer only with a reason
    assert few["reason"].str.contains(r"on \d replicates, fewer than 10: \w", regex=True).all()


def test_the_store_stays_small():
    total = sum(p.stat().st_size for p in store.RESULTS.glob("*") if p.is_file())
    assert total < 20 * 2**20
    for path in store.RESULTS.glob("*.provenance.json"):
        json.loads(path.read_text())


def test_no_deterministic_trace_row_gives_a_standard_deviation_distance():
    """Issue 50: Huang's tables (but random fit, which draws from its seed) and Shih's
    A1/A2 at SH 0 (Table 4, Table 5, Fig. 10) run one log on one system; their runs
    differ only by the 1 +- 1e-4 runtime scale, so no row of theirs counts sigmas."""
    huang = store.paper_scale("huang2006")
    huang = huang[(huang["kind"] != "claim") & ~huang["quantity"].str.contains("Random Fit")]
    shih = store.paper_scale("shih2013")
    trace_sh0 = shih["quantity"].str.match(r"A[12], \w+ load, SH = 0:")
    shih = shih[(trace_sh0 | shih["item"].isin(["Table 5", "Fig. 10"])) & (shih["kind"] != "claim")]
    for rows in (huang, shih):
        rows = rows[rows["verdict"] != "not run"]
        assert len(rows) >= 10
        assert rows["reason"].str.contains("a deterministic trace").all()
        assert not rows["reason"].str.contains("standard deviations").any()
        assert rows["sigmas"].isna().all()


_ROWS = pd.DataFrame({"item": ["a", "b"], "value": [1.0, 0.0], "replicate": [0, 0]})


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: store.kind_points("nope", _ROWS), "paper"),
        (lambda: store.checked_points("nope", _ROWS), "paper"),
        (lambda: store.kind_points("he2006", [1, 2]), "store"),
        (lambda: store.kind_points("he2006", _ROWS.drop(columns="value")), "value"),
        (lambda: store.drift("rows", {"a": 1.0}), "rows"),
        (lambda: store.drift(_ROWS.drop(columns="item"), {"a": 1.0}), "item"),
        (lambda: store.drift(_ROWS, [("a", 1.0)]), "now"),
        (lambda: store.drift(_ROWS, {}, rtol=float("nan")), "rtol"),
        (lambda: store.drift(_ROWS, {}, rtol=-1e-12), "rtol"),
        (lambda: store.drift(_ROWS, {}, rtol="0"), "rtol"),
        (lambda: store.verify_store("he2006", sample=float("nan")), "sample"),
        (lambda: store.verify_store("he2006", sample=0.0), "sample"),
        (lambda: store.verify_store("he2006", sample=float("inf")), "sample"),
        (lambda: store.verify_store("he2006", sample="all"), "sample"),
        (lambda: store.verify_store("he2006", sample=0.5, seed=-1), "seed"),
        (lambda: store.verify_store("nope"), "paper"),
    ],
)
def test_the_store_check_meets_bad_input_naming_the_field(call, field):
    with pytest.raises(InvalidParameter) as err:
        call()
    assert field in str(err.value)


def test_drift_reads_nan_and_missing_items_as_drift_and_an_empty_point_as_none():
    """A recomputed NaN or inf counts as absent (the store keeps finite values), an item
    on one side only drifts, a stored 0 must be recomputed exactly, and nothing against
    nothing is no drift."""
    assert store.drift(_ROWS, {"a": 1.0, "b": 0.0}).empty
    assert list(store.drift(_ROWS, {"a": float("nan"), "b": 0.0})["item"]) == ["a"]
    assert list(store.drift(_ROWS, {"a": 1.0, "b": float("inf")})["item"]) == ["b"]
    assert list(store.drift(_ROWS, {"a": 1.0, "b": 0.0, "c": 2.0})["item"]) == ["c"]
    assert list(store.drift(_ROWS, {"a": 1.0, "b": 1e-300})["item"]) == ["b"]
    assert store.drift(_ROWS.head(0), {}).empty
