"""Paper-versus-ours comparisons, their verdicts, and the reproduction report.

Every reproduced item is a row ``item, quantity, paper, ours, diff, verdict, reason``:

* ``exact``: ours rounds to the printed value (at the paper's printed precision);
* ``within tolerance``: ``|ours - paper| <= tolerance`` (tolerance stated in the reason);
* ``qualitative``: a claim about an ordering or a trend that holds in our results;
* ``differs``: none of these, with a one-line reason (its likely cause);
* ``reconstructed model``: ours comes from a documented reconstruction of a model whose
  original parameters are lost, so the comparison says nothing about the paper;
* ``not run``: the item needs data that is not available here (the reason names it).

A notebook collects its rows in a :class:`Collector` and saves them as CSV under
``build/results/``; ``python -m hpcmodels reproduce`` gathers every CSV into
``build/REPORT.md``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

__all__ = [
    "VERDICTS",
    "compare_value",
    "compare_claim",
    "not_run",
    "Collector",
    "write_report",
    "view",
]

VERDICTS = ("exact", "within tolerance", "qualitative", "differs", "reconstructed model", "not run")
COLUMNS = ["item", "quantity", "paper", "ours", "diff", "verdict", "reason"]


def _decimals(printed: str) -> int:
    text = printed.strip().lstrip("+-")
    return len(text.split(".", 1)[1]) if "." in text else 0


def compare_value(
    item: str,
    quantity: str,
    paper: float | str,
    ours: float,
    *,
    tolerance: float | None = None,
    reason: str = "",
) -> dict:
    """Compare one number. ``paper`` may be given as the printed string ("0.752") so
    that its printed precision decides what counts as ``exact``."""
    printed = paper if isinstance(paper, str) else repr(paper)
    p = float(printed)
    diff = ours - p
    half_unit = 0.5 * 10.0 ** (-_decimals(printed))
    if math.isfinite(ours) and abs(diff) <= half_unit * (1 + 1e-9):
        verdict, why = "exact", ""
    elif tolerance is not None and math.isfinite(ours) and abs(diff) <= tolerance:
        verdict, why = "within tolerance", f"|diff| <= {tolerance:g}"
    else:
        verdict, why = "differs", reason or "no reason recorded"
    if reason and verdict != "differs":
        why = f"{why}; {reason}" if why else reason
    return dict(
        item=item, quantity=quantity, paper=p, ours=ours, diff=diff, verdict=verdict, reason=why
    )


def not_run(item: str, quantity: str, paper, missing: str) -> dict:
    """An item that could not be computed here, naming what is missing."""
    return dict(
        item=item,
        quantity=quantity,
        paper=paper,
        ours=None,
        diff=None,
        verdict="not run",
        reason=missing,
    )


def compare_claim(
    item: str, quantity: str, claim: str, holds: bool, ours: str, *, reason: str = ""
) -> dict:
    """A qualitative statement of the paper (an ordering, a trend) checked on ours."""
    return dict(
        item=item,
        quantity=quantity,
        paper=claim,
        ours=ours,
        diff=None,
        verdict="qualitative" if holds else "differs",
        reason=reason if holds or reason else "the claimed ordering does not hold",
    )


@dataclass
class Collector:
    """The rows of one paper's reproduction, in the order the notebook adds them."""

    paper: str
    title: str
    rows: list[dict] = field(default_factory=list)

    def add(self, rows: dict | list[dict] | pd.DataFrame) -> pd.DataFrame:
        """Add rows; returns them as a DataFrame so a notebook cell can show them."""
        if isinstance(rows, pd.DataFrame):
            new = rows[COLUMNS].to_dict("records")
        elif isinstance(rows, dict):
            new = [rows]
        else:
            new = list(rows)
        for row in new:
            if row["verdict"] not in VERDICTS:
                raise ValueError(f"unknown verdict {row['verdict']!r} in {row}")
        self.rows.extend(new)
        return pd.DataFrame(new, columns=COLUMNS)

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=COLUMNS)

    def save(self, results_dir: str | Path) -> Path:
        out = Path(results_dir)
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{self.paper}.csv"
        frame = self.frame()
        frame.insert(0, "title", self.title)
        frame.to_csv(path, index=False)
        from ..workloads.archive import logs_read

        # a fresh record for this run; `python -m hpcmodels reproduce` adds how it ran
        path.with_suffix(".json").write_text(json.dumps({"logs": logs_read()}))
        return path


def _cell(value) -> str:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return value.replace("|", "\\|").replace("\n", " ")
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _markdown_table(frame: pd.DataFrame) -> str:
    lines = ["| " + " | ".join(frame.columns) + " |", "|" + "---|" * len(frame.columns)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines)


def _provenance_lines(info: dict) -> list[str]:
    """How a section's results were made: the run (when ``reproduce`` made it) and the
    workload logs read, each with its file and SHA-256."""
    lines = []
    if "notebook" in info:
        lines.append(f"Run: `{info['notebook']}` with parameters {info.get('parameters')}, "
                     f"commit {info.get('commit')}, data folder `{info.get('data') or '-'}`, "
                     f"{info.get('date')}.")  # fmt: skip
    if "logs" in info:
        logs = [f"`{e['log']}` (file `{e['file']}`, sha256 `{e['sha256'][:12]}…`, "
                + ("pinned checksum checked)" if e["pinned"] else "not checked against a pinned checksum)")
                for e in info["logs"]]  # fmt: skip
        lines.append("Logs read: " + ("; ".join(logs) if logs else "none (no workload log)") + ".")
    return lines


def write_report(results_dir: str | Path, report_path: str | Path) -> Path:
    """Gather every ``<paper>.csv`` of ``results_dir`` into one Markdown report."""
    results = sorted(Path(results_dir).glob("*.csv"))
    parts = ["# hpcmodels reproduction report", ""]
    if not results:
        parts.append(f"No results found in `{results_dir}`: run the notebooks first.")
    for path in results:
        frame = pd.read_csv(path)
        frame["paper"] = frame["paper"].astype(object)
        title = frame["title"].iloc[0] if len(frame) else path.stem
        counts = frame["verdict"].value_counts()
        summary = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts.get(v, 0))
        parts += [f"## {title}", "", f"{len(frame)} items: {summary}.", ""]
        run = path.with_suffix(".json")
        if run.exists():
            parts += [*_provenance_lines(json.loads(run.read_text())), ""]
        parts += [_markdown_table(frame.drop(columns=["title"]).astype(object)), ""]
    report = Path(report_path)
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("\n".join(parts) + "\n")
    return report


def view(rows: pd.DataFrame | list[dict], digits: int = 4) -> pd.DataFrame:
    """A comparison table as a notebook shows it: numbers rounded, reasons kept whole."""
    frame = pd.DataFrame(rows)
    for column in ("paper", "ours", "diff", "algorithm1"):
        if column in frame:
            frame[column] = [round(v, digits) if isinstance(v, float) else v for v in frame[column]]
    return frame
