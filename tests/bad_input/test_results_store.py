"""Issue 51, "The results store trusts what it reads": each test is a hostile call on the
paper-scale store (:mod:`hpcmodels.papers.store`) and the clean outcome expected.

* pairing: one missing replicate leaves that replicate out of the pairs (the count and
  which said), never shifts the others; ``values`` refuses an item with a gap;
* a duplicated (item, replicate) row is refused wherever it is read or written;
* a flipped byte, a truncated file, a provenance that is not JSON or has the wrong types:
  a :class:`~hpcmodels.errors.CorruptStore` naming the file (one line from the CLI);
* ``--missing-only``: a tampered row is refused, a store without its provenance is
  refused, a run with nothing to do keeps every value and dtype and adds the checksum
  (on a copy of every committed store);
* the helpers check the frames and objects they take, naming the argument.

Small synthetic stores where possible; real stores are copied to ``tmp_path``."""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import types

import numpy as np
import pandas as pd
import papermill
import pytest

from hpcmodels import cli, errors
from hpcmodels.errors import HpcmodelsError, InvalidParameter
from hpcmodels.papers import ensemble, store


@contextlib.contextmanager
def _corrupt(match: str):
    """Expect a :class:`~hpcmodels.errors.CorruptStore` whose message matches ``match``;
    caught first as the HpcmodelsError it is, so that a call which does not raise, or
    raises a raw Arrow or JSON error, fails as such."""
    with pytest.raises(HpcmodelsError, match=match) as err:
        yield err
    assert isinstance(err.value, errors.CorruptStore), type(err.value)


def _frame(items=("A", "B"), replicates=range(10), **params) -> pd.DataFrame:
    """A store frame as compute_store writes it: A's run r is 100 r**2 + 1, B's 100 r**2,
    so A - B is exactly 1 on every correctly paired replicate and far from 1 otherwise."""
    rows = [
        {"item": item, "value": 100.0 * r**2 + (item == "A"), "replicate": r, **params}
        for item in items
        for r in replicates
    ]
    frame = pd.DataFrame(rows)
    frame["replicate"] = frame["replicate"].astype(np.int64)
    return frame


def _without(frame: pd.DataFrame, item: str, replicate: int) -> pd.DataFrame:
    keep = ~((frame["item"] == item) & (frame["replicate"] == replicate))
    return frame[keep].reset_index(drop=True)


# ---------------------------------------------------------------- pairing by replicate


def test_one_missing_replicate_is_left_out_of_the_pairs_not_shifted():
    """B lacks replicate 3: the pairs are A's and B's runs of the same replicate (A - B = 1
    on each of the other 9), and the row says which replicate was left out."""
    hostile = _without(_frame(), "B", 3)
    row = ensemble.paired_claim(
        "x",
        "A is higher",
        store.runs(hostile, "A"),
        store.runs(hostile, "B"),
        a_name="A",
        b_name="B",
        higher_is_better=True,
    )
    assert (row["replicates"], row["mean"], row["low"], row["high"]) == (9, 1.0, 1.0, 1.0)
    assert row["verdict"] == "qualitative"
    assert "1 replicate(s) without a partner left out (A only: [3])" in row["reason"]


def test_a_missing_replicate_on_each_side_is_not_paired_by_position():
    """A lacks 7 and B lacks 3: both hold 9 runs, which position by position would pair
    A's 4 with B's 5 and so on. ``values`` refuses the gap, naming it; ``runs`` pairs the
    8 replicates both hold."""
    hostile = _without(_without(_frame(), "A", 7), "B", 3)
    with pytest.raises(InvalidParameter, match=r"item 'A' lacks replicate\(s\) 7 of 0 to 9"):
        store.values(hostile, "A")
    with pytest.raises(InvalidParameter, match=r"item 'B' lacks replicate\(s\) 3 of 0 to 9"):
        store.values(hostile, "B")
    a, b = store.runs(hostile, "A"), store.runs(hostile, "B")
    row = ensemble.paired_claim("x", "A is higher", a, b, higher_is_better=True)
    assert (row["replicates"], row["low"], row["high"]) == (8, 1.0, 1.0)
    assert "2 replicate(s) without a partner left out (A only: [3]; B only: [7])" in row["reason"]


def test_values_of_a_whole_item_are_in_replicate_order():
    """The valid call: replicates 0..n-1 in any row order give the runs in replicate order."""
    frame = _frame().sample(frac=1.0, random_state=1)
    assert list(store.values(frame, "B")) == [100.0 * r**2 for r in range(10)]
    assert list(store.runs(frame, "B").index) == list(range(10))


def test_a_replicate_indexed_side_does_not_pair_with_a_plain_one():
    frame = _frame()
    with pytest.raises(InvalidParameter, match="both be Series indexed by replicate"):
        ensemble.paired_claim("x", "y", store.runs(frame, "A"), list(store.values(frame, "B")))


def test_two_items_without_a_common_replicate_do_not_pair():
    frame = pd.concat([_frame(["A"], range(5)), _frame(["B"], range(5, 10))])
    with pytest.raises(InvalidParameter, match="share no replicate"):
        ensemble.paired_claim("x", "y", store.runs(frame, "A"), store.runs(frame, "B"))


def test_a_replicate_twice_on_one_side_of_a_pair_is_refused():
    a = pd.Series([1.0, 2.0, 3.0], index=pd.Index([0, 1, 1], name="replicate"))
    b = pd.Series([0.0, 0.0, 0.0], index=pd.Index([0, 1, 2], name="replicate"))
    with pytest.raises(InvalidParameter, match="a holds replicate 1 more than once"):
        ensemble.paired_claim("x", "y", a, b)


# ---------------------------------------------------------------- duplicated rows


def test_a_duplicated_row_is_refused_not_counted_twice():
    frame = _frame()
    hostile = pd.concat([frame, frame.iloc[[3]]], ignore_index=True)  # A, replicate 3 twice
    for call in (store.values, store.runs):
        with pytest.raises(InvalidParameter, match=r"\(item, replicate\) = \('A', 3\)"):
            call(hostile, "A")
    with pytest.raises(InvalidParameter, match=r"\('A', 3\) is held by 2 rows"):
        store.relative_spread(hostile)


def test_a_stored_file_with_a_duplicated_key_is_refused_naming_file_and_key(tmp_path):
    frame = _frame(jobs=100)
    pd.concat([frame, frame.iloc[[12]]]).to_parquet(tmp_path / "he2006.parquet", index=False)
    with _corrupt(r"he2006\.parquet: the key .*\('B', 2\)"):
        store.read_store("he2006", tmp_path)


def test_a_stored_item_over_two_settings_is_refused(tmp_path):
    """Two rows of item A with different parameters (jobs) but distinct replicates:
    ``values`` would mix two settings into one ensemble."""
    frame = _frame(jobs=100)
    frame.loc[5, "jobs"] = 200
    frame.to_parquet(tmp_path / "he2006.parquet", index=False)
    with _corrupt("item 'A' is stored with 2 different settings"):
        store.read_store("he2006", tmp_path)


@pytest.mark.parametrize(
    ("column", "values", "message"),
    [
        ("replicate", np.arange(20) + 0.5, "'replicate' must have an integer dtype"),
        ("replicate", -np.arange(20), "'replicate' must hold indices >= 0"),
        ("value", ["1.0"] * 20, "'value' must have a float dtype"),
        ("value", [np.nan] * 20, "'value' must hold finite numbers"),
        ("item", list(range(20)), "'item' must hold strings"),
        ("jobs", [[1, 2]] * 20, "parameter column 'jobs' must hold scalars"),
    ],
)
def test_a_stored_file_with_a_column_of_the_wrong_type_is_refused(
    tmp_path, column, values, message
):
    _frame(jobs=100).assign(**{column: values}).to_parquet(tmp_path / "he2006.parquet")
    with _corrupt(rf"he2006\.parquet: .*{message}"):
        store.read_store("he2006", tmp_path)


# ---------------------------------------------------------------- a stand-in paper

CALLS: list[dict] = []


def _point(study: str, replicate: int, jobs: int = 100, width: float | None = None) -> dict:
    CALLS.append(dict(study=study, replicate=replicate))
    value = 100.0 * replicate**2 + jobs + (width or 0.0)
    return {f"{study} | ATT (s)": value, f"{study} | share": value / 1000}


@pytest.fixture
def paper(monkeypatch):
    """Install a stand-in module under the paper name 'jones2005' (store's look-up)."""
    CALLS.clear()

    def install(points):
        module = types.SimpleNamespace(
            ensemble_points=lambda: [dict(p) for p in points],
            ensemble_point=_point,
            ensemble_cost=lambda p: 1.0 + p["replicate"],
        )
        monkeypatch.setattr(store, "_module", lambda name: module)

    return install


def _compute(folder, **options):
    return store.compute_store(
        "jones2005", folder=folder, client="serial", progress=False, **options
    )


FIRST = [dict(study="a", replicate=r, jobs=100) for r in range(3)]
LATER = [dict(study="b", replicate=r, width=2.0, jobs=300) for r in range(3)]


def test_compute_store_refuses_to_write_a_duplicated_key(paper, tmp_path):
    """Two points of the same replicate give the same items (width 1 and 2): the store
    would hold each (item, replicate) twice; nothing is written."""
    paper([*FIRST, dict(study="a", replicate=0, width=1.0)])
    with pytest.raises(InvalidParameter, match=r"\('a \| ATT \(s\)', 0\) is held by 2 rows"):
        _compute(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_missing_only_refuses_a_tampered_row(paper, tmp_path):
    """A hand edit of a row the check does not recompute (b, replicate 2; the check
    recomputes the cheapest point of each kind) is refused by the checksum, not kept."""
    paper(FIRST + LATER)
    _compute(tmp_path)
    path = tmp_path / "jones2005.parquet"
    frame = pd.read_parquet(path)
    frame.loc[(frame["item"] == "b | ATT (s)") & (frame["replicate"] == 2), "value"] += 1.0
    frame.to_parquet(path, index=False)
    tampered = path.read_bytes()
    paper(FIRST + LATER + [dict(study="a", replicate=3, jobs=100)])
    CALLS.clear()
    with _corrupt(r"jones2005\.parquet: its SHA-256"):
        _compute(tmp_path, missing_only=True)
    assert CALLS == [] and path.read_bytes() == tampered  # nothing computed, nothing kept


def test_missing_only_refuses_a_store_without_its_provenance(paper, tmp_path):
    """Without provenance.json the stored rows' commit is unknown: --missing-only would
    stamp them with today's commit. Refused, naming the missing file; nothing written."""
    paper(FIRST)
    _compute(tmp_path)
    (tmp_path / "jones2005.provenance.json").unlink()
    before = (tmp_path / "jones2005.parquet").read_bytes()
    paper(FIRST + LATER)
    CALLS.clear()
    with _corrupt(r"jones2005\.provenance\.json: missing.*without --missing-only"):
        _compute(tmp_path, missing_only=True)
    assert CALLS == [] and (tmp_path / "jones2005.parquet").read_bytes() == before
    assert not (tmp_path / "jones2005.provenance.json").exists()
    _compute(tmp_path)  # computing the whole store again is what it asks for
    assert store.read_store("jones2005", tmp_path).attrs["checksum"] == "verified"


def _as_before_checksums(folder, paper_name: str) -> None:
    """The provenance as the committed stores have it: no ``sha256`` nor ``rows``."""
    path = folder / f"{paper_name}.provenance.json"
    info = json.loads(path.read_text())
    info.pop("sha256", None)
    info.pop("rows", None)
    path.write_text(json.dumps(info, indent=1) + "\n")


def test_a_run_with_nothing_to_do_keeps_values_and_dtypes_and_adds_the_checksum(paper, tmp_path):
    paper(FIRST + LATER)
    _compute(tmp_path)
    _as_before_checksums(tmp_path, "jones2005")
    path = tmp_path / "jones2005.parquet"
    before, data = store.read_store("jones2005", tmp_path), path.read_bytes()
    assert before.attrs["checksum"] == "unchecked"
    assert before["jobs"].dtype == np.int64 and before["replicate"].dtype == np.int64
    CALLS.clear()
    _compute(tmp_path, missing_only=True)
    assert len(CALLS) == 2  # the check's recomputations (one point of each kind), no sweep
    after = store.read_store("jones2005", tmp_path)
    assert after.equals(before) and after.dtypes.equals(before.dtypes)
    assert path.read_bytes() == data  # the very same file
    assert after.attrs["checksum"] == "verified"
    info = store.read_provenance("jones2005", tmp_path)
    assert info["sha256"] == hashlib.sha256(data).hexdigest() and info["rows"] == len(before)
    last = info["sweeps"][-1]
    assert (last["points"], last["rows"], last["kept_rows"]) == (0, 0, len(before))
    assert last["kept_checksum"] == "unchecked"


@pytest.mark.parametrize("paper_name", store.PAPERS)
def test_a_run_with_nothing_to_do_on_a_copy_of_each_committed_store(
    paper_name, tmp_path, monkeypatch
):
    """``reproduce --full --missing-only`` on a copy of the committed store: every value
    and dtype (integer columns stay integer) and the Parquet bytes are kept, and the
    provenance gains the file's checksum, which the next read verifies. The
    recomputation check (minutes at paper scale; tested on the stand-in paper above and
    in tests/papers/test_store_missing_only.py) is replaced by a recorder, and no point
    may be computed."""
    from hpcmodels import sweep

    for suffix in (".parquet", ".provenance.json"):
        shutil.copy(store.RESULTS / f"{paper_name}{suffix}", tmp_path)
    checked = []
    monkeypatch.setattr(store, "_check_reproduced", lambda p, frame: checked.append(len(frame)))

    def no_points(func, points, **options):
        assert points == [], f"{len(points)} points to compute: not a run with nothing to do"
        return []

    monkeypatch.setattr(sweep, "sweep_results", no_points)
    path = tmp_path / f"{paper_name}.parquet"
    before, data = store.read_store(paper_name, tmp_path), path.read_bytes()
    earlier = store.read_provenance(paper_name, tmp_path)
    store.compute_store(paper_name, folder=tmp_path, missing_only=True, progress=False)
    after = store.read_store(paper_name, tmp_path)
    assert checked == [len(before)]
    assert after.equals(before) and after.dtypes.equals(before.dtypes)
    assert path.read_bytes() == data
    info = store.read_provenance(paper_name, tmp_path)
    assert info["sha256"] == hashlib.sha256(data).hexdigest()
    assert after.attrs["checksum"] == "verified"
    made = ("commit", "source_fingerprint", "command", "started", "ended")
    kept = [{**s, **{k: s.get(k, earlier[k]) for k in made}} for s in earlier["sweeps"]]
    assert info["sweeps"][:-1] == kept  # each earlier sweep with the call that made it


# ---------------------------------------------------------------- corrupt files


def _copy(tmp_path, paper_name: str = "filippopoulos"):
    for suffix in (".parquet", ".provenance.json"):
        shutil.copy(store.RESULTS / f"{paper_name}{suffix}", tmp_path)
    return tmp_path / f"{paper_name}.parquet"


def _with_checksum(tmp_path, path) -> None:
    """The copy's provenance with the file's checksum, as compute_store now writes it."""
    provenance = path.with_suffix(".provenance.json")
    info = json.loads(provenance.read_text())
    info["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    provenance.write_text(json.dumps(info))


def test_a_flipped_byte_in_the_parquet_file_is_refused(tmp_path):
    """Flipping one bit in the middle of the committed Filippopoulos store changes one
    stored cost and still reads as Parquet; the checksum refuses it, naming the file."""
    path = _copy(tmp_path)
    _with_checksum(tmp_path, path)
    assert store.read_store("filippopoulos", tmp_path).attrs["checksum"] == "verified"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    with _corrupt(r"filippopoulos\.parquet: its SHA-256") as err:
        store.read_store("filippopoulos", tmp_path)
    assert err.value.path == str(path)


@pytest.mark.parametrize("keep", [0, 4, 100, 0.5, -1])
def test_a_truncated_parquet_file_is_refused_naming_it(tmp_path, keep):
    """Empty, the magic bytes only, 100 bytes, half, all but the last byte: a store
    written before checksums (no sha256 in its provenance) still cannot be read; with
    its checksum, the digest refuses it first."""
    path = _copy(tmp_path)
    data = path.read_bytes()
    n = int(len(data) * keep) if isinstance(keep, float) else keep
    path.write_bytes(data[:n])
    with _corrupt(r"filippopoulos\.parquet: its SHA-256"):  # the committed provenance's
        store.read_store("filippopoulos", tmp_path)
    _as_before_checksums(tmp_path, "filippopoulos")
    with _corrupt(r"filippopoulos\.parquet: not a readable"):
        store.read_store("filippopoulos", tmp_path)


def _provenance(tmp_path, change) -> None:
    path = tmp_path / "filippopoulos.provenance.json"
    info = json.loads(path.read_text())
    change(info)
    path.write_text(json.dumps(info))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (b"{", "not valid UTF-8 JSON"),
        (b"", "not valid UTF-8 JSON"),
        (b"\xff\xfe{}", "not valid UTF-8 JSON"),
        (b"[1, 2]", "must hold a JSON object, got list"),
        (lambda i: i.pop("sweeps"), r"lacks field\(s\) \['sweeps'\]"),
        (lambda i: i.update(sweeps="x"), "field 'sweeps' must be a non-empty list"),
        (lambda i: i["sweeps"][0].update(points="4440"), r"sweeps\[0\]\.points must be a whole"),
        (lambda i: i["sweeps"][0].update(wall_seconds=None), r"sweeps\[0\]\.wall_seconds"),
        (lambda i: i.update(commit=7), r"field\(s\) \['commit'\] must be strings"),
        (lambda i: i.update(machine=[]), "field 'machine' must be a JSON object"),
        (lambda i: i.update(paper="he2006"), "is the provenance of 'he2006'"),
        (lambda i: i.update(sha256="00"), "field 'sha256' must be 64 lowercase hex digits"),
    ],
)
def test_a_corrupt_provenance_file_is_refused_naming_it(tmp_path, change, message):
    _copy(tmp_path)
    if isinstance(change, bytes):
        (tmp_path / "filippopoulos.provenance.json").write_bytes(change)
    else:
        _provenance(tmp_path, change)
    for read in (store.read_provenance, store.read_store):
        with _corrupt(rf"filippopoulos\.provenance\.json: {message}"):
            read("filippopoulos", tmp_path)


def test_the_cli_says_a_corrupt_store_in_one_line(tmp_path, monkeypatch, capsys):
    """``reproduce --full --missing-only`` on a truncated store: one line on stderr naming
    the file, exit 2, no notebook run and nothing computed."""
    (tmp_path / "results").mkdir()
    path = _copy(tmp_path / "results")
    path.write_bytes(path.read_bytes()[:1000])
    monkeypatch.setattr(store, "RESULTS", tmp_path / "results")
    monkeypatch.setattr(cli, "BUILD", tmp_path / "build")
    monkeypatch.setattr(papermill, "execute_notebook", lambda *a, **k: pytest.fail("ran"))
    assert cli.main(["reproduce", "--full", "05", "--missing-only"]) == 2
    err = capsys.readouterr().err
    # the committed provenance records the file's SHA-256, which refuses it first
    assert err.startswith(f"python -m hpcmodels reproduce: {path}: its SHA-256 is ")
    assert err.count("\n") == 1


def test_corrupt_store_is_an_invalid_parameter_naming_the_file():
    error = errors.CorruptStore("results/x.parquet", "truncated")
    assert isinstance(error, InvalidParameter) and isinstance(error, HpcmodelsError)
    assert str(error) == "results/x.parquet: truncated" and error.path == "results/x.parquet"


@pytest.mark.parametrize("paper_name", store.PAPERS)
def test_every_committed_store_meets_its_schema(paper_name):
    """The valid read: every committed store has its columns and types, a unique
    (item, replicate) and one setting per item, and its provenance records its SHA-256
    (written by ``reproduce --full --missing-only`` on 2026-11-29), so it reads verified."""
    frame = store.read_store(paper_name)
    assert not frame.duplicated(["item", "replicate"]).any()
    assert frame["replicate"].dtype == np.int64 and frame["value"].dtype == np.float64
    assert frame.attrs["checksum"] == "verified"
    assert store.read_provenance(paper_name)["rows"] == len(frame)


# ---------------------------------------------------------------- helpers at the door

FRAME = _frame()
QUICK = pd.DataFrame({"item": ["A"], "quantity": ["q"], "verdict": ["differs"]})
ONE = FRAME[FRAME["replicate"] == 0]


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: store.values(None, "A"), "store"),
        (lambda: store.values(FRAME.drop(columns="replicate"), "A"), "replicate"),
        (lambda: store.values(FRAME, 3), "item"),
        (lambda: store.values(FRAME, ["A"]), "item"),
        (lambda: store.values(FRAME.assign(value="1.0"), "A"), "'value'"),
        (lambda: store.values(FRAME.assign(replicate=FRAME["replicate"] + 0.5), "A"), "replicate"),
        (lambda: store.runs([1, 2], "A"), "store"),
        (lambda: store.runs(FRAME.assign(item=1), "A"), "'item'"),
        (lambda: store.relative_spread(FRAME.assign(value="x")), "'value'"),
        (lambda: store.point_rows("x", {}), "store"),
        (lambda: store.point_rows(FRAME, {"nope": 1}), "nope"),
        (lambda: store.point_rows(FRAME, [("item", "A")]), "point"),
        (lambda: store.point_rows(FRAME, {"item": ["A"]}), "point"),
        (lambda: store.drift(FRAME, {}), "one point"),
        (lambda: store.drift(ONE, {"A": "1.0"}), "now['A']"),
        (lambda: store.drift(ONE, {1: 1.0}), "now"),
        (lambda: store.drift(pd.concat([ONE, ONE.iloc[[0]]]), {}), "('A', 0)"),
        (lambda: store.beside(None, None), "quick"),
        (lambda: store.beside(QUICK.drop(columns="quantity"), None), "quantity"),
        (lambda: store.beside(QUICK, "scale"), "scale"),
        (lambda: store.beside(QUICK, QUICK), "scale"),
        (lambda: store.paper_scale(3), "paper"),
        (lambda: store.paper_scale("he2006", folder=""), "folder"),
        (lambda: store.read_store("he2006", folder=3), "folder"),
        (lambda: store.read_provenance(["he2006"]), "paper"),
        (lambda: store.kind_points("he2006", FRAME.drop(columns="replicate")), "replicate"),
        (lambda: store.checked_points(None, FRAME), "paper"),
        (lambda: store.recompute_point("he2006", [1]), "point"),
        (lambda: store.recompute_point("he2006", {"n_jobs": [1]}), "point"),
    ],
)
def test_a_helper_checks_what_it_takes_naming_the_argument(call, field):
    with pytest.raises(InvalidParameter) as err:
        call()
    assert field in str(err.value)


def test_missing_only_refuses_to_drop_stored_points(paper, tmp_path):
    """Without a workload log a paper lists none of that log's points: --missing-only
    kept only the listed points' rows and dropped the others without a word. Refused,
    naming a dropped point; nothing computed, nothing written."""
    paper(FIRST + LATER)
    _compute(tmp_path)
    before = (tmp_path / "jones2005.parquet").read_bytes()
    paper(FIRST + [dict(study="a", replicate=3, jobs=100)])  # study b's log went missing
    CALLS.clear()
    with pytest.raises(
        InvalidParameter, match=r"3 point\(s\) that today's .*'study': 'b'.*HPCMODELS_DATA"
    ):
        _compute(tmp_path, missing_only=True)
    assert CALLS == [] and (tmp_path / "jones2005.parquet").read_bytes() == before
    paper(FIRST + LATER + [dict(study="a", replicate=3, jobs=100)])  # adding still works
    _compute(tmp_path, missing_only=True)
    assert len(store.read_store("jones2005", tmp_path)) == 2 * 7
