import pandas as pd
import pytest

from hpcmodels.papers.report import Collector, compare_claim, compare_value, not_run, write_report


def test_verdicts_follow_the_printed_precision():
    assert compare_value("T", "q", "0.752", 0.75238)["verdict"] == "exact"
    assert compare_value("T", "q", "0.752", 0.7526)["verdict"] == "differs"
    assert compare_value("T", "q", "0.752", 0.7526, tolerance=0.01)["verdict"] == (
        "within tolerance"
    )
    row = compare_value("T", "q", "68", 70.0, tolerance=1.0, reason="noise")
    assert row["verdict"] == "differs" and row["reason"] == "noise"
    assert compare_value("T", "q", "1", float("nan"))["verdict"] == "differs"


def test_claims():
    assert compare_claim("F", "q", "A < B", True, "holds")["verdict"] == "qualitative"
    row = compare_claim("F", "q", "A < B", False, "fails")
    assert row["verdict"] == "differs" and row["reason"]


def test_collector_and_report_round_trip(tmp_path):
    c = Collector("paperx", "Paper X (2000)")
    c.add(compare_value("Table 1", "a", "1.5", 1.5))
    c.add([compare_value("Table 1", "b|c", "2", 3.0, reason="model differs")])
    with pytest.raises(ValueError, match="verdict"):
        c.add(
            {
                "item": "x",
                "quantity": "y",
                "paper": 1,
                "ours": 1,
                "diff": 0,
                "verdict": "close enough",
                "reason": "",
            }
        )
    c.save(tmp_path / "results")
    saved = pd.read_csv(tmp_path / "results" / "paperx.csv")
    assert list(saved["verdict"]) == ["exact", "differs"]
    report = write_report(tmp_path / "results", tmp_path / "REPORT.md").read_text()
    assert "## Paper X (2000)" in report
    assert "2 items: 1 exact, 1 differs." in report
    assert "b\\|c" in report  # pipes escaped inside Markdown tables


def test_empty_report_says_what_to_do(tmp_path):
    text = write_report(tmp_path / "none", tmp_path / "R.md").read_text()
    assert "run the notebooks first" in text


def test_not_run_rows_name_what_is_missing(tmp_path):
    c = Collector("papery", "Paper Y")
    c.add(not_run("Table 3 B1", "DAS2 workload", "0.08", "log missing: DAS2-fs0-2003-1"))
    assert c.frame().loc[0, "verdict"] == "not run"
    c.save(tmp_path)
    assert "1 not run." in write_report(tmp_path, tmp_path / "R.md").read_text()
