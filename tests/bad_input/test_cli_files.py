"""No traceback for a corrupt file (issue 51, class 2): every file ``python -m hpcmodels``
reads back (a notebook's results and run record in ``build/results``, notebook 06's
findings, ``build/REPORT.md`` for the site, the notebooks and ``docs/store_changes.md``
of the checkout) that cannot be read as what it should be is a
:class:`~hpcmodels.errors.CorruptFile`: the command prints one sentence naming the file
and what to do (write it again with ``make reproduce``, or restore it from git) and
exits with 2. The paper-scale store (``results/``) is :mod:`hpcmodels.papers.store`'s
and not tested here."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import papermill
import pytest

from hpcmodels import cli, site
from hpcmodels.errors import HpcmodelsError
from hpcmodels.papers import report, store

ROOT = Path(__file__).resolve().parents[2]
HEADER = "title,item,quantity,kind,paper,ours,diff,verdict,reason\n"
ROW = "He et al.,Table 3,ORT fraction,fraction,0.4,0.41,0.01,within tolerance,\n"
NOT_UTF8 = b"\x93\xff\xfe binary \x00\x81"


@pytest.fixture
def build(tmp_path, monkeypatch):
    """An empty build folder for the CLI, and no paper-scale store."""
    folder = tmp_path / "build"
    (folder / "results").mkdir(parents=True)
    monkeypatch.setattr(cli, "BUILD", folder)
    monkeypatch.setattr(store, "RESULTS", tmp_path / "no-store")
    monkeypatch.setattr(papermill, "execute_notebook", lambda *a, **k: pytest.fail("ran"))
    return folder


def _write(path: Path, content: str | bytes) -> None:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


def _one_sentence(capsys, command: str, path: Path, remedy: str, problem: str = "") -> None:
    """The CLI's stderr: one line naming the command, the file, the ``problem`` (a
    pattern) and what to do."""
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"python -m hpcmodels {command}: {path}: "), err
    assert remedy in err and re.search(problem, err), err


RESULTS = [
    ("not UTF-8", NOT_UTF8, "cannot be read|not a readable CSV table"),
    ("empty", "", "not a readable CSV table"),
    (
        "latin-1 text",
        (HEADER + "H\xe9 et al.,T,q,count,1,1,0,exact,\n").encode("latin-1"),
        "not a readable CSV table",
    ),
    ("no results columns", "a,b\n1,2\n", r"lacks column\(s\) \['title', 'item'"),
    (
        "a row longer than the header",
        HEADER + "T,1,2,3,4,5,6,7,8,9,10,11\n",
        "a row longer than its header",
    ),
    (
        "an unknown verdict",
        HEADER + ROW.replace("within tolerance", "bogus"),
        r"row 1 \(after the header\) has the verdict 'bogus'",
    ),
]


@pytest.mark.parametrize("content, problem", [r[1:] for r in RESULTS], ids=[r[0] for r in RESULTS])
def test_a_corrupt_results_file_is_one_sentence(content, problem, build, capsys):
    """It was a UnicodeDecodeError, EmptyDataError, KeyError 'paper', a merge of int
    and str items, or (an unknown verdict) a report that counted it nowhere."""
    path = build / "results" / "he2006.csv"
    _write(path, content)
    assert cli.main(["report"]) == 2
    _one_sentence(capsys, "report", path, "rerun `make reproduce`", problem)
    assert not (build / "REPORT.md").exists()


def test_a_folder_in_place_of_a_results_file_is_one_sentence(build, capsys):
    path = build / "results" / "he2006.csv"
    path.mkdir()
    assert cli.main(["report"]) == 2
    _one_sentence(capsys, "report", path, "rerun `make reproduce`")


RECORDS = [
    ("not JSON", '{"notebook": ', "is not JSON"),
    ("not UTF-8", NOT_UTF8, "cannot be read as UTF-8 text"),
    ("a list", "[1, 2]", "holds a JSON list, not an object"),
    ("a log without its keys", '{"logs": [{"log": "x"}]}', "is not a record of a run"),
    ("logs as text", '{"logs": "sdsc"}', "is not a record of a run"),
]


@pytest.mark.parametrize("content, problem", [r[1:] for r in RECORDS], ids=[r[0] for r in RECORDS])
def test_a_corrupt_run_record_is_one_sentence(content, problem, build, capsys):
    """How a section's results were made (``<paper>.json``): JSONDecodeError, KeyError
    'log' or TypeError before; a list was silently shown as nothing."""
    _write(build / "results" / "he2006.csv", HEADER + ROW)
    path = build / "results" / "he2006.json"
    _write(path, content)
    assert cli.main(["report"]) == 2
    _one_sentence(capsys, "report", path, "rerun `make reproduce`", problem)


FINDINGS = [
    ("not UTF-8", NOT_UTF8, "not a readable CSV table"),
    ("empty", "", "not a readable CSV table"),
    ("other columns", "a\n1\n", r"lacks column\(s\) \['paper'"),
]


@pytest.mark.parametrize(
    "content, problem", [r[1:] for r in FINDINGS], ids=[r[0] for r in FINDINGS]
)
def test_corrupt_findings_are_one_sentence(content, problem, build, capsys):
    """Notebook 06's findings: UnicodeDecodeError or EmptyDataError before; other
    columns were shown as if they were findings."""
    path = build / "results" / "across.findings.csv"
    _write(path, content)
    assert cli.main(["report"]) == 2
    _one_sentence(capsys, "report", path, "rerun `make reproduce`", problem)


def test_a_corrupt_record_of_store_changes_says_to_restore_it(build, tmp_path, monkeypatch, capsys):
    path = tmp_path / "store_changes.md"
    _write(path, NOT_UTF8)
    monkeypatch.setattr(report, "STORE_CHANGES", path)
    _write(build / "results" / "he2006.csv", HEADER + ROW)
    assert cli.main(["report"]) == 2
    _one_sentence(capsys, "report", path, "restore it from git (git checkout --")


def test_a_corrupt_results_file_stops_the_site_in_one_sentence(build, capsys):
    """The site's report pages are made from ``build/results``: a results file that is
    no UTF-8 text stops ``site`` in one sentence; Sphinx never runs."""
    path = build / "results" / "he2006.csv"
    _write(path, NOT_UTF8)
    assert cli.main(["site"]) == 2
    _one_sentence(capsys, "site", path, "rerun `make reproduce`")
    assert not (build / "site").exists()


def _checkout(tmp_path: Path, notebook: str | bytes) -> Path:
    """A checkout with one notebook (``notebook``: its content) and nothing else."""
    root = tmp_path / "checkout"
    for folder in ("docs/site", "figures", "notebooks"):
        (root / folder).mkdir(parents=True)
    _write(root / "notebooks" / "03_he2006_ort_omr.ipynb", notebook)
    return root


NOTEBOOKS = [
    ("truncated", '{"cells": [', "is not JSON"),
    ("not UTF-8", NOT_UTF8, "cannot be read as UTF-8 text"),
    ("a list", "[]", "holds a JSON list"),
    ("no cells", '{"metadata": {}}', "is not a notebook"),
]


@pytest.mark.parametrize(
    "content, problem", [r[1:] for r in NOTEBOOKS], ids=[r[0] for r in NOTEBOOKS]
)
def test_a_corrupt_notebook_stops_reproduce_and_the_site_in_one_sentence(
    content, problem, build, tmp_path, monkeypatch, capsys
):
    """papermill's NotJSONError, AttributeError or ValidationError, json's error in the
    site, each with a traceback before; now nothing runs and the sentence says to restore
    the notebook."""
    root = _checkout(tmp_path, content)
    path = root / "notebooks" / "03_he2006_ort_omr.ipynb"
    monkeypatch.setattr(cli, "NOTEBOOKS", root / "notebooks")
    assert cli.main(["reproduce", "03"]) == 2
    _one_sentence(capsys, "reproduce", path, "restore it from git", problem)
    monkeypatch.setattr(site, "ROOT", root)
    assert cli.main(["site"]) == 2
    _one_sentence(capsys, "site", path, "restore it from git", problem)


def test_a_corrupt_record_beside_a_run_stops_reproduce_in_one_sentence(build, monkeypatch, capsys):
    """``reproduce`` adds how the run was made to the record the notebook saved: a
    corrupt one was a JSONDecodeError with a traceback."""
    path = build / "results" / "he2006.json"

    def run(source, target, parameters=None, **_):
        _write(Path(parameters["results_dir"]) / "he2006.csv", HEADER + ROW)
        _write(path, "{not json")

    monkeypatch.setattr(papermill, "execute_notebook", run)
    assert cli.main(["reproduce", "03"]) == 2
    _one_sentence(capsys, "reproduce", path, "rerun `make reproduce`")


def test_the_command_line_prints_one_sentence_and_exits_2(tmp_path):
    """The real command, as a user runs it: no traceback on stderr."""
    build = tmp_path / "build"
    (build / "results").mkdir(parents=True)
    _write(build / "results" / "he2006.csv", NOT_UTF8)
    env = dict(os.environ, HPCMODELS_BUILD=str(build), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "hpcmodels", "report"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert str(build / "results" / "he2006.csv") in done.stderr
    assert "rerun `make reproduce`" in done.stderr


# ------------------------------------------------------- degenerate but valid files


def test_results_with_no_row_beside_a_paper_scale_store_make_a_report(build, monkeypatch):
    """A notebook that saved no row, for a paper whose store exists: the report's rows
    come from the store alone, with no title of their own (an AttributeError 'float'
    object has no attribute 'lower' before)."""
    monkeypatch.setattr(store, "RESULTS", ROOT / "results")
    if store.read_store("he2006") is None:
        pytest.skip("the committed he2006 store is not here")
    _write(build / "results" / "he2006.csv", HEADER)
    assert cli.main(["report"]) == 0
    text = (build / "REPORT.md").read_text()
    assert "## he2006" in text


def test_results_saved_before_kinds_were_recorded_still_make_a_report(build):
    header = HEADER.replace("kind,", "")
    row = ROW.replace("fraction,0.4", "0.4")
    _write(build / "results" / "he2006.csv", header + row)
    _write(build / "results" / "he2006.json", json.dumps({"logs": []}))
    assert cli.main(["report"]) == 0
    text = (build / "REPORT.md").read_text()
    assert "ORT fraction" in text and "Logs read: none" in text


def test_corrupt_file_is_in_the_error_family():
    from hpcmodels.errors import CorruptFile

    error = CorruptFile("build/results/x.csv", "is not a readable CSV table")
    assert isinstance(error, HpcmodelsError) and isinstance(error, ValueError)
    assert error.path == "build/results/x.csv"
    assert str(error) == "build/results/x.csv: is not a readable CSV table"
