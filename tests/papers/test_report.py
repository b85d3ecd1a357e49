"""The report harness: verdicts under the one tolerance policy, claims, the summary and
the policy as REPORT.md and README.md show it."""

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hpcmodels.errors import InvalidParameter
from hpcmodels.papers.report import save_findings, write_report
from hpcmodels.papers.verdicts import (
    ALIKE,
    COLUMNS,
    TOLERANCES,
    Collector,
    alike,
    claim,
    compare_claim,
    compare_value,
    fmt_series,
    not_run,
    tolerance_table,
)
from hpcmodels.stats import batch_means_ci, t_interval

ROOT = Path(__file__).resolve().parents[2]


def test_verdicts_follow_the_printed_precision():
    assert compare_value("T", "q", "0.752", 0.75238, kind="count")["verdict"] == "exact"
    assert compare_value("T", "q", "0.752", 0.7526, kind="count")["verdict"] == "differs"
    row = compare_value("T", "q", "0.752", 0.7526, kind="fraction")
    assert row["verdict"] == "within tolerance" and "fraction tolerance" in row["reason"]
    assert compare_value("T", "q", "1", float("nan"), kind="time")["verdict"] == "differs"
    assert compare_value("T", "q", "1", float("inf"), kind="time")["verdict"] == "differs"


@pytest.mark.parametrize(
    ("kind", "paper", "inside", "outside"),
    [("fraction", "0.50", 0.509, 0.512), ("percent", "47.4", 49.3, 49.5),
     ("time", "1087", 1141.0, 1142.0), ("approximate", "1100", 1209.0, 1211.0),
     ("count", "11346", 11346.0, 11347.0)],
)  # fmt: skip
def test_each_kind_has_one_tolerance(kind, paper, inside, outside):
    """The kind decides the tolerance: no paper module sets one of its own."""
    good = compare_value("T", "q", paper, inside, kind=kind)["verdict"]
    assert good in ("exact", "within tolerance")
    assert compare_value("T", "q", paper, outside, kind=kind)["verdict"] == "differs"


def test_a_confidence_interval_widens_the_tolerance_only_when_wider():
    row = compare_value("T", "q", "1087", 1150.0, kind="time", ci=70.0)
    assert row["verdict"] == "within tolerance" and "95 % CI" in row["reason"]
    assert compare_value("T", "q", "1087", 1150.0, kind="time", ci=10.0)["verdict"] == "differs"
    assert compare_value("T", "q", "1087", 1150.0, kind="time", ci=math.nan)["verdict"] == (
        "differs"
    )


def test_another_input_is_never_exact():
    row = compare_value("T", "q", "50.36", 50.36, kind="time", other_input="the cleaned log")
    assert row["verdict"] == "within tolerance" and "input: the cleaned log" in row["reason"]
    far = compare_value("T", "q", "50.36", 80.0, kind="time", other_input="the cleaned log",
                        cause="queue 4 lost its short jobs (measured)")  # fmt: skip
    assert far["verdict"] == "differs"
    assert far["reason"].startswith("queue 4 lost") and "the cleaned log" in far["reason"]


def test_a_cause_shows_only_when_the_row_differs():
    exact = compare_value("T", "q", "2", 2.0, kind="count", note="n = 5", cause="slip")
    assert exact["verdict"] == "exact" and exact["reason"] == "n = 5"
    differs = compare_value("T", "q", "2", 3.0, kind="count", cause="slip")
    assert differs["reason"] == "slip"
    assert compare_value("T", "q", "2", 3.0, kind="count")["reason"] == "no reason recorded"


def test_an_approximate_value_is_never_exact():
    """The paper's "about 0.4" is matched within 10 %, not by rounding to its digit."""
    assert compare_value("T", "q", "0.4", 0.4, kind="approximate")["verdict"] == "within tolerance"
    assert compare_value("T", "q", "0.4", 0.45, kind="approximate")["verdict"] == "differs"


@pytest.mark.parametrize("kind", ["", "times", None, "Fraction"])
def test_an_unknown_kind_is_an_error(kind):
    with pytest.raises(ValueError, match="kind"):
        compare_value("T", "q", "1", 1.0, kind=kind)


def test_claims():
    assert compare_claim("F", "q", "A < B", True, "holds")["verdict"] == "qualitative"
    row = compare_claim("F", "q", "A < B", False, "fails", cause="A 3 s, B 2 s")
    assert row["verdict"] == "differs" and row["reason"] == "A 3 s, B 2 s"
    assert compare_claim("F", "q", "A < B", False, "fails")["reason"]
    row = claim("F", "A < B", np.bool_(True), "A 1, B 2", note="seeds 0-9")
    assert row["quantity"] == row["paper"] == "A < B" and row["reason"] == "seeds 0-9"
    assert row["kind"] == "claim"


def test_alike_is_the_one_meaning_of_approximately_the_same():
    assert alike([100.0, 100.0 * (1 + ALIKE)])
    assert not alike([100.0, 100.0 * (1 + ALIKE) + 0.1])
    assert alike([100.0, 120.0], cis=[12.0, 9.0])  # the intervals overlap
    assert not alike([100.0, 120.0], cis=[5.0, 5.0])
    for bad in ([], [1.0, math.nan], [1.0, math.inf]):
        with pytest.raises(ValueError):
            alike(bad)


def test_fmt_series():
    assert fmt_series(pd.Series({1.0: "a", 2.5: "b"})) == "1: a, 2.5: b"
    assert fmt_series({"x": 1}) == "x: 1"


def test_t_interval_and_batch_means():
    mean, half = t_interval([1.0, 2.0, 3.0])
    assert mean == 2.0 and half == pytest.approx(4.303 * 1 / math.sqrt(3), rel=1e-3)
    assert math.isnan(t_interval([5.0])[1])
    assert math.isnan(batch_means_ci(np.ones(10)))  # fewer than two values per batch
    for bad in ([], [1.0, math.nan], ["a"], [[1.0, 2.0]]):
        with pytest.raises(ValueError):
            t_interval(bad)
    with pytest.raises(ValueError, match="confidence"):
        t_interval([1.0, 2.0], confidence=1.5)


def test_collector_and_report_round_trip(tmp_path):
    c = Collector("paperx", "Paper X (2000)")
    c.add(compare_value("Table 1", "a", "1.5", 1.5, kind="time"))
    c.add([compare_value("Table 1", "b|c", "2", 3.0, kind="count", cause="model differs")])
    with pytest.raises(ValueError, match="verdict"):
        c.add(dict(item="x", quantity="y", kind="count", paper=1, ours=1, diff=0,
                   verdict="close enough", reason=""))  # fmt: skip
    c.save(tmp_path / "results")
    saved = pd.read_csv(tmp_path / "results" / "paperx.csv")
    assert list(saved["verdict"]) == ["exact", "differs"]
    assert list(saved.columns) == ["title", *COLUMNS]
    report = write_report(tmp_path / "results", tmp_path / "REPORT.md").read_text()
    assert "## Paper X (2000)" in report
    assert "2 items: 1 exact, 1 differs." in report
    assert "b\\|c" in report  # pipes escaped inside Markdown tables


def test_report_opens_with_a_summary_and_the_policy(tmp_path):
    for key, title, verdicts in (("shih2013", "Shih et al.", ["qualitative"]),
                                 ("he2006", "He et al.", ["exact", "differs", "differs"])):  # fmt: skip
        c = Collector(key, title)
        for v in verdicts:
            c.add(dict(item="i", quantity="q", kind="claim", paper="p", ours="o", diff=None,
                       verdict=v, reason=""))  # fmt: skip
        c.save(tmp_path / "results")
    report = write_report(tmp_path / "results", tmp_path / "build" / "REPORT.md").read_text()
    lines = report.splitlines()
    summary = lines.index("## Summary")
    policy = lines.index("## Verdicts and tolerances")
    he = lines.index("## He et al.")
    assert summary < lines.index("## Shih et al.") < he < policy  # notebook order
    row = next(line for line in lines[summary:he] if "He et al." in line)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[0] == "[He et al.](#he-et-al)"
    assert cells[1:8] == ["1", "0", "0", "2", "0", "0", "3"]  # exact ... not run, items
    links = next(line for line in lines[he:] if line.startswith("Notebook and figures:"))
    targets = {(tmp_path / "build" / t).resolve() for t in re.findall(r"\]\(([^)#]+)\)", links)}
    assert ROOT / "notebooks" / "03_he2006_ort_omr.ipynb" in targets  # links resolve
    assert ROOT / "figures" / "he2006_fig3.png" in targets
    for kind, tol in TOLERANCES.items():
        assert f"| {kind} | {tol.what} | {tol.text()} |" in report
    assert "Notebook and figures: [01_shih2013_tla.ipynb]" in report


def test_readme_states_the_same_tolerance_policy():
    """README's tolerance table is the harness's: they cannot drift apart."""
    readme = (ROOT / "README.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| (.+?) \| (.+?) \|", readme, re.M)
    table = tolerance_table()
    assert [(k, w, t) for k, w, t in rows] == [
        (r.kind, r.quantities, r.tolerance) for r in table.itertuples()
    ]
    assert f"{ALIKE:.0%}" in readme


def test_report_reads_results_saved_before_kinds(tmp_path):
    old = pd.DataFrame([dict(title="Old", item="i", quantity="q", paper=1, ours=1, diff=0,
                             verdict="exact", reason="")])  # fmt: skip
    (tmp_path / "r").mkdir()
    old.to_csv(tmp_path / "r" / "old.csv", index=False)
    assert "1 items: 1 exact." in write_report(tmp_path / "r", tmp_path / "R.md").read_text()


def test_the_report_ends_with_what_the_stores_regenerations_moved(tmp_path, monkeypatch):
    """docs/store_changes.md (before -> after of every regeneration of results/) is the
    report's last section; without the record (an installed package) there is none."""
    from hpcmodels.papers import report as report_module

    old = pd.DataFrame([dict(title="Old", item="i", quantity="q", paper=1, ours=1, diff=0,
                             verdict="exact", reason="")])  # fmt: skip
    (tmp_path / "r").mkdir()
    old.to_csv(tmp_path / "r" / "old.csv", index=False)
    text = write_report(tmp_path / "r", tmp_path / "R.md").read_text()
    changes = text[text.index("## Changes to the stored results") :]
    assert "311 of 480" in changes and "Best Fit → Random Fit" in changes
    assert "\n### 2026-11-28: EASY follows its own rule" in changes  # a level below
    assert [line for line in changes.splitlines() if line.startswith("## ")] == [
        "## Changes to the stored results"
    ]
    monkeypatch.setattr(report_module, "STORE_CHANGES", tmp_path / "absent.md")
    assert (
        "## Changes to the stored results"
        not in write_report(tmp_path / "r", tmp_path / "R.md").read_text()
    )


def test_empty_report_says_what_to_do(tmp_path):
    text = write_report(tmp_path / "none", tmp_path / "R.md").read_text()
    assert "run the notebooks first" in text


def test_not_run_rows_name_what_is_missing(tmp_path):
    c = Collector("papery", "Paper Y")
    c.add(not_run("Table 3 B1", "DAS2 workload", "0.08", "log missing: DAS2-fs0-2003-1"))
    assert c.frame().loc[0, "verdict"] == "not run"
    c.save(tmp_path)
    assert "1 not run." in write_report(tmp_path, tmp_path / "R.md").read_text()


def test_findings_make_their_own_section_after_the_papers(tmp_path):
    c = Collector("he2006", "He et al.")
    c.add(dict(item="i", quantity="q", kind="claim", paper="p", ours="o", diff=None,
               verdict="qualitative", reason=""))  # fmt: skip
    c.save(tmp_path / "results")
    findings = pd.DataFrame([dict(paper="Shih 2013", source="Table 4", claim="TLA beats best fit",
                                  selection="FCFS", settings=18, holds=9, within_noise=8,
                                  reversed=1, finding="Shih 2013 (Table 4): holds at 9 of 18",
                                  extra="not saved")])  # fmt: skip
    path = save_findings(findings, tmp_path / "results")
    assert path.name == "across.findings.csv"
    assert "extra" not in pd.read_csv(path).columns
    lines = write_report(tmp_path / "results", tmp_path / "R.md").read_text().splitlines()
    across = lines.index("## Across papers")
    assert lines.index("## He et al.") < across
    assert any("holds at 9 of 18" in line for line in lines[across:])
    summary = lines[lines.index("## Summary") : lines.index("## He et al.")]
    assert not any("across" in line.lower() for line in summary)  # no verdicts to count
    with pytest.raises(InvalidParameter, match="findings lacks"):
        save_findings(findings.drop(columns="holds"), tmp_path / "results")


@pytest.mark.parametrize(
    "args, match",
    [
        (("T1", "x", "count", 1.0, 1.0, 0.0, "fine", ""), "unknown verdict 'fine'"),
        (("T1", "x", "count", 1.0, 1.0, 0.0, None, ""), "unknown verdict None"),
        ((None, "x", "count", 1.0, 1.0, 0.0, "exact", ""), "item must be a string"),
        (("T1", float("nan"), "count", 1.0, 1.0, 0.0, "exact", ""), "quantity must be a string"),
        (("T1", "x", "count", 1.0, 1.0, 0.0, "differs", None), "reason must be a string"),
    ],
)
def test_a_row_refuses_an_unknown_verdict_and_non_text_naming_the_field(args, match):
    from hpcmodels.papers.verdicts import row

    with pytest.raises(InvalidParameter, match=match):
        row(*args)
    assert list(row("T1", "x", "count", 1.0, 1.0, 0.0, "exact", "", mean=1.0)) == [
        *COLUMNS_FOR_ROW,
        "mean",
    ]


COLUMNS_FOR_ROW = ["item", "quantity", "kind", "paper", "ours", "diff", "verdict", "reason"]
