"""The report's compact tables (issue 52): numbers formatted by kind (counts as integers
with thousands separators, one precision per column, "—" for a missing value), reasons
listed under each table, and every row pointing at the notebook section that computes
it."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter, InvalidType
from hpcmodels.papers.report import write_report, write_site_report
from hpcmodels.papers.report_pages import (
    html_tables,
    markdown_tables,
    picture,
    verdict_counts,
)
from hpcmodels.papers.report_tables import (
    MISSING,
    compact,
    format_number,
    notebook_sections,
    section_of,
)
from hpcmodels.papers.store import beside
from hpcmodels.papers.verdicts import Collector, compare_value, not_run

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = {
    "shih2013": "01_shih2013_tla",
    "huang2006": "02_huang2006_integrated",
    "he2006": "03_he2006_ort_omr",
    "jones2005": "04_jones2005_bandwidth",
    "filippopoulos": "05_filippopoulos_dp",
}


def _rows(*rows: dict) -> pd.DataFrame:
    return compact(beside(pd.DataFrame(rows), None, numeric=True))


def test_counts_read_as_integers_with_thousands_separators():
    rows = _rows(
        compare_value(
            "Table 3 A1", "SDSC SP2 jobs", 54041.0, 54034.0, kind="count", cause="7 jobs fewer"
        )
    )
    assert list(rows.loc[0, ["paper", "quick"]]) == ["54,041", "54,034"]
    assert format_number(1234567.0, 0) == "1,234,567"


def test_a_table_has_one_precision_per_column_set_by_what_the_paper_prints():
    rows = _rows(
        compare_value("Table 2", "load 1", "102.71", 132.0110861145256, kind="time"),
        compare_value("Sec. 6", "ATT", "1087", 1116.3278681262827, kind="time"),
        compare_value("Table 3", "share", "0.752", 0.7523863294904569, kind="fraction"),
    )
    times = rows[rows["group"] == "time"]
    assert list(times["paper"]) == ["102.71", "1,087.00"]
    assert list(times["quick"]) == ["132.01", "1,116.33"]
    assert list(rows[rows["group"] == "fraction"]["quick"]) == ["0.752"]


def test_a_missing_value_reads_as_a_dash_never_nan_or_none():
    rows = _rows(not_run("Table 3 B1", "DAS2 workload", 0.08, "the DAS2 log is missing"))
    text = " ".join(str(v) for v in rows.iloc[0].drop("section"))
    assert rows.loc[0, "quick"] == MISSING and rows.loc[0, "scale"] == MISSING
    assert "nan" not in text.lower() and "None" not in text


def test_reasons_are_listed_under_the_table_numbered_like_their_rows():
    rows = _rows(
        compare_value("Table 1", "a", "10", 10.0, kind="time"),
        compare_value("Table 1", "b", "6", 7.0, kind="time", cause="the paper's slip"),
    )
    lines = markdown_tables(rows, "../notebooks/01_shih2013_tla.ipynb")
    table = [line for line in lines if line.startswith("| [Table 1")]
    assert table[0].count("[1]") == 0 and table[1].endswith(
        "| 6 | 7 | — | differs | not computed |"
    )
    assert "[Table 1: b](../notebooks/01_shih2013_tla.ipynb) [1]" in table[1]
    assert lines[lines.index("Reasons:") + 2] == "1. *quick:* the paper's slip"


@pytest.mark.parametrize(
    "notebook, item, heading",
    [
        ("01_shih2013_tla", "Table 3 A1", "Table 3 — the workloads"),
        (
            "01_shih2013_tla",
            "Table 1",
            "Fig. 4 and Table 1 — one scoring step on the reconstructed snapshot",
        ),
        (
            "02_huang2006_integrated",
            "Tables 5-6",
            "Tables 5–8 — allocation methods and co-allocation heuristics on the five-site grid",
        ),
        (
            "03_he2006_ort_omr",
            "Fig. 3a",
            "Fig. 3 — effect of the workload (Table 2 system, slack U[0, 30])",
        ),
        (
            "04_jones2005_bandwidth",
            "Section 4.4 (8 clusters)",
            "Section 4.4 — the break-even penalties",
        ),
        (
            "05_filippopoulos_dp",
            "Sec. 5",
            "Section 5 — does co-allocation pay more as μ3 or the load rises?",
        ),
        ("01_shih2013_tla", "Fig. 9", "Summary — every item, as written to `build/REPORT.md`"),
    ],
)
def test_an_item_points_at_the_first_heading_naming_its_table_figure_or_section(
    notebook, item, heading
):
    sections = notebook_sections(ROOT / "notebooks" / f"{notebook}.ipynb")
    assert section_of(item, sections).title == heading


def test_every_row_of_every_report_has_a_section_with_a_site_anchor():
    """The anchors are docutils' section ids (the site test checks them in the pages)."""
    for paper, notebook in NOTEBOOK.items():
        sections = notebook_sections(ROOT / "notebooks" / f"{notebook}.ipynb")
        anchors = [s.anchor for s in sections]
        assert len(set(anchors)) == len(anchors), f"{notebook}: two headings alike"
        assert all(a and a == a.lower() and " " not in a for a in anchors)
        assert section_of("Table 999", sections).title.startswith("Summary"), paper


def test_the_report_shows_counts_with_separators_and_no_scientific_notation(tmp_path):
    c = Collector("shih2013", "Shih et al. 2013")
    c.add(
        compare_value(
            "Table 3 A1", "SDSC SP2 jobs", 54041.0, 54034.0, kind="count", cause="7 jobs fewer"
        )
    )
    c.save(tmp_path / "results")
    report = write_report(tmp_path / "results", tmp_path / "REPORT.md", tmp_path).read_text()
    assert "| 54,041 | 54,034 |" in report and "e+04" not in report
    assert "1. *quick:* 7 jobs fewer" in report


def test_verdict_counts_and_the_picture(tmp_path):
    rows = _rows(
        compare_value("Table 1", "a", "10", 10.0, kind="time"),
        compare_value("Table 1", "b", "6", 7.0, kind="time", cause="slip"),
        compare_value("Table 3", "c", "0.5", 0.5, kind="fraction"),
    )
    counts = verdict_counts(rows)
    assert counts.to_dict("list") == {
        "verdict": ["exact", "differs", "not computed"],
        "quick": [2, 1, 0],
        "paper scale": [0, 0, 3],
    }
    png = picture(rows, "Paper X", tmp_path / "x.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: compact(pd.DataFrame({"item": ["a"]})), InvalidParameter, "frame lacks"),
        (lambda: compact("rows"), InvalidType, "frame must be a pandas DataFrame"),
        (lambda: section_of(3, []), InvalidParameter, "item must be a str"),
        (lambda: markdown_tables(pd.DataFrame()), InvalidParameter, "rows lacks"),
        (lambda: notebook_sections(""), InvalidParameter, "notebook"),
        (lambda: format_number(math.nan, 2), None, MISSING),
    ],
)
def test_bad_input_is_named(call, error, words):
    if error is None:
        assert call() == words
        return
    with pytest.raises(error, match=words):
        call()


def test_a_kind_the_report_does_not_know_is_refused():
    frame = beside(
        pd.DataFrame([compare_value("T", "q", "1", 1.0, kind="time")]), None, numeric=True
    ).assign(kind="speed")
    with pytest.raises(InvalidParameter, match="kind 'speed' is not one of"):
        compact(frame)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: html_tables("rows", "nb.html"), InvalidType, "rows must be a pandas DataFrame"),
        (lambda: html_tables(pd.DataFrame({"item": ["a"]}), "x"), InvalidParameter, "rows lacks"),
        (lambda: verdict_counts(None), InvalidType, "rows must be a pandas DataFrame"),
        (lambda: picture(pd.DataFrame(), "t", "x.png"), InvalidParameter, "rows lacks"),
        (
            lambda: picture(_rows(compare_value("T", "q", "1", 1.0, kind="time")), "t", ""),
            InvalidParameter,
            "path",
        ),
        (lambda: write_site_report("", "site"), InvalidParameter, "results_dir"),
        (lambda: write_site_report("results", math.nan), InvalidType, "folder"),
    ],
)
def test_the_site_report_refuses_bad_input_naming_it(call, error, words):
    with pytest.raises(error, match=words):
        call()
