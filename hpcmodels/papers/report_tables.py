"""The report's compact tables: each item as *paper, ours (quick), ours (paper scale),
verdicts*, grouped by the kind of its quantity, numbers formatted by kind, each row
pointing at the notebook section that computes it.

Numbers are formatted once per table, never per cell: counts as integers with thousands
separators; every other kind with the most decimals the paper prints in that table
(at most :data:`MOST_DECIMALS`), ours at the same precision, so a column reads at one
precision. A missing value reads "—". A row's section is the first heading of its
notebook naming the same table, figure or section as the row's item (``Table 3 A1``
belongs under "Table 3 — the workloads", ``Tables 5-6`` under "Tables 5–8 — ..."); an
item no heading names points at the notebook's summary section.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..errors import InvalidParameter, check_frame, check_path
from .store import SCALE_COLUMNS, SCALE_NUMBERS

__all__ = [
    "KIND_GROUPS",
    "MISSING",
    "Section",
    "notebook_sections",
    "section_of",
    "format_number",
    "compact",
]

MISSING = "—"
"""What a table shows where a value is missing (never NaN or None)."""
MOST_DECIMALS = 4
KIND_GROUPS = {
    "count": "Counts",
    "time": "Simulated means (times, waiting ratios, slowdowns, turnaround)",
    "fraction": "Fractions (shares, probabilities, utilisations)",
    "percent": "Percentages",
    "approximate": "Approximate values (stated as about, or read off a figure)",
    "claim": "Claims",
    "": "Items needing data not available here",
}
"""The tables of a paper's section, in order: one per kind of quantity (a row with no
kind is one that could not be run here)."""


@dataclass(frozen=True)
class Section:
    """A notebook heading: its text, the id the static site gives it and its notebook."""

    title: str
    anchor: str
    notebook: str
    labels: frozenset[tuple[str, str]] = frozenset()


_LABEL = re.compile(
    r"\b(Tables?|Figs?\.|Sections?|Sec\.)\s*"
    r"(\d[\d.a-z]*(?:\s*(?:[–,-]|and)\s*\d[\d.a-z]*)*)",
    re.IGNORECASE,
)


def _labels(text: str, first: bool = False) -> frozenset[tuple[str, str]]:
    """The (kind, number) pairs a title or an item names: ``Figs. 2–4`` is fig 2, 3, 4;
    ``Fig. 3a`` is fig 3; ``Section 6.3`` is section 6.3; ``first``: the first label only
    (an item names one)."""
    pairs = set()
    for match in _LABEL.finditer(text):
        kind = {"tab": "table", "fig": "fig", "sec": "section"}[match.group(1)[:3].lower()]
        for part in re.split(r"\s*(?:,|and)\s*", match.group(2)):
            ends = [re.sub(r"[a-z]+$|\.$", "", e) for e in re.split(r"\s*[–-]\s*", part)]
            if len(ends) == 2 and ends[0].isdigit() and ends[1].isdigit():
                pairs |= {(kind, str(n)) for n in range(int(ends[0]), int(ends[1]) + 1)}
            else:
                pairs |= {(kind, e) for e in ends if e}
        if first:
            break
    return frozenset(pairs)


def notebook_sections(notebook: str | Path) -> list[Section]:
    """Every markdown heading of ``notebook`` (a stored ``.ipynb``), in order, with the
    id the static site gives its section (docutils' ``make_id`` of the heading's text)."""
    from docutils.nodes import make_id

    from .records import read_notebook

    path = check_path("notebook", notebook, folder=False)
    sections = []
    for cell in read_notebook(path)["cells"]:
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        for line in ("".join(source) if isinstance(source, list) else source).splitlines():
            heading = re.match(r"#{1,6}\s+(.*)", line)
            if heading:
                title = heading.group(1).strip()
                plain = re.sub(r"[`*_]", "", title)
                sections.append(Section(title, make_id(plain), path.name, _labels(title)))
    return sections


def section_of(item: str, sections: list[Section]) -> Section | None:
    """The first of ``sections`` naming the table, figure or section ``item`` names; else
    the notebook's summary section (a heading starting "Summary"); else None."""
    if not isinstance(item, str):
        raise InvalidParameter(f"item must be a str, got {type(item).__name__}")
    wanted = _labels(item, first=True)
    for section in sections:
        if wanted & section.labels:
            return section
    return next((s for s in sections if s.title.startswith("Summary")), None)


def _number(value) -> float | None:
    """``value`` as a finite float (a number or its text), else None."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _printed_decimals(value) -> int:
    """The decimals of ``value`` as the paper printed it (trailing zeros dropped)."""
    number = _number(value)
    if number is None:
        return 0
    text = repr(number).split("e")[0]
    return len(text.split(".")[1].rstrip("0")) if "." in text else 0


def format_number(value, decimals: int) -> str:
    """``value`` with ``decimals`` decimals and thousands separators; :data:`MISSING`
    when it is no finite number."""
    number = _number(value)
    return MISSING if number is None else f"{number:,.{decimals}f}"


def _text(value) -> str:
    """A claim's or a reason's text; :data:`MISSING` for nothing."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
        return MISSING
    return str(value)


def _group(kind) -> str:
    """The group of a row's kind (no kind: a row that could not be run here)."""
    kind = "" if not isinstance(kind, str) else kind
    if kind not in KIND_GROUPS:
        raise InvalidParameter(f"kind {kind!r} is not one of {list(KIND_GROUPS)}")
    return kind


BESIDE_COLUMNS = ["item", "quantity", "kind", "paper", "ours", "verdict", "reason"]
ROW_COLUMNS = [
    "group",
    "item",
    "quantity",
    "paper",
    "ours",
    "mean",
    "ci",
    "scale text",
    "verdict",
    "scale verdict",
    "reason",
    "scale reason",
    "section",
    "low",
    "high",
    "runs",
]


def compact(frame: pd.DataFrame, sections: list[Section] | None = None) -> pd.DataFrame:
    """The compact rows of one paper: ``frame`` is :func:`~hpcmodels.papers.store.beside`
    with ``numeric=True`` (the quick rows with the paper scale beside them). Returns one
    row per item with ``group`` (a key of :data:`KIND_GROUPS`), ``item``, ``quantity``,
    ``paper``, ``quick``, ``scale`` (text, formatted by kind per group), ``verdict``,
    ``scale verdict``, ``reason``, ``scale reason``, ``spread`` (the paper-scale runs'
    range) and ``section`` (a :class:`Section` or None), in the order of ``frame``
    within each group, groups in the order of :data:`KIND_GROUPS`."""
    check_frame("frame", frame, [*BESIDE_COLUMNS, *SCALE_COLUMNS, *SCALE_NUMBERS])
    rows = []
    for row in frame.to_dict("records"):
        rows.append(
            {
                "group": _group(row["kind"]),
                "item": str(row["item"]),
                "quantity": _text(row["quantity"]),
                "paper": row["paper"],
                "ours": row["ours"],
                "mean": row["scale mean"],
                "ci": row["scale ci"],
                "scale text": row[SCALE_COLUMNS[0]],
                "verdict": row["verdict"] or MISSING,
                "scale verdict": row[SCALE_COLUMNS[1]] or MISSING,
                "reason": _text(row["reason"]),
                "scale reason": _text(row[SCALE_COLUMNS[2]]),
                "section": section_of(str(row["item"]), sections or []),
                "low": row["scale low"],
                "high": row["scale high"],
                "runs": row["scale replicates"],
            }
        )
    out = pd.DataFrame(rows, columns=ROW_COLUMNS)
    parts = [_formatted(out[out["group"] == group], group) for group in KIND_GROUPS]
    return pd.concat([p for p in parts if len(p)] or [_formatted(out, "")], ignore_index=True)


def _formatted(rows: pd.DataFrame, group: str) -> pd.DataFrame:
    """``rows`` of one group with their values as text at the group's one precision."""
    if group == "claim":
        paper = [_text(v) for v in rows["paper"]]
        quick = [_text(v) for v in rows["ours"]]
        scale = [_text(v) for v in rows["scale text"]]
        spread = [MISSING] * len(rows)
    else:
        decimals = 0 if group == "count" else _decimals_of(rows["paper"])
        paper = [format_number(v, decimals) for v in rows["paper"]]
        quick = [format_number(v, decimals) for v in rows["ours"]]
        scale = [_scale(m, c, decimals) for m, c in zip(rows["mean"], rows["ci"], strict=True)]
        spread = [
            _spread(lo, hi, n, decimals)
            for lo, hi, n in zip(rows["low"], rows["high"], rows["runs"], strict=True)
        ]
    return pd.DataFrame(
        {
            "group": group,
            "item": rows["item"].to_list(),
            "quantity": rows["quantity"].to_list(),
            "paper": paper,
            "quick": quick,
            "scale": scale,
            "verdict": rows["verdict"].to_list(),
            "scale verdict": rows["scale verdict"].to_list(),
            "reason": rows["reason"].to_list(),
            "scale reason": rows["scale reason"].to_list(),
            "spread": spread,
            "section": rows["section"].to_list(),
        }
    )


def _decimals_of(values) -> int:
    printed = [_printed_decimals(v) for v in values if _number(v) is not None]
    return min(max(printed, default=2), MOST_DECIMALS)


def _scale(mean, ci, decimals: int) -> str:
    if _number(mean) is None:
        return MISSING
    if _number(ci) is None:
        return format_number(mean, decimals)
    return f"{format_number(mean, decimals)} ± {format_number(ci, decimals)}"


def _spread(low, high, runs, decimals: int) -> str:
    if _number(low) is None or _number(runs) is None:
        return MISSING
    return (
        f"runs {format_number(low, decimals)} to {format_number(high, decimals)} "
        f"({int(runs):,} runs)"
    )
